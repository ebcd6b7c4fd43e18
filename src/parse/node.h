/* The type test every analysis asks of tree-sitter nodes, in one place. */
#ifndef OOM_PARSE_NODE_H
#define OOM_PARSE_NODE_H

#include <stdbool.h>
#include <string.h>
#include <tree_sitter/api.h>

/* Whether the type name T (or NODE's type) is TYPE. Most pairs asked
 * about differ in their first two characters (`call`/`comment`,
 * `identifier`/`if_statement`), which are compared before strcmp is
 * called: the test runs for nearly every node of every file, and a chain
 * of them dispatches each expression the graph model evaluates. */
static inline bool parse_type_is(const char *t, const char *type) {
  if (t[0] != type[0]) return false;
  if (type[0] == '\0') return true;
  return t[1] == type[1] && (type[1] == '\0' || strcmp(t + 2, type + 2) == 0);
}


static inline bool parse_node_is(TSNode node, const char *type) {
  return parse_type_is(ts_node_type(node), type);
}

#define NODE_IS(n, t) parse_node_is((n), (t))

#endif
