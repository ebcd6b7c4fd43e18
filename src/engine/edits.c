/* This file contains the edit operations rule files name (`; edit: ...`):
 * each turns a match's captures into byte-range replacements that keep the
 * file valid Python (commas in argument lists, `pass` in emptied blocks). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "parse/fields.h"
#include "util/alloc.h"
#include "util/lines.h"

#include "parse/node.h"
#include "parse/walk.h"

typedef VEC(oom_edit) edit_vec;


static void push(edit_vec *v, arena *a, uint32_t s, uint32_t e, const char *text, size_t len) {
  oom_edit ed = {s, e, arena_strndup(a, text, len)};
  vec_push(v, ed);
}


/* Named children that are real arguments (not comments). */
static uint32_t arg_count(TSNode args, TSNode *first, TSNode *last) {
  uint32_t n = ts_node_named_child_count(args), count = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "comment")) continue;
    if (!count) *first = c;
    *last = c;
    count++;
  }
  return count;
}


static bool add_arg(edit_vec *v, arena *a, TSNode args, const char *text, bool append) {
  if (!NODE_IS(args, "argument_list")) return false;
  TSNode first = {0}, last = {0};
  uint32_t n = arg_count(args, &first, &last);
  buf b = {0};
  uint32_t at;
  if (n == 0) {
    at = ts_node_start_byte(args) + 1; /* after "(" */
    buf_puts(&b, text);
  } else if (append) {
    at = ts_node_end_byte(last);
    buf_printf(&b, ", %s", text);
  } else {
    at = ts_node_start_byte(first);
    buf_printf(&b, "%s, ", text);
  }
  push(v, a, at, at, b.data, b.len);
  buf_free(&b);
  return true;
}


/* A removal that leaves its line(s) blank takes the whole lines: no line of
 * trailing whitespace stays behind (`f(\n    x=1,\n)` -> `f(\n)`). */
static void widen_to_lines(const char *src, size_t len, uint32_t *s, uint32_t *e) {
  uint32_t ls = *s, le = *e;
  while (ls > 0 && (src[ls - 1] == ' ' || src[ls - 1] == '\t')) ls--;
  while (le < len && (src[le] == ' ' || src[le] == '\t')) le++;
  if (ls > 0 && !lines_breaks_at(src, len, ls - 1)) return;
  if (le >= len || (src[le] != '\n' && src[le] != '\r')) return;
  *s = ls;
  *e = (uint32_t)lines_next(src, len, le); /* past "\n", "\r\n" or a lone "\r" */
}


static bool remove_arg(edit_vec *v, arena *a, TSNode arg, const char *src, size_t len) {
  TSNode args = ts_node_parent(arg);
  if (ts_node_is_null(args) || !NODE_IS(args, "argument_list")) return false;
  TSNode next = ts_node_next_sibling(arg);
  if (!ts_node_is_null(next) && NODE_IS(next, ",")) {
    /* `f(x=1, y)` -> `f(y)`; `f(x=1,)` -> `f()` */
    TSNode after = ts_node_next_named_sibling(next);
    uint32_t start = ts_node_start_byte(arg);
    uint32_t end = (!ts_node_is_null(after) && !NODE_IS(after, "comment")) ? ts_node_start_byte(after)
                                                                            : ts_node_end_byte(next);
    widen_to_lines(src, len, &start, &end);
    push(v, a, start, end, "", 0);
    return true;
  }
  TSNode prev = ts_node_prev_sibling(arg);
  if (!ts_node_is_null(prev) && NODE_IS(prev, ",")) {
    /* `f(y, x=1)` -> `f(y)` */
    TSNode before = ts_node_prev_named_sibling(prev);
    uint32_t start = ts_node_is_null(before) ? ts_node_start_byte(prev) : ts_node_end_byte(before);
    push(v, a, start, ts_node_end_byte(arg), "", 0);
    return true;
  }
  push(v, a, ts_node_start_byte(arg), ts_node_end_byte(arg), "", 0);
  return true;
}


static bool is_statement_parent(TSNode n) {
  return NODE_IS(n, "block") || NODE_IS(n, "module");
}


