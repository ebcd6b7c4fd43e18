/* This file contains the `oomlint` command: argument parsing (Ruff's option
 * names where the meaning is the same), the `check`, `rule` and `rules`
 * commands, and the exit status (0 nothing reported, 1 something reported,
 * 2 usage, configuration or I/O error). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/files.h"
#include "emit/emit.h"
#include "oomlint/oomlint.h"
#include "util/alloc.h"
#include "util/buf.h"

#define EXIT_CLEAN 0
#define EXIT_FOUND 1
#define EXIT_USAGE 2

static const char USAGE[] =
  "oomlint: find what makes PyTorch training scripts run out of memory, before they run.\n"
  "\n"
  "Usage:\n"
  "  oomlint [check] [OPTIONS] [PATH...]   lint files and folders (default: .); `-` reads stdin\n"
  "  oomlint rule CODE                     print a rule's documentation\n"
  "  oomlint rule --predicates             print the query predicates rule files can use\n"
  "  oomlint rules [--output-format json]  list every rule\n"
  "  oomlint --version\n"
  "\n"
  "Options:\n"
  "  --select CODES           only these rules (codes or prefixes: OOM101,OOM5; ALL)\n"
  "  --extend-select CODES    add rules to the selection\n"
  "  --ignore CODES           turn rules off (the more specific selector wins)\n"
  "  --output-format FORMAT   full (default), concise, json, json-lines, github\n"
  "  --statistics             count diagnostics per rule instead of listing them\n"
  "  --exit-zero              exit 0 even when something is reported\n"
  "  --stdin-filename NAME    read the source from stdin, report it as NAME\n"
  "  --rules-dir DIR          load more rule files (*.scm) from DIR\n"
  "  --color WHEN             auto (default), always, never\n"
  "  -q, --quiet              print diagnostics only, no summary\n"
  "  -h, --help               this text\n"
  "  -V, --version            the version\n"
  "\n"
  "Exit status: 0 nothing reported, 1 something reported, 2 usage or I/O error.\n"
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
  OPT_PREDICATES
};

typedef struct {
  oom_options *options;
  emit_format format;
  const char *format_name;
  bool statistics, exit_zero, quiet, predicates;
  const char *stdin_filename;
  int color; /* -1 auto, 0 never, 1 always */
} cli;


static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "oomlint: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nRun `oomlint --help` for usage.\n");
  return EXIT_USAGE;
}


/* "OOM101,OOM5 ALL" -> each selector; false on a malformed one */
static bool each_selector(const char *list, oom_options *o, void (*add)(oom_options *, const char *)) {
  char *copy = oom_xstrdup(list);
  bool ok = true;
  for (char *save = NULL, *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    if (!oom_selector_is_valid(tok)) {
      fprintf(stderr, "oomlint: invalid rule selector `%s` (expected ALL, or OOM followed by up to three digits)\n", tok);
      ok = false;
      break;
    }
    add(o, tok);
  }
  free(copy);
  return ok;
}


static int cmd_rule(const oom_linter *linter, int argc, char **argv, const cli *c) {
  if (c->predicates) {
    char *doc = oom_linter_predicates_doc();
    fputs(doc, stdout);
    free(doc);
    return EXIT_CLEAN;
  }
  if (argc != 1) return usage_error("%s", "`oomlint rule` takes one rule code (e.g. OOM101) or --predicates");
  const oom_rule *r = oom_linter_find_rule(linter, argv[0]);
  if (!r) {
    fprintf(stderr, "oomlint: no rule `%s`; `oomlint rules` lists them\n", argv[0]);
    return EXIT_USAGE;
  }
  const char *fix = oom_rule_fix_applicability(r);
  printf("# %s (%s)\n\n", oom_rule_name(r), oom_rule_code(r));
  printf("Severity: %s. ", oom_rule_severity(r) == OOM_SEVERITY_ERROR     ? "error"
                           : oom_rule_severity(r) == OOM_SEVERITY_WARNING ? "warning"
                                                                           : "info");
  if (!fix) printf("No fix.\n\n");
  else if (!strcmp(fix, "display")) printf("Suggestion only (no automatic edit): %s.\n\n", oom_rule_fix_title(r));
  else printf("Fix (%s): %s.\n\n", fix, oom_rule_fix_title(r));
  fputs(oom_rule_doc(r), stdout);
  return EXIT_CLEAN;
}


