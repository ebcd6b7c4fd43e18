/* Configuration files: `[tool.oomlint]` in pyproject.toml, or oomlint.toml /
 * .oomlint.toml, read with the tree-sitter TOML grammar into a config. */
#ifndef OOM_CONFIG_CONFIG_H
#define OOM_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "oomlint/oomlint.h"
#include "util/vec.h"

typedef VEC(char *) config_strings;

typedef struct {
  char *glob;
  config_strings codes;
} config_file_ignore;

typedef struct {
  char *path; /* the file read; NULL when none was found */
  char *dir;  /* its folder, absolute: globs and rules-dir are relative to it */
  bool has_select;
  config_strings select, ignore, extend_select, exclude, extend_exclude;
  VEC(config_file_ignore) per_file_ignores;
  bool has_gpu_memory, has_max_batch_size;
  uint64_t gpu_memory, max_batch_size;
  char *rules_dir;     /* absolute, or NULL */
  char *torch_version; /* as written ("2.3"), or NULL */
} config;

/** Read PATH (pyproject.toml: its `[tool.oomlint]` table; any other name: the
 *  top-level keys) into OUT. False with *ERROR (malloc'd, "path:line:col:
 *  message") on a syntax error, an unknown key or a bad value. */
bool config_load(const char *path, config *out, char **error);

/** Find and read the nearest configuration from START (a file or folder)
 *  upwards. True with OUT->path NULL when there is none. */
bool config_discover(const char *start, config *out, char **error);

void config_free(config *self);

/** Whether a version string ("2.3", "2.4.1") is older than MAJOR.MINOR. */
bool config_version_older(const char *version, int major, int minor);

/** Whether PATH (as walked) matches `exclude` or `extend-exclude`. */
bool config_excluded(const config *self, const char *path);

/** Drop the diagnostics of DOC that `per-file-ignores` turns off for its path. */
void config_filter_document(const config *self, oom_document *doc);

/** Whether GLOB is well formed (non-empty, brackets closed, no dangling `\`). */
bool config_glob_is_valid(const char *glob);

/** PATH made absolute without resolving symlinks in its last component
 *  (malloc'd); "./" and "x/.." are folded. */
char *config_absolute(const char *path);

#endif