static bool remove_statement(edit_vec *v, arena *a, TSNode n, const char *src, size_t len) {
  TSNode parent = ts_node_parent(n);
  while (!ts_node_is_null(parent) && !is_statement_parent(parent)) {
    n = parent;
    parent = ts_node_parent(n);
  }
  if (ts_node_is_null(parent)) return false;
  uint32_t others = 0, count = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(parent, i);
    if (!NODE_IS(c, "comment") && !ts_node_eq(c, n)) others++;
  }
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  /* alone on its lines: take the lines, trailing comment and newline too */
  uint32_t ls = s;
  while (ls > 0 && (src[ls - 1] == ' ' || src[ls - 1] == '\t')) ls--;
  bool line_start = ls == 0 || lines_breaks_at(src, len, ls - 1);
  uint32_t le = e;
  while (le < len && (src[le] == ' ' || src[le] == '\t')) le++;
  if (le < len && src[le] == '#')
    while (le < len && src[le] != '\n' && src[le] != '\r') le++;
  bool line_end = le >= len || src[le] == '\n' || src[le] == '\r';
  if (others == 0 && NODE_IS(parent, "block")) {
    push(v, a, s, e, "pass", 4); /* the block must keep a statement */
    return true;
  }
  if (line_start && line_end) {
    if (le < len && src[le] == '\r') le++;
    if (le < len && src[le] == '\n') le++;
    push(v, a, ls, le, "", 0);
    return true;
  }
  push(v, a, s, e, "pass", 4); /* shares its line: `a = 1; pass` stays valid */
  return true;
}


static int edit_cmp(const void *x, const void *y) {
  const oom_edit *a = x, *b = y;
  if (a->start_byte != b->start_byte) return a->start_byte < b->start_byte ? -1 : 1;
  return (a->end_byte > b->end_byte) - (a->end_byte < b->end_byte);
}


/* Whether the name N is a record whose entry its function backpropagates
 * (`output["loss"].backward()`): a dict or an output object, which has no
 * `.detach()` of its own. */
