/* Configuration files: `[tool.oomlint]` in pyproject.toml, or oomlint.toml /
 * .oomlint.toml, read with the tree-sitter TOML grammar into a config. */
#ifndef OOM_CONFIG_CONFIG_H
#define OOM_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

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
  config_strings assume; /* "NAME=N": sizes only the data knows, for the estimate */
  /* which files a folder walk lints (Ruff's `include`, `extend-include`);
   * without `include`: `*.py` and `*.ipynb` */
  bool has_include;
  config_strings include, extend_include;
} config;

/** Settings that beat a configuration file's: the command line's flags, an
 *  editor's settings. A list left empty and a has_ flag left false mean "not
 *  given": the file's value stands. */
typedef struct {
  config_strings select, ignore, extend_select, rules_dirs, assume;
  bool has_gpu_memory, has_max_batch_size;
  uint64_t gpu_memory, max_batch_size;
} config_overrides;

/** Read PATH (pyproject.toml: its `[tool.oomlint]` table; any other name: the
 *  top-level keys) into OUT. False with *ERROR (malloc'd, "path:line:col:
 *  message") on a syntax error, an unknown key or a bad value. */
bool config_load(const char *path, config *out, char **error);

/** Find and read the nearest configuration from START (a file or folder)
 *  upwards. True with OUT->path NULL when there is none. */
bool config_discover(const char *start, config *out, char **error);

/** Read PATH as discovery does: a pyproject.toml without `[tool.oomlint]`
 *  is no configuration, which gives true with OUT->path NULL. */
bool config_load_discovered(const char *path, config *out, char **error);

/** The names discovery looks for in each folder, in precedence order;
 *  NULL-terminated. */
extern const char *const config_file_names[];

/** Called by config_walk with each candidate file that exists; returns true
 *  to end the walk. */
typedef bool (*config_probe)(const char *path, const struct stat *st, void *arg);

/** The discovery walk: from START's folder (START itself when it is a
 *  folder) upwards, each folder's candidates in precedence order
 *  (.oomlint.toml, oomlint.toml, pyproject.toml) handed to PROBE. The walk
 *  ends after folder STOP, or at the root when STOP is NULL or not above. */
void config_walk(const char *start, const char *stop, config_probe probe, void *arg);

void config_free(config *self);

/** Fill OUT (fresh options) from SELF, OVER winning: OVER's select replaces
 *  the file's select and ignore; ignores, extend-selects and rules folders
 *  add up; OVER's sizes replace the file's. SELF may be an empty config. */
void config_apply(const config *self, const config_overrides *over, oom_options *out);

/** OUT (empty) gets BASE with TOP on top of it, by the rules of
 *  config_apply: the command line's flags under an editor's settings. */
void config_overrides_merge(const config_overrides *base, const config_overrides *top, config_overrides *out);

void config_overrides_free(config_overrides *self);

/** Whether A and B say the same (lists compared in order). */
bool config_overrides_equal(const config_overrides *a, const config_overrides *b);

/** Whether a version string ("2.3", "2.4.1") is older than MAJOR.MINOR. */
bool config_version_older(const char *version, int major, int minor);

/** Whether PATH (as walked) matches `exclude` or `extend-exclude`. */
bool config_excluded(const config *self, const char *path);

/** Whether a folder walk lints the file PATH (SELF may be NULL: the
 *  defaults, `*.py` and `*.ipynb`). Files named on the command line are
 *  linted whatever their name. */
bool config_included(const config *self, const char *path);

/** Drop the diagnostics of DOC that `per-file-ignores` turns off for its path. */
void config_filter_document(const config *self, oom_document *doc);

/** Whether GLOB is well formed (non-empty, brackets closed, no dangling `\`). */
bool config_glob_is_valid(const char *glob);

/** PATH made absolute without resolving symlinks in its last component
 *  (malloc'd); "./" and "x/.." are folded. */
char *config_absolute(const char *path);

#endif
