/* `# noqa` comments seen on one line of text, for the editor features that
 * add a code to one (code actions) or explain the codes in one (hover). */
#ifndef OOM_LSP_NOQA_H
#define OOM_LSP_NOQA_H

#include <stdbool.h>
#include <stddef.h>

#define LSP_NOQA_MAX_CODES 32

typedef struct {
  size_t comment;    /* the comment's `#`, or the line's length when it has none */
  bool found;        /* a line-level `# noqa` directive is in the comment */
  bool blanket;      /* `# noqa` without codes: it already silences everything */
  size_t codes_end;  /* where the directive's last code (or `noqa`) ends */
  size_t code_start[LSP_NOQA_MAX_CODES], code_end[LSP_NOQA_MAX_CODES];
  int ncodes;
  bool open_string;  /* the line ends inside a string or with a `\` continuation */
} lsp_noqa;

/** Scan LINE (N bytes, no newline). Strings are followed well enough to
 *  tell a `#` in one from a comment. */
void lsp_noqa_scan(const char *line, size_t n, lsp_noqa *out);

#endif
