/* What says files on disk are as they were when a linter was built from
 * them: one file's key (identity, size, times), and the stamp of a
 * linter's rules folders (each folder's key and each rule file's). */
#ifndef OOM_LSP_STAMPS_H
#define OOM_LSP_STAMPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "util/vec.h"

typedef struct {
  bool exists;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
} lsp_file_key;

/** The key of a file with stat ST; NULL: a missing file. */
lsp_file_key lsp_file_key_of(const struct stat *st);
bool lsp_file_key_same(const lsp_file_key *a, const lsp_file_key *b);

typedef struct {
  char *path;
  lsp_file_key key;
} lsp_stamped;

typedef VEC(lsp_stamped) lsp_stamped_list;

/** A linter's rules folders as they were just before it was built. */
typedef struct {
  lsp_stamped_list dirs;
  lsp_stamped_list files;        /* the `*.scm` files the build reads */
  struct timespec files_checked; /* CLOCK_MONOTONIC */
} lsp_rules_stamp;

/** Stamp the folders DIRS (as the engine opens them) into SELF (empty). */
void lsp_rules_stamp_take(lsp_rules_stamp *self, const char *const *dirs, size_t ndirs);
/** Whether a folder or a rule file differs from the stamp. The folders are
 *  looked at on every call, the files only when ALL or when the last look
 *  at them is a second old (see stamps.c). */
bool lsp_rules_stamp_changed(lsp_rules_stamp *self, bool all);
void lsp_rules_stamp_free(lsp_rules_stamp *self);

#endif
