/* This file contains the syntax check a fix pass must pass: counting the
 * ERROR and MISSING nodes of a tree, so a pass can be compared with its input. */
#include "fix/fix.h"

/* tree-sitter's ERROR symbol; the runtime names it only in the grammar header */
#define SYM_ERROR ((TSSymbol)-1)


size_t fix_count_errors(TSNode root) {
  if (!ts_node_has_error(root)) return 0;
  size_t count = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_symbol(n) == SYM_ERROR || ts_node_is_missing(n)) count++;
    /* descend only where an error hides */
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    bool more = true;
    while (more && !ts_tree_cursor_goto_next_sibling(&c)) more = ts_tree_cursor_goto_parent(&c);
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  return count;
}
