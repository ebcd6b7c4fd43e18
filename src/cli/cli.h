/* The command line's shared state: parsed options, and one function per
 * subcommand (each in its own file: check.c, rules.c). */
#ifndef OOM_CLI_CLI_H
#define OOM_CLI_CLI_H

#include <stdbool.h>

#include "config/config.h"
#include "emit/emit.h"
#include "oomlint/oomlint.h"

#define EXIT_CLEAN 0
#define EXIT_FOUND 1
#define EXIT_USAGE 2

typedef struct {
  oom_options *options;
  emit_format format;
  const char *format_name;
  bool statistics, exit_zero, quiet, predicates;
  const char *stdin_filename;
  int color; /* -1 auto, 0 never, 1 always */
  /* --fix writes fixed files; --diff prints what it would change instead;
   * --unsafe-fixes applies (and marks as fixable) unsafe fixes too */
  bool fix, unsafe_fixes, diff, show_fixes;
  config cfg;  /* the configuration file in effect (cfg.path NULL: none) */
  int threads; /* -j/--threads; 0: one per core */
  /* --no-cache, --cache-dir DIR (caching.c says where the cache goes) */
  bool no_cache;
  const char *cache_dir;
  /* estimate: the script's own arguments (after `--`) */
  char **script_argv;
  int script_argc;
} cli;

/* What the command line said about settings a configuration file also sets;
 * kept apart so that the flags can beat the file (settings.c). */
typedef struct {
  config_overrides over;
  const char *config_path;
  bool isolated;
} cli_flags;

/** Find (or read --config) the configuration for START and build C->options
 *  from it and FLAGS, flags winning. Returns EXIT_CLEAN or EXIT_USAGE (the
 *  error already printed). */
int cli_settings_resolve(cli *c, const cli_flags *flags, const char *start);
/** `oomlint --show-settings FILE`: the resolved settings, one per line. */
int cli_show_settings(const oom_linter *linter, const cli *c, const char *file);
void cli_flags_free(cli_flags *flags);


/** `oomlint [check] PATH...`: lint and report. LINTER comes from
 *  oom_linter_load: check compiles it when some file must be linted. */
int cli_check(oom_linter *linter, int argc, char **argv, const cli *c);
/** `oomlint rule CODE` / `oomlint rule --predicates`. */
int cli_rule(const oom_linter *linter, int argc, char **argv, const cli *c);
/** `oomlint rules`. */
int cli_rules(const oom_linter *linter, const cli *c);
/** `oomlint server`: the language server on stdio (server.c). It finds each
 *  document's configuration itself, so it gets the flags, not a linter. */
int cli_server(const cli_flags *flags, int argc, char **argv);
/** `--gpu-memory auto`: the first GPU's total memory as nvidia-smi reports
 *  it, in *BYTES; false with WHY when there is no nvidia-smi or it says
 *  nothing usable (estimate.c). */
bool cli_gpu_memory_auto(uint64_t *bytes, char *why, size_t why_size);
/** `oomlint estimate PATH`: the static memory estimate (estimate.c). */
int cli_estimate(const oom_linter *linter, int argc, char **argv, const cli *c);
/** Print "oomlint: " + message + a usage hint to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

#endif
