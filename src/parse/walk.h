/* The step of a preorder walk with a tree cursor (iteration, not
 * recursion, on trees of any depth): every analysis walks a subtree the
 * same way, deciding per node whether to enter its children. */
#ifndef OOM_PARSE_WALK_H
#define OOM_PARSE_WALK_H

#include <stdbool.h>
#include <tree_sitter/api.h>

/* Moves CUR past the node it stands on and that node's children, to the
 * next node of a preorder walk of ROOT's subtree; false when the walk is
 * over (CUR then stands on ROOT or on the cursor's own root). A walk is
 *
 *   TSTreeCursor c = ts_tree_cursor_new(root);
 *   for (;;) {
 *     ... visit ts_tree_cursor_current_node(&c) ...
 *     if (enter && ts_tree_cursor_goto_first_child(&c)) continue;
 *     if (!walk_skip(&c, root)) break;
 *   }
 *   ts_tree_cursor_delete(&c);
 *
 * ROOT matters only for a cursor made on an ancestor of it; a cursor made
 * on ROOT never climbs above it anyway. */
static inline bool walk_skip(TSTreeCursor *cur, TSNode root) {
  while (!ts_tree_cursor_goto_next_sibling(cur))
    if (!ts_tree_cursor_goto_parent(cur) || ts_node_eq(ts_tree_cursor_current_node(cur), root)) return false;
  return true;
}

#endif