static bool entry_backpropagated(TSNode n, const facts *model) {
  if (!NODE_IS(n, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(model, n, &len);
  int fn = facts_function_at(model, ts_node_start_byte(n));
  for (size_t i = 0; i < model->calls.len; i++) {
    const facts_call *c = &model->calls.items[i];
    TSNode callee = FIELD(c->call, function);
    if (c->function != fn || ts_node_is_null(callee) || !NODE_IS(callee, "attribute") ||
        !facts_node_is(model, FIELD(callee, attribute), "backward"))
      continue;
    TSNode obj = FIELD(callee, object);
    if (!NODE_IS(obj, "subscript") && !NODE_IS(obj, "attribute")) continue;
    TSNode root = NODE_IS(obj, "subscript") ? FIELD(obj, value) : FIELD(obj, object);
    uint32_t rlen;
    const char *r = ts_node_is_null(root) ? NULL : facts_text(model, root, &rlen);
    if (r && NODE_IS(root, "identifier") && rlen == len && !memcmp(r, name, len)) return true;
  }
  return false;
}


/* `.item()` for a scalar loss, `.detach()` otherwise, parenthesized when the
 * value is not a primary expression; none for a record holding the loss
 * (display only: which entries to detach is the author's call) */
static bool append_clean(edit_vec *v, arena *a, TSNode n, const facts *model) {
  if (entry_backpropagated(n, model)) return false;
  const char *suffix = facts_value_of(model, n).scalar ? ".item()" : ".detach()";
  const char *t = ts_node_type(n);
  bool primary = !strcmp(t, "identifier") || !strcmp(t, "call") || !strcmp(t, "attribute") ||
                 !strcmp(t, "subscript") || !strcmp(t, "parenthesized_expression");
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (!primary) {
    push(v, a, s, s, "(", 1);
    push(v, a, e, e, ")", 1);
  }
  push(v, a, e, e, suffix, strlen(suffix));
  return true;
}


/* The name this file imports the torch module under (`import torch`,
 * `import torch as T`), or NULL. */
static const char *torch_alias(const facts *model, uint32_t *len) {
  for (size_t i = 0; i < model->bindings.len; i++) {
    const facts_binding *b = &model->bindings.items[i];
    if (b->kind == BINDING_IMPORT && b->qualname && !strcmp(b->qualname, "torch")) {
      *len = b->name_len;
      return b->name;
    }
  }
  return NULL;
}


/* `@torch.no_grad()` above the function holding N, at its indentation, with
 * `torch` spelled as the file imports it; above its other decorators, so it
 * wraps what they return. Refused (display only) when the decorator is
 * already there or the file does not import torch. */
static bool add_decorator(edit_vec *v, arena *a, TSNode n, const char *text, const facts *model) {
  int fn = facts_function_at(model, ts_node_start_byte(n));
  if (fn < 0 || model->functions.items[fn].no_grad) return false;
  TSNode def = model->functions.items[fn].node;
  if (!ts_node_is_null(model->functions.items[fn].decorated)) def = model->functions.items[fn].decorated;
  uint32_t alias_len;
  const char *alias = torch_alias(model, &alias_len);
  if (!alias) return false;
  const char *src = model->source;
  uint32_t at = ts_node_start_byte(def), ls = at;
  while (ls > 0 && (src[ls - 1] == ' ' || src[ls - 1] == '\t')) ls--;
  if (ls > 0 && src[ls - 1] != '\n' && src[ls - 1] != '\r') return false; /* not alone on its line */
  /* the decorator's line ends as the definition's line does */
  size_t eol = lines_content_end(src, model->length, at);
  const char *ending = "\n";
  if (eol < model->length && src[eol] == '\r') ending = lines_breaks_at(src, model->length, eol) ? "\r" : "\r\n";
  buf b = {0};
  /* the text with `torch` replaced by the file's alias */
  const char *t = text;
  const char *hit = strstr(t, "torch");
  if (hit) {
    buf_append(&b, t, (size_t)(hit - t));
    buf_append(&b, alias, alias_len);
    buf_puts(&b, hit + 5);
  } else {
    buf_puts(&b, t);
  }
  buf_puts(&b, ending);
  buf_append(&b, src + ls, at - ls);
  push(v, a, at, at, b.data, b.len);
  buf_free(&b);
  return true;
}


/* A divisor the fix may copy next to the loss: an integer literal, a name,
 * or an attribute chain of names (`args.accum_steps`), whose name is not
 * bound again inside LOOP, so it means at backward() what it means in the
 * `%` test. */
static bool simple_divisor(const facts *model, TSNode k, int loop) {
  if (NODE_IS(k, "integer")) return true;
  TSNode root = k;
  for (int guard = 0; guard < 64 && NODE_IS(root, "attribute"); guard++) {
    TSNode attr = FIELD(root, attribute);
    if (ts_node_is_null(attr) || !NODE_IS(attr, "identifier")) return false;
    root = FIELD(root, object);
    if (ts_node_is_null(root)) return false;
  }
  if (!NODE_IS(root, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(model, root, &len);
  facts_span body = model->loops.items[loop].body;
  for (size_t i = 0; i < model->bindings.len; i++) {
    const facts_binding *b = &model->bindings.items[i];
    if (b->name_len == len && !memcmp(b->name, name, len) && b->pos >= body.start && b->pos < body.end) return false;
  }
  return true;
}


/* The loss N divided by the accumulation steps read from the `%` test that
 * guards the loop's optimizer step: `(loss / k).backward()` when N is the
 * receiver of a call, `scaler.scale(loss / k)` when it is an argument, N
 * parenthesized when it is not a primary expression. Only insertions, so
 * comments inside N stay. */
static bool divide_by_steps(edit_vec *v, arena *a, TSNode n, const facts *model) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  TSNode k = facts_accumulation_steps(model, s);
  int loop = facts_iteration_loop_at(model, s);
  if (ts_node_is_null(k) || loop < 0 || !simple_divisor(model, k, loop)) return false;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "keyword_argument") || !strcmp(t, "list_splat") || !strcmp(t, "dictionary_splat") ||
      !strcmp(t, "comment"))
    return false;
  TSNode parent = ts_node_parent(n);
  bool receiver = !ts_node_is_null(parent) && (NODE_IS(parent, "attribute") || NODE_IS(parent, "subscript") ||
                                               NODE_IS(parent, "call")) &&
                  ts_node_start_byte(parent) == s;
  bool primary = !strcmp(t, "identifier") || !strcmp(t, "call") || !strcmp(t, "attribute") ||
                 !strcmp(t, "subscript") || !strcmp(t, "parenthesized_expression");
  uint32_t klen;
  const char *ktext = facts_text(model, k, &klen);
  buf b = {0};
  if (receiver || !primary) push(v, a, s, s, "(", 1);
  if (!receiver && !primary) buf_putc(&b, ')');
  buf_puts(&b, " / ");
  buf_append(&b, ktext, klen);
  if (receiver) buf_putc(&b, ')');
  push(v, a, e, e, b.data, b.len);
  buf_free(&b);
  return true;
}


/* ---- amp-device-uses ---- */

/* The AMP names `from torch.cuda.amp import ...` may move to torch.amp, and
 * how each takes the device there: autocast and GradScaler as their first
 * argument, custom_fwd and custom_bwd as the keyword `device_type` (their
 * torch.cuda.amp versions are `functools.partial(torch.amp.custom_fwd,
 * device_type="cuda")`). torch.cpu.amp has only the first two. */
typedef enum { AMP_NONE, AMP_DEVICE_FIRST, AMP_DEVICE_KEYWORD } amp_kind;

typedef struct {
  const char *name; /* as bound in the file: the alias when there is one */
  uint32_t len;
  amp_kind kind;
} amp_name;

#define AMP_MAX_NAMES 8


static amp_kind amp_kind_of(const facts *model, TSNode name, bool cuda) {
  if (!NODE_IS(name, "dotted_name") || ts_node_named_child_count(name) != 1) return AMP_NONE;
  if (facts_node_is(model, name, "autocast") || facts_node_is(model, name, "GradScaler")) return AMP_DEVICE_FIRST;
  if (cuda && (facts_node_is(model, name, "custom_fwd") || facts_node_is(model, name, "custom_bwd")))
    return AMP_DEVICE_KEYWORD;
  return AMP_NONE;
}


/* The names STMT (`from torch.cuda.amp import a, b as c`) binds, or 0 when
 * one of them is not an AMP name this edit knows (or a `*`). */
static size_t amp_names(const facts *model, TSNode stmt, amp_name *out) {
  TSNode module = FIELD(stmt, module_name);
  if (ts_node_is_null(module)) return 0;
  bool cuda = facts_node_is(model, module, "torch.cuda.amp");
  size_t n = 0;
  uint32_t count = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (ts_node_eq(c, module) || NODE_IS(c, "comment")) continue;
    TSNode name = c, bound = c;
    if (NODE_IS(c, "aliased_import")) {
      name = FIELD(c, name);
      bound = FIELD(c, alias);
    }
    if (ts_node_is_null(name) || ts_node_is_null(bound) || n == AMP_MAX_NAMES) return 0;
    amp_kind kind = amp_kind_of(model, name, cuda);
    if (kind == AMP_NONE) return 0; /* a wildcard, a submodule, another name */
    out[n].name = facts_text(model, bound, &out[n].len);
    for (size_t k = 0; k < n; k++)
      if (out[k].len == out[n].len && !memcmp(out[k].name, out[n].name, out[n].len)) return 0; /* bound twice */
    out[n].kind = kind;
    n++;
  }
  return n;
}


