/* This file contains what a loaded configuration decides about paths: the
 * excludes, per-file ignores (applied to a linted document), version checks. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "engine/engine.h"
#include "util/buf.h"


static void free_list(config_strings *l) {
  for (size_t i = 0; i < l->len; i++) free(l->items[i]);
  vec_free(l);
}


void config_free(config *self) {
  if (!self) return;
  free(self->path);
  free(self->dir);
  free_list(&self->select);
  free_list(&self->ignore);
  free_list(&self->extend_select);
  free_list(&self->exclude);
  free_list(&self->extend_exclude);
  free_list(&self->include);
  free_list(&self->extend_include);
  for (size_t i = 0; i < self->per_file_ignores.len; i++) {
    free(self->per_file_ignores.items[i].glob);
    free_list(&self->per_file_ignores.items[i].codes);
  }
  vec_free(&self->per_file_ignores);
  free(self->rules_dir);
  free(self->torch_version);
  free_list(&self->assume);
  memset(self, 0, sizeof *self);
}


bool config_glob_is_valid(const char *g) {
  if (!*g) return false;
  for (const char *p = g; *p; p++) {
    if (*p == '\\') {
      if (!*++p) return false;
    } else if (*p == '[') {
      const char *q = p + 1;
      if (*q == '!' || *q == '^') q++;
      if (*q == ']') q++;
      while (*q && *q != ']') q++;
      if (!*q) return false;
      p = q;
    } else if (*p == ']') {
      return false;
    }
  }
  return true;
}


bool config_version_older(const char *v, int major, int minor) {
  char *end;
  long ma = strtol(v, &end, 10);
  long mi = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
  return ma < major || (ma == major && mi < minor);
}


char *config_absolute(const char *path) {
  buf b = {0};
  if (path[0] != '/') {
    char *cwd = getcwd(NULL, 0);
    buf_puts(&b, cwd ? cwd : ".");
    free(cwd);
  }
  buf_putc(&b, '/');
  buf_puts(&b, path);
  /* fold the components: "." dropped, ".." pops, "//" merged */
  char *in = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  char *out = oom_xcalloc(strlen(in) + 2, 1);
  size_t n = 0;
  for (char *save = NULL, *c = strtok_r(in, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
    if (!strcmp(c, ".")) continue;
    if (!strcmp(c, "..")) {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) n--;
      out[n] = '\0';
      continue;
    }
    out[n++] = '/';
    strcpy(out + n, c);
    n += strlen(c);
  }
  if (!n) out[n++] = '/';
  out[n] = '\0';
  free(in);
  return out;
}


/* Ruff-style matching: a glob with no `/` matches the base name anywhere; one
 * with `/` matches the path relative to the config's folder (or as written,
 * or absolute). `*` crosses `/`, as in Ruff's globset. */
static bool glob_match(const config *self, const char *glob, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (!strchr(glob, '/')) return fnmatch(glob, base, 0) == 0;
  if (fnmatch(glob, path, 0) == 0) return true;
  char *abs = config_absolute(path);
  bool hit = fnmatch(glob, abs, 0) == 0;
  size_t dl = self->dir ? strlen(self->dir) : 0;
  if (!hit && dl && !strncmp(abs, self->dir, dl) && abs[dl] == '/') {
    const char *rel = abs + dl + 1;
    hit = fnmatch(glob, rel, 0) == 0;
    /* "tests/" or "tests" style folder globs match everything below */
    size_t gl = strlen(glob);
    if (!hit && glob[gl - 1] == '/') hit = !strncmp(rel, glob, gl);
  }
  free(abs);
  return hit;
}


/* Whether PATH is strictly inside the configuration's folder. */
static bool inside_dir(const config *self, const char *path) {
  size_t dl = self->dir ? strlen(self->dir) : 0;
  if (!dl) return false;
  char *abs = config_absolute(path);
  bool in = !strncmp(abs, self->dir, dl) && (dl == 1 ? abs[1] != '\0' : abs[dl] == '/');
  free(abs);
  return in;
}


static bool any_prefix_match(const config *self, const char *glob, const char *path) {
  /* a folder glob excludes what is inside it: try each leading folder too */
  if (glob_match(self, glob, path)) return true;
  /* but only the project's folders: with an absolute path (an editor's),
   * `exclude = ["build"]` must not match a `build` folder above the file */
  bool inside = inside_dir(self, path);
  char *copy = oom_xstrdup(path);
  bool hit = false;
  for (char *s = strrchr(copy, '/'); s && !hit; s = strrchr(copy, '/')) {
    *s = '\0';
    if (!*copy || (inside && !inside_dir(self, copy))) break;
    hit = glob_match(self, glob, copy);
  }
  free(copy);
  return hit;
}


bool config_excluded(const config *self, const char *path) {
  for (size_t i = 0; i < self->exclude.len; i++)
    if (any_prefix_match(self, self->exclude.items[i], path)) return true;
  for (size_t i = 0; i < self->extend_exclude.len; i++)
    if (any_prefix_match(self, self->extend_exclude.items[i], path)) return true;
  return false;
}


bool config_included(const config *self, const char *path) {
  static const char *const defaults[] = {"*.py", "*.ipynb", NULL};
  if (!self || !self->has_include) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; defaults[i]; i++)
      if (fnmatch(defaults[i], base, 0) == 0) return true;
  } else {
    for (size_t i = 0; i < self->include.len; i++)
      if (glob_match(self, self->include.items[i], path)) return true;
  }
  for (size_t i = 0; self && i < self->extend_include.len; i++)
    if (glob_match(self, self->extend_include.items[i], path)) return true;
  return false;
}


static bool code_listed(const config_strings *codes, const char *code) {
  for (size_t i = 0; i < codes->len; i++) {
    const char *s = codes->items[i];
    if (!strcmp(s, "ALL") || !strncmp(code, s, strlen(s))) return true;
  }
  return false;
}


void config_filter_document(const config *self, oom_document *doc) {
  if (!self->per_file_ignores.len) return;
  VEC(const config_strings *) hits = {0};
  for (size_t i = 0; i < self->per_file_ignores.len; i++)
    if (any_prefix_match(self, self->per_file_ignores.items[i].glob, doc->path))
      vec_push(&hits, &self->per_file_ignores.items[i].codes);
  size_t k = 0;
  for (size_t i = 0; i < doc->diagnostics.len; i++) {
    oom_diagnostic *d = doc->diagnostics.items[i];
    bool drop = false;
    /* syntax errors stay: they are never a choice */
    if (strcmp(oom_diagnostic_code(d), "OOM000") != 0)
      for (size_t h = 0; h < hits.len && !drop; h++) drop = code_listed(hits.items[h], oom_diagnostic_code(d));
    if (!drop) doc->diagnostics.items[k++] = d;
  }
  /* the arena owns the dropped ones */
  doc->diagnostics.len = k;
  vec_free(&hits);
}
