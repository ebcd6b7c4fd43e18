/* This file contains the walk that builds a file's facts: one pass over the
 * tree with a cursor and an explicit stack of enclosing functions and loops,
 * then a resolution step that needs the whole file (imports may follow their
 * use, classes may be defined after the loops that call them). */
#include "parse/fields.h"
#include "facts/facts.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"

#include "parse/node.h"
#include "parse/walk.h"

typedef struct {
  TSNode node;
  uint32_t depth; /* of NODE in the tree */
  int function;   /* index into functions, -1 */
  int loop;       /* index into loops, -1 */
} frame;

typedef struct {
  facts *f;
  VEC(frame) stack;
  uint32_t depth;     /* of the node entered or left */
  int innermost_loop; /* at any depth, for facts_loop.outer */
  TSNode decorated;   /* the decorated_definition whose definition comes next */
} walker;


const char *facts_text(const facts *f, TSNode n, uint32_t *len) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e > f->length) e = (uint32_t)f->length;
  if (s > e) s = e;
  *len = e - s;
  return f->source + s;
}


bool facts_node_is(const facts *self, TSNode node, const char *s) {
  return facts_text_is(self, node, s, (uint32_t)strlen(s));
}


bool facts_text_is(const facts *self, TSNode node, const char *s, uint32_t len) {
  uint32_t l;
  const char *t = facts_text(self, node, &l);
  return l == len && memcmp(t, s, len) == 0;
}


bool facts_text_has_ci(const char *s, uint32_t len, const char *needle) {
  size_t n = strlen(needle);
  for (uint32_t i = 0; i + n <= len; i++)
    if (!strncasecmp(s + i, needle, n)) return true;
  return false;
}


static facts_span span_of(TSNode n) {
  return (facts_span){ts_node_start_byte(n), ts_node_end_byte(n)};
}


static bool span_has(facts_span s, uint32_t pos) {
  return pos >= s.start && pos < s.end;
}


static int current_function(const walker *w) {
  return w->stack.len ? w->stack.items[w->stack.len - 1].function : -1;
}


static int current_loop(const walker *w) {
  return w->stack.len ? w->stack.items[w->stack.len - 1].loop : -1;
}


static void push_frame(walker *w, TSNode n, int function, int loop) {
  frame fr = {n, w->depth, function, loop};
  vec_push(&w->stack, fr);
}


static void add_binding(facts *f, TSNode name, facts_binding_kind kind, char *qualname, TSNode value) {
  uint32_t len;
  const char *t = facts_text(f, name, &len);
  facts_binding b = {t, len, ts_node_start_byte(name), kind, qualname, value, 0};
  vec_push(&f->bindings, b);
}


static char *dotted_text(const facts *f, TSNode n) {
  /* dotted names never contain spaces worth keeping: `torch . cuda` is rare
   * but legal, so rebuild from the identifiers */
  buf b = {0};
  uint32_t count = ts_node_named_child_count(n);
  if (!NODE_IS(n, "dotted_name")) count = 0;
  if (count == 0) {
    uint32_t len;
    const char *t = facts_text(f, n, &len);
    buf_append(&b, t, len);
  }
  for (uint32_t i = 0; i < count; i++) {
    uint32_t len;
    const char *t = facts_text(f, ts_node_named_child(n, i), &len);
    if (i) buf_putc(&b, '.');
    buf_append(&b, t, len);
  }
  char *out = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return out;
}


static void visit_import(facts *f, TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (NODE_IS(c, "dotted_name")) {
      /* `import a.b.c` binds `a` */
      char *mod = dotted_text(f, c);
      vec_push(&f->imported_modules, mod);
      TSNode first = ts_node_named_child(c, 0);
      uint32_t len;
      const char *t = facts_text(f, first, &len);
      add_binding(f, first, BINDING_IMPORT, oom_xstrndup(t, len), NULL_NODE);
    } else if (NODE_IS(c, "aliased_import")) {
      TSNode name = FIELD(c, name);
      TSNode alias = FIELD(c, alias);
      if (ts_node_is_null(name) || ts_node_is_null(alias)) continue;
      char *mod = dotted_text(f, name);
      vec_push(&f->imported_modules, oom_xstrdup(mod));
      add_binding(f, alias, BINDING_IMPORT, mod, NULL_NODE);
    }
  }
}


/* `from ..utils import x`: the dots, then the dotted name if any ("..utils",
 * "."), so that a name it binds reads "..utils.x" or ".x": as many leading
 * dots as the import's level, then the path below that package. */
static char *relative_text(const facts *f, TSNode n) {
  buf b = {0};
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (NODE_IS(c, "import_prefix")) {
      uint32_t len;
      const char *t = facts_text(f, c, &len);
      for (uint32_t k = 0; k < len; k++)
        if (t[k] == '.') buf_putc(&b, '.');
    } else if (NODE_IS(c, "dotted_name")) {
      char *d = dotted_text(f, c);
      buf_puts(&b, d);
      free(d);
    }
  }
  char *out = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return out;
}


static void visit_import_from(facts *f, TSNode n) {
  TSNode module = FIELD(n, module_name);
  if (ts_node_is_null(module)) return;
  bool relative = NODE_IS(module, "relative_import");
  if (!relative && !NODE_IS(module, "dotted_name")) return;
  char *mod = relative ? relative_text(f, module) : dotted_text(f, module);
  /* `from . import x` names x right after the dots */
  bool bare = relative && mod[strlen(mod) - 1] == '.';
  vec_push(&f->imported_modules, mod);
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_eq(c, module)) continue;
    TSNode name = c, bound = c;
    if (NODE_IS(c, "aliased_import")) {
      name = FIELD(c, name);
      bound = FIELD(c, alias);
      if (ts_node_is_null(name) || ts_node_is_null(bound)) continue;
    } else if (!NODE_IS(c, "dotted_name")) {
      /* a wildcard: names this file never binds may come from MOD */
      if (NODE_IS(c, "wildcard_import")) vec_push(&f->star_modules, mod);
      continue;
    }
    char *leaf = dotted_text(f, name);
    buf q = {0};
    buf_printf(&q, bare ? "%s%s" : "%s.%s", mod, leaf);
    free(leaf);
    vec_push(&f->imported_modules, oom_xstrdup(buf_str(&q)));
    if (NODE_IS(bound, "dotted_name")) bound = ts_node_named_child(bound, 0);
    add_binding(f, bound, BINDING_IMPORT, oom_xstrdup(buf_str(&q)), NULL_NODE);
    buf_free(&q);
  }
}


