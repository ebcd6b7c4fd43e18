/* This file contains --fix and --diff for one file: run the fixer, then
 * write the file, print the fixed source (stdin) or print the diff. */
#include "cli/fixing.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/atomic.h"
#include "fix/fix.h"


oom_applicability cli_fix_level(const cli *c) {
  return c->unsafe_fixes ? OOM_FIX_UNSAFE : OOM_FIX_SAFE;
}


/* per-file-ignores, which the linter does not know: what is not reported is
 * not fixed either (noqa comments and --ignore act inside the linter) */
static void drop_ignored(const void *cfg, oom_document *doc) {
  config_filter_document(cfg, doc);
}


static void list_fixes(buf *out, const char *shown, const fix_result *r) {
  buf_printf(out, "- %s:\n", shown);
  for (size_t i = 0; i < r->per_rule.len; i++) {
    const oom_rule *rule = r->per_rule.items[i].rule;
    buf_printf(out, "    %zu x %s (%s)\n", r->per_rule.items[i].count, oom_rule_code(rule), oom_rule_name(rule));
  }
}


oom_document *cli_fix_file(const cli *c, oom_worker *worker, const char *path, const char *shown, const char *text,
                           size_t len, fix_totals *totals, bool *io_error) {
  fix_result r;
  fix_filter ignored = {drop_ignored, &c->cfg};
  fix_document(worker, shown, text, len, cli_fix_level(c), &ignored, &r);
  for (size_t i = 0; i < r.dropped.len; i++)
    fprintf(stderr, "oomlint: %s:%u:%u: fix for %s dropped: it would leave a syntax error\n", shown,
            r.dropped.items[i].row, r.dropped.items[i].column, oom_rule_code(r.dropped.items[i].rule));
  if (!r.converged)
    fprintf(stderr, "oomlint: %s: fixes still changed the file after %d passes; the rest are left\n", shown,
            FIX_MAX_PASSES);
  size_t new_len;
  const char *new_text = oom_document_text(r.doc, &new_len);
  bool written = r.changed;
  if (c->diff) {
    buf d = {0};
    if (fix_diff(&d, shown, text, len, new_text, new_len)) fwrite(d.data, 1, d.len, stdout);
    buf_free(&d);
  } else if (!path) {
    fwrite(new_text, 1, new_len, stdout); /* stdin: the fixed source is the output */
  } else if (r.changed) {
    char why[512];
    if (!atomic_write(path, new_text, new_len, why, sizeof why)) {
      fprintf(stderr, "oomlint: %s: the fixes were not written: %s\n", shown, why);
      *io_error = true;
      written = false;
    }
  }
  if (!written && r.changed) {
    /* nothing was changed after all: what remains is everything */
    fix_result_free(&r);
    oom_document *doc = oom_document_new(shown, text, len);
    oom_document_lint(doc, worker);
    return doc;
  }
  if (r.fixed) {
    totals->fixed += r.fixed;
    totals->files++;
    list_fixes(&totals->shown, shown, &r);
  }
  oom_document *doc = r.doc;
  r.doc = NULL;
  fix_result_free(&r);
  return doc;
}