static bool inside(TSNode n, TSNode outer) {
  return ts_node_start_byte(n) >= ts_node_start_byte(outer) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}


static bool is_node(TSNode n, TSNode want) {
  return !ts_node_is_null(n) && ts_node_eq(n, want);
}


/* Whether the device can be added to the argument list ARGS: keywords only
 * (positional ones too when POSITIONAL_OK), no `*`/`**`, and no keyword
 * `device_type` or `device` (the old functions take neither). */
static bool rewritable_args(const facts *model, TSNode args, bool positional_ok) {
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (NODE_IS(c, "comment")) continue;
    if (NODE_IS(c, "keyword_argument")) {
      TSNode k = FIELD(c, name);
      if (facts_node_is(model, k, "device_type") || facts_node_is(model, k, "device")) return false;
      continue;
    }
    if (!positional_ok || NODE_IS(c, "list_splat") || NODE_IS(c, "dictionary_splat")) return false;
  }
  return true;
}


/* One use of an imported AMP name: the identifier ID. Adds its edit, or
 * returns false when the use is not one this edit can rewrite. */
static bool amp_use(edit_vec *v, arena *a, const facts *model, TSNode id, const amp_name *name, const char *dev) {
  TSNode parent = ts_node_parent(id);
  if (ts_node_is_null(parent)) return false;
  /* `x.autocast`, `f(autocast=...)`: the same word, not the name */
  if (NODE_IS(parent, "attribute") && is_node(FIELD(parent, attribute), id)) return true;
  if (NODE_IS(parent, "keyword_argument") && is_node(FIELD(parent, name), id)) return true;
  if (NODE_IS(parent, "dotted_name")) {
    /* in another import: a module path or the name an `as` renames is not a
     * use; the name it binds (`from m import autocast`) is a second one */
    TSNode stmt = ts_node_parent(parent);
    if (ts_node_is_null(stmt)) return false;
    if (NODE_IS(stmt, "import_from_statement") && is_node(FIELD(stmt, module_name), parent)) return true;
    if (NODE_IS(stmt, "relative_import")) return true;
    if (NODE_IS(stmt, "aliased_import") && is_node(FIELD(stmt, name), parent)) return true;
    if (NODE_IS(stmt, "import_statement") && !is_node(ts_node_named_child(parent, 0), id)) return true;
    return false;
  }
  buf b = {0};
  bool ok = false;
  if (NODE_IS(parent, "call") && is_node(FIELD(parent, function), id)) {
    TSNode args = FIELD(parent, arguments);
    if (!ts_node_is_null(args) && NODE_IS(args, "argument_list") &&
        rewritable_args(model, args, name->kind == AMP_DEVICE_KEYWORD)) {
      if (name->kind == AMP_DEVICE_FIRST) {
        ok = add_arg(v, a, args, dev, false); /* `autocast(dtype=x)` -> `autocast("cuda", dtype=x)` */
      } else {
        buf_printf(&b, "device_type=%s", dev);
        ok = add_arg(v, a, args, buf_str(&b), true);
      }
    }
  } else if (NODE_IS(parent, "decorator") && name->kind == AMP_DEVICE_KEYWORD) {
    /* `@custom_fwd` -> `@custom_fwd(device_type="cuda")` */
    buf_printf(&b, "(device_type=%s)", dev);
    uint32_t e = ts_node_end_byte(id);
    push(v, a, e, e, b.data, b.len);
    ok = true;
  }
  buf_free(&b);
  return ok; /* anything else: passed as a value, bound again, annotated */
}


