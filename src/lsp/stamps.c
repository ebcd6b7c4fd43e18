/* This file contains the stamps that tell the server's configuration cache
 * when a linter is out of date: a configuration file's key, and its rules
 * folders' keys and rule files' keys.
 *
 * A rules folder is checked on every lookup of its linter, which is every
 * lint: one stat per folder. That sees a rule file added, removed or
 * renamed, and an editor's save that writes a new file and renames it over
 * the old one, since each changes the folder's times. A file rewritten in
 * place changes only its own times; stating every rule file on every
 * keystroke would cost a stat per rule, so the files are checked at most
 * once a second (and at once when the client reports a changed rule file:
 * lsp_configs_rules_changed). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/stamps.h"
#include "util/alloc.h"
#include "util/buf.h"

#define FILES_RECHECK_MS 1000


lsp_file_key lsp_file_key_of(const struct stat *st) {
  lsp_file_key k;
  memset(&k, 0, sizeof k);
  if (!st) return k;
  k.exists = true;
  k.dev = st->st_dev;
  k.ino = st->st_ino;
  k.size = st->st_size;
  k.mtime = st->st_mtim;
  k.ctime = st->st_ctim;
  return k;
}


bool lsp_file_key_same(const lsp_file_key *a, const lsp_file_key *b) {
  if (a->exists != b->exists) return false;
  if (!a->exists) return true;
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec &&
         a->mtime.tv_nsec == b->mtime.tv_nsec && a->ctime.tv_sec == b->ctime.tv_sec &&
         a->ctime.tv_nsec == b->ctime.tv_nsec;
}


static lsp_file_key key_at(const char *path) {
  struct stat st;
  return lsp_file_key_of(stat(path, &st) == 0 ? &st : NULL);
}


static void stamp(lsp_stamped_list *list, const char *path) {
  lsp_stamped s = {oom_xstrdup(path), key_at(path)};
  vec_push(list, s);
}


/* The names the engine loads from a folder (its load_dir): `*.scm`, not hidden. */
static bool rule_file_name(const char *name) {
  size_t n = strlen(name);
  return n > 4 && !strcmp(name + n - 4, ".scm") && name[0] != '.';
}


void lsp_rules_stamp_take(lsp_rules_stamp *self, const char *const *dirs, size_t ndirs) {
  memset(self, 0, sizeof *self);
  clock_gettime(CLOCK_MONOTONIC, &self->files_checked);
  for (size_t i = 0; i < ndirs; i++) {
    /* the folder first: a file added while the files are listed changes
     * its times after they were taken, so the next look sees it */
    stamp(&self->dirs, dirs[i]);
    DIR *d = opendir(dirs[i]);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!rule_file_name(e->d_name)) continue;
      buf path = {0};
      buf_printf(&path, "%s/%s", dirs[i], e->d_name);
      stamp(&self->files, buf_str(&path));
      buf_free(&path);
    }
    closedir(d);
  }
}


static bool any_changed(const lsp_stamped *items, size_t n) {
  for (size_t i = 0; i < n; i++) {
    lsp_file_key now = key_at(items[i].path);
    if (!lsp_file_key_same(&items[i].key, &now)) return true;
  }
  return false;
}


bool lsp_rules_stamp_changed(lsp_rules_stamp *self, bool all) {
  if (!self->dirs.len) return false;
  if (any_changed(self->dirs.items, self->dirs.len)) return true;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long ms = (long long)(now.tv_sec - self->files_checked.tv_sec) * 1000 +
                 (now.tv_nsec - self->files_checked.tv_nsec) / 1000000;
  if (!all && ms < FILES_RECHECK_MS) return false;
  self->files_checked = now;
  return any_changed(self->files.items, self->files.len);
}


static void free_stamped(lsp_stamped *items, size_t n) {
  for (size_t i = 0; i < n; i++) free(items[i].path);
}


void lsp_rules_stamp_free(lsp_rules_stamp *self) {
  free_stamped(self->dirs.items, self->dirs.len);
  vec_free(&self->dirs);
  free_stamped(self->files.items, self->files.len);
  vec_free(&self->files);
}
