/* Notebooks on the command line: a `.ipynb` file read as its code cells'
 * module (src/notebook), and --fix/--diff written back into the cells. */
#ifndef OOM_CLI_NOTEBOOK_H
#define OOM_CLI_NOTEBOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/fixing.h"

/** The document to lint for the file bytes TEXT (malloc'd, a NUL after LEN
 *  bytes; taken): TEXT itself for a Python file, the module of the code
 *  cells, with its cells set, when SHOWN names a notebook. NULL with a
 *  reason in WHY (WHYLEN bytes) when the notebook cannot be read. */
oom_document *cli_document(const char *shown, char *text, size_t len, char *why, size_t whylen);

/** cli_fix_file for a notebook (the notebook's bytes in TEXT): the cells'
 *  sources fixed, the rest of the notebook kept byte for byte. NULL with
 *  WHY when the notebook cannot be read. */
oom_document *cli_fix_notebook(const cli *c, oom_worker *worker, const char *path, const char *shown,
                               const char *text, size_t len, fix_totals *totals, bool *io_error, char *why,
                               size_t whylen);

#endif