/* `from torch.cuda.amp import autocast, GradScaler` moving to torch.amp: every
 * use of the names it binds, in the file or in the function importing them,
 * gets the device DEV. Refused when a name is not an AMP name, a use is not
 * a call or decorator this can rewrite (`global autocast` included), the
 * statement sits in a class body, or the file declares `__all__`. */
static bool amp_device_uses(edit_vec *v, arena *a, TSNode n, const char *dev, const facts *model) {
  TSNode stmt = n;
  while (!ts_node_is_null(stmt) && !NODE_IS(stmt, "import_from_statement")) stmt = ts_node_parent(stmt);
  if (ts_node_is_null(stmt)) return false;
  amp_name names[AMP_MAX_NAMES];
  size_t nnames = amp_names(model, stmt, names);
  if (!nnames) return false;
  /* a module with `__all__` exports names: other files would call them
   * without the device */
  for (size_t i = 0; i < model->bindings.len; i++)
    if (model->bindings.items[i].name_len == 7 && !memcmp(model->bindings.items[i].name, "__all__", 7)) return false;
  /* the scope the names live in: the file, or the function importing them */
  TSNode scope = model->root;
  for (TSNode up = ts_node_parent(stmt); !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (NODE_IS(up, "class_definition")) return false; /* a class attribute: methods do not see it */
    if (NODE_IS(up, "function_definition")) {
      scope = up;
      break;
    }
  }
  /* every identifier of the scope: outside it the names are another's */
  bool ok = true;
  TSTreeCursor c = ts_tree_cursor_new(scope);
  for (;;) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (NODE_IS(k, "identifier") && !inside(k, stmt)) {
      uint32_t len;
      const char *t = facts_text(model, k, &len);
      for (size_t i = 0; i < nnames && ok; i++)
        if (names[i].len == len && !memcmp(names[i].name, t, len)) ok = amp_use(v, a, model, k, &names[i], dev);
      if (!ok) break;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, scope)) break;
  }
  ts_tree_cursor_delete(&c);
  return ok; /* false: the caller drops every edit of the fix */
}


