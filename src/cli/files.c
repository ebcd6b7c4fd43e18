/* This file contains file discovery and reading for the command line: the
 * walk skips what .gitignore files and the configured excludes name. */
#include "cli/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/ignore.h"
#include "util/alloc.h"
#include "util/vec.h"

/* tree-sitter counts bytes in 32 bits; past this a file is refused, not cut */
#define MAX_FILE_BYTES ((size_t)1 << 30)


static void add(file_list *l, const char *path, const struct stat *st) {
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 64;
    l->paths = oom_xrealloc(l->paths, l->cap * sizeof *l->paths);
    l->stats = oom_xrealloc(l->stats, l->cap * sizeof *l->stats);
  }
  l->stats[l->len] = *st;
  l->paths[l->len++] = oom_xstrdup(path);
}


static bool skip_dir(const char *parent, const char *name) {
  if (name[0] == '.') return true; /* hidden, .git, .venv, .tox, ... */
  /* Ruff's default excludes that are not hidden folders */
  static const char *const skipped[] = {"__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist",
                                        "node_modules", "site-packages", "venv", NULL};
  for (size_t i = 0; skipped[i]; i++)
    if (!strcmp(name, skipped[i])) return true;
  /* any virtualenv, whatever its name */
  size_t n = strlen(parent) + strlen(name) + 16;
  char *cfg = oom_xmalloc(n);
  snprintf(cfg, n, "%s/%s/pyvenv.cfg", parent, name);
  bool venv = access(cfg, F_OK) == 0;
  free(cfg);
  return venv;
}


static int str_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* Whether the walk leaves PATH out: a .gitignore rule or an exclude. */
static bool walk_skips(const ignore_set *ig, const config *cfg, const char *path, bool is_dir) {
  if (cfg && config_excluded(cfg, path)) return true;
  if (!ig->len) return false;
  char *abs = config_absolute(path);
  bool skip = ignore_match(ig, abs, is_dir);
  free(abs);
  return skip;
}


static void walk(file_list *l, const char *root, const config *cfg, FILE *err) {
  /* each folder on the stack remembers how many .gitignore rules were in
   * force when it was pushed: its parent's, the rules of finished sibling
   * subtrees dropped when it is popped (the walk is depth first) */
  typedef struct {
    char *dir;
    size_t rules;
  } entry;
  VEC(entry) stack = {0};
  ignore_set ig = {0};
  char *abs_root = config_absolute(root);
  ignore_load_parents(&ig, abs_root);
  free(abs_root);
  vec_push(&stack, ((entry){oom_xstrdup(root), ig.len}));
  while (stack.len) {
    entry top = stack.items[--stack.len];
    char *dir = top.dir;
    ignore_truncate(&ig, top.rules);
    char *abs_dir = config_absolute(dir);
    ignore_load(&ig, abs_dir);
    free(abs_dir);
    size_t level = ig.len;
    DIR *d = opendir(dir);
    if (!d) {
      fprintf(err, "oomlint: %s: %s\n", dir, strerror(errno));
      l->errors++;
      free(dir);
      continue;
    }
    VEC(char *) subdirs = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      size_t n = strlen(dir) + strlen(e->d_name) + 2;
      char *path = oom_xmalloc(n);
      snprintf(path, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
      struct stat st;
      if (lstat(path, &st) != 0) {
        free(path);
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (!skip_dir(dir, e->d_name) && !walk_skips(&ig, cfg, path, true)) vec_push(&subdirs, path);
        else free(path);
        continue;
      }
      /* a symlink to a file is linted; one to a directory is not followed */
      if (S_ISLNK(st.st_mode) && (stat(path, &st) != 0 || !S_ISREG(st.st_mode))) {
        free(path);
        continue;
      }
      if (S_ISREG(st.st_mode) && config_included(cfg, path) && !walk_skips(&ig, cfg, path, false)) add(l, path, &st);
      free(path);
    }
    closedir(d);
    /* depth first, in name order */
    if (subdirs.len > 1) qsort(subdirs.items, subdirs.len, sizeof *subdirs.items, str_cmp);
    for (size_t i = subdirs.len; i-- > 0;) vec_push(&stack, ((entry){subdirs.items[i], level}));
    free(subdirs.items);
    free(dir);
  }
  vec_free(&stack);
  ignore_truncate(&ig, 0);
  vec_free(&ig);
}


void files_collect(file_list *l, const char *path, const config *cfg, FILE *err) {
  if (!l->started_ns) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    l->started_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(err, "oomlint: %s: %s\n", path, strerror(errno));
    l->errors++;
    return;
  }
  if (S_ISDIR(st.st_mode)) walk(l, path, cfg, err);
  else add(l, path, &st); /* given by name: linted whatever its extension */
}


typedef struct {
  char *path;
  struct stat st;
} path_stat;


static int path_stat_cmp(const void *a, const void *b) {
  return strcmp(((const path_stat *)a)->path, ((const path_stat *)b)->path);
}


void files_sort(file_list *l) {
  if (l->len < 2) return;
  path_stat *all = oom_xmalloc(l->len * sizeof *all);
  for (size_t i = 0; i < l->len; i++) all[i] = (path_stat){l->paths[i], l->stats[i]};
  qsort(all, l->len, sizeof *all, path_stat_cmp);
  size_t k = 0;
  for (size_t i = 0; i < l->len; i++) {
    if (k && !strcmp(all[i].path, l->paths[k - 1])) {
      free(all[i].path);
      continue;
    }
    l->paths[k] = all[i].path;
    l->stats[k++] = all[i].st;
  }
  free(all);
  l->len = k;
}


void files_free(file_list *l) {
  for (size_t i = 0; i < l->len; i++) free(l->paths[i]);
  free(l->paths);
  free(l->stats);
  l->stats = NULL;
  l->paths = NULL;
  l->len = l->cap = 0;
}


char *files_read(const char *path, size_t *length, char *why, size_t whylen) {
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
  if (fd < 0) {
    snprintf(why, whylen, "%s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (path && (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode))) {
    snprintf(why, whylen, "%s", S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
    close(fd);
    return NULL;
  }
  /* a regular file gets its size and two bytes: the NUL, and room for the
   * read that finds the end, so that the buffer is never grown (copied) */
  size_t cap = 64 * 1024, len = 0;
  if (path && S_ISREG(st.st_mode)) cap = (size_t)st.st_size + 2;
  char *data = NULL;
  for (;;) {
    if (cap > MAX_FILE_BYTES + 1) {
      snprintf(why, whylen, "file is larger than 1 GiB");
      free(data);
      if (path) close(fd);
      return NULL;
    }
    data = oom_xrealloc(data, cap);
    ssize_t n = read(fd, data + len, cap - len - 1);
    if (n < 0) {
      if (errno == EINTR) continue;
      snprintf(why, whylen, "%s", strerror(errno));
      free(data);
      if (path) close(fd);
      return NULL;
    }
    if (n == 0) break;
    len += (size_t)n;
    if (len + 1 == cap) cap *= 2;
  }
  if (path) close(fd);
  data[len] = '\0';
  *length = len;
  return data;
}
