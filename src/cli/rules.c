/* This file contains `oomlint rule CODE` (a rule's documentation, as
 * Markdown) and `oomlint rules` (the table, or JSON for tools). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"


int cli_rule(const oom_linter *linter, int argc, char **argv, const cli *c) {
  if (c->predicates) {
    char *doc = oom_linter_predicates_doc();
    fputs(doc, stdout);
    free(doc);
    return EXIT_CLEAN;
  }
  if (argc != 1) return cli_usage_error("%s", "`oomlint rule` takes one rule code (e.g. OOM101) or --predicates");
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


int cli_rules(const oom_linter *linter, const cli *c) {
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