static void bind_targets(facts *f, TSNode n);


static void visit_assignment(facts *f, TSNode n) {
  TSNode left = FIELD(n, left);
  TSNode right = FIELD(n, right);
  if (ts_node_is_null(left) || ts_node_is_null(right)) return;
  if (NODE_IS(left, "attribute")) {
    TSNode obj = FIELD(left, object);
    if (NODE_IS(obj, "identifier") && facts_node_is(f, obj, "self")) {
      facts_assign a = {left, right};
      vec_push(&f->assigns, a);
    }
    return;
  }
  if (!NODE_IS(left, "identifier")) {
    bind_targets(f, left); /* `seen, total = 0, 0.0` */
    /* `self.a, self.b = ...`: attributes bound where `assigns` does not see them */
    uint32_t k = ts_node_named_child_count(left);
    for (uint32_t i = 0; i < k; i++) {
      TSNode t = ts_node_named_child(left, i);
      if (NODE_IS(t, "attribute") && NODE_IS(FIELD(t, object), "identifier") && facts_node_is(f, FIELD(t, object), "self")) {
        vec_push(&f->self_patterns, ts_node_start_byte(n));
        break;
      }
    }
    return;
  }
  facts_assign a = {left, right};
  vec_push(&f->assigns, a);
  bool alias = (NODE_IS(right, "identifier") || NODE_IS(right, "attribute"));
  add_binding(f, left, alias ? BINDING_ALIAS : BINDING_OTHER, NULL, right);
}


/* Names bound by a for target, a with-as target or a parameter list: they
 * shadow imports and mark where a name is (re)created. */
static void bind_targets(facts *f, TSNode n) {
  if (ts_node_is_null(n)) return;
  if (NODE_IS(n, "identifier")) {
    add_binding(f, n, BINDING_OTHER, NULL, NULL_NODE);
    return;
  }
  if (NODE_IS(n, "pattern_list") || NODE_IS(n, "tuple_pattern") || NODE_IS(n, "list_pattern") ||
      NODE_IS(n, "tuple") || NODE_IS(n, "list") || NODE_IS(n, "parenthesized_expression")) {
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
      TSNode k = ts_node_named_child(n, i);
      if (NODE_IS(k, "identifier")) add_binding(f, k, BINDING_OTHER, NULL, NULL_NODE);
    }
  }
}


/* The parameters of the function about to be pushed (index
 * f->functions.len) */
static void visit_parameters(facts *f, TSNode params) {
  if (ts_node_is_null(params)) return;
  uint32_t c = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < c; i++) {
    TSNode p = ts_node_named_child(params, i);
    size_t before = f->bindings.len;
    if (NODE_IS(p, "identifier")) {
      add_binding(f, p, BINDING_OTHER, NULL, NULL_NODE);
    } else {
      /* default_parameter, typed_parameter, typed_default_parameter: the name comes first */
      TSNode name = FIELD(p, name);
      if (ts_node_is_null(name) && ts_node_named_child_count(p)) name = ts_node_named_child(p, 0);
      if (!ts_node_is_null(name) && NODE_IS(name, "identifier")) add_binding(f, name, BINDING_OTHER, NULL, NULL_NODE);
    }
    if (f->bindings.len > before) f->bindings.items[before].parameter_of = (uint32_t)f->functions.len + 1;
  }
}


/* K when the `%` operator MOD is the period of its test: `X % K == 0`,
 * `X % K == K - 1`, `not X % K` (parentheses allowed); else a null node. */
static TSNode period_of(TSNode mod) {
  TSNode up = ts_node_parent(mod);
  while (!ts_node_is_null(up) && NODE_IS(up, "parenthesized_expression")) up = ts_node_parent(up);
  if (ts_node_is_null(up)) return NULL_NODE;
  if (NODE_IS(up, "not_operator")) return FIELD(mod, right);
  if (!NODE_IS(up, "comparison_operator") || ts_node_named_child_count(up) != 2) return NULL_NODE;
  /* `!=`, `<`...: how often the body runs is not one in K */
  uint32_t count = ts_node_child_count(up);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_child(up, i);
    if (!ts_node_is_named(c) && !NODE_IS(c, "==")) return NULL_NODE;
  }
  return FIELD(mod, right);
}


/* Whether the test COND uses `%` (`if step % 100 == 0`, `if (i + 1) % k == 0
 * and ...`); *MODULUS is then its K when there is exactly one `%`, compared
 * with `==` (or negated). */
static bool condition_is_periodic(TSNode cond, TSNode *modulus) {
  TSTreeCursor c = ts_tree_cursor_new(cond);
  int found = 0;
  TSNode mod = NULL_NODE;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (NODE_IS(n, "binary_operator")) {
      TSNode op = FIELD(n, operator);
      if (!ts_node_is_null(op) && NODE_IS(op, "%")) {
        found++;
        mod = n;
      }
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, cond)) break;
  }
  ts_tree_cursor_delete(&c);
  *modulus = found == 1 ? period_of(mod) : NULL_NODE;
  return found > 0;
}


/* `if step % 100 == 0:` and `elif ...:` bodies run now and then, not per batch */
static void visit_conditional(facts *f, TSNode n) {
  TSNode cond = FIELD(n, condition);
  TSNode cons = FIELD(n, consequence);
  TSNode modulus;
  if (!ts_node_is_null(cond) && !ts_node_is_null(cons) && condition_is_periodic(cond, &modulus)) {
    facts_periodic p = {span_of(cons), span_of(cond), modulus};
    vec_push(&f->periodic, p);
  }
}


