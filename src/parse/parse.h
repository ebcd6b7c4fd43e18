/* The front end: the Python grammar and parsing of source bytes into a
 * tree-sitter tree, plus the location of the first syntax error. */
#ifndef OOM_PARSE_PARSE_H
#define OOM_PARSE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

const TSLanguage *parse_language(void);

/** A parser for Python, or NULL when the grammar's ABI does not fit the
 *  runtime (then *ERROR says why). */
TSParser *parse_parser_new(const char **error);

/** Parse SOURCE, reusing OLD (already edited with ts_tree_edit) when given.
 *  The tree does not depend on what PARSER parsed before. */
TSTree *parse_source(TSParser *parser, const char *source, size_t length, TSTree *old);

/** The first ERROR or MISSING node in document order; false when none. */
bool parse_first_error(TSNode root, TSNode *out);

/** The first statement whose indentation CPython rejects (tree-sitter-python
 *  accepts it): its byte offset in *POS and the error in *WHAT. */
bool parse_first_indent_error(TSNode root, const char *text, uint32_t *pos, const char **what);

#endif
