/* This file contains a file's view of its project: the folders its absolute
 * imports search, and the facts_imports lookup that turns a dotted name the
 * file uses into what the summary of the defining module says of it,
 * following re-exports (`from .resnet import ResNet` in a package's
 * __init__.py) and recording every module read. */
#include <stdlib.h>
#include <string.h>

#include "project/project.h"
#include "util/alloc.h"


static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return oom_xstrdup("/");
  return oom_xstrndup(path, (size_t)(slash - path));
}


static void add_base(project_view *v, char *dir) {
  for (int i = 0; i < v->nbases; i++)
    if (!strcmp(v->bases[i], dir)) {
      free(dir);
      return;
    }
  if (v->nbases == PROJECT_MAX_BASES) free(dir);
  else v->bases[v->nbases++] = dir;
}


static bool lookup(const facts_imports *imports, const char *qualname, size_t len, facts_symbol *out);


void project_view_init(project_view *self, oom_project *project, const char *path, int level, TSNode root_node,
                       const char *source, size_t length) {
  memset(self, 0, sizeof *self);
  self->imports.lookup = lookup;
  self->project = project;
  self->path = project_absolute(path);
  self->dir = dir_of(self->path);
  self->level = level;
  /* `python train.py` puts the script's folder first on sys.path; an
   * installed or `python -m` run finds packages at the root or in src/ */
  add_base(self, oom_xstrdup(self->dir));
  char *root = project_root_of(project, self->path);
  buf src = {0};
  buf_printf(&src, "%s/src", strcmp(root, "/") ? root : "");
  add_base(self, root);
  if (project_exists(project, buf_str(&src))) add_base(self, oom_xstrdup(buf_str(&src)));
  buf_free(&src);
  project_view_scan_sys_path(self, root_node, source, length);
}


void project_view_free(project_view *self) {
  for (int i = 0; i < self->nbases; i++) free(self->bases[i]);
  for (size_t i = 0; i < self->deps.len; i++) free(self->deps.items[i].path);
  vec_free(&self->deps);
  strmap_free(&self->memo, free);
  free(self->path);
  free(self->dir);
  memset(self, 0, sizeof *self);
}


static void add_dep(project_view *v, const char *path, uint64_t hash) {
  for (size_t i = 0; i < v->deps.len; i++)
    if (!strcmp(v->deps.items[i].path, path)) return;
  project_dep d = {oom_xstrdup(path), hash};
  vec_push(&v->deps, d);
}


/* What QUALNAME names, read through the module summaries at V's level. */
static bool find(project_view *v, const char *qualname, facts_symbol *out) {
  char *q = oom_xstrdup(qualname);
  project_view hop; /* the module a re-export leads to resolves the rest of the chain */
  const project_view *resolver = v;
  bool found = false;
  for (int h = 0; h < PROJECT_MAX_HOPS && !found; h++) {
    const char *rest = NULL;
    char *path = project_resolve(resolver, resolver->dir, q, &rest);
    project_module *m = path ? project_module_get(v->project, path) : NULL;
    free(path);
    if (!m) break;
    if (!*rest) {
      /* the name is a module of the project: nothing its summary decides */
      memset(out, 0, sizeof *out);
      out->flags = SYM_MODULE_FILE;
      add_dep(v, m->path, m->hash);
      project_module_release(v->project, m);
      found = true;
      break;
    }
    project_summary *s = project_summary_get(v->project, m, v->level);
    char *next = NULL;
    if (s) {
      for (size_t i = 0; i < s->ndeps; i++) add_dep(v, s->deps[i].path, s->deps[i].hash);
      const project_symbol *sym = project_summary_find(s, rest, strlen(rest));
      if (sym) {
        *out = sym->symbol;
        found = v->found = true;
      } else {
        const char *dot = strchr(rest, '.');
        size_t first = dot ? (size_t)(dot - rest) : strlen(rest);
        const project_import *imp = project_summary_import(s, rest, first);
        if (imp) {
          buf b = {0};
          buf_printf(&b, "%s%s", imp->qualname, rest + first);
          next = oom_xstrdup(buf_str(&b));
          buf_free(&b);
        }
      }
    }
    if (next) {
      if (resolver != v) project_view_free(&hop);
      project_view_init(&hop, v->project, m->path, v->level, ts_tree_root_node(m->tree), m->text, m->length);
      resolver = &hop;
    }
    project_summary_release(v->project, s);
    project_module_release(v->project, m);
    free(q);
    q = next;
    if (!q) break;
  }
  if (resolver != v) project_view_free(&hop);
  free(q);
  return found;
}


static bool lookup(const facts_imports *imports, const char *qualname, size_t len, facts_symbol *out) {
  /* the view is the lint's own, never shared: its memo and deps may change */
  project_view *v = (project_view *)imports;
  project_memo *memo = strmap_get(&v->memo, qualname, len);
  if (!memo) {
    memo = oom_xcalloc(1, sizeof *memo);
    char *q = oom_xstrndup(qualname, len);
    memo->found = find(v, q, &memo->symbol);
    free(q);
    strmap_put(&v->memo, qualname, len, memo);
  }
  if (memo->found) *out = memo->symbol;
  return memo->found;
}