static int cmd_rules(const oom_linter *linter, const cli *c) {
  size_t n = oom_linter_rule_count(linter);
  if (c->format == EMIT_JSON) {
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
      const oom_rule *r = oom_linter_rule(linter, i);
      const char *fix = oom_rule_fix_applicability(r);
      json_array_append_new(
        a, json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:s}", "code", oom_rule_code(r), "name", oom_rule_name(r),
                     "severity", oom_severity_name(oom_rule_severity(r)), "message", oom_rule_message(r), "fix",
                     fix ? json_pack("{s:s, s:s}", "applicability", fix, "title", oom_rule_fix_title(r)) : json_null(),
                     "explanation", oom_rule_doc(r), "origin", oom_rule_origin(r)));
    }
    json_dumpf(a, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
    putchar('\n');
    json_decref(a);
    return EXIT_CLEAN;
  }
  printf("%-7s %-36s %-8s %s\n", "code", "name", "severity", "fix");
  for (size_t i = 0; i < n; i++) {
    const oom_rule *r = oom_linter_rule(linter, i);
    const char *fix = oom_rule_fix_applicability(r);
    printf("%-7s %-36s %-8s %s\n", oom_rule_code(r), oom_rule_name(r), oom_severity_name(oom_rule_severity(r)),
           fix ? fix : "-");
  }
  return EXIT_CLEAN;
}


