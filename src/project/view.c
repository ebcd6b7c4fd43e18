/* This file contains a file's view of its project: the folders its absolute
 * imports search, and the facts_imports lookup that turns a dotted name the
 * file uses into what the defining module's summary says of it, following
 * re-exports (`from .resnet import ResNet` in a package's __init__.py) and
 * the summary's references (base classes, returned and called functions of
 * other modules), and recording every module read. */
#include <assert.h>
#include <dirent.h>
#include <sys/stat.h>
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
static bool module_source(const facts_imports *imports, const char *importer, const char *qualname, size_t len, buf *path,
                   buf *text, size_t *rest);
static uint8_t base_calls(const facts_imports *imports, const char *base, size_t len, const char *method, size_t mlen);
static uint8_t importer_calls(const facts_imports *imports, const char *name, size_t len);
static bool method_symbol(const facts_imports *imports, const char *klass, size_t len, const char *method, size_t mlen,
                          facts_symbol *out);
static bool method_no_grad_anywhere(const facts_imports *imports, const char *method, size_t mlen);
static bool method_backward_anywhere(const facts_imports *imports, const char *method, size_t mlen);
static bool absent(const facts_imports *imports, const char *qualname, size_t len);


/* The folder above the top package holding the view's module (`attic/`
 * for `attic/var/vqvae.py` when `attic/var/` has an `__init__.py`): a module
 * imported as `var.vqvae` was found there, so its own absolute imports
 * (`from var.vqvae import VQ` in `var/__init__.py`) search it too, whatever
 * sys.path line of the importer put it there. Asked once per module, by
 * the view its summary is built with (the summary keeps its folders). */
void project_view_add_package_parent(project_view *self, oom_project *project) {
  enum { MAX_PACKAGE_DEPTH = 16 };
  char *dir = oom_xstrdup(self->dir);
  bool in_package = false;
  buf init = {0};
  for (int depth = 0; depth < MAX_PACKAGE_DEPTH && strcmp(dir, "/"); depth++) {
    init.len = 0;
    buf_puts(&init, dir);
    buf_puts(&init, "/__init__.py");
    if (!project_is_file(project, buf_str(&init))) break;
    char *up = dir_of(dir);
    free(dir);
    dir = up;
    in_package = true;
  }
  buf_free(&init);
  if (in_package) add_base(self, dir);
  else free(dir);
}


void project_view_init(project_view *self, oom_project *project, const char *path, TSNode root_node,
                       const char *source, size_t length) {
  memset(self, 0, sizeof *self);
  self->imports.lookup = lookup;
  self->imports.source = module_source;
  self->imports.base_calls = base_calls;
  self->imports.importer_calls = importer_calls;
  self->imports.method_symbol = method_symbol;
  self->imports.method_no_grad_anywhere = method_no_grad_anywhere;
  self->imports.method_backward_anywhere = method_backward_anywhere;
  self->imports.absent = absent;
  self->project = project;
  self->path = project_absolute_in(project, path);
  self->dir = dir_of(self->path);
  /* `python train.py` puts the script's folder first on sys.path; an
   * installed or `python -m` run finds packages at the root or in src/ */
  add_base(self, oom_xstrdup(self->dir));
  char *root = project_root_of(project, self->path);
  buf src = {0};
  buf_printf(&src, "%s/src", strcmp(root, "/") ? root : "");
  add_base(self, oom_xstrdup(root));
  if (project_exists(project, buf_str(&src))) add_base(self, oom_xstrdup(buf_str(&src)));
  buf_free(&src);
  project_view_scan_sys_path(self, root, root_node, source, length);
  /* last, the folders between the file's and the root, nearest first: a
   * script in `reverie/` importing `r2r.agent_cmt` from the folder above
   * (run with that folder on PYTHONPATH, as research code often is) */
  char *up = dir_of(self->dir);
  for (int level = 0; level < 2 && strlen(up) > strlen(root) && !strncmp(up, root, strlen(root)); level++) {
    char *next = dir_of(up);
    add_base(self, up);
    up = next;
  }
  free(up);
  if (strcmp(root, "/")) {
    /* whether it is a package is asked only of an import named like it */
    const char *slash = strrchr(root, '/');
    self->package_name = oom_xstrdup(slash ? slash + 1 : root);
    self->package_above = dir_of(root);
  }
  free(root);
}


/* A view for module M with summary S: how the names M imports resolve. It
 * shares nothing with the view that asks; what it reads is recorded there. */
static void init_module(project_view *self, oom_project *project, const project_module *m, const project_summary *s) {
  memset(self, 0, sizeof *self);
  self->imports.lookup = lookup;
  self->project = project;
  self->path = oom_xstrdup(m->path);
  self->dir = dir_of(m->path);
  for (int i = 0; i < s->nsys_path; i++) add_base(self, oom_xstrdup(s->sys_path[i]));
}


