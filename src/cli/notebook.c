/* This file contains the command line's notebooks: reading one as the
 * module of its code cells, and fixing one: the module fixed as a Python
 * file is, cut back into cells, and spliced into the notebook's bytes,
 * which are written only when they parse back to the same notebook with
 * the new sources. */
#include "cli/notebook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/atomic.h"
#include "fix/fix.h"
#include "notebook/notebook.h"
#include "util/alloc.h"


oom_document *cli_document(const char *shown, char *text, size_t len, char *why, size_t whylen) {
  if (!notebook_path(shown)) return oom_document_new_owned(shown, text, len);
  notebook nb;
  bool ok = notebook_read(text, len, &nb, why, whylen);
  free(text);
  if (!ok) return NULL;
  oom_document *doc = oom_document_new_owned(shown, nb.module, nb.module_len);
  nb.module = NULL;
  uint32_t *rows = notebook_cell_rows(&nb);
  oom_document_set_cells(doc, rows, nb.ncells);
  free(rows);
  oom_document_set_file_rows(doc, nb.file_rows, nb.nfile_rows);
  notebook_free(&nb);
  return doc;
}


/* DOC's cells, found in its (perhaps fixed) module, and the file lines of
 * FILE (NB as read, or the notebook as written). */
static void set_rows(oom_document *doc, const notebook *nb, const notebook *file) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  uint32_t *rows = oom_xcalloc(nb->ncells + 1, sizeof *rows);
  if (notebook_module_rows(text, len, nb->ncells, rows)) oom_document_set_cells(doc, rows, nb->ncells);
  free(rows);
  if (file) oom_document_set_file_rows(doc, file->file_rows, file->nfile_rows);
}


static void drop_ignored(const void *cfg, oom_document *doc) {
  config_filter_document(cfg, doc);
}


/* The lint of the notebook as it is: what remains when nothing was written. */
static oom_document *unfixed(oom_worker *worker, const char *shown, const notebook *nb) {
  oom_document *doc = oom_document_new(shown, nb->module, nb->module_len);
  oom_document_lint(doc, worker);
  set_rows(doc, nb, nb);
  return doc;
}


oom_document *cli_fix_notebook(const cli *c, oom_worker *worker, const char *path, const char *shown,
                               const char *text, size_t len, fix_totals *totals, bool *io_error, char *why,
                               size_t whylen) {
  notebook nb;
  if (!notebook_read(text, len, &nb, why, whylen)) return NULL;
  fix_result r;
  fix_filter ignored = {drop_ignored, &c->cfg};
  fix_document(worker, shown, nb.module, nb.module_len, cli_fix_level(c), &ignored, &r);
  for (size_t i = 0; i < r.dropped.len; i++) {
    /* rows of the module as read: the cell they fall in */
    uint32_t row = r.dropped.items[i].row - 1;
    size_t k = 0;
    while (k + 1 < nb.ncells && nb.cells[k + 1].first_row <= row) k++;
    uint32_t in_cell = nb.ncells && row >= nb.cells[k].first_row ? row - nb.cells[k].first_row : row;
    fprintf(stderr, "oomlint: %s:cell %zu:%u:%u: fix for %s dropped: it would leave a syntax error\n", shown, k + 1,
            in_cell + 1, r.dropped.items[i].column, oom_rule_code(r.dropped.items[i].rule));
  }
  if (!r.converged)
    fprintf(stderr, "oomlint: %s: fixes still changed the file after %d passes; the rest are left\n", shown,
            FIX_MAX_PASSES);
  size_t new_len;
  const char *module = oom_document_text(r.doc, &new_len);
  char **sources = oom_xcalloc(nb.ncells + 1, sizeof *sources);
  size_t *lens = oom_xcalloc(nb.ncells + 1, sizeof *lens);
  buf out = {0};
  char reason[512] = "";
  bool split = false, ok = !r.changed;
  if (r.changed) {
    split = notebook_split(&nb, module, new_len, sources, lens, reason, sizeof reason);
    ok = split && notebook_write(&nb, text, len, sources, lens, &out, reason, sizeof reason);
  }
  if (r.changed && !ok) fprintf(stderr, "oomlint: %s: the fixes were not applied: %s\n", shown, reason);
  bool written = r.changed && ok;
  if (written && c->diff) {
    buf d = {0};
    for (size_t k = 0; k < nb.ncells; k++) {
      char label[64];
      snprintf(label, sizeof label, ":cell %zu", k + 1);
      buf name = {0};
      buf_printf(&name, "%s%s", shown, label);
      fix_diff(&d, buf_str(&name), nb.cells[k].source, nb.cells[k].source_len, sources[k], lens[k]);
      buf_free(&name);
    }
    fwrite(d.data, 1, d.len, stdout);
    buf_free(&d);
  } else if (!path && !c->diff) {
    /* stdin: the fixed notebook is the output, or the input when unchanged */
    if (written) fwrite(out.data, 1, out.len, stdout);
    else fwrite(text, 1, len, stdout);
  } else if (written) {
    char werr[512];
    if (!atomic_write(path, out.data, out.len, werr, sizeof werr)) {
      fprintf(stderr, "oomlint: %s: the fixes were not written: %s\n", shown, werr);
      *io_error = true;
      written = false;
    }
  }
  if (split)
    for (size_t k = 0; k < nb.ncells; k++) free(sources[k]);
  free(sources);
  free(lens);
  /* the lines of the notebook as written, for what remains to report */
  notebook fresh;
  char fresh_why[256];
  bool have_fresh = written && notebook_read(out.data, out.len, &fresh, fresh_why, sizeof fresh_why);
  buf_free(&out);
  oom_document *doc;
  if (written) {
    if (r.fixed) {
      totals->fixed += r.fixed;
      totals->files++;
      buf_printf(&totals->shown, "- %s:\n", shown);
      for (size_t i = 0; i < r.per_rule.len; i++) {
        const oom_rule *rule = r.per_rule.items[i].rule;
        buf_printf(&totals->shown, "    %zu x %s (%s)\n", r.per_rule.items[i].count, oom_rule_code(rule),
                   oom_rule_name(rule));
      }
    }
    doc = r.doc;
    r.doc = NULL;
    set_rows(doc, &nb, have_fresh ? &fresh : NULL);
  } else if (r.changed) {
    doc = unfixed(worker, shown, &nb);
  } else {
    doc = r.doc;
    r.doc = NULL;
    set_rows(doc, &nb, &nb);
  }
  if (have_fresh) notebook_free(&fresh);
  fix_result_free(&r);
  notebook_free(&nb);
  return doc;
}
