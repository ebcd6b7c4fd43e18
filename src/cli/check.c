/* This file contains `oomlint check`: collect the files, lint each, emit the
 * diagnostics, print the summary or statistics, and choose the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/files.h"
#include "cli/fixing.h"
#include "fix/fix.h"
#include "util/alloc.h"


int cli_check(const oom_linter *linter, int argc, char **argv, const cli *c) {
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
  /* --diff prints diffs and --fix on stdin the fixed source, not diagnostics */
  bool fixing = c->fix || c->diff;
  bool quiet_fix = c->diff || (c->fix && use_stdin && files.len == 0);
  oom_applicability level = cli_fix_level(c);
  fix_totals fixes = {0, 0, {0}};
  size_t fixable = 0, hidden = 0;
  emitter *em = c->statistics || quiet_fix ? NULL : emit_begin(stdout, c->format, color);
  if (em) emit_set_fix_level(em, level);
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
    oom_document *doc;
    if (fixing) {
      bool write_error = false;
      doc = cli_fix_file(c, worker, path, shown, text, len, &fixes, &write_error);
      io_errors += write_error;
    } else {
      doc = oom_document_new(shown, text, len);
      oom_document_lint(doc, worker);
    }
    free(text);
    nfiles++;
    size_t n = oom_document_diagnostic_count(doc);
    for (size_t k = 0; k < n; k++) {
      const oom_diagnostic *d = oom_document_diagnostic(doc, k);
      by_sev[oom_diagnostic_severity(d)]++;
      if (fix_applicable(d, level)) fixable++;
      else if (fix_applicable(d, OOM_FIX_UNSAFE)) hidden++;
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
  if (c->diff && !c->quiet) {
    if (fixes.fixed)
      fprintf(stderr, "Would fix %zu problem%s.\n", fixes.fixed, fixes.fixed == 1 ? "" : "s");
    else
      fprintf(stderr, "No problems would be fixed.\n");
  } else if (!c->quiet && text_format && !quiet_fix) {
    FILE *out = stdout;
    if (c->show_fixes && fixes.fixed) {
      fprintf(out, "Fixed %zu problem%s:\n%s\n", fixes.fixed, fixes.fixed == 1 ? "" : "s", buf_str(&fixes.shown));
    }
    if (total + fixes.fixed == 0) {
      fprintf(out, "All checks passed (%zu file%s).\n", nfiles, nfiles == 1 ? "" : "s");
    } else if (fixes.fixed) {
      fprintf(out, "Found %zu problem%s (%zu fixed, %zu remaining).\n", total + fixes.fixed,
              total + fixes.fixed == 1 ? "" : "s", fixes.fixed, total);
    } else {
      fprintf(out, "Found %zu problem%s in %zu file%s (%zu error%s, %zu warning%s, %zu info).\n", total,
              total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s", by_sev[OOM_SEVERITY_ERROR],
              by_sev[OOM_SEVERITY_ERROR] == 1 ? "" : "s", by_sev[OOM_SEVERITY_WARNING],
              by_sev[OOM_SEVERITY_WARNING] == 1 ? "" : "s", by_sev[OOM_SEVERITY_INFO]);
    }
    /* Ruff's hint lines: what --fix would do, and what --unsafe-fixes adds */
    char more[128] = "";
    if (hidden)
      snprintf(more, sizeof more, " (%zu hidden fix%s can be enabled with the `--unsafe-fixes` option)", hidden,
               hidden == 1 ? "" : "es");
    if (fixable) fprintf(out, "[*] %zu fixable with the `--fix` option%s.\n", fixable, more);
    else if (hidden) fprintf(out, "No fixes available%s.\n", more);
  }
  buf_free(&fixes.shown);
  free(per_rule);
  oom_worker_free(worker);
  files_free(&files);
  if (io_errors) return EXIT_USAGE;
  if (c->diff) return fixes.fixed && !c->exit_zero ? EXIT_FOUND : EXIT_CLEAN;
  if (total && !c->exit_zero) return EXIT_FOUND;
  return EXIT_CLEAN;
}
