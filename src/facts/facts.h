/* The semantic model of one file, built by one iterative walk of its tree:
 * imports and aliases, functions, loops (and which run once per batch),
 * no-grad regions, except clauses, periodic `if` blocks, calls and comments.
 * Rules ask it questions through the engine's `#oom-...?` predicates. */
#ifndef OOM_FACTS_FACTS_H
#define OOM_FACTS_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "util/buf.h"
#include "util/vec.h"

/* a node that ts_node_is_null() reports as null */
#define NULL_NODE ((TSNode){{0, 0, 0, 0}, NULL, NULL})

typedef struct {
  uint32_t start, end; /* bytes, end exclusive */
} facts_span;

typedef enum { BINDING_IMPORT, BINDING_ALIAS, BINDING_OTHER } facts_binding_kind;

typedef struct {
  const char *name; /* points into the source */
  uint32_t name_len;
  uint32_t pos;     /* where the binding happens */
  facts_binding_kind kind;
  char *qualname;   /* BINDING_IMPORT: the imported dotted name */
  TSNode value;     /* BINDING_ALIAS: the name or attribute chain bound */
} facts_binding;

typedef struct {
  facts_span whole, body;
  int parent;       /* enclosing function, -1 at module level */
  TSNode node;      /* the function_definition */
  TSNode decorated; /* its decorated_definition, or a null node */
  bool no_grad;     /* decorated with @torch.no_grad() and friends */
} facts_function;

/* what a loop body does itself (nested loops and functions excluded) */
enum {
  LOOP_CALLS_BACKWARD = 1,
  LOOP_CALLS_STEP = 2,
  LOOP_CALLS_MODEL = 4,
  LOOP_ITERATES_LOADER = 8
};

typedef struct {
  facts_span body;
  int function;     /* enclosing function, -1 at module level */
  int parent;       /* enclosing loop of the same function, -1 if none */
  int outer;        /* enclosing loop at any depth (across functions), -1 if none */
  TSNode node;      /* for_statement or while_statement */
  unsigned evidence;
  bool per_iteration;
} facts_loop;

typedef struct {
  TSNode call;
  int loop;         /* innermost loop of the same function, -1 if none */
  int function;
} facts_call;

typedef struct {
  facts_span body;
  TSNode type;      /* the caught type expression; null node for bare except */
} facts_except;

typedef struct {
  facts_span span;
  TSNode candidate; /* the with-item value, decorator expression or statement */
} facts_region;

typedef struct {
  TSNode node;
  TSNode bases;     /* argument_list or null */
  const char *name;
  uint32_t name_len;
  bool is_module;
} facts_class;

typedef struct {
  TSNode left, right; /* `name = ...` or `self.attr = ...` */
} facts_assign;

typedef struct facts {
  const char *source;
  size_t length;
  TSNode root;
  VEC(facts_binding) bindings; /* sorted by name, then position */
  VEC(facts_function) functions;
  VEC(facts_loop) loops;
  VEC(facts_call) calls;
  VEC(facts_except) excepts;
  VEC(facts_span) periodic;    /* consequences of `if ... % ...:` */
  VEC(facts_span) no_grad;     /* resolved no-grad spans */
  VEC(facts_region) with_items, set_grad_false, set_grad_true;
  VEC(facts_class) classes;
  VEC(facts_assign) assigns;
  VEC(facts_span) comments;
  VEC(char *) imported_modules;
  VEC(char *) module_names;    /* names (and `self.x`) bound to nn.Module instances */
  VEC(char *) loader_names;    /* names bound to DataLoader(...) */
} facts;

/** Build the facts of TREE's root over SOURCE. */
void facts_build(facts *self, TSNode root, const char *source, size_t length);
void facts_free(facts *self);

/** Resolve NAME-or-attribute-chain NODE (or a call's callee) through imports
 *  and aliases into OUT ("torch.cuda.empty_cache"). False when it does not
 *  resolve to an imported name. */
bool facts_qualname(const facts *self, TSNode node, buf *out);

/** The innermost function containing byte POS, or -1. */
int facts_function_at(const facts *self, uint32_t pos);
/** The innermost loop of POS's own function containing POS, or -1. */
int facts_innermost_loop_at(const facts *self, uint32_t pos);
/** The innermost per-iteration loop of POS's own function containing POS, or -1. */
int facts_iteration_loop_at(const facts *self, uint32_t pos);
/** Whether POS is inside the consequence of a periodic `if` inside LOOP. */
bool facts_periodic_at(const facts *self, uint32_t pos, int loop);
bool facts_in_no_grad(const facts *self, uint32_t pos);
/** The except clauses containing POS, innermost first, at most MAX. */
size_t facts_excepts_at(const facts *self, uint32_t pos, const facts_except **out, size_t max);
/** Whether the call at POS is the only backward pass of an iteration. */
bool facts_sole_backward(const facts *self, uint32_t pos);
/** Whether the source text of NODE equals S. */
bool facts_node_is(const facts *self, TSNode node, const char *s);

#endif
