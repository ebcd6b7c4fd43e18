/* This file contains the `oomlint` command's entry point: option parsing
 * (Ruff's option names where the meaning is the same) and the dispatch to
 * the subcommands. Exit status: 0 nothing reported, 1 something reported, 2
 * usage, configuration or I/O error. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/alloc.h"
#include "util/vec.h"

static const char USAGE[] =
  "oomlint: find what makes PyTorch training scripts run out of memory, before they run.\n"
  "\n"
  "Usage:\n"
  "  oomlint [check] [OPTIONS] [PATH...]   lint files and folders (default: .); `-` reads stdin\n"
  "  oomlint rule CODE                     print a rule's documentation\n"
  "  oomlint rule --predicates             print the query predicates rule files can use\n"
  "  oomlint rules [--output-format json]  list every rule\n"
  "  oomlint estimate PATH                 the memory a file's models need to train (text or json)\n"
  "  oomlint server                        the language server (LSP on stdin/stdout)\n"
  "  oomlint --version\n"
  "\n"
  "Options:\n"
  "  --select CODES           only these rules (codes or prefixes: OOM101,OOM5; ALL)\n"
  "  --extend-select CODES    add rules to the selection\n"
  "  --ignore CODES           turn rules off (the more specific selector wins)\n"
  "  --output-format FORMAT   full (default), concise, json, json-lines, github, sarif, gitlab, junit\n"
  "  --fix                    apply safe fixes, writing the files (--no-fix: don't)\n"
  "  --unsafe-fixes           also apply (and mark as fixable) unsafe fixes\n"
  "  --diff                   print the fixes as a unified diff instead of writing them\n"
  "  --show-fixes             list what --fix fixed\n"
  "  --statistics             count diagnostics per rule instead of listing them\n"
  "  --exit-zero              exit 0 even when something is reported\n"
  "  --stdin-filename NAME    read the source from stdin, report it as NAME\n"
  "  --rules-dir DIR          load more rule files (*.scm) from DIR\n"
  "  --config PATH            read settings from PATH instead of the nearest configuration file\n"
  "  --isolated               ignore every configuration file\n"
  "  --show-settings          print the settings resolved for the first PATH, then exit\n"
  "  -j, --threads N          lint with N threads (default: one per core)\n"
  "  --no-cache               neither read nor write the result cache\n"
  "  --cache-dir DIR          keep the result cache in DIR (default: $OOMLINT_CACHE_DIR, else\n"
  "                           .oomlint_cache in the project root)\n"
  "  --max-batch-size N       largest literal batch size OOM301 accepts\n"
  "  --gpu-memory SIZE        GPU memory budget for OOM601/OOM301 and estimate (24GiB, 80GB)\n"
  "  --color WHEN             auto (default), always, never\n"
  "  -q, --quiet              print diagnostics only, no summary\n"
  "  -h, --help               this text\n"
  "  -V, --version            the version\n"
  "\n"
  "Exit status: 0 nothing reported, 1 something reported, 2 usage, configuration or I/O error.\n"
  "Suppress a finding with `# noqa: OOM501` on its line, or a file with `# oomlint: noqa`.\n";

enum {
  OPT_SELECT = 256,
  OPT_EXTEND_SELECT,
  OPT_IGNORE,
  OPT_FORMAT,
  OPT_STATISTICS,
  OPT_EXIT_ZERO,
  OPT_STDIN_FILENAME,
  OPT_RULES_DIR,
  OPT_COLOR,
  OPT_PREDICATES,
  OPT_GPU_MEMORY,
  OPT_FIX,
  OPT_NO_FIX,
  OPT_UNSAFE_FIXES,
  OPT_NO_UNSAFE_FIXES,
  OPT_DIFF,
  OPT_SHOW_FIXES,
  OPT_NO_SHOW_FIXES,
  OPT_CONFIG,
  OPT_ISOLATED,
  OPT_SHOW_SETTINGS,
  OPT_MAX_BATCH_SIZE,
  OPT_NO_CACHE,
  OPT_CACHE_DIR
};

int cli_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "oomlint: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nRun `oomlint --help` for usage.\n");
  return EXIT_USAGE;
}


/* "OOM101,OOM5 ALL" -> each selector; false on a malformed one */
static bool each_selector(const char *list, config_strings *out) {
  char *copy = oom_xstrdup(list);
  bool ok = true;
  for (char *save = NULL, *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    if (!oom_selector_is_valid(tok)) {
      fprintf(stderr, "oomlint: invalid rule selector `%s` (expected ALL, or OOM followed by up to three digits)\n", tok);
      ok = false;
      break;
    }
    vec_push(out, oom_xstrdup(tok));
  }
  free(copy);
  return ok;
}


