/* libFuzzer target: the notebook reader and writer on mutated notebooks
 * (seeded with the notebook fixtures). Whatever the bytes: no crash; a
 * notebook read gives a module whose cells' rows add up; the module cut back
 * into cells gives the sources read; writing unchanged sources gives the
 * same bytes; and writing changed ones gives a notebook that reads back with
 * exactly those sources, or a refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notebook/notebook.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what) {
  if (ok) return;
  fprintf(stderr, "fuzz_notebook: %s\n", what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256 * 1024) return 0;
  const char *bytes = (const char *)data;
  char why[256];
  notebook nb;
  if (!notebook_read(bytes, size, &nb, why, sizeof why)) {
    check(why[0] != '\0', "a refusal without a reason");
    return 0;
  }
  uint32_t rows_total = 0;
  for (size_t i = 0; i < nb.ncells; i++) {
    check(i == 0 || nb.cells[i].first_row == rows_total + 1, "cells do not follow each other");
    rows_total = nb.cells[i].first_row + nb.cells[i].rows;
  }
  if (nb.spans_ok) {
    /* every module row has a line of the file, in order, inside the file */
    size_t lines = 0;
    for (size_t i = 0; i < size; i++) lines += bytes[i] == '\n';
    check(nb.nfile_rows == rows_total, "file lines do not cover the module");
    for (size_t i = 0; i < nb.nfile_rows; i++) {
      check(nb.file_rows[i] <= lines, "a file line past the file");
      check(i == 0 || nb.file_rows[i] >= nb.file_rows[i - 1], "file lines out of order");
    }
  }
  uint32_t *rows = calloc(nb.ncells + 1, sizeof *rows);
  check(notebook_module_rows(nb.module, nb.module_len, nb.ncells, rows), "the module lost a separator");
  for (size_t i = 0; i < nb.ncells; i++) check(rows[i] == nb.cells[i].first_row, "separator rows differ");
  free(rows);
  char **sources = calloc(nb.ncells + 1, sizeof *sources);
  size_t *lens = calloc(nb.ncells + 1, sizeof *lens);
  if (notebook_split(&nb, nb.module, nb.module_len, sources, lens, why, sizeof why)) {
    for (size_t i = 0; i < nb.ncells; i++)
      check(lens[i] == nb.cells[i].source_len && !memcmp(sources[i], nb.cells[i].source, lens[i]),
            "the unchanged module does not give back the sources");
    buf out = {0};
    if (nb.spans_ok) {
      check(notebook_write(&nb, bytes, size, sources, lens, &out, why, sizeof why), "unchanged sources refused");
      check(out.len == size && !memcmp(out.data, bytes, size), "unchanged sources changed the bytes");
    }
    /* every cell gains a line: written, it must read back with those sources */
    for (size_t i = 0; i < nb.ncells; i++) {
      char *grown = malloc(lens[i] + 16);
      memcpy(grown, sources[i], lens[i]);
      memcpy(grown + lens[i], "\nx = 1\n", 7);
      free(sources[i]);
      sources[i] = grown;
      lens[i] += 7;
    }
    buf_clear(&out);
    if (notebook_write(&nb, bytes, size, sources, lens, &out, why, sizeof why)) {
      notebook again;
      check(notebook_read(out.data, out.len, &again, why, sizeof why), "a written notebook does not read");
      check(again.ncells == nb.ncells, "a written notebook has other cells");
      for (size_t i = 0; i < nb.ncells; i++)
        check(again.cells[i].source_len == lens[i] && !memcmp(again.cells[i].source, sources[i], lens[i]),
              "a written cell reads back differently");
      notebook_free(&again);
    }
    buf_free(&out);
    for (size_t i = 0; i < nb.ncells; i++) free(sources[i]);
  }
  free(sources);
  free(lens);
  notebook_free(&nb);
  return 0;
}
