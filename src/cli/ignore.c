/* This file contains the .gitignore matcher the directory walk uses (git's
 * rules: last match wins, a pattern with a `/` is anchored to its file's folder). */
#include "cli/ignore.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/vec.h"


bool ignore_glob(const char *p, const char *s) {
  for (;;) {
    if (p[0] == '*' && p[1] == '*' && (p[2] == '/' || !p[2])) {
      if (!p[2]) return true; /* trailing `**`: everything inside */
      p += 3;
      /* a double star then a slash: zero or more folders */
      for (const char *t = s;;) {
        if (ignore_glob(p, t)) return true;
        t = strchr(t, '/');
        if (!t) return false;
        t++;
      }
    }
    if (!*p) return !*s;
    if (*p == '*') {
      while (*p == '*') p++;
      for (const char *t = s;; t++) {
        if (ignore_glob(p, t)) return true;
        if (!*t || *t == '/') return false;
      }
    }
    if (!*s) return false;
    if (*p == '?') {
      if (*s == '/') return false;
      p++, s++;
      continue;
    }
    if (*p == '[') {
      const char *q = p + 1;
      if (*q == '!' || *q == '^') q++;
      if (*q == ']') q++;
      while (*q && *q != ']') q++;
      if (*q) {
        /* one bracket expression against one character: fnmatch knows them */
        char *cls = oom_xstrndup(p, (size_t)(q - p + 1));
        char one[2] = {*s, '\0'};
        bool hit = *s != '/' && fnmatch(cls, one, 0) == 0;
        free(cls);
        if (!hit) return false;
        p = q + 1, s++;
        continue;
      }
    }
    if (*p == '\\' && p[1]) p++;
    if (*p != *s) return false;
    p++, s++;
  }
}


static void add_line(ignore_set *set, const char *dir, char *line) {
  size_t n = strlen(line);
  if (n && line[n - 1] == '\r') line[--n] = '\0';
  /* trailing spaces are dropped unless escaped */
  while (n && line[n - 1] == ' ' && !(n > 1 && line[n - 2] == '\\')) line[--n] = '\0';
  if (!n || line[0] == '#') return;
  ignore_rule r = {0};
  char *p = line;
  if (*p == '!') r.negate = true, p++;
  else if (*p == '\\' && (p[1] == '!' || p[1] == '#')) p++;
  n = strlen(p);
  if (n && p[n - 1] == '/') r.dir_only = true, p[--n] = '\0';
  if (!n) return;
  r.anchored = strchr(p, '/') != NULL;
  if (*p == '/') p++;
  if (!*p) return;
  r.pattern = oom_xstrdup(p);
  r.base = oom_xstrdup(dir);
  vec_push(set, r);
}


void ignore_load(ignore_set *set, const char *dir) {
  buf path = {0};
  buf_printf(&path, "%s/.gitignore", strcmp(dir, "/") ? dir : "");
  FILE *f = fopen(buf_str(&path), "r");
  buf_free(&path);
  if (!f) return;
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') line[n - 1] = '\0';
    add_line(set, dir, line);
  }
  free(line);
  fclose(f);
}


void ignore_load_parents(ignore_set *set, const char *dir) {
  /* find the repository root: the nearest folder with .git */
  char *root = oom_xstrdup(dir);
  struct stat st;
  for (;;) {
    buf g = {0};
    buf_printf(&g, "%s/.git", strcmp(root, "/") ? root : "");
    bool found = stat(buf_str(&g), &st) == 0;
    buf_free(&g);
    if (found) break;
    char *s = strrchr(root, '/');
    if (!s || s == root) {
      free(root);
      return; /* not in a repository: only the walked folders' files count */
    }
    *s = '\0';
  }
  /* from the root down to DIR's parent, each folder's .gitignore in turn */
  size_t rl = strlen(root);
  char *cur = oom_xstrdup(dir);
  for (size_t i = rl; cur[i]; i++) {
    if (cur[i] != '/' || i == 0) continue;
    cur[i] = '\0';
    if (strlen(cur) >= rl) ignore_load(set, cur);
    cur[i] = '/';
  }
  free(cur);
  free(root);
}


bool ignore_match(const ignore_set *set, const char *abs, bool is_dir) {
  const char *base = strrchr(abs, '/');
  base = base ? base + 1 : abs;
  for (size_t i = set->len; i-- > 0;) {
    const ignore_rule *r = &set->items[i];
    if (r->dir_only && !is_dir) continue;
    size_t bl = strlen(r->base);
    if (strncmp(abs, r->base, bl) != 0 || (abs[bl] != '/' && bl > 1)) continue;
    const char *rel = abs + bl + (bl > 1);
    if (r->anchored ? ignore_glob(r->pattern, rel) : ignore_glob(r->pattern, base)) return !r->negate;
  }
  return false;
}


void ignore_truncate(ignore_set *set, size_t len) {
  for (size_t i = len; i < set->len; i++) {
    free(set->items[i].pattern);
    free(set->items[i].base);
  }
  if (len < set->len) set->len = len;
}