int main(int argc, char **argv) {
  static const struct option longopts[] = {
    {"select", required_argument, NULL, OPT_SELECT},
    {"extend-select", required_argument, NULL, OPT_EXTEND_SELECT},
    {"ignore", required_argument, NULL, OPT_IGNORE},
    {"output-format", required_argument, NULL, OPT_FORMAT},
    {"statistics", no_argument, NULL, OPT_STATISTICS},
    {"exit-zero", no_argument, NULL, OPT_EXIT_ZERO},
    {"stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME},
    {"rules-dir", required_argument, NULL, OPT_RULES_DIR},
    {"color", required_argument, NULL, OPT_COLOR},
    {"predicates", no_argument, NULL, OPT_PREDICATES},
    {"gpu-memory", required_argument, NULL, OPT_GPU_MEMORY},
    {"fix", no_argument, NULL, OPT_FIX},
    {"no-fix", no_argument, NULL, OPT_NO_FIX},
    {"unsafe-fixes", no_argument, NULL, OPT_UNSAFE_FIXES},
    {"no-unsafe-fixes", no_argument, NULL, OPT_NO_UNSAFE_FIXES},
    {"diff", no_argument, NULL, OPT_DIFF},
    {"show-fixes", no_argument, NULL, OPT_SHOW_FIXES},
    {"no-show-fixes", no_argument, NULL, OPT_NO_SHOW_FIXES},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"isolated", no_argument, NULL, OPT_ISOLATED},
    {"show-settings", no_argument, NULL, OPT_SHOW_SETTINGS},
    {"max-batch-size", required_argument, NULL, OPT_MAX_BATCH_SIZE},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
    {"threads", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};
  cli c = {.options = oom_options_new(), .format = EMIT_FULL, .format_name = "full", .color = -1};
  cli_flags flags = {0};
  bool show_settings = false;
  int status = EXIT_CLEAN;
  opterr = 0;
  int opt;
  /* `+` would stop at the first non-option; Ruff lets options follow paths */
  while ((opt = getopt_long(argc, argv, "qhVj:", longopts, NULL)) != -1) {
    switch (opt) {
    case OPT_SELECT:
      if (!each_selector(optarg, &flags.over.select)) status = EXIT_USAGE;
      break;
    case OPT_EXTEND_SELECT:
      if (!each_selector(optarg, &flags.over.extend_select)) status = EXIT_USAGE;
      break;
    case OPT_IGNORE:
      if (!each_selector(optarg, &flags.over.ignore)) status = EXIT_USAGE;
      break;
    case OPT_FORMAT:
      if (!emit_format_parse(optarg, &c.format) && strcmp(optarg, "text") != 0) {
        status = cli_usage_error("unknown output format `%s` (full, concise, json, json-lines, github, sarif, gitlab, junit)", optarg);
      }
      c.format_name = optarg;
      break;
    case OPT_STATISTICS: c.statistics = true; break;
    case OPT_EXIT_ZERO: c.exit_zero = true; break;
    case OPT_STDIN_FILENAME: c.stdin_filename = optarg; break;
    case OPT_RULES_DIR: vec_push(&flags.over.rules_dirs, oom_xstrdup(optarg)); break;
    case OPT_CONFIG: flags.config_path = optarg; break;
    case OPT_ISOLATED: flags.isolated = true; break;
    case OPT_NO_CACHE: c.no_cache = true; break;
    case OPT_CACHE_DIR:
      if (*optarg) c.cache_dir = optarg;
      else status = cli_usage_error("--cache-dir takes a folder, not `%s`", optarg);
      break;
    case OPT_SHOW_SETTINGS: show_settings = true; break;
    case OPT_MAX_BATCH_SIZE: {
      char *end = NULL;
      unsigned long long n = strtoull(optarg, &end, 10);
      if (optarg[0] >= '1' && optarg[0] <= '9' && end && !*end) {
        flags.over.max_batch_size = n;
        flags.over.has_max_batch_size = true;
      } else {
        status = cli_usage_error("--max-batch-size takes a positive integer, not `%s`", optarg);
      }
      break;
    }
    case 'j': {
      char *end = NULL;
      long n = strtol(optarg, &end, 10);
      if (end && !*end && n >= 1 && n <= 1024) c.threads = (int)n;
      else status = cli_usage_error("-j/--threads takes a number of threads (1 to 1024), not `%s`", optarg);
      break;
    }
    case OPT_PREDICATES: c.predicates = true; break;
    case OPT_GPU_MEMORY: {
      uint64_t bytes;
      if (oom_parse_bytes(optarg, &bytes)) {
        flags.over.gpu_memory = bytes;
        flags.over.has_gpu_memory = true;
      }
      else status = cli_usage_error("--gpu-memory takes a size such as 24GiB or 80GB, not `%s`", optarg);
      break;
    }
    case OPT_FIX: c.fix = true; break;
    case OPT_NO_FIX: c.fix = false; break;
    case OPT_UNSAFE_FIXES: c.unsafe_fixes = true; break;
    case OPT_NO_UNSAFE_FIXES: c.unsafe_fixes = false; break;
    case OPT_DIFF: c.diff = true; break;
    case OPT_SHOW_FIXES: c.show_fixes = true; break;
    case OPT_NO_SHOW_FIXES: c.show_fixes = false; break;
    case OPT_COLOR:
      if (!strcmp(optarg, "auto")) c.color = -1;
      else if (!strcmp(optarg, "always")) c.color = 1;
      else if (!strcmp(optarg, "never")) c.color = 0;
      else status = cli_usage_error("--color takes auto, always or never, not `%s`", optarg);
      break;
    case 'q': c.quiet = true; break;
    case 'h':
      fputs(USAGE, stdout);
      oom_options_free(c.options);
      cli_flags_free(&flags);
      return EXIT_CLEAN;
    case 'V':
      printf("oomlint %s\n", oom_version());
      oom_options_free(c.options);
      cli_flags_free(&flags);
      return EXIT_CLEAN;
    default:
      if (optopt && optopt < 256) {
        char o[3] = {'-', (char)optopt, '\0'};
        status = cli_usage_error("unknown or incomplete option `%s`", o);
      } else {
        status = cli_usage_error("unknown or incomplete option `%s`", argv[optind - 1]);
      }
      break;
    }
    if (status != EXIT_CLEAN) break;
  }
  if (status != EXIT_CLEAN) {
    oom_options_free(c.options);
    cli_flags_free(&flags);
    return status;
  }
  char **rest = argv + optind;
  int nrest = argc - optind;
  const char *command = "check";
  if (nrest > 0 && (!strcmp(rest[0], "check") || !strcmp(rest[0], "rule") || !strcmp(rest[0], "rules") ||
                    !strcmp(rest[0], "server") || !strcmp(rest[0], "estimate"))) {
    command = rest[0];
    rest++;
    nrest--;
  }
  /* the server looks for each document's configuration as it opens it: a
   * broken file where the editor started it must not stop it starting */
  if (!strcmp(command, "server") && !show_settings) {
    status = cli_server(&flags, nrest, rest);
    cli_flags_free(&flags);
    oom_options_free(c.options);
    return status;
  }
  /* the configuration is looked for from the first path linted */
  const char *start = ".";
  for (int i = 0; i < nrest; i++)
    if (strcmp(rest[i], "-") != 0) {
      start = rest[i];
      break;
    }
  if (!strcmp(start, ".") && c.stdin_filename) start = c.stdin_filename;
  status = cli_settings_resolve(&c, &flags, start);
  cli_flags_free(&flags);
  if (status != EXIT_CLEAN) {
    config_free(&c.cfg);
    oom_options_free(c.options);
    return status;
  }
  char *error = NULL;
  /* check compiles the rule patterns only when the cache cannot answer for
   * every file (check.c); the other commands need them or are cheap */
  bool is_check = !show_settings && !strcmp(command, "check");
  oom_linter *linter = is_check ? oom_linter_load(c.options, &error) : oom_linter_new(c.options, &error);
  if (!linter) {
    fprintf(stderr, "oomlint: %s\n", error);
    free(error);
    config_free(&c.cfg);
    oom_options_free(c.options);
    return EXIT_USAGE;
  }
  if (show_settings) status = cli_show_settings(linter, &c, nrest > 0 ? rest[0] : start);
  else if (!strcmp(command, "rule")) status = cli_rule(linter, nrest, rest, &c);
  else if (!strcmp(command, "rules")) status = cli_rules(linter, &c);
  else if (!strcmp(command, "estimate")) status = cli_estimate(linter, nrest, rest, &c);
  else status = cli_check(linter, nrest, rest, &c);
  oom_linter_free(linter);
  config_free(&c.cfg);
  oom_options_free(c.options);
  return status;
}
