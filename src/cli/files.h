/* Finding the files to lint: explicit paths as given, directories walked for
 * `*.py` and `*.ipynb` (the `include` setting; iteratively, never following directory symlinks, so link loops
 * cannot trap the walk), and reading a file whole with clear errors. */
#ifndef OOM_CLI_FILES_H
#define OOM_CLI_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "config/config.h"

typedef struct {
  char **paths;
  struct stat *stats; /* stat(2) of each path (links followed), taken by the walk */
  size_t len, cap;
  int errors;         /* paths that could not be read (already reported) */
  int64_t started_ns; /* the clock before the first stat: the result cache trusts times older than it */
} file_list;

/** Add PATH (a file or a directory to walk) to LIST; problems are reported on
 *  ERR and counted. A walk leaves out what .gitignore files and CFG's
 *  excludes (CFG may be NULL) name; a file given as PATH is always added. */
void files_collect(file_list *list, const char *path, const config *cfg, FILE *err);
/** Sort by path (stats alongside) and drop duplicates. */
void files_sort(file_list *list);
void files_free(file_list *list);

/** Read a whole file (or stdin for NULL) into a malloc'd buffer. Returns NULL
 *  and writes a one-line reason into WHY (size WHYLEN) on failure. */
char *files_read(const char *path, size_t *length, char *why, size_t whylen);

#endif
