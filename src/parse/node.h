/* The type test every analysis asks of tree-sitter nodes, in one place. */
#ifndef OOM_PARSE_NODE_H
#define OOM_PARSE_NODE_H

#include <stdbool.h>
#include <string.h>
#include <tree_sitter/api.h>

/* Whether NODE's type is TYPE. Most pairs asked about differ in their
 * first character, which is compared before strcmp is called: the test
 * runs for nearly every node of every file. */
static inline bool parse_node_is(TSNode node, const char *type) {
  const char *t = ts_node_type(node);
  return t[0] == type[0] && strcmp(t, type) == 0;
}

#define NODE_IS(n, t) parse_node_is((n), (t))

#endif