void project_view_free(project_view *self) {
  for (int i = 0; i < self->nbases; i++) free(self->bases[i]);
  for (size_t i = 0; i < self->deps.len; i++) free(self->deps.items[i].path);
  vec_free(&self->deps);
  strmap_free(&self->memo, free);
  strmap_free(&self->resolved, free);
  strmap_free(&self->calls, free);
  for (size_t i = 0; i < self->near.len; i++) free(self->near.items[i]);
  vec_free(&self->near);
  for (size_t i = 0; i < self->far.len; i++) free(self->far.items[i]);
  vec_free(&self->far);
  free(self->path);
  free(self->dir);
  free(self->package_name);
  free(self->package_above);
  memset(self, 0, sizeof *self);
}


static void add_dep(project_view *v, const project_dep *d) {
  for (size_t i = 0; i < v->deps.len; i++)
    if (!strcmp(v->deps.items[i].path, d->path)) return;
  project_dep copy = {oom_xstrdup(d->path), d->hash};
  vec_push(&v->deps, copy);
}


static bool find(project_view *v, const project_view *resolver, const char *qualname, facts_symbol *out, int depth);


/* What reference NAME of module M (summary S) names: a symbol of S itself
 * (":Name"), or a qualname as M imports it. */
static bool find_ref(project_view *v, const project_module *m, const project_summary *s, const char *name,
                     facts_symbol *out, int depth);


/* A class symbol whose SYM_PLAIN waits on its bases (SYM_FORWARD with it:
 * a model unless they are plain), once they are known plain (PLAIN) or not:
 * what the importer sees, with neither waiting. */
static facts_symbol settle_bases(facts_symbol out, bool plain) {
  if (!plain) {
    if (out.flags & SYM_FORWARD) out.flags |= SYM_MODEL;
    out.flags &= ~SYM_PLAIN;
  }
  out.flags &= ~SYM_FORWARD;
  return out;
}


/* SYM of module M (summary S), with what its references add: a class
 * deriving a model or dataset class, a class known not to be a module
 * because its bases are not (a transform defining `forward` over an ABC
 * base), a function returning a model or a graph through another function,
 * or training through one it calls. */
static facts_symbol resolved(project_view *v, const project_module *m, const project_summary *s,
                             const project_symbol *sym, int depth) {
  facts_symbol out = sym->symbol;
  if (!sym->nrefs) return out;
  /* bases not followed are not known plain: a class defining forward over
   * them is a model, as it always was */
  if (depth >= PROJECT_MAX_DEPTH) return settle_bases(out, false);
  /* each symbol once per view: a cycle of references (a.f calls b.g calls
   * a.f) reads, inside the cycle, what the module alone says */
  buf key = {0};
  buf_printf(&key, "%s:%s", m->path, sym->name);
  project_memo *memo = strmap_get(&v->resolved, key.data, key.len);
  if (memo) {
    buf_free(&key);
    return memo->busy ? settle_bases(out, false) : memo->symbol;
  }
  memo = oom_xcalloc(1, sizeof *memo);
  memo->busy = true;
  strmap_put(&v->resolved, key.data, key.len, memo);
  bool plain = (out.flags & SYM_PLAIN) != 0;
  for (uint8_t i = 0; i < sym->nrefs; i++) {
    const project_ref *r = &sym->refs[i];
    facts_symbol t;
    if (!find_ref(v, m, s, r->name, &t, depth + 1)) {
      if (r->kind & REF_BASE) plain = false; /* not in the project: unknown */
      continue;
    }
    if (r->kind & REF_BASE) {
      if (t.flags & SYM_CLASS) out.flags |= t.flags & (SYM_MODEL | SYM_DATASET | SYM_SCALES_LOSS);
      /* a wrapper whose base runs the model under no_grad, when it does
       * not define its own forward (mmpretrain's inferencers) */
      if ((t.flags & SYM_CLASS) && !(sym->symbol.flags & SYM_OWN_ENTRY)) out.flags |= t.flags & SYM_NO_GRAD;
      if ((t.flags & (SYM_CLASS | SYM_PLAIN)) != (SYM_CLASS | SYM_PLAIN)) plain = false;
    } else if (r->kind & REF_RETURN) {
      /* `return Net()` is a model; `return compute(x)` what compute returns;
       * `return model(x)`, a model bound at module level, a graph */
      if ((t.flags & SYM_MODEL) && (t.flags & (SYM_CLASS | SYM_FUNCTION))) out.flags |= SYM_MODEL;
      if (t.flags & SYM_FUNCTION) out.flags |= t.flags & (SYM_RETURNS_GRAPH | SYM_RETURNS_SCALAR);
      if ((t.flags & SYM_VALUE) && (t.flags & SYM_MODEL)) out.flags |= SYM_RETURNS_GRAPH;
      /* `return Metric(name)` of a class that turns gradients off itself */
      if ((t.flags & SYM_CLASS) && (t.flags & SYM_NO_GRAD)) out.flags |= SYM_RETURNS_WRAPPER;
      /* `return DualLoss(cfg)`: calling what it returns gives what the class's calls give */
      if ((t.flags & SYM_CLASS) && t.ncall_elems && !out.ncall_elems) {
        out.ncall_elems = t.ncall_elems;
        memcpy(out.call_elems, t.call_elems, t.ncall_elems);
      }
    } else if (r->kind & REF_CALL) {
      if (!(t.flags & SYM_FUNCTION)) continue;
      out.flags |= t.flags & (SYM_TRAINS | SYM_BACKWARD | SYM_SCALES_LOSS | SYM_UPDATES | SYM_GRADIENTS);
      if ((t.flags & SYM_STEP) && !(r->kind & REF_CALL_IN_LOOP)) out.flags |= SYM_STEP;
    }
  }
  out = settle_bases(out, plain);
  assert(!((out.flags & SYM_MODEL) && (out.flags & SYM_PLAIN)));
  if ((out.flags & SYM_MODEL) && (out.flags & SYM_CLASS)) out.flags &= ~SYM_DATASET;
  memo->busy = false;
  memo->symbol = out;
  buf_free(&key);
  return out;
}


