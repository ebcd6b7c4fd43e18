/* This file contains the syntax check a fix pass must pass: counting the
 * ERROR and MISSING nodes and the empty blocks of a tree, so a pass can be
 * compared with its input. */
#include <string.h>

#include "fix/fix.h"
#include "parse/walk.h"

/* tree-sitter's ERROR symbol; the runtime names it only in the grammar header */
#define SYM_ERROR ((TSSymbol)-1)


/* A block without a statement: tree-sitter-python accepts `if x:` followed
 * by nothing (or only comments, which it hangs elsewhere), Python does not.
 * A removal that empties a block must be caught here. */
static bool empty_block(TSNode n, TSSymbol block) {
  if (ts_node_symbol(n) != block) return false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    if (strcmp(ts_node_type(ts_node_named_child(n, i)), "comment") != 0) return false;
  return true;
}


size_t fix_count_errors(TSNode root) {
  if (ts_node_is_null(root)) return 0;
  TSSymbol block = ts_language_symbol_for_name(ts_tree_language(root.tree), "block", 5, true);
  size_t count = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_symbol(n) == SYM_ERROR || ts_node_is_missing(n) || empty_block(n, block)) count++;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, root)) break;
  }
  ts_tree_cursor_delete(&c);
  return count;
}