static int cmd_check(const oom_linter *linter, int argc, char **argv, const cli *c) {
  file_list files = {0};
  bool use_stdin = c->stdin_filename != NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-")) use_stdin = true;
    else files_collect(&files, argv[i], stderr);
  }
  if (argc == 0 && !use_stdin) files_collect(&files, ".", stderr);
  files_sort(&files);
  int io_errors = files.errors;
  oom_worker *worker = oom_worker_new(linter);
  if (!worker) {
    fprintf(stderr, "oomlint: the Python grammar does not load into this tree-sitter runtime\n");
    files_free(&files);
    return EXIT_USAGE;
  }
  bool color = c->color == 1 || (c->color == -1 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
  emitter *em = c->statistics ? NULL : emit_begin(stdout, c->format, color);
  size_t total = 0, nfiles = 0, by_sev[3] = {0};
  size_t nrules = oom_linter_rule_count(linter);
  size_t *per_rule = oom_xcalloc(nrules, sizeof *per_rule);
  for (size_t i = 0; i < files.len + (use_stdin ? 1 : 0); i++) {
    const char *path = i < files.len ? files.paths[i] : NULL;
    const char *shown = path ? path : (c->stdin_filename ? c->stdin_filename : "-");
    char why[256];
    size_t len = 0;
    char *text = files_read(path, &len, why, sizeof why);
    if (!text) {
      fprintf(stderr, "oomlint: %s: %s\n", shown, why);
      io_errors++;
      continue;
    }
    oom_document *doc = oom_document_new(shown, text, len);
    free(text);
    oom_document_lint(doc, worker);
    nfiles++;
    size_t n = oom_document_diagnostic_count(doc);
    for (size_t k = 0; k < n; k++) {
      const oom_diagnostic *d = oom_document_diagnostic(doc, k);
      by_sev[oom_diagnostic_severity(d)]++;
      for (size_t r = 0; r < nrules; r++)
        if (oom_linter_rule(linter, r) == oom_diagnostic_rule(d)) per_rule[r]++;
    }
    total += n;
    if (em) emit_document(em, doc);
    oom_document_free(doc);
  }
  if (em) emit_end(em);
  if (c->statistics) {
    for (size_t r = 0; r < nrules; r++)
      if (per_rule[r]) {
        const oom_rule *rule = oom_linter_rule(linter, r);
        printf("%5zu\t%s\t%s\n", per_rule[r], oom_rule_code(rule), oom_rule_name(rule));
      }
  }
  bool text_format = c->format == EMIT_FULL || c->format == EMIT_CONCISE;
  if (!c->quiet && text_format) {
    FILE *out = stdout;
    if (total == 0) {
      fprintf(out, "All checks passed (%zu file%s).\n", nfiles, nfiles == 1 ? "" : "s");
    } else {
      fprintf(out, "Found %zu problem%s in %zu file%s (%zu error%s, %zu warning%s, %zu info).\n", total,
              total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s", by_sev[OOM_SEVERITY_ERROR],
              by_sev[OOM_SEVERITY_ERROR] == 1 ? "" : "s", by_sev[OOM_SEVERITY_WARNING],
              by_sev[OOM_SEVERITY_WARNING] == 1 ? "" : "s", by_sev[OOM_SEVERITY_INFO]);
    }
  }
  free(per_rule);
  oom_worker_free(worker);
  files_free(&files);
  if (io_errors) return EXIT_USAGE;
  if (total && !c->exit_zero) return EXIT_FOUND;
  return EXIT_CLEAN;
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
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};
  cli c = {oom_options_new(), EMIT_FULL, "full", false, false, false, false, NULL, -1};
  int status = EXIT_CLEAN;
  opterr = 0;
  int opt;
  /* `+` would stop at the first non-option; Ruff lets options follow paths */
  while ((opt = getopt_long(argc, argv, "qhV", longopts, NULL)) != -1) {
    switch (opt) {
    case OPT_SELECT:
      if (!each_selector(optarg, c.options, oom_options_select)) status = EXIT_USAGE;
      break;
    case OPT_EXTEND_SELECT:
      if (!each_selector(optarg, c.options, oom_options_extend_select)) status = EXIT_USAGE;
      break;
    case OPT_IGNORE:
      if (!each_selector(optarg, c.options, oom_options_ignore)) status = EXIT_USAGE;
      break;
    case OPT_FORMAT:
      if (!emit_format_parse(optarg, &c.format)) {
        status = usage_error("unknown output format `%s` (full, concise, json, json-lines, github)", optarg);
      }
      c.format_name = optarg;
      break;
    case OPT_STATISTICS: c.statistics = true; break;
    case OPT_EXIT_ZERO: c.exit_zero = true; break;
    case OPT_STDIN_FILENAME: c.stdin_filename = optarg; break;
    case OPT_RULES_DIR: oom_options_add_rules_dir(c.options, optarg); break;
    case OPT_PREDICATES: c.predicates = true; break;
    case OPT_COLOR:
      if (!strcmp(optarg, "auto")) c.color = -1;
      else if (!strcmp(optarg, "always")) c.color = 1;
      else if (!strcmp(optarg, "never")) c.color = 0;
      else status = usage_error("--color takes auto, always or never, not `%s`", optarg);
      break;
    case 'q': c.quiet = true; break;
    case 'h':
      fputs(USAGE, stdout);
      oom_options_free(c.options);
      return EXIT_CLEAN;
    case 'V':
      printf("oomlint %s\n", oom_version());
      oom_options_free(c.options);
      return EXIT_CLEAN;
    default:
      if (optopt && optopt < 256) {
        char o[3] = {'-', (char)optopt, '\0'};
        status = usage_error("unknown or incomplete option `%s`", o);
      } else {
        status = usage_error("unknown or incomplete option `%s`", argv[optind - 1]);
      }
      break;
    }
    if (status != EXIT_CLEAN) break;
  }
  if (status != EXIT_CLEAN) {
    oom_options_free(c.options);
    return status;
  }
  char **rest = argv + optind;
  int nrest = argc - optind;
  const char *command = "check";
  if (nrest > 0 && (!strcmp(rest[0], "check") || !strcmp(rest[0], "rule") || !strcmp(rest[0], "rules"))) {
    command = rest[0];
    rest++;
    nrest--;
  }
  char *error = NULL;
  oom_linter *linter = oom_linter_new(c.options, &error);
  if (!linter) {
    fprintf(stderr, "oomlint: %s\n", error);
    free(error);
    oom_options_free(c.options);
    return EXIT_USAGE;
  }
  if (!strcmp(command, "rule")) status = cmd_rule(linter, nrest, rest, &c);
  else if (!strcmp(command, "rules")) status = cmd_rules(linter, &c);
  else status = cmd_check(linter, nrest, rest, &c);
  oom_linter_free(linter);
  oom_options_free(c.options);
  return status;
}