static bool find_ref(project_view *v, const project_module *m, const project_summary *s, const char *name,
                     facts_symbol *out, int depth) {
  if (name[0] == ':') {
    const project_symbol *local = project_summary_find(s, name + 1, strlen(name + 1));
    if (!local) return false;
    *out = resolved(v, m, s, local, depth);
    return true;
  }
  project_view mv;
  init_module(&mv, v->project, m, s);
  bool found = find(v, &mv, name, out, depth);
  project_view_free(&mv);
  return found;
}


/* The star import of S, the summary of module M, whose module defines
 * NAME (LEN bytes) as a plain class, or NULL: where `from pkg import
 * trainer` finds a base trainer when pkg/__init__.py holds `from
 * .base_trainer import *`. One level deep. Only a class that is no module
 * and has no base in another module (what its own module says of it is
 * all there is): the hooks a base trainer runs under no_grad are what the
 * rules need, while module classes reached this way would be taken for
 * models whenever a constructor argument they store hides that they hold
 * no parameter (schnetpack's transforms in its unit tests, 12 OOM102 the
 * judged pool calls wrong). */
static const project_import *star_source(project_view *v, const project_module *m, const project_summary *s,
                                         const char *name, size_t len) {
  const project_import *found = NULL;
  project_view at;
  bool made = false;
  for (size_t i = 0; i < s->nimports && !found; i++) {
    const project_import *imp = &s->imports[i];
    if (imp->name[0] != '*' || imp->name[1]) continue;
    if (!made) init_module(&at, v->project, m, s);
    made = true;
    const char *rest = NULL;
    char *path = project_resolve(&at, at.dir, imp->qualname, &rest);
    project_module *sm = path && !*rest ? project_module_get(v->project, path) : NULL;
    free(path);
    if (!sm) continue;
    project_summary *ss = project_summary_get(v->project, sm);
    if (ss) {
      add_dep(v, &ss->self); /* a name it gains later changes the answer */
      const project_symbol *sym = project_summary_find(ss, name, len);
      if (sym && (sym->symbol.flags & SYM_CLASS) && !(sym->symbol.flags & SYM_MODEL) && sym->nrefs == 0) found = imp;
      project_summary_release(v->project, ss);
    }
    project_module_release(v->project, sm);
  }
  if (made) project_view_free(&at);
  return found;
}


/* The module of the project defining QUALNAME as RESOLVER's file imports
 * it, following re-exports, V recording what was read: its module and
 * summary in *M and *S (held: locate_release), in *SYM the symbol it names
 * there (NULL when QUALNAME names the module itself), and in *REST that
 * symbol's name, inside *HOLD (malloc'd). */
