/* This file contains the indentation check tree-sitter-python leaves out: its
 * scanner accepts `x = 1` followed by an over-indented `    y = 2`, and a
 * dedent to a column no enclosing block uses, both IndentationErrors to
 * CPython. The walk visits statements and blocks only, never expressions. */
#include <string.h>

#include "parse/parse.h"
#include "util/vec.h"

#include "parse/node.h"

typedef struct {
  TSNode container; /* module or block */
  int outer;        /* indentation of the enclosing container, -1 for the module */
} pending;

typedef VEC(pending) pending_stack;


/* The column of N when it is the first thing on its line, else -1. */
static int line_start_column(const char *text, TSNode n) {
  uint32_t s = ts_node_start_byte(n), ls = s;
  while (ls > 0 && text[ls - 1] != '\n' && text[ls - 1] != '\r') {
    if (text[ls - 1] != ' ' && text[ls - 1] != '\t' && text[ls - 1] != '\f') return -1;
    ls--;
  }
  return (int)(s - ls);
}


/* Push the blocks held by compound statement STMT (bodies, clauses). */
static void push_blocks(pending_stack *stack, TSNode stmt, int indent) {
  TSTreeCursor c = ts_tree_cursor_new(stmt);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      /* keywords and punctuation (`def`, `:`) first, then by the type's
       * first letter: most children are neither a block nor a clause */
      if (!ts_node_is_named(k)) continue;
      const char *t = ts_node_type(k);
      if (t[0] != 'b' && t[0] != 'e' && t[0] != 'f' && t[0] != 'c') continue;
      if (!strcmp(t, "block")) {
        pending p = {k, indent};
        vec_push(stack, p);
      } else if (!strcmp(t, "elif_clause") || !strcmp(t, "else_clause") || !strcmp(t, "except_clause") ||
                 !strcmp(t, "except_group_clause") || !strcmp(t, "finally_clause") || !strcmp(t, "case_clause") ||
                 !strcmp(t, "function_definition") || !strcmp(t, "class_definition")) {
        /* the clause sits at the statement's own indentation */
        push_blocks(stack, k, indent);
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}


/* Whether statement S can hold a block or a clause (node-types.json): the
 * others, most statements, need no walk of their children. */
static bool compound(TSNode s) {
  const char *t = ts_node_type(s);
  switch (t[0]) {
  case 'c': return !strcmp(t, "class_definition");
  case 'd': return !strcmp(t, "decorated_definition");
  case 'f': return !strcmp(t, "for_statement") || !strcmp(t, "function_definition");
  case 'i': return !strcmp(t, "if_statement");
  case 'm': return !strcmp(t, "match_statement");
  case 't': return !strcmp(t, "try_statement");
  case 'w': return !strcmp(t, "while_statement") || !strcmp(t, "with_statement");
  default: return false;
  }
}


bool parse_first_indent_error(TSNode root, const char *text, uint32_t *pos, const char **what) {
  pending_stack stack = {0};
  pending top = {root, -1};
  vec_push(&stack, top);
  bool found = false;
  uint32_t best = UINT32_MAX;
  while (stack.len) {
    pending p = stack.items[--stack.len];
    int expected = p.outer < 0 ? 0 : -1;
    TSTreeCursor c = ts_tree_cursor_new(p.container);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        TSNode s = ts_tree_cursor_current_node(&c);
        if (!ts_node_is_named(s) || NODE_IS(s, "comment") || ts_node_has_error(s)) continue;
        int col = line_start_column(text, s);
        if (col >= 0) {
          const char *problem = NULL;
          if (expected < 0) {
            if (col <= p.outer) problem = "IndentationError: expected an indented block";
            expected = col;
          } else if (col > expected) {
            problem = "IndentationError: unexpected indent";
          } else if (col < expected) {
            problem = "IndentationError: unindent does not match any outer indentation level";
          }
          if (problem && ts_node_start_byte(s) < best) {
            best = ts_node_start_byte(s);
            *what = problem;
            found = true;
          }
        }
        /* nested blocks are checked against this statement's indentation */
        int here = col >= 0 ? col : expected;
        if (here < 0) here = p.outer + 1;
        if (compound(s)) push_blocks(&stack, s, here);
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
  }
  vec_free(&stack);
  if (found) *pos = best;
  return found;
}
