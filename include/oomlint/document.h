/* A document: one Python source (path + bytes), its syntax tree, semantic
 * facts and diagnostics. The command line lints a document once; the language
 * server keeps it and applies edits. */
#ifndef OOMLINT_DOCUMENT_H
#define OOMLINT_DOCUMENT_H

#include <stddef.h>
#include <stdint.h>
#include "oomlint/diagnostic.h"
#include "oomlint/linter.h"

typedef struct oom_document oom_document;

/** A document holding a copy of TEXT. PATH is used for messages only. */
oom_document *oom_document_new(const char *path, const char *text, size_t length);
/** Like oom_document_new, but takes TEXT instead of copying it: TEXT is
 *  malloc'd, holds LENGTH bytes and a NUL after them, and the document frees
 *  it. Saves a copy of every file the command line reads. */
oom_document *oom_document_new_owned(const char *path, char *text, size_t length);
void oom_document_free(oom_document *self);

/** Replace bytes [START, OLD_END) with TEXT. The next lint reparses
 *  incrementally. Returns 0, or -1 when the range is out of bounds. */
int oom_document_edit(oom_document *self, size_t start, size_t old_end,
                      const char *text, size_t length);

/** Parse (incrementally when possible), build facts, run the rules and the
 *  suppressions. Diagnostics stay valid until the next lint or edit. */
void oom_document_lint(oom_document *self, oom_worker *worker);

/** Lint again after edits, as an editor does on each keystroke. When every
 *  edit since the last lint falls inside one top-level `def` or `class`, and
 *  the file parses cleanly, only that definition is analysed again (with the
 *  definitions it names or that name it, and the file's top-level code), in
 *  the context the last whole-file lint found; the other diagnostics move
 *  with the text. That costs about what the definition's size does, not
 *  the file's. It can miss an effect on another part of the file, so it
 *  returns true to say a whole-file oom_document_lint is still due (when
 *  time allows); false when it linted the whole document itself. */
bool oom_document_relint(oom_document *self, oom_worker *worker);

const char *oom_document_path(const oom_document *self);
const char *oom_document_text(const oom_document *self, size_t *length);

/** The row and byte column of byte offset BYTE (as of the last lint). */
oom_position oom_document_position(const oom_document *self, uint32_t byte);

/** A Jupyter notebook's code cells linted as one module: cell I (0-based)
 *  starts at module row ROWS[I] (ascending; COUNT of them, copied). Front
 *  ends report positions per cell with oom_document_cell. */
void oom_document_set_cells(oom_document *self, const uint32_t *rows, size_t count);
/** The code cells set (0: not a notebook). */
size_t oom_document_cell_count(const oom_document *self);
/** The 1-based code cell holding module row ROW, and (in *CELL_ROW) the
 *  0-based row inside it; 0, and ROW itself, when DOC is not a notebook. */
uint32_t oom_document_cell(const oom_document *self, uint32_t row, uint32_t *cell_row);
/** The module row where the 1-based CELL starts. */
uint32_t oom_document_cell_start(const oom_document *self, uint32_t cell);
/** Where each module row's line is in the notebook's file: FILE_ROWS[r]
 *  is the 0-based line of the file (COUNT of them, copied). */
void oom_document_set_file_rows(oom_document *self, const uint32_t *file_rows, size_t count);
/** The 0-based line of the notebook's file that holds module row ROW; ROW
 *  itself for a Python file (or a notebook whose lines are not known). */
uint32_t oom_document_file_row(const oom_document *self, uint32_t row);

/** Diagnostics of the last lint, sorted by position then code. */
size_t oom_document_diagnostic_count(const oom_document *self);
const oom_diagnostic *oom_document_diagnostic(const oom_document *self, size_t index);

#endif