static bool locate(project_view *v, const project_view *resolver, const char *qualname, project_module **m_out,
                   project_summary **s_out, const project_symbol **sym_out, const char **rest_out, char **hold) {
  char *q = oom_xstrdup(qualname);
  project_view hop; /* the module a re-export leads to resolves the rest of the chain */
  bool hopped = false, found = false;
  for (int h = 0; h < PROJECT_MAX_HOPS && !found && q; h++) {
    const char *rest = NULL;
    char *path = project_resolve(resolver, resolver->dir, q, &rest);
    project_module *m = path ? project_module_get(v->project, path) : NULL;
    free(path);
    if (!m) break;
    project_summary *s = project_summary_get(v->project, m);
    if (!s) {
      project_module_release(v->project, m);
      break;
    }
    add_dep(v, &s->self);
    char *next = NULL;
    const project_symbol *sym = *rest ? project_summary_find(s, rest, strlen(rest)) : NULL;
    if (!*rest || sym) {
      *m_out = m;
      *s_out = s;
      *sym_out = sym;
      *rest_out = rest;
      *hold = q;
      q = NULL;
      found = true;
    } else {
      const char *dot = strchr(rest, '.');
      size_t first = dot ? (size_t)(dot - rest) : strlen(rest);
      const project_import *imp = project_summary_import(s, rest, first);
      /* `from .base_trainer import *` in a package's __init__.py: the
       * name comes from the star-imported module that defines it */
      if (!imp) imp = star_source(v, m, s, rest, first);
      if (imp) {
        buf b = {0};
        if (imp->name[0] == '*') buf_printf(&b, "%s.%s", imp->qualname, rest);
        else buf_printf(&b, "%s%s", imp->qualname, rest + first);
        next = oom_xstrdup(buf_str(&b));
        buf_free(&b);
        if (hopped) project_view_free(&hop);
        init_module(&hop, v->project, m, s);
        resolver = &hop;
        hopped = true;
      }
      project_summary_release(v->project, s);
      project_module_release(v->project, m);
    }
    free(q);
    q = next;
  }
  if (hopped) project_view_free(&hop);
  free(q);
  return found;
}


static void locate_release(project_view *v, project_module *m, project_summary *s, char *hold) {
  project_summary_release(v->project, s);
  project_module_release(v->project, m);
  free(hold);
}


/* What QUALNAME names as RESOLVER's file imports it, V recording what was
 * read. DEPTH counts the references followed to get here. */
static bool find(project_view *v, const project_view *resolver, const char *qualname, facts_symbol *out, int depth) {
  project_module *m;
  project_summary *s;
  const project_symbol *sym;
  const char *rest;
  char *hold;
  if (!locate(v, resolver, qualname, &m, &s, &sym, &rest, &hold)) return false;
  if (!sym) {
    /* the name is a module of the project: nothing its summary decides */
    memset(out, 0, sizeof *out);
    out->flags = SYM_MODULE_FILE;
  } else {
    *out = resolved(v, m, s, sym, depth);
  }
  locate_release(v, m, s, hold);
  return true;
}


static bool lookup(const facts_imports *imports, const char *qualname, size_t len, facts_symbol *out) {
  /* the view is the lint's own, never shared: its memos and deps may change */
  project_view *v = (project_view *)imports;
  project_memo *memo = strmap_get(&v->memo, qualname, len);
  if (!memo) {
    memo = oom_xcalloc(1, sizeof *memo);
    char *q = oom_xstrndup(qualname, len);
    memo->found = find(v, v, q, &memo->symbol, 0);
    free(q);
    strmap_put(&v->memo, qualname, len, memo);
  }
  if (memo->found) *out = memo->symbol;
  return memo->found;
}


/* The estimate runs the modules a script imports: their text, read once
 * through the index's cache, and recorded as read like a summary. */
static bool module_source(const facts_imports *imports, const char *importer, const char *qualname, size_t len, buf *path,
                   buf *text, size_t *rest) {
  project_view *v = (project_view *)imports;
  char *q = oom_xstrndup(qualname, len);
  char *dir = importer ? dir_of(importer) : oom_xstrdup(v->dir);
  const char *after = NULL;
  char *found = project_resolve(v, dir, q, &after);
  free(dir);
  bool ok = false;
  if (found && strcmp(found, v->path) != 0) {
    project_module *m = project_module_get(v->project, found);
    if (m && m->readable && m->text) {
      buf_append(path, m->path, strlen(m->path));
      buf_append(text, m->text, m->length);
      *rest = after ? (size_t)(after - q) : len;
      project_dep d = {m->path, m->hash};
      add_dep(v, &d);
      ok = true;
    }
    if (m) project_module_release(v->project, m);
  }
  free(found);
  free(q);
  return ok;
}


static uint8_t class_calls(project_view *v, const project_view *resolver, const char *qualname, const char *method,
                           size_t mlen, int depth);
static uint8_t callers_anywhere(project_view *v, const char *name, size_t len, int hop);


/* Whether the methods of class KLASS (summary S) that call one of its
 * methods with gradients on (C's grad_in) are each run only under no_grad:
 * never called with gradients on by the class itself, and called anywhere
 * in the project only under no_grad (PixelSSL: a base's `validate` runs
 * `self._validate(...)`, and the task proxy calls
 * `self.ssl_algorithm.validate(...)` under no_grad, on an object whose
 * class no one names). */