static void enter(walker *w, TSNode n) {
  facts *f = w->f;
  const char *type = ts_node_type(n);
  switch (type[0]) {
  case 'a':
    if (parse_type_is(type, "assignment")) visit_assignment(f, n);
    else if (parse_type_is(type, "aliased_import")) {}
    else if (parse_type_is(type, "assert_statement") && current_function(w) >= 0)
      f->functions.items[current_function(w)].asserts = true;
    break;
  case 'c':
    if (parse_type_is(type, "call")) {
      facts_call c = {n, current_loop(w), current_function(w)};
      vec_push(&f->calls, c);
      /* `torch.testing.assert_close(a, b)`, `np.testing.assert_allclose`,
       * `self.assertEqual`: a check, as an assert statement is */
      TSNode callee = FIELD(n, function);
      TSNode attr = c.function >= 0 && !ts_node_is_null(callee) && NODE_IS(callee, "attribute")
                        ? FIELD(callee, attribute) : NULL_NODE;
      uint32_t len = 0;
      const char *t = ts_node_is_null(attr) ? "" : facts_text(f, attr, &len);
      if (len > 6 && !strncmp(t, "assert", 6)) f->functions.items[c.function].asserts = true;
    } else if (parse_type_is(type, "comment")) {
      vec_push(&f->comments, span_of(n));
    } else if (parse_type_is(type, "class_definition")) {
      TSNode name = FIELD(n, name);
      facts_class k = {.node = n, .bases = FIELD(n, superclasses)};
      if (!ts_node_is_null(name)) k.name = facts_text(f, name, &k.name_len);
      vec_push(&f->classes, k);
      /* a class body is a new scope: loops outside do not run it per batch */
      push_frame(w, n, current_function(w), -1);
    }
    break;
  case 'd':
    if (parse_type_is(type, "decorated_definition")) w->decorated = n;
    break;
  case 'e':
    if (parse_type_is(type, "elif_clause")) {
      visit_conditional(f, n);
    } else if (parse_type_is(type, "except_clause")) {
      facts_except e = {span_of(n), NULL_NODE};
      TSNode v = FIELD(n, value);
      if (!ts_node_is_null(v)) e.type = v;
      else if (ts_node_named_child_count(n) > 0 && !NODE_IS(ts_node_named_child(n, 0), "block"))
        e.type = ts_node_named_child(n, 0);
      vec_push(&f->excepts, e);
    } else if (parse_type_is(type, "expression_statement") && ts_node_named_child_count(n) == 1) {
      TSNode call = ts_node_named_child(n, 0);
      if (NODE_IS(call, "call")) {
        TSNode fn = FIELD(call, function);
        uint32_t len;
        const char *t = facts_text(f, fn, &len);
        TSNode args = FIELD(call, arguments);
        if (len >= 13 && !memcmp(t + len - 13, "enter_context", 13) && !ts_node_is_null(args) &&
            ts_node_named_child_count(args) == 1) {
          /* `stack.enter_context(torch.no_grad())`: until the block of the
           * ExitStack ends, as a with-item would be */
          TSNode parent = ts_node_parent(n);
          facts_region r = {{ts_node_end_byte(n), ts_node_end_byte(parent)}, ts_node_named_child(args, 0)};
          vec_push(&f->with_items, r);
        }
        if (len >= 10 && !memcmp(t + len - 10, ".__enter__", 10) && NODE_IS(fn, "attribute")) {
          /* `torch.no_grad().__enter__()` (asteroid's eval scripts): entered
           * and never left, so at least until its function ends */
          TSNode entered = FIELD(fn, object);
          TSNode scope = ts_node_parent(n);
          for (int guard = 0; guard < FACTS_MAX_DEPTH && !ts_node_is_null(scope) &&
                              !NODE_IS(scope, "function_definition") && !NODE_IS(scope, "module");
               guard++)
            scope = ts_node_parent(scope);
          if (ts_node_is_null(scope)) scope = ts_node_parent(n);
          facts_region r = {{ts_node_end_byte(n), ts_node_end_byte(scope)}, entered};
          if (!ts_node_is_null(entered) && NODE_IS(entered, "call")) vec_push(&f->with_items, r);
        }
        if (len >= 16 && !memcmp(t + len - 16, "set_grad_enabled", 16)) {
          if (!ts_node_is_null(args) && ts_node_named_child_count(args) >= 1) {
            TSNode a0 = ts_node_named_child(args, 0);
            TSNode parent = ts_node_parent(n);
            facts_region r = {{ts_node_end_byte(n), ts_node_end_byte(parent)}, call};
            if (NODE_IS(a0, "false")) vec_push(&f->set_grad_false, r);
            else if (NODE_IS(a0, "true")) vec_push(&f->set_grad_true, r);
            /* `torch.set_grad_enabled(split == 'train')`: a mode the code
             * chooses at run time, until the block ends, as a with-item's */
            else vec_push(&f->with_items, r);
          }
        }
      }
    }
    break;
  case 'f':
    if (parse_type_is(type, "function_definition")) {
      TSNode body = FIELD(n, body);
      facts_function fn = {0};
      fn.whole = span_of(n);
      fn.body = ts_node_is_null(body) ? span_of(n) : span_of(body);
      fn.parent = current_function(w);
      fn.node = n;
      fn.decorated = NULL_NODE;
      fn.name = "";
      fn.klass = -1;
      TSNode name = FIELD(n, name);
      if (!ts_node_is_null(name)) fn.name = facts_text(f, name, &fn.name_len);
      visit_parameters(f, FIELD(n, parameters));
      if (!ts_node_is_null(w->decorated)) {
        TSNode def = FIELD(w->decorated, definition);
        if (!ts_node_is_null(def) && ts_node_eq(def, n)) fn.decorated = w->decorated;
      }
      vec_push(&f->functions, fn);
      push_frame(w, n, (int)f->functions.len - 1, -1);
    } else if (parse_type_is(type, "for_statement")) {
      bind_targets(f, FIELD(n, left));
      goto loop;
    }
    break;
  case 'l':
    if (parse_type_is(type, "lambda")) vec_push(&f->lambdas, span_of(n));
    break;
  case 'i':
    if (parse_type_is(type, "import_statement")) visit_import(f, n);
    else if (parse_type_is(type, "import_from_statement")) visit_import_from(f, n);
    else if (parse_type_is(type, "if_statement")) visit_conditional(f, n);
    break;
  case 'r':
    if (parse_type_is(type, "return_statement") && ts_node_named_child_count(n) > 0) {
      facts_call r = {n, current_loop(w), current_function(w)};
      vec_push(&f->returns, r);
    }
    break;
  case 's':
    if (parse_type_is(type, "subscript")) {
      TSNode v = FIELD(n, value);
      if (!ts_node_is_null(v) && NODE_IS(v, "identifier")) {
        facts_ref r = {NULL, 0, ts_node_start_byte(n)};
        r.name = facts_text(f, v, &r.len);
        vec_push(&f->subscripts, r);
      }
    }
    break;
  case 'w':
    if (parse_type_is(type, "while_statement")) goto loop;
    if (parse_type_is(type, "with_statement")) {
      TSNode body = FIELD(n, body);
      if (ts_node_is_null(body)) break;
      TSNode clause = ts_node_named_child(n, 0);
      if (ts_node_is_null(clause) || !NODE_IS(clause, "with_clause")) break;
      uint32_t count = ts_node_named_child_count(clause);
      for (uint32_t i = 0; i < count; i++) {
        TSNode item = ts_node_named_child(clause, i);
        TSNode v = FIELD(item, value);
        if (ts_node_is_null(v)) continue;
        if (NODE_IS(v, "as_pattern") && ts_node_named_child_count(v) > 0) {
          bind_targets(f, FIELD(v, alias));
          v = ts_node_named_child(v, 0);
        }
        facts_region r = {span_of(body), v};
        vec_push(&f->with_items, r);
      }
    }
    break;
  default:
    break;
  }
  return;
loop: {
    TSNode body = FIELD(n, body);
    facts_loop l = {ts_node_is_null(body) ? span_of(n) : span_of(body), current_function(w),
                    current_loop(w), w->innermost_loop, n, 0, false};
    vec_push(&f->loops, l);
    w->innermost_loop = (int)f->loops.len - 1;
    push_frame(w, n, current_function(w), (int)f->loops.len - 1);
  }
}


