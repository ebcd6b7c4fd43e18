/* Named children of a node in linear time. ts_node_named_child(node, i)
 * walks from the first child on every call, so a loop over it is quadratic
 * in the children: minutes for a list literal of a million numbers. A tree
 * cursor steps from one sibling to the next. */
#ifndef OOM_PARSE_CHILDREN_H
#define OOM_PARSE_CHILDREN_H

#include <stdbool.h>
#include <tree_sitter/api.h>

typedef struct {
  TSTreeCursor cursor;
  bool more;
} children;

/* for (children k = children_of(n); children_next(&k, &c);) ...; children_next
 * frees the cursor when it returns false, so a loop must not be left early
 * without children_done. */
static inline children children_of(TSNode node) {
  children k = {ts_tree_cursor_new(node), false};
  k.more = ts_tree_cursor_goto_first_child(&k.cursor);
  return k;
}

static inline void children_done(children *k) {
  ts_tree_cursor_delete(&k->cursor);
  k->more = false;
}

static inline bool children_next(children *k, TSNode *out) {
  while (k->more) {
    TSNode c = ts_tree_cursor_current_node(&k->cursor);
    k->more = ts_tree_cursor_goto_next_sibling(&k->cursor);
    if (ts_node_is_named(c)) {
      *out = c;
      return true;
    }
  }
  ts_tree_cursor_delete(&k->cursor);
  return false;
}

#endif