static bool class_callers_no_grad(project_view *v, const project_summary *s, const char *klass, const project_call *c) {
  if (c->ngrad_in == PROJECT_GRAD_CALLERS_UNKNOWN || !c->ngrad_in) return false;
  buf own = {0};
  bool yes = true;
  for (uint8_t k = 0; yes && k < c->ngrad_in; k++) {
    const char *g = c->grad_in[k];
    size_t glen = strlen(g);
    buf_clear(&own);
    buf_printf(&own, "%s.%s", klass, g);
    yes = !(project_summary_calls(s, own.data, own.len) & FACTS_CALLED_GRAD) &&
          callers_anywhere(v, g, glen, 1) == FACTS_CALLED_NO_GRAD;
  }
  buf_free(&own);
  return yes;
}


/* How the methods of class KLASS of module M (summary S), and those of its
 * bases, call METHOD (MLEN bytes) on `self`. */
static uint8_t calls_in_class(project_view *v, const project_module *m, const project_summary *s, const char *klass,
                              const char *method, size_t mlen, int depth) {
  if (depth >= PROJECT_MAX_DEPTH) return 0;
  const project_symbol *sym = project_summary_find(s, klass, strlen(klass));
  if (!sym || !(sym->symbol.flags & SYM_CLASS)) return 0;
  /* an nn.Module's forward runs on every call of the model, wherever */
  if (mlen == 7 && !memcmp(method, "forward", 7) && (resolved(v, m, s, sym, depth).flags & SYM_MODEL)) return 0;
  buf name = {0};
  buf_printf(&name, "%s.%.*s", klass, (int)mlen, method);
  const project_call *c = project_summary_call(s, name.data, name.len);
  buf_free(&name);
  uint8_t how = c ? c->how & (FACTS_CALLED_NO_GRAD | FACTS_CALLED_BACKPROP) : 0;
  if (c && (c->how & FACTS_CALLED_GRAD))
    how |= class_callers_no_grad(v, s, klass, c) ? FACTS_CALLED_NO_GRAD : FACTS_CALLED_GRAD;
  for (uint8_t i = 0; i < sym->nrefs; i++) {
    const project_ref *r = &sym->refs[i];
    if (!(r->kind & REF_BASE)) continue;
    if (r->name[0] == ':') {
      how |= calls_in_class(v, m, s, r->name + 1, method, mlen, depth + 1);
    } else {
      project_view mv;
      init_module(&mv, v->project, m, s);
      how |= class_calls(v, &mv, r->name, method, mlen, depth + 1);
      project_view_free(&mv);
    }
  }
  return how;
}


static uint8_t class_calls(project_view *v, const project_view *resolver, const char *qualname, const char *method,
                           size_t mlen, int depth) {
  project_module *m;
  project_summary *s;
  const project_symbol *sym;
  const char *rest;
  char *hold;
  if (!locate(v, resolver, qualname, &m, &s, &sym, &rest, &hold)) return 0;
  uint8_t how = sym ? calls_in_class(v, m, s, rest, method, mlen, depth) : 0;
  locate_release(v, m, s, hold);
  return how;
}


static uint8_t memo_calls(project_view *v, const char *key, size_t len, uint8_t **slot) {
  uint8_t *memo = strmap_get(&v->calls, key, len);
  if (memo) return *memo;
  *slot = oom_xcalloc(1, 1);
  strmap_put(&v->calls, key, len, *slot);
  return 0;
}


static uint8_t base_calls(const facts_imports *imports, const char *base, size_t len, const char *method, size_t mlen) {
  project_view *v = (project_view *)imports;
  buf key = {0};
  buf_printf(&key, "%.*s:%.*s", (int)len, base, (int)mlen, method);
  uint8_t *slot = NULL, how = memo_calls(v, key.data, key.len, &slot);
  if (slot) {
    char *q = oom_xstrndup(base, len);
    how = *slot = class_calls(v, v, q, method, mlen, 0);
    free(q);
  }
  buf_free(&key);
  return how;
}


/* The Python files of V's folder and of each folder above it up to its
 * project root, V's own file left out: where the scripts that import a
 * module usually are (`train.py` beside or above `models/`). */
static void list_near(project_view *v) {
  v->near_listed = true;
  char *root = project_root_of(v->project, v->path);
  char *dir = oom_xstrdup(v->dir);
  buf path = {0};
  for (int guard = 0; guard < 64 && v->near.len < PROJECT_MAX_NEAR; guard++) {
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && v->near.len < PROJECT_MAX_NEAR) {
      size_t n = strlen(e->d_name);
      if (n < 4 || strcmp(e->d_name + n - 3, ".py") != 0) continue;
      buf_clear(&path);
      buf_printf(&path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
      if (strcmp(buf_str(&path), v->path) != 0 && project_is_file(v->project, buf_str(&path)))
        vec_push(&v->near, oom_xstrdup(buf_str(&path)));
    }
    if (d) closedir(d);
    if (!strcmp(dir, root) || !strcmp(dir, "/")) break;
    char *up = dir_of(dir);
    free(dir);
    dir = up;
  }
  buf_free(&path);
  free(dir);
  free(root);
}