/* Leaves the node at W's depth: a frame pushed at that depth was pushed by
 * it, its siblings having been left before (no node to fetch and compare). */
static void leave(walker *w) {
  if (!w->stack.len || w->stack.items[w->stack.len - 1].depth != w->depth) return;
  TSNode n = w->stack.items[w->stack.len - 1].node;
  int loop = w->stack.items[w->stack.len - 1].loop;
  if (loop >= 0 && loop == w->innermost_loop && ts_node_eq(w->f->loops.items[loop].node, n))
    w->innermost_loop = w->f->loops.items[loop].outer;
  w->stack.len--;
}


typedef struct {
  const void *id; /* the node's; NULL: an empty slot */
  TSFieldId field;
  TSNode child;
} field_entry;

struct facts_field_memo {
  field_entry *slots;
  size_t cap, used;
};


typedef struct {
  const void *id; /* the node's; NULL: an empty slot */
  bool found;
  facts_symbol symbol;
} symbol_entry;

struct facts_symbol_memo {
  symbol_entry *slots;
  size_t cap, used;
};


static field_entry *field_slot(const struct facts_field_memo *m, const void *id, TSFieldId field) {
  size_t i = (((uintptr_t)id >> 3) * 0x9E3779B97F4A7C15ull + field * 0xC2B2AE3D27D4EB4Full) >> 20 & (m->cap - 1);
  while (m->slots[i].id && (m->slots[i].id != id || m->slots[i].field != field)) i = (i + 1) & (m->cap - 1);
  return &m->slots[i];
}


/* The table's size at most (48 bytes a slot: 3 MB). Lookups repeat within a
 * function's analysis, so a full table is emptied rather than grown: a 1 MB
 * module's table grew to 28 MB, a 48 MB one's to over a gigabyte. */
#define FIELD_MEMO_MAX_SLOTS (1u << 16)

/* The slot of (ID, KEY), growing the table first when it is half full. */
static field_entry *memo_slot(struct facts_field_memo *m, const void *id, TSFieldId key) {
  if ((m->used + 1) * 2 > m->cap && m->cap >= FIELD_MEMO_MAX_SLOTS) {
    memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->used = 0;
  } else if ((m->used + 1) * 2 > m->cap) {
    struct facts_field_memo bigger = {oom_xcalloc(m->cap * 2, sizeof *m->slots), m->cap * 2, m->used};
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].id) *field_slot(&bigger, m->slots[i].id, m->slots[i].field) = m->slots[i];
    free(m->slots);
    *m = bigger;
  }
  return field_slot(m, id, key);
}


TSNode facts__field(const facts *self, TSNode node, TSFieldId field) {
  /* a node's id is its place in the tree: the same id, the same child */
  if (!self->field_memo || !node.id) return ts_node_child_by_field_id(node, field);
  field_entry *e = memo_slot(self->field_memo, node.id, field);
  if (!e->id) {
    *e = (field_entry){node.id, field, ts_node_child_by_field_id(node, field)};
    self->field_memo->used++;
  }
  return e->child;
}


static int binding_cmp(const void *a, const void *b) {
  const facts_binding *x = a, *y = b;
  uint32_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
  int c = memcmp(x->name, y->name, n);
  if (c) return c;
  if (x->name_len != y->name_len) return x->name_len < y->name_len ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}


/* defined in resolve.c: everything that needs the whole file */
void facts__resolve(facts *self);


void facts_build(facts *self, TSNode root, const char *source, size_t length) {
  facts_build_seeded(self, root, source, length, NULL);
}


void facts_build_seeded(facts *self, TSNode root, const char *source, size_t length, const facts_seed *seed) {
  facts_build_with(self, root, source, length, seed, NULL);
}


