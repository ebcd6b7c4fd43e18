/* Jupyter notebooks (nbformat 4) as one Python module: the code cells in
 * order, as a kernel runs them, with IPython's magics and shell escapes
 * blanked (not parsed), and the way back: a fixed module split into cells
 * and spliced into the notebook's own bytes, everything else kept byte for
 * byte. */
#ifndef OOM_NOTEBOOK_NOTEBOOK_H
#define OOM_NOTEBOOK_NOTEBOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* The line put between two cells in the module. A comment, so it changes
 * nothing the rules see; it is how a fixed module is cut back into cells. */
#define NOTEBOOK_SEPARATOR "# oomlint-cell-boundary"

typedef struct {
  uint32_t index;            /* in the notebook's "cells" array (markdown cells included) */
  uint32_t first_row;        /* the module row of its first line */
  uint32_t rows;             /* its rows in the module (at least 1) */
  char *source;              /* the cell's source as the notebook holds it (NUL-terminated) */
  size_t source_len;
  char *blanked;             /* SOURCE with magics blanked: what the module holds */
  bool has_magic;            /* some line of it was blanked */
  bool list;                 /* "source" is a list of lines (else one string) */
  size_t span_start, span_end; /* the bytes of its "source" value in the file; 0, 0 when not found */
} notebook_cell;

typedef struct {
  char *module; /* the code cells joined, separators between (NUL-terminated) */
  size_t module_len;
  notebook_cell *cells; /* the code cells, in order */
  size_t ncells;
  bool spans_ok; /* every code cell's "source" was found in the bytes: fixes can be written */
  void *root;    /* the parsed JSON (a json_t *) */
  /* with SPANS_OK: the 0-based line of the file that holds each module
   * row's source line (a separator's: its cell's last), so that formats
   * read against the file (GitHub annotations, SARIF) point into it */
  uint32_t *file_rows;
  size_t nfile_rows;
} notebook;

/** Whether PATH names a notebook (ends in ".ipynb"). */
bool notebook_path(const char *path);

/** Read the notebook in BYTES (LEN bytes; need not be NUL-terminated) into
 *  OUT. False, OUT empty, with a one-line reason in WHY (WHYLEN bytes) when
 *  it is not JSON, not nbformat 4 or not shaped as a notebook. */
bool notebook_read(const char *bytes, size_t len, notebook *out, char *why, size_t whylen);
void notebook_free(notebook *self);

/** The module rows where each code cell starts (NCELLS of them, malloc'd),
 *  as oom_document_set_cells takes them. */
uint32_t *notebook_cell_rows(const notebook *self);

/** Blank the IPython syntax of one cell's SOURCE (LEN bytes) in place:
 *  line magics, shell escapes, `x = !cmd`, `obj?` help and a `%%` cell
 *  magic's header (the whole cell when the magic runs another language),
 *  and any line that reads as NOTEBOOK_SEPARATOR.
 *  Line breaks and lengths are kept, so every position is the same.
 *  True when anything was blanked. */
bool notebook_blank_magics(char *source, size_t len);

/** The module of the code cells SOURCES (N of them, LENS bytes each) as
 *  notebook_read builds it (magics blanked, separators between cells),
 *  into OUT (cleared first): what an editor's open notebook is linted as. */
void notebook_join(char *const *sources, const size_t *lens, size_t n, buf *out);

/** Cut MODULE (a fixed version of SELF's module) into the code cells' new
 *  sources: OUT gets NCELLS malloc'd strings. The magics blanked are put
 *  back. False with WHY when the module no longer has the cells' shape
 *  (a separator lost, a blanked line changed): the fix is then refused. */
bool notebook_split(const notebook *self, const char *module, size_t len, char **out, size_t *out_lens, char *why,
                    size_t whylen);

/** The notebook BYTES (SELF read from them) with the code cells' sources
 *  replaced by SOURCES: only the "source" values of cells whose source
 *  changed are rewritten, in the style of the original (a list of lines
 *  with its indentation, or one string), every other byte is kept. The
 *  result is parsed again and must equal the original JSON with the new
 *  sources; false with WHY when it does not (the notebook is left alone). */
bool notebook_write(const notebook *self, const char *bytes, size_t len, char *const *sources,
                    const size_t *source_lens, buf *out, char *why, size_t whylen);

/** The module rows where each of NCELLS cells starts in MODULE, a module
 *  of this shape (separators between cells), perhaps fixed: into ROWS.
 *  False when MODULE does not hold NCELLS - 1 separators. */
bool notebook_module_rows(const char *module, size_t len, size_t ncells, uint32_t *rows);

/** Locate the "source" value of each code cell of SELF in BYTES (sets the
 *  cells' spans and SELF->spans_ok). Called by notebook_read. */
void notebook_find_spans(notebook *self, const char *bytes, size_t len);

#endif