/* Whether NAME (LEN bytes) is distinctive enough to be looked for in the
 * whole project by name alone: `compute_sim_matrix`, not `inference`. */
static bool distinctive(const char *name, size_t len) {
  return len >= 12 && memchr(name, '_', len) != NULL;
}


/* Whether TEXT calls NAME (LEN bytes) by that name: `name(`, `.name(`, or
 * `.name` picked as a bound method for a later call; NAME not part of a
 * longer word. A cheap test before a module is parsed. */
static bool mentions_call(const char *text, size_t length, const char *name, size_t len) {
  const char *end = text + length;
  if (!len || length < len) return false;
  for (const char *p = text; (p = memchr(p, name[0], (size_t)(end - p))); p++) {
    if ((size_t)(end - p) < len) return false;
    if (memcmp(p, name, len) != 0) continue;
    if (p > text) {
      char c = p[-1];
      if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
    }
    const char *q = p + len;
    if (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
      continue;
    /* `model.evaluate_one_step` picked as a bound method, called later
     * through the name it is bound to: for distinctive names only, which
     * few modules mention otherwise (`.evaluate` is everywhere) */
    if (p > text && p[-1] == '.' && (q == end || *q != '=') && distinctive(name, len)) return true;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q < end && *q == '(') return true;
  }
  return false;
}


/* Whether module M (summary S) imports the file of V or a module of its
 * folder (`from models import create_model` for models/base_model.py:
 * the package hands out instances of the file's classes). */
static bool imports_file(project_view *v, const project_module *m, const project_summary *s) {
  project_view mv;
  init_module(&mv, v->project, m, s);
  bool yes = false;
  size_t dlen = strlen(v->dir);
  for (size_t i = 0; i < s->nimports && !yes; i++) {
    const char *rest = NULL;
    char *path = project_resolve(&mv, mv.dir, s->imports[i].qualname, &rest);
    yes = path && (!strcmp(path, v->path) || (!strncmp(path, v->dir, dlen) && path[dlen] == '/' &&
                                              !strchr(path + dlen + 1, '/')));
    free(path);
  }
  project_view_free(&mv);
  return yes;
}


/* Whether folder NAME is one a project's own code is not in. */
static bool skipped_folder(const char *name) {
  static const char *const skip[] = {"node_modules", "site-packages", "__pycache__", "venv", "build", "dist", NULL};
  if (name[0] == '.') return true;
  for (size_t i = 0; skip[i]; i++)
    if (!strcmp(name, skip[i])) return true;
  return false;
}


/* Every Python file of V's project (at most PROJECT_MAX_FAR), V's own left
 * out, into V->far: a walk with a stack of folders, no recursion. */
static void list_far(project_view *v) {
  v->far_listed = true;
  VEC(char *) todo = {0};
  vec_push(&todo, project_root_of(v->project, v->path));
  buf path = {0};
  for (size_t dirs = 0; todo.len && dirs < PROJECT_MAX_FAR && v->far.len < PROJECT_MAX_FAR; dirs++) {
    char *dir = todo.items[--todo.len];
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && v->far.len < PROJECT_MAX_FAR) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      buf_clear(&path);
      buf_printf(&path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
      size_t n = strlen(e->d_name);
      if (n >= 4 && !strcmp(e->d_name + n - 3, ".py")) {
        if (strcmp(buf_str(&path), v->path) != 0 && project_is_file(v->project, buf_str(&path)))
          vec_push(&v->far, oom_xstrdup(buf_str(&path)));
      } else if (!skipped_folder(e->d_name)) {
        /* lstat: a link to a folder is not followed (no cycles) */
        struct stat st;
        if (lstat(buf_str(&path), &st) == 0 && S_ISDIR(st.st_mode)) vec_push(&todo, oom_xstrdup(buf_str(&path)));
      }
    }
    if (d) closedir(d);
    free(dir);
  }
  for (size_t i = 0; i < todo.len; i++) free(todo.items[i]);
  vec_free(&todo);
  buf_free(&path);
}




static uint8_t calls_in(project_view *v, char **files, size_t nfiles, bool importers, const char *name, size_t len,
                        int hop);


/* How the callers of the function or method NAME (LEN bytes) run it,
 * looked for in the whole project by name: FACTS_CALLED_* bits. HOP counts
 * the callers followed up to here. */
static uint8_t callers_anywhere(project_view *v, const char *name, size_t len, int hop) {
  buf key = {0};
  buf_printf(&key, "^%d:%.*s", hop, (int)len, name);
  uint8_t *slot = NULL, how = memo_calls(v, key.data, key.len, &slot);
  buf_free(&key);
  if (!slot) return how;
  if (!v->far_listed) list_far(v);
  how = *slot = calls_in(v, v->far.items, v->far.len, false, name, len, hop);
  return how;
}