void facts_build_with(facts *self, TSNode root, const char *source, size_t length, const facts_seed *seed,
                      const facts_imports *imports) {
  memset(self, 0, sizeof *self);
  self->seed = seed;
  self->imports = imports;
  if (imports) {
    self->symbol_memo = oom_xcalloc(1, sizeof *self->symbol_memo);
    self->symbol_memo->cap = 256;
    self->symbol_memo->slots = oom_xcalloc(256, sizeof *self->symbol_memo->slots);
  }
  self->source = source;
  self->length = length;
  /* one pass of memchr over the text: most files never name `grad_fn`, and
   * the check that reads a function's graph walks is asked per candidate */
  for (const char *p = length ? memchr(source, 'g', length) : NULL; p && !self->mentions_grad_fn;
       p = (size_t)(source + length - p) > 1 ? memchr(p + 1, 'g', (size_t)(source + length - p - 1)) : NULL)
    self->mentions_grad_fn = (size_t)(source + length - p) >= 7 && !memcmp(p, "grad_fn", 7);
  self->root = root;
  walker w = {self, {0}, 0, -1, NULL_NODE};
  TSTreeCursor c = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    w.depth = depth;
    enter(&w, n);
    if (ts_tree_cursor_goto_first_child(&c)) {
      if (++depth > self->max_depth) self->max_depth = depth;
      continue;
    }
    for (;;) {
      w.depth = depth;
      leave(&w);
      if (ts_tree_cursor_goto_next_sibling(&c)) break;
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
      depth--;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  vec_free(&w.stack);
  if (self->bindings.len > 1)
    qsort(self->bindings.items, self->bindings.len, sizeof *self->bindings.items, binding_cmp);
  /* deeper than CPython compiles: leave the model empty rather than spend
   * minutes on code that can never run */
  if (self->max_depth > FACTS_MAX_DEPTH) return;
  struct facts_field_memo memo = {oom_xcalloc(1024, sizeof *memo.slots), 1024, 0};
  self->field_memo = &memo;
  facts__resolve(self);
  self->field_memo = NULL;
  free(memo.slots);
}


void facts_free(facts *self) {
  for (size_t i = 0; i < self->bindings.len; i++) free(self->bindings.items[i].qualname);
  for (size_t i = 0; i < self->imported_modules.len; i++) free(self->imported_modules.items[i]);
  for (size_t i = 0; i < self->module_names.len; i++) free(self->module_names.items[i]);
  vec_free(&self->bindings);
  vec_free(&self->functions);
  vec_free(&self->loops);
  vec_free(&self->calls);
  vec_free(&self->excepts);
  vec_free(&self->periodic);
  vec_free(&self->no_grad);
  vec_free(&self->lambdas);
  vec_free(&self->with_items);
  vec_free(&self->set_grad_false);
  vec_free(&self->set_grad_true);
  vec_free(&self->classes);
  vec_free(&self->assigns);
  vec_free(&self->self_aliases);
  vec_free(&self->returns);
  vec_free(&self->comments);
  vec_free(&self->imported_modules);
  vec_free(&self->star_modules);
  vec_free(&self->module_names);
  for (size_t i = 0; i < self->loader_names.len; i++) free(self->loader_names.items[i]);
  vec_free(&self->loader_names);
  for (size_t i = 0; i < self->producers.len; i++) free(self->producers.items[i]);
  vec_free(&self->producers);
  for (size_t i = 0; i < self->loss_names.len; i++) free(self->loss_names.items[i]);
  vec_free(&self->loss_names);
  for (size_t i = 0; i < self->wrapper_names.len; i++) free(self->wrapper_names.items[i]);
  vec_free(&self->wrapper_names);
  for (size_t i = 0; i < self->parameter_free_names.len; i++) free(self->parameter_free_names.items[i]);
  vec_free(&self->parameter_free_names);
  for (size_t i = 0; i < self->non_model_names.len; i++) free(self->non_model_names.items[i]);
  vec_free(&self->non_model_names);
  vec_free(&self->submodule_targets);
  vec_free(&self->local_non_models);
  vec_free(&self->function_imports);
  vec_free(&self->instance_assigns);
  vec_free(&self->model_sites);
  vec_free(&self->self_patterns);
  vec_free(&self->freezes);
  vec_free(&self->subscripts);
  vec_free(&self->functions_by_name);
  free(self->taint);
  free(self->return_clean);
  if (self->symbol_memo) free(self->symbol_memo->slots);
  free(self->symbol_memo);
  facts__qualname_memo_free(self->qualname_memo);
  free(self->importer_no_grad);
  free(self->base_called);
}


void facts_bindings_named(const facts *self, const char *name, uint32_t len, size_t *first, size_t *end) {
  size_t lo = 0, hi = self->bindings.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const facts_binding *b = &self->bindings.items[mid];
    uint32_t n = b->name_len < len ? b->name_len : len;
    int c = memcmp(b->name, name, n);
    if (!c) c = b->name_len < len ? -1 : b->name_len > len;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *first = lo;
  hi = self->bindings.len;
  while (lo < hi) { /* end of the run of NAME */
    size_t mid = (lo + hi) / 2;
    const facts_binding *b = &self->bindings.items[mid];
    if (b->name_len == len && !memcmp(b->name, name, len)) lo = mid + 1;
    else hi = mid;
  }
  *end = lo;
}


void facts__innermost_classes(const facts *self, int *out) {
  /* functions and classes are both in source order: one sweep keeps the
   * classes open at each function on a stack (nested, so innermost on top);
   * comparing every function with every class was quadratic */
  VEC(size_t) open = {0};
  size_t k = 0;
  for (size_t i = 0; i < self->functions.len; i++) {
    facts_span fn = self->functions.items[i].whole;
    for (; k < self->classes.len && ts_node_start_byte(self->classes.items[k].node) < fn.start; k++) {
      uint32_t start = ts_node_start_byte(self->classes.items[k].node);
      while (open.len && ts_node_end_byte(self->classes.items[open.items[open.len - 1]].node) <= start) open.len--;
      vec_push(&open, k);
    }
    /* a class on top that ends before this function ends ended before it began */
    while (open.len && ts_node_end_byte(self->classes.items[open.items[open.len - 1]].node) < fn.end) open.len--;
    out[i] = open.len ? (int)open.items[open.len - 1] : -1;
  }
  vec_free(&open);
}


size_t facts_first_call_at(const facts *self, uint32_t pos) {
  size_t lo = 0, hi = self->calls.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_start_byte(self->calls.items[mid].call) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


size_t facts_first_assign_at(const facts *self, uint32_t pos) {
  size_t lo = 0, hi = self->assigns.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_start_byte(self->assigns.items[mid].left) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


/* How many functions start at or before POS: the last of them is the
 * innermost whose `def` POS may lie in (functions are in file order). */
static size_t functions_started(const facts *self, uint32_t pos) {
  size_t lo = 0, hi = self->functions.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (self->functions.items[mid].whole.start <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


int facts_function_at(const facts *self, uint32_t pos) {
  /* the last function starting at or before POS, then out through parents */
  int i = (int)functions_started(self, pos) - 1;
  while (i >= 0 && !span_has(self->functions.items[i].body, pos)) i = self->functions.items[i].parent;
  return i;
}


/* The innermost loop (of any function) whose body contains POS, or -1. */
static int loop_at(const facts *self, uint32_t pos) {
  size_t lo = 0, hi = self->loops.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (self->loops.items[mid].body.start <= pos) lo = mid + 1;
    else hi = mid;
  }
  int i = (int)lo - 1;
  while (i >= 0 && !span_has(self->loops.items[i].body, pos)) i = self->loops.items[i].outer;
  return i;
}


int facts_innermost_loop_at(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  int i = loop_at(self, pos);
  return i >= 0 && self->loops.items[i].function == fn ? i : -1;
}


int facts_iteration_loop_at(const facts *self, uint32_t pos) {
  int fn = facts_function_at(self, pos);
  int found = -1;
  for (int i = loop_at(self, pos); i >= 0 && self->loops.items[i].function == fn; i = self->loops.items[i].outer) {
    if (self->loops.items[i].per_iteration) {
      found = i;
      break;
    }
  }
  /* a class body between the loop and POS is not run per iteration; classes
   * are in source order, so only those starting inside the loop are looked at */
  if (found >= 0) {
    uint32_t from = self->loops.items[found].body.start;
    size_t lo = 0, hi = self->classes.len;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (ts_node_start_byte(self->classes.items[mid].node) <= from) lo = mid + 1;
      else hi = mid;
    }
    for (size_t i = lo; i < self->classes.len && ts_node_start_byte(self->classes.items[i].node) <= pos; i++)
      if (span_has(span_of(self->classes.items[i].node), pos)) return -1;
  }
  return found;
}


bool facts_periodic_at(const facts *self, uint32_t pos, int loop) {
  if (loop < 0) return false;
  facts_span lb = self->loops.items[loop].body;
  /* periodic bodies are in source order: look only at those inside the loop */
  size_t lo = 0, hi = self->periodic.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (self->periodic.items[mid].body.start < lb.start) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < self->periodic.len && self->periodic.items[i].body.start <= pos; i++)
    if (span_has(self->periodic.items[i].body, pos)) return true;
  return false;
}


bool facts_in_no_grad(const facts *self, uint32_t pos) {
  /* the spans are disjoint and sorted (resolve.c): the last starting at or
   * before POS is the only one that can hold it */
  size_t lo = 0, hi = self->no_grad.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (self->no_grad.items[mid].start <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && span_has(self->no_grad.items[lo - 1], pos);
}


size_t facts_excepts_at(const facts *self, uint32_t pos, const facts_except **out, size_t max) {
  size_t n = 0;
  for (size_t i = self->excepts.len; i-- > 0 && n < max;)
    if (span_has(self->excepts.items[i].body, pos)) out[n++] = &self->excepts.items[i];
  return n;
}


static symbol_entry *symbol_slot(const struct facts_symbol_memo *m, const void *id) {
  size_t i = (size_t)(((uintptr_t)id >> 3) * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
  while (m->slots[i].id && m->slots[i].id != id) i = (i + 1) & (m->cap - 1);
  return &m->slots[i];
}


/* Whether TEXT (TLEN bytes) holds NAME (LEN bytes) as a whole expression
 * prefix: `self.out` in `self.out.mean()`, not in `self.output`. */
uint32_t facts__next_text(const facts *self, uint32_t from, uint32_t end, const char *text, uint32_t len) {
  assert(end <= self->length);
  for (uint32_t at = from; len && at + len <= end; at++) {
    const char *hit = memchr(self->source + at, text[0], end - len - at + 1);
    if (!hit) break;
    at = (uint32_t)(hit - self->source);
    if (!memcmp(hit, text, len)) return at;
  }
  return end;
}


bool facts__mentions(const char *text, uint32_t tlen, const char *name, uint32_t len) {
  for (uint32_t k = 0; k + len <= tlen; k++) {
    if (memcmp(text + k, name, len) != 0) continue;
    bool left = k == 0 || !(isalnum((unsigned char)text[k - 1]) || text[k - 1] == '_' || text[k - 1] == '.');
    bool right = k + len == tlen || !(isalnum((unsigned char)text[k + len]) || text[k + len] == '_');
    if (left && right) return true;
  }
  return false;
}


bool facts_star_function(const facts *self, TSNode node, facts_symbol *out) {
  if (!self->imports || !self->star_modules.len || ts_node_is_null(node) || !NODE_IS(node, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  if (first != end) return false;
  buf q = {0};
  bool found = false;
  for (size_t i = 0; i < self->star_modules.len && !found; i++) {
    buf_clear(&q);
    buf_printf(&q, "%s.%.*s", self->star_modules.items[i], (int)len, name);
    facts_symbol sym;
    found = self->imports->lookup(self->imports, buf_str(&q), q.len, &sym) && (sym.flags & SYM_FUNCTION);
    if (found) *out = sym;
  }
  buf_free(&q);
  return found;
}


bool facts_project_symbol(const facts *self, TSNode node, facts_symbol *out) {
  if (!self->imports || ts_node_is_null(node) || !node.id) return false;
  /* the analyses ask about the same callees round after round: the
   * qualname and the lookup once per node */
  struct facts_symbol_memo *m = self->symbol_memo;
  if ((m->used + 1) * 2 > m->cap) {
    struct facts_symbol_memo bigger = {oom_xcalloc(m->cap * 2, sizeof *m->slots), m->cap * 2, m->used};
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].id) *symbol_slot(&bigger, m->slots[i].id) = m->slots[i];
    free(m->slots);
    *m = bigger;
  }
  symbol_entry *e = symbol_slot(m, node.id);
  if (!e->id) {
    buf q = {0};
    e->id = node.id;
    e->found = facts_qualname(self, node, &q) && self->imports->lookup(self->imports, buf_str(&q), q.len, &e->symbol);
    buf_free(&q);
    m->used++;
  }
  if (e->found) *out = e->symbol;
  return e->found;
}


/* Whether the binding of a name at BYTE (LEN bytes) takes a value made
 * outside this file's constructors: a parameter, a loop or `with` target, or
 * a call of something not named as a class (`parser.parse_json_file(...)`,
 * `get_config()`), alone or unpacked (`model_args, training_args = ...`). */
static bool bound_from_outside(const facts *self, uint32_t byte, uint32_t len) {
  TSNode n = ts_node_descendant_for_byte_range(self->root, byte, byte + len);
  TSNode up = ts_node_parent(n);
  if (!ts_node_is_null(up) && (NODE_IS(up, "pattern_list") || NODE_IS(up, "tuple_pattern") ||
                               NODE_IS(up, "list_pattern") || NODE_IS(up, "tuple")))
    up = ts_node_parent(up);
  if (ts_node_is_null(up)) return false;
  if (!NODE_IS(up, "assignment")) return !NODE_IS(up, "module") && !NODE_IS(up, "block"); /* parameters, targets */
  TSNode value = FIELD(up, right);
  while (!ts_node_is_null(value) && NODE_IS(value, "assignment")) value = FIELD(value, right);
  if (ts_node_is_null(value) || !NODE_IS(value, "call")) return false;
  TSNode callee = FIELD(value, function);
  if (ts_node_is_null(callee)) return false;
  if (NODE_IS(callee, "attribute")) callee = FIELD(callee, attribute);
  uint32_t clen;
  const char *c = facts_text(self, callee, &clen);
  return clen && !isupper((unsigned char)c[0]);
}


bool facts_arg_from_outside(const facts *self, TSNode args, const char *keyword) {
  if (ts_node_is_null(args)) return false;
  size_t klen = strlen(keyword);
  TSNode value = NULL_NODE;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "dictionary_splat")) return true; /* `**kwargs` may pass it */
    if (!NODE_IS(a, "keyword_argument") || ts_node_is_null(FIELD(a, name))) continue;
    uint32_t len;
    const char *t = facts_text(self, FIELD(a, name), &len);
    if (len == klen && !memcmp(t, keyword, klen)) value = FIELD(a, value);
  }
  if (ts_node_is_null(value) || !NODE_IS(value, "identifier")) return !ts_node_is_null(value) && !NODE_IS(value, "call");
  uint32_t len;
  const char *name = facts_text(self, value, &len);
  uint32_t pos = ts_node_start_byte(value);
  int fn = facts_function_at(self, pos);
  size_t first, end;
  facts_bindings_named(self, name, len, &first, &end);
  /* the bindings of its own scope, else the module's (a global read in a function) */
  for (int scope = fn, round = 0; round < 2; scope = -1, round++) {
    bool any = false;
    for (size_t i = first; i < end; i++) {
      const facts_binding *b = &self->bindings.items[i];
      int bf = facts_function_at(self, b->pos);
      if (scope >= 0 && bf != scope && b->pos >= self->functions.items[scope].whole.start &&
          b->pos < self->functions.items[scope].body.start)
        bf = scope; /* a parameter */
      if (bf != scope || b->kind == BINDING_IMPORT) continue;
      any = true;
      if (b->kind == BINDING_ALIAS || bound_from_outside(self, b->pos, b->name_len)) return true;
    }
    if (any || fn < 0) return false;
  }
  return false;
}


bool facts__parameter_of(const facts *f, const char *name, uint32_t len, int fn) {
  if (fn < 0) return false;
  const facts_function *g = &f->functions.items[fn];
  size_t lo, hi;
  facts_bindings_named(f, name, len, &lo, &hi);
  for (size_t i = lo; i < hi; i++)
    if (f->bindings.items[i].pos >= g->whole.start && f->bindings.items[i].pos < g->body.start) return true;
  return false;
}


/* The qualified name, in *FIRST, of the project class the name OBJ is an
 * instance of: every binding of the name in the file builds that class
 * (through `.to()`-like chains), or OBJ is a parameter of the function it
 * is read in, annotated with it (and not bound there otherwise). */
/* `Net(cfg).to(device)`: the call making the instance a chain of moves
 * and mode switches starts from. */
static TSNode instance_value(const facts *self, TSNode value) {
  static const char *const same[] = {"to", "cuda", "cpu", "train", "eval", "half", "float", "double", NULL};
  for (int guard = 0; guard < 8 && !ts_node_is_null(value) && NODE_IS(value, "call"); guard++) {
    TSNode fnode = FIELD(value, function);
    TSNode inner = NODE_IS(fnode, "attribute") ? FIELD(fnode, object) : NULL_NODE;
    if (ts_node_is_null(inner) || !NODE_IS(inner, "call")) break;
    uint32_t ml;
    const char *m = facts_text(self, FIELD(fnode, attribute), &ml);
    bool chained = false;
    for (size_t k = 0; same[k] && !chained; k++) chained = strlen(same[k]) == ml && !memcmp(same[k], m, ml);
    if (!chained) break;
    value = inner;
  }
  return value;
}


/* Whether POS lies in the parameters of a function: after its `def`,
 * before its body. */
static bool in_parameters(const facts *self, uint32_t pos) {
  size_t n = functions_started(self, pos);
  return n > 0 && pos < self->functions.items[n - 1].body.start;
}


static bool instance_class_of(const facts *self, TSNode obj, buf *first, bool parameters_agree) {
  uint32_t len;
  const char *name = facts_text(self, obj, &len);
  if (len == 4 && !memcmp(name, "self", 4)) return false;
  buf q = {0};
  int fn = facts_function_at(self, ts_node_start_byte(obj));
  /* a parameter of FN may carry an annotation */
  if (facts__parameter_of(self, name, len, fn) && facts__annotated_class(self, obj, fn, &q)) {
    /* the parameter keeps its class unless the function binds it anew */
    bool rebound = facts__last_assign_before(self, name, len, ts_node_start_byte(obj), fn) >= 0;
    if (!rebound) buf_puts(first, buf_str(&q));
    buf_free(&q);
    return !rebound;
  }
  /* every binding of the name in the file must be an assignment building
   * the same class: a global made in the `__main__` block and used by a
   * function above it (bindings are sorted by name: no scan of the file) */
  size_t lo, hi;
  facts_bindings_named(self, name, len, &lo, &hi);
  if (lo == hi || hi - lo > 8) {
    buf_free(&q);
    return false;
  }
  bool found = false, agree = true;
  for (size_t i = lo; i < hi && agree; i++) {
    const facts_binding *b = &self->bindings.items[i];
    /* a parameter of that name (`def train_one_epoch(netgroup, loader)`,
     * called with the global `netgroup = NetGroup(...)`) takes the class
     * the file's assignments agree on; it builds none itself */
    if (parameters_agree && in_parameters(self, b->pos)) continue;
    buf_clear(&q);
    TSNode value = instance_value(self, b->value);
    if (b->kind != BINDING_OTHER || ts_node_is_null(value) || !NODE_IS(value, "call") ||
        !facts_qualname(self, FIELD(value, function), &q)) {
      agree = false;
    } else if (!found) {
      buf_puts(first, buf_str(&q));
      found = true;
    } else if (strcmp(buf_str(first), buf_str(&q)) != 0) {
      agree = false;
    }
  }
  buf_free(&q);
  return found && agree;
}


static bool instance_class(const facts *self, TSNode obj, buf *first) {
  return instance_class_of(self, obj, first, false);
}


/* The symbol of method METHOD of the project class named in KLASS (a
 * buffer it extends). */
static bool class_method_symbol(const facts *self, buf *klass, const char *method, size_t mlen, facts_symbol *out) {
  facts_symbol k;
  if (!self->imports->lookup(self->imports, buf_str(klass), klass->len, &k) || !(k.flags & SYM_CLASS)) return false;
  buf_putc(klass, '.');
  buf_append(klass, method, mlen);
  return self->imports->lookup(self->imports, buf_str(klass), klass->len, out) && (out->flags & SYM_FUNCTION);
}


/* `self.optimize(opt, loss)` in a method of a plain class of the file that
 * does not define `optimize`: the method its project base class defines
 * (TextGAN's instructors inherit their optimizer step from
 * `BasicInstructor`). Module classes are left out: their `self.x(...)` calls
 * are submodules, and they are most of the calls a file makes. */
static bool inherited_method_symbol(const facts *self, TSNode obj, const char *method, uint32_t mlen,
                                    facts_symbol *out) {
  uint32_t len;
  const char *name = facts_text(self, obj, &len);
  if (len != 4 || memcmp(name, "self", 4) != 0) return false;
  int fn = facts_function_at(self, ts_node_start_byte(obj));
  if (fn < 0 || self->functions.items[fn].klass < 0) return false;
  int k = self->functions.items[fn].klass;
  const facts_class *cls = &self->classes.items[k];
  if (cls->is_module || ts_node_is_null(cls->bases)) return false;
  for (size_t i = 0; i < self->functions.len; i++)
    if (self->functions.items[i].klass == k && self->functions.items[i].name_len == mlen &&
        !memcmp(self->functions.items[i].name, method, mlen))
      return false; /* its own method: the file's analysis reads it */
  buf q = {0};
  bool ok = false;
  uint32_t n = ts_node_named_child_count(cls->bases);
  for (uint32_t j = 0; j < n && !ok; j++) {
    TSNode base = ts_node_named_child(cls->bases, j);
    if (!NODE_IS(base, "identifier") && !NODE_IS(base, "attribute")) continue;
    buf_clear(&q);
    ok = facts_qualname(self, base, &q) && class_method_symbol(self, &q, method, mlen, out);
  }
  buf_free(&q);
  return ok;
}


uint64_t facts_key_bit(const char *key, size_t len) {
  /* FNV-1a: the keys of one program's dicts spread over the 64 bits */
  uint64_t h = 14695981039346656037u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 1099511628211u;
  return (uint64_t)1 << (h % 64);
}


bool facts_instance_method_symbol(const facts *self, TSNode callee, facts_symbol *out) {
  if (!self->imports || ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode obj = FIELD(callee, object), attr = FIELD(callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !NODE_IS(obj, "identifier")) return false;
  uint32_t alen;
  const char *method = facts_text(self, attr, &alen);
  buf first = {0};
  bool ok = instance_class(self, obj, &first) && class_method_symbol(self, &first, method, alen, out);
  buf_free(&first);
  return ok || inherited_method_symbol(self, obj, method, alen, out);
}


bool facts_parameter_method_symbol(const facts *self, TSNode callee, facts_symbol *out) {
  if (!self->imports || ts_node_is_null(callee) || !NODE_IS(callee, "attribute")) return false;
  TSNode obj = FIELD(callee, object), attr = FIELD(callee, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !NODE_IS(obj, "identifier")) return false;
  uint32_t len, alen;
  const char *name = facts_text(self, obj, &len);
  if (!facts__parameter_of(self, name, len, facts_function_at(self, ts_node_start_byte(obj)))) return false;
  const char *method = facts_text(self, attr, &alen);
  buf first = {0};
  bool ok = instance_class_of(self, obj, &first, true) && class_method_symbol(self, &first, method, alen, out);
  buf_free(&first);
  return ok;
}


/* The symbol of what calling an instance of the project class named in
 * KLASS (a buffer it extends) runs: its `__call__`, else its `forward`. */
static bool entry_symbol(const facts *self, buf *klass, facts_symbol *out) {
  size_t base = klass->len;
  if (class_method_symbol(self, klass, "__call__", 8, out)) return true;
  klass->len = base;
  klass->data[base] = 0;
  return class_method_symbol(self, klass, "forward", 7, out);
}


bool facts_names_training_instance(const facts *self, TSNode callee) {
  if (!self->imports || ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, callee, &len);
  size_t lo, hi;
  facts_bindings_named(self, name, len, &lo, &hi);
  if (hi - lo > 16) return false;
  buf q = {0};
  bool trains = false;
  for (size_t i = lo; i < hi && !trains; i++) {
    const facts_binding *b = &self->bindings.items[i];
    TSNode value = instance_value(self, b->value);
    if (b->kind != BINDING_OTHER || ts_node_is_null(value) || !NODE_IS(value, "call")) continue;
    /* a class, by the name's capital: most values are not */
    TSNode fn = FIELD(value, function);
    TSNode last = !ts_node_is_null(fn) && NODE_IS(fn, "attribute") ? FIELD(fn, attribute) : fn;
    uint32_t ll;
    const char *lt = ts_node_is_null(last) ? NULL : facts_text(self, last, &ll);
    buf_clear(&q);
    if (!lt || !ll || !isupper((unsigned char)lt[0]) || !facts_qualname(self, fn, &q)) continue;
    facts_symbol sym;
    trains = entry_symbol(self, &q, &sym) && (sym.flags & (SYM_BACKWARD | SYM_TRAINS));
  }
  buf_free(&q);
  return trains;
}


bool facts_instance_call_symbol(const facts *self, TSNode callee, facts_symbol *out) {
  if (!self->imports || ts_node_is_null(callee) || !NODE_IS(callee, "identifier")) return false;
  buf first = {0};
  bool ok = false;
  if (instance_class(self, callee, &first)) ok = entry_symbol(self, &first, out);
  buf_free(&first);
  return ok;
}
