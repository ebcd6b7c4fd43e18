/* This file contains the Python front end: grammar loading with an ABI check
 * and an iterative search for the first syntax error. */
#include "parse/parse.h"
#include "parse/walk.h"

#include <string.h>

#include "util/lines.h"

const TSLanguage *tree_sitter_python(void);

/* tree-sitter's ERROR symbol; the runtime defines it only in the grammar header */
#define PARSE_SYM_ERROR ((TSSymbol)-1)


const TSLanguage *parse_language(void) {
  return tree_sitter_python();
}


TSParser *parse_parser_new(const char **error) {
  const TSLanguage *lang = parse_language();
  uint32_t abi = ts_language_version(lang);
  if (abi > TREE_SITTER_LANGUAGE_VERSION || abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) {
    if (error) *error = "the Python grammar's ABI does not match the tree-sitter runtime";
    return NULL;
  }
  TSParser *p = ts_parser_new();
  if (!ts_parser_set_language(p, lang)) {
    ts_parser_delete(p);
    if (error) *error = "the tree-sitter runtime refused the Python grammar";
    return NULL;
  }
  return p;
}


/* A source served to tree-sitter in chunks with each lone "\r" read as "\n".
 * tree-sitter-python breaks lines only at "\n" ("\r\n" included), CPython
 * also at a lone "\r"; the chunks keep every byte's offset, so the tree's
 * byte ranges fit the original text and its rows count a lone "\r" as a
 * line break, as util/lines.h does. */
typedef struct {
  const char *text;
  uint32_t length;
  char chunk[4096];
} parse_cr_input;


static const char *parse__read_cr(void *payload, uint32_t at, TSPoint point, uint32_t *bytes_read) {
  (void)point;
  parse_cr_input *in = payload;
  if (at >= in->length) {
    *bytes_read = 0;
    return "";
  }
  uint32_t n = in->length - at < sizeof in->chunk ? in->length - at : (uint32_t)sizeof in->chunk;
  memcpy(in->chunk, in->text + at, n);
  for (char *p = in->chunk, *end = in->chunk + n; (p = memchr(p, '\r', (size_t)(end - p))) != NULL; p++) {
    /* look at the source, not the chunk: a "\r\n" may straddle two chunks */
    if (!lines_breaks_at(in->text, in->length, at + (uint32_t)(p - in->chunk))) continue;
    *p = '\n';
  }
  *bytes_read = n;
  return in->chunk;
}


TSTree *parse_source(TSParser *parser, const char *source, size_t length, TSTree *old) {
  /* A parse must not depend on the parses before it, but tree-sitter-python's
   * external scanner keeps state its deserialize does not reset when a parse
   * starts: a text that ends inside an f-string leaves the flag that holds
   * back dedent tokens set, and the next text (another file, or the fixer's
   * next pass) parses as if its dedents were missing. Setting the language
   * again makes a fresh scanner, with none of the last parse's state. */
  ts_parser_set_language(parser, ts_parser_language(parser));
  /* tree-sitter takes a 32-bit length; callers refuse larger files */
  if (!lines_has_lone_cr(source, length)) return ts_parser_parse_string(parser, old, source, (uint32_t)length);
  parse_cr_input in = {source, (uint32_t)length, {0}};
  TSInput input = {&in, parse__read_cr, TSInputEncodingUTF8};
  return ts_parser_parse(parser, old, input);
}


bool parse_first_error(TSNode root, TSNode *out) {
  if (!ts_node_has_error(root)) return false;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_symbol(n) == PARSE_SYM_ERROR || ts_node_is_missing(n)) {
      *out = n;
      found = true;
      break;
    }
    /* descend only where an error hides */
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, root)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}