bool edits_build(const TSQuery *query, const oom_rule *rule, const TSQueryMatch *m, const facts *model, arena *a,
                 oom_edit **out, size_t *count) {
  const char *source = model->source;
  size_t length = model->length;
  edit_vec v = {0};
  bool ok = true;
  for (size_t i = 0; i < rule->edits.len && ok; i++) {
    const edit_spec *e = &rule->edits.items[i];
    /* an edit of another pattern of the rule (one that captures its target) */
    if (ts_query_capture_quantifier_for_id(query, m->pattern_index, (uint32_t)e->capture) == TSQuantifierZero)
      continue;
    TSNode n;
    if (!engine_capture(m, e->capture, &n)) { ok = false; break; }
    /* every capture the text names must be there too */
    for (size_t k = 0; k < e->text.count; k++) {
      TSNode unused;
      if (e->text.parts[k].capture >= 0 && !engine_capture(m, e->text.parts[k].capture, &unused)) ok = false;
    }
    if (!ok) break;
    char *text = e->text.count ? tmpl_render(&e->text, m, source, length, a, true) : "";
    uint32_t s = ts_node_start_byte(n), en = ts_node_end_byte(n);
    switch (e->op) {
    case EDIT_REPLACE: push(&v, a, s, en, text, strlen(text)); break;
    case EDIT_INSERT_BEFORE: push(&v, a, s, s, text, strlen(text)); break;
    case EDIT_INSERT_AFTER: push(&v, a, en, en, text, strlen(text)); break;
    case EDIT_APPEND_ARG: ok = add_arg(&v, a, n, text, true); break;
    case EDIT_PREPEND_ARG: ok = add_arg(&v, a, n, text, false); break;
    case EDIT_REMOVE_ARG: ok = remove_arg(&v, a, n, source, length); break;
    case EDIT_REMOVE_STATEMENT: ok = remove_statement(&v, a, n, source, length); break;
    case EDIT_APPEND_CLEAN: ok = append_clean(&v, a, n, model); break;
    case EDIT_ADD_DECORATOR: ok = add_decorator(&v, a, n, text, model); break;
    case EDIT_DIVIDE_BY_STEPS: ok = divide_by_steps(&v, a, n, model); break;
    case EDIT_AMP_DEVICE_USES: ok = amp_device_uses(&v, a, n, text, model); break;
    }
  }
  if (ok && v.len > 1) {
    /* stable: insertions at one point keep the order the edits gave them */
    for (size_t i = 1; i < v.len; i++)
      for (size_t k = i; k > 0 && edit_cmp(&v.items[k - 1], &v.items[k]) > 0; k--) {
        oom_edit t = v.items[k];
        v.items[k] = v.items[k - 1];
        v.items[k - 1] = t;
      }
    /* insertions at one point become one edit, so edits never share a start */
    size_t k = 0;
    for (size_t i = 0; i < v.len; i++) {
      if (k && v.items[i].start_byte == v.items[k - 1].end_byte && v.items[k - 1].start_byte == v.items[k - 1].end_byte &&
          v.items[i].start_byte == v.items[i].end_byte) {
        size_t l1 = strlen(v.items[k - 1].content), l2 = strlen(v.items[i].content);
        char *joined = arena_alloc(a, l1 + l2 + 1);
        memcpy(joined, v.items[k - 1].content, l1);
        memcpy(joined + l1, v.items[i].content, l2 + 1);
        v.items[k - 1].content = joined;
        continue;
      }
      v.items[k++] = v.items[i];
    }
    v.len = k;
    for (size_t i = 1; i < v.len; i++)
      if (v.items[i].start_byte < v.items[i - 1].end_byte) ok = false; /* a rule's own edits must not collide */
  }
  if (!ok || v.len == 0) {
    vec_free(&v);
    return false;
  }
  *out = arena_alloc(a, v.len * sizeof **out);
  memcpy(*out, v.items, v.len * sizeof **out);
  *count = v.len;
  vec_free(&v);
  return true;
}