/* How the modules FILES (those importing V's file or its package only,
 * with IMPORTERS) call NAME (LEN bytes). A call with gradients on made by
 * a function every caller of which, in the whole project, runs it under
 * no_grad counts as one under no_grad (LAVIS: a task's `evaluation` calls
 * `model.compute_sim_matrix(...)`, and the runner calls `evaluation` from
 * an `@torch.no_grad()` method); a function of the same name delegating
 * (`def f(): return f_impl()` named alike) neither. One such hop. Every
 * module read is a dependency of the lint, those that do not call NAME
 * too: an edit that adds a call must relint the file. */
static uint8_t calls_in(project_view *v, char **files, size_t nfiles, bool importers, const char *name, size_t len,
                        int hop) {
  uint8_t how = 0;
  /* `Extractor.__call__`, the calls of the class's instances: a module that
   * makes one mentions `Extractor(` */
  const char *dot = memchr(name, '.', len);
  size_t mlen = dot ? (size_t)(dot - name) : len;
  for (size_t i = 0; i < nfiles; i++) {
    project_module *m = project_module_get(v->project, files[i]);
    if (!m) continue;
    project_dep d = {m->path, m->hash};
    add_dep(v, &d);
    if (m->readable && m->text && mentions_call(m->text, m->length, name, mlen)) {
      project_summary *s = project_summary_get(v->project, m);
      const project_call *c = s && (!importers || imports_file(v, m, s)) ? project_summary_call(s, name, len) : NULL;
      if (c) {
        how |= c->how & (FACTS_CALLED_NO_GRAD | FACTS_CALLED_BACKPROP);
        if (c->how & FACTS_CALLED_GRAD) {
          bool speak = hop < 1 && c->ngrad_in != PROJECT_GRAD_CALLERS_UNKNOWN;
          for (uint8_t k = 0; speak && k < c->ngrad_in; k++) {
            const char *g = c->grad_in[k];
            size_t glen = strlen(g);
            if (glen == len && !memcmp(g, name, len)) continue;
            speak = callers_anywhere(v, g, glen, hop + 1) == FACTS_CALLED_NO_GRAD;
          }
          how |= speak ? FACTS_CALLED_NO_GRAD : FACTS_CALLED_GRAD;
        }
      }
      if (s) project_summary_release(v->project, s);
    }
    project_module_release(v->project, m);
  }
  return how;
}


/* The modules importing the file are looked for beside it and above it;
 * when none calls NAME there, a distinctive NAME in the whole project. */
static uint8_t importer_calls(const facts_imports *imports, const char *name, size_t len) {
  project_view *v = (project_view *)imports;
  buf key = {0};
  buf_printf(&key, "<%.*s", (int)len, name);
  uint8_t *slot = NULL, how = memo_calls(v, key.data, key.len, &slot);
  buf_free(&key);
  if (!slot) return how;
  if (!v->near_listed) list_near(v);
  how = calls_in(v, v->near.items, v->near.len, true, name, len, 0);
  if (!how && distinctive(name, len)) how = callers_anywhere(v, name, len, 0);
  *slot = how;
  return how;
}


static bool class_method(project_view *v, const project_view *resolver, const char *qualname, const char *method,
                         size_t mlen, facts_symbol *out, int depth);


/* The method METHOD (MLEN bytes) of class KLASS of module M (summary S), or
 * of the first of its bases defining it. */
static bool method_in_class(project_view *v, const project_module *m, const project_summary *s, const char *klass,
                            const char *method, size_t mlen, facts_symbol *out, int depth) {
  if (depth >= PROJECT_MAX_DEPTH) return false;
  const project_symbol *sym = project_summary_find(s, klass, strlen(klass));
  if (!sym || !(sym->symbol.flags & SYM_CLASS)) return false;
  buf name = {0};
  buf_printf(&name, "%s.%.*s", klass, (int)mlen, method);
  const project_symbol *own = project_summary_find(s, name.data, name.len);
  buf_free(&name);
  if (own) {
    *out = resolved(v, m, s, own, depth);
    return true;
  }
  for (uint8_t i = 0; i < sym->nrefs; i++) {
    const project_ref *r = &sym->refs[i];
    if (!(r->kind & REF_BASE)) continue;
    bool found;
    if (r->name[0] == ':') {
      found = method_in_class(v, m, s, r->name + 1, method, mlen, out, depth + 1);
    } else {
      project_view mv;
      init_module(&mv, v->project, m, s);
      found = class_method(v, &mv, r->name, method, mlen, out, depth + 1);
      project_view_free(&mv);
    }
    if (found) return true;
  }
  return false;
}


