/* The server's configurations: for each document, the nearest configuration
 * file (found by the command line's discovery walk, no higher than the
 * workspace folder that holds the document) and a linter built from it,
 * cached per file. Used by the lint thread alone. */
#ifndef OOM_LSP_CONFIGS_H
#define OOM_LSP_CONFIGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "oomlint/oomlint.h"

typedef struct lsp_configs lsp_configs;
/** One configuration file as read, with its linter; or the fallback (no
 *  file: the defaults under the settings). Reference counted, by the lint
 *  thread alone: other threads may only read one under a lock that the
 *  lint thread holds while it changes who refers to it. */
typedef struct lsp_config lsp_config;

/** Shows a problem to the user: TYPE as window/showMessage's (1 error). */
typedef void (*lsp_configs_report_fn)(void *ctx, int type, const char *message);
/** Told each rules folder a linter is built from (again on every build). */
typedef void (*lsp_configs_dir_fn)(void *ctx, const char *dir);

typedef struct {
  const char *const *roots; /* the workspace folders' paths (copied) */
  size_t nroots;
  const char *config_path; /* --config: this file for every document (copied), or NULL */
  bool isolated;           /* --isolated: no configuration files at all */
  lsp_configs_report_fn report;
  void *report_ctx;          /* REPORT's and RULES_DIR's */
  lsp_configs_dir_fn rules_dir; /* or NULL */
} lsp_configs_setup;

/** A cache with no settings yet: call lsp_configs_set_overrides first. */
lsp_configs *lsp_configs_new(const lsp_configs_setup *setup);
void lsp_configs_free(lsp_configs *self);

/** Build every linter from now on with OVER (consumed) above the files.
 *  The fallback is built at once; when it cannot be, the error is reported,
 *  the old settings stay and the result is false. Empties the cache. */
bool lsp_configs_set_overrides(lsp_configs *self, config_overrides *over);

/** What the document at PATH is linted with (NULL when not even the
 *  built-in rules could be built), read or built now when its
 *  file is new or has changed since (path, size, times), or its rules
 *  folders have (stamps.c says how closely they are looked at); a file
 *  that cannot be read or built is reported once per change, and gives the
 *  fallback.
 *  Borrowed until the next call on SELF; lsp_config_retain keeps it. */
lsp_config *lsp_configs_for(lsp_configs *self, const char *path);

/** The linter of documents without a configuration file; NULL before
 *  lsp_configs_set_overrides succeeds. Borrowed like lsp_configs_for's. */
lsp_config *lsp_configs_fallback(lsp_configs *self);

/** The workspace folders are now ROOTS (copied). Cached files stay: a
 *  file's linter does not depend on the folders, only which file a
 *  document's search finds, and that search runs on every lookup. */
void lsp_configs_set_roots(lsp_configs *self, const char *const *roots, size_t nroots);

/** Drop what was read from PATH, so that the next use reads it again. */
void lsp_configs_forget(lsp_configs *self, const char *path);

/** A rule file changed: build again, on their next use, the linters whose
 *  rules folders or rule files are not as they were. */
void lsp_configs_rules_changed(lsp_configs *self);
/** A count that grows each time a linter is built again because its rules
 *  changed: the documents linted before with it are out of date. */
uint64_t lsp_configs_rules_generation(const lsp_configs *self);

/** How many entries the cache holds (for tests). */
size_t lsp_configs_count(const lsp_configs *self);

void lsp_config_retain(lsp_config *self);
void lsp_config_release(lsp_config *self);
/** The configuration file's path, or NULL for the fallback. */
const char *lsp_config_path(const lsp_config *self);
/** Its excludes and per-file-ignores (an empty config for the fallback). */
const config *lsp_config_settings(const lsp_config *self);
/** NULL when even the built-in rules could not be built. */
const oom_linter *lsp_config_linter(const lsp_config *self);
oom_worker *lsp_config_worker(lsp_config *self);

/** The folder of ROOTS that bounds PATH's search: the deepest one holding
 *  it, or NULL when none does. */
const char *lsp_configs_root_for(const char *const *roots, size_t nroots, const char *path);

#endif