static bool class_method(project_view *v, const project_view *resolver, const char *qualname, const char *method,
                         size_t mlen, facts_symbol *out, int depth) {
  project_module *m;
  project_summary *s;
  const project_symbol *sym;
  const char *rest;
  char *hold;
  if (!locate(v, resolver, qualname, &m, &s, &sym, &rest, &hold)) return false;
  bool found = sym && method_in_class(v, m, s, rest, method, mlen, out, depth);
  locate_release(v, m, s, hold);
  return found;
}


static bool method_symbol(const facts_imports *imports, const char *klass, size_t len, const char *method, size_t mlen,
                          facts_symbol *out) {
  project_view *v = (project_view *)imports;
  char *q = oom_xstrndup(klass, len);
  bool found = class_method(v, v, q, method, mlen, out, 0);
  free(q);
  return found;
}


/* Whether TEXT (LENGTH bytes) holds NEEDLE (NLEN bytes). */
static bool text_holds(const char *text, size_t length, const char *needle, size_t nlen) {
  if (!nlen || length < nlen) return false;
  const char *end = text + length - nlen + 1;
  for (const char *p = text; (p = memchr(p, needle[0], (size_t)(end - p))); p++)
    if (!memcmp(p, needle, nlen)) return true;
  return false;
}


/* Whether every concrete method named METHOD (MLEN bytes) of the
 * project's classes has all of FLAGS, and at least one is there. Every
 * module whose text defines the method (`def eval_step(`) is read for its
 * summary: a dependency of the lint, those that do not too (an edit adding
 * a definition must relint the file). MARK tells the memo keys of the
 * questions apart. */
static bool method_everywhere(const facts_imports *imports, const char *method, size_t mlen, uint32_t flags,
                              char mark) {
  assert(flags != 0);
  project_view *v = (project_view *)imports;
  buf key = {0};
  buf_printf(&key, "%c%.*s", mark, (int)mlen, method);
  uint8_t *slot = NULL, how = memo_calls(v, key.data, key.len, &slot);
  buf_free(&key);
  if (!slot) return how == 1;
  if (!v->far_listed) list_far(v);
  buf def = {0};
  buf_printf(&def, "def %.*s(", (int)mlen, method);
  bool any = false, all = true;
  for (size_t i = 0; i < v->far.len && all; i++) {
    project_module *m = project_module_get(v->project, v->far.items[i]);
    if (!m) continue;
    project_dep d = {m->path, m->hash};
    add_dep(v, &d);
    if (m->readable && m->text && text_holds(m->text, m->length, def.data, def.len)) {
      project_summary *s = project_summary_get(v->project, m);
      for (size_t k = 0; s && k < s->nsymbols && all; k++) {
        const project_symbol *sym = &s->symbols[k];
        size_t n = strlen(sym->name);
        if (n <= mlen + 1 || sym->name[n - mlen - 1] != '.' || memcmp(sym->name + n - mlen, method, mlen) != 0 ||
            !(sym->symbol.flags & SYM_FUNCTION) || (sym->symbol.flags & SYM_ABSTRACT))
          continue;
        any = true;
        all = (sym->symbol.flags & flags) == flags;
      }
      if (s) project_summary_release(v->project, s);
    }
    project_module_release(v->project, m);
  }
  buf_free(&def);
  *slot = any && all ? 1 : 2;
  return *slot == 1;
}


static bool method_no_grad_anywhere(const facts_imports *imports, const char *method, size_t mlen) {
  return method_everywhere(imports, method, mlen, SYM_NO_GRAD, '!');
}


static bool method_backward_anywhere(const facts_imports *imports, const char *method, size_t mlen) {
  return method_everywhere(imports, method, mlen, SYM_BACKWARD, '&');
}


static bool absent(const facts_imports *imports, const char *qualname, size_t len) {
  project_view *v = (project_view *)imports;
  char *q = oom_xstrndup(qualname, len);
  const char *rest = NULL;
  char *path = project_resolve(v, v->dir, q, &rest);
  project_module *m = path ? project_module_get(v->project, path) : NULL;
  free(path);
  bool missing = false;
  if (m) {
    project_summary *s = project_summary_get(v->project, m);
    /* one name after the module: `from pkg.model import Distance` */
    if (s && rest && *rest && !strchr(rest, '.') && m->readable && m->text) {
      add_dep(v, &s->self); /* a name it gains later changes the answer */
      /* the summary lists only some module-level names: the text must not
       * hold the name at all, nor a module `__getattr__` */
      size_t n = strlen(rest);
      missing = !text_holds(m->text, m->length, rest, n) && !text_holds(m->text, m->length, "__getattr__", 11);
      for (size_t i = 0; i < s->nimports && missing; i++)
        if (s->imports[i].name[0] == '*' && !s->imports[i].name[1]) missing = false;
    }
    if (s) project_summary_release(v->project, s);
    project_module_release(v->project, m);
  }
  free(q);
  return missing;
}
