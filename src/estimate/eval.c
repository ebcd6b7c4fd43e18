/* This file contains the interpreter's expressions (literals, names, operators, comprehensions,
 * calls) and attribute reads and writes, where weight tying and requires_grad happen. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"
#include "parse/fields.h"

#include "parse/node.h"


static value *eval_inner(interp *st, scope *sc, TSNode n);


value *eval(interp *st, scope *sc, TSNode n) {
  if (ts_node_is_null(n)) return v_unknown(st, "missing expression");
  if (!st_step(st)) return v_unknown(st, "the estimate stopped: the file takes too long to follow");
  if (st->depth >= EST_MAX_DEPTH) return v_unknown(st, "nested too deeply to follow");
  st->depth++;
  value *v = eval_inner(st, sc, n);
  st->depth--;
  return v;
}


/* ---- literals ---- */

static value *eval_integer(interp *st, TSNode n) {
  uint32_t len;
  const char *t = st_text(st, n, &len);
  char digits[80];
  uint32_t k = 0;
  for (uint32_t i = 0; i < len && k + 1 < sizeof digits; i++)
    if (t[i] != '_') digits[k++] = t[i];
  digits[k] = '\0';
  if (k && (digits[k - 1] == 'j' || digits[k - 1] == 'J')) return v_unknown(st, "a complex number");
  int base = 10;
  const char *p = digits;
  if (k > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, p += 2;
  else if (k > 1 && digits[0] == '0' && (digits[1] == 'o' || digits[1] == 'O')) base = 8, p += 2;
  else if (k > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, p += 2;
  errno = 0;
  char *end;
  long long v = strtoll(p, &end, base);
  if (errno || *end) return v_unknown(st, "an integer too large to follow");
  value *r = v_int(st, v);
  r->origin = n;
  return r;
}


static value *eval_float(interp *st, TSNode n) {
  uint32_t len;
  const char *t = st_text(st, n, &len);
  char digits[80];
  uint32_t k = 0;
  for (uint32_t i = 0; i < len && k + 1 < sizeof digits; i++)
    if (t[i] != '_') digits[k++] = t[i];
  digits[k] = '\0';
  if (k && (digits[k - 1] == 'j' || digits[k - 1] == 'J')) return v_unknown(st, "a complex number");
  return v_float(st, strtod(digits, NULL));
}


static bool decode_string(interp *st, TSNode n, buf *out) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool ok = true, raw = false;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      const char *type = ts_node_type(x);
      uint32_t len;
      const char *t = st_text(st, x, &len);
      if (!strcmp(type, "string_start")) {
        for (uint32_t i = 0; i < len; i++)
          if (t[i] == 'r' || t[i] == 'R') raw = true;
      } else if (!strcmp(type, "string_content")) {
        buf_append(out, t, len);
      } else if (!strcmp(type, "escape_sequence")) {
        if (raw || len < 2) buf_append(out, t, len);
        else if (t[1] == 'n') buf_putc(out, '\n');
        else if (t[1] == 't') buf_putc(out, '\t');
        else if (t[1] == '\\' || t[1] == '\'' || t[1] == '"') buf_putc(out, t[1]);
        else if (t[1] == '\n') {}
        else buf_append(out, t, len);
      } else if (!strcmp(type, "interpolation")) {
        ok = false;
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return ok;
}


static value *eval_string(interp *st, TSNode n) {
  buf b = {0};
  bool ok = true;
  if (NODE_IS(n, "concatenated_string")) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && ok; i++) ok = decode_string(st, ts_node_named_child(n, i), &b);
  } else {
    ok = decode_string(st, n, &b);
  }
  value *v = ok ? v_str(st, st_strdup(st, buf_str(&b), b.len), (uint32_t)b.len)
                : v_unknown(st, "an f-string");
  buf_free(&b);
  return v;
}


/* ---- operators ---- */

static value *unknown_of(interp *st, value *l, value *r) {
  if (l->kind == V_UNKNOWN) return l;
  if (r && r->kind == V_UNKNOWN) return r;
  return st->unknown;
}


static value *concat(interp *st, vkind kind, seq *a, seq *b) {
  value *v = v_list(st, kind);
  for (uint32_t i = 0; i < a->items.len; i++) avec_push(st->a, &v->u.seq->items, a->items.items[i]);
  for (uint32_t i = 0; i < b->items.len; i++) avec_push(st->a, &v->u.seq->items, b->items.items[i]);
  return v;
}


static int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}


static int64_t floormod(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}


/* elementwise arithmetic of tensors and numbers: NumPy broadcasting */
static value *tensor_arith(interp *st, const char *op, value *l, value *r) {
  const shape *a = l->kind == V_TENSOR ? l->u.tensor : l->kind == V_PARAM ? &l->u.param->sh : NULL;
  const shape *b = r->kind == V_TENSOR ? r->u.tensor : r->kind == V_PARAM ? &r->u.param->sh : NULL;
  double d;
  if (!a && !v_as_num(l, &d)) return NULL;
  if (!b && !v_as_num(r, &d)) return NULL;
  if (!strcmp(op, "@") || !strcmp(op, "<<") || !strcmp(op, ">>")) return NULL;
  const shape *big = !a ? b : !b ? a : (a->ndim >= b->ndim ? a : b);
  const shape *small = big == a ? b : a;
  if (big->ndim < 0 || (small && small->ndim < 0)) return v_unknown(st, "arithmetic on a tensor whose shape is not known");
  shape *out = shape_new(st, big->ndim);
  *out = *big;
  for (int i = 0; small && i < small->ndim; i++) {
    int bi = big->ndim - 1 - i, si = small->ndim - 1 - i;
    int64_t x = big->dims[bi], y = small->dims[si];
    if (x < 0 || y < 0) out->dims[bi] = (x == 1) ? y : (y == 1) ? x : -1;
    else if (x == y || y == 1) out->dims[bi] = x;
    else if (x == 1) out->dims[bi] = y;
    else return v_unknown(st, "tensors whose shapes do not broadcast");
  }
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = out;
  t->dim0 = l->kind == V_TENSOR ? l->dim0 : r->dim0;
  return t;
}


value *eval_binary(interp *st, const char *op, value *l, value *r) {
  if (l->kind == V_UNKNOWN || r->kind == V_UNKNOWN) return unknown_of(st, l, r);
  if (l->kind == V_TENSOR || r->kind == V_TENSOR || l->kind == V_PARAM || r->kind == V_PARAM) {
    value *t = act_binary(st, op, l, r); /* activations.c */
    if (!t) t = tensor_arith(st, op, l, r);
    if (t) return t;
  }
  int64_t a, b;
  if (v_as_int(l, &a) && v_as_int(r, &b)) {
    int64_t out;
    switch (op[0]) {
    case '+': if (__builtin_add_overflow(a, b, &out)) goto overflow; return v_int(st, out);
    case '-': if (__builtin_sub_overflow(a, b, &out)) goto overflow; return v_int(st, out);
    case '*':
      if (op[1] == '*') {
        if (b < 0) return v_float(st, pow((double)a, (double)b));
        out = 1;
        for (int64_t i = 0; i < b; i++)
          if (__builtin_mul_overflow(out, a, &out)) goto overflow;
        return v_int(st, out);
      }
      if (__builtin_mul_overflow(a, b, &out)) goto overflow;
      return v_int(st, out);
    case '/':
      if (b == 0) return v_unknown(st, "a division by zero");
      if (op[1] == '/') return v_int(st, floordiv(a, b));
      return v_float(st, (double)a / (double)b);
    case '%':
      if (b == 0) return v_unknown(st, "a division by zero");
      return v_int(st, floormod(a, b));
    case '<': if (b < 0 || b > 62) goto overflow; return v_int(st, a << b);
    case '>': if (b < 0 || b > 63) goto overflow; return v_int(st, a >> b);
    case '&': return v_int(st, a & b);
    case '|': return v_int(st, a | b);
    case '^': return v_int(st, a ^ b);
    default: return v_unknown(st, "the operator `%s`", op);
    }
  }
  double x, y;
  if (v_as_num(l, &x) && v_as_num(r, &y)) {
    switch (op[0]) {
    case '+': return v_float(st, x + y);
    case '-': return v_float(st, x - y);
    case '*': return op[1] == '*' ? v_float(st, pow(x, y)) : v_float(st, x * y);
    case '/':
      if (y == 0) return v_unknown(st, "a division by zero");
      return op[1] == '/' ? v_float(st, floor(x / y)) : v_float(st, x / y);
    case '%':
      if (y == 0) return v_unknown(st, "a division by zero");
      return v_float(st, x - floor(x / y) * y);
    default: return v_unknown(st, "the operator `%s`", op);
    }
  }
  if (op[0] == '+' && !op[1]) {
    if (l->kind == V_STR && r->kind == V_STR) {
      char *s = arena_alloc(st->a, (size_t)l->u.s.n + r->u.s.n + 1);
      memcpy(s, l->u.s.s, l->u.s.n);
      memcpy(s + l->u.s.n, r->u.s.s, r->u.s.n);
      s[l->u.s.n + r->u.s.n] = '\0';
      return v_str(st, s, l->u.s.n + r->u.s.n);
    }
    if ((l->kind == V_LIST || l->kind == V_TUPLE) && l->kind == r->kind) return concat(st, l->kind, l->u.seq, r->u.seq);
  }
  if (op[0] == '*' && !op[1]) {
    value *s = (l->kind == V_LIST || l->kind == V_TUPLE) ? l : r;
    value *k = s == l ? r : l;
    int64_t times;
    if ((s->kind == V_LIST || s->kind == V_TUPLE) && v_as_int(k, &times)) {
      if (times < 0) times = 0;
      if ((uint64_t)times * s->u.seq->items.len > EST_MAX_ITER) return v_unknown(st, "a list too long to follow");
      value *v = v_list(st, s->kind);
      for (int64_t t = 0; t < times; t++)
        for (uint32_t i = 0; i < s->u.seq->items.len; i++) avec_push(st->a, &v->u.seq->items, s->u.seq->items.items[i]);
      return v;
    }
  }
  return v_unknown(st, "`%s` of a %s and a %s", op, v_kind_name(l), v_kind_name(r));
overflow:
  return v_unknown(st, "an integer too large to follow");
}


static int compare_values(interp *st, const char *op, value *a, value *b) {
  (void)st;
  if (!strcmp(op, "is") || !strcmp(op, "is not")) {
    int same;
    if (a->kind == V_NONE || b->kind == V_NONE) {
      value *o = a->kind == V_NONE ? b : a;
      if (o->kind == V_NONE) same = 1;
      else if (o->kind == V_UNKNOWN || o->kind == V_METHOD) same = -1;
      else if (o->kind == V_OBJECT && o->u.obj->kind == OBJ_EXTERN) same = 0;
      else same = 0;
    } else if (a->kind == V_BOOL && b->kind == V_BOOL) {
      same = a->u.b == b->u.b;
    } else {
      same = (a == b) ? 1 : v_equal(a, b) == 0 ? 0 : -1;
    }
    if (same < 0) return -1;
    return op[2] ? !same : same;
  }
  if (!strcmp(op, "==")) return v_equal(a, b);
  if (!strcmp(op, "!=")) {
    int e = v_equal(a, b);
    return e < 0 ? -1 : !e;
  }
  if (!strcmp(op, "in") || !strcmp(op, "not in")) {
    int found = 0;
    if (b->kind == V_STR && a->kind == V_STR) {
      found = 0;
      for (uint32_t i = 0; i + a->u.s.n <= b->u.s.n; i++)
        if (!memcmp(b->u.s.s + i, a->u.s.s, a->u.s.n)) found = 1;
    } else if (b->kind == V_LIST || b->kind == V_TUPLE || b->kind == V_DICT) {
      seq *s = b->kind == V_DICT ? NULL : b->u.seq;
      uint32_t count = s ? s->items.len : b->u.dict->keys.len;
      for (uint32_t i = 0; i < count && found != 1; i++) {
        int e = v_equal(a, s ? s->items.items[i] : b->u.dict->keys.items[i]);
        if (e == 1) found = 1;
        else if (e < 0) found = -1;
      }
    } else {
      return -1;
    }
    if (found < 0) return -1;
    return op[0] == 'n' ? !found : found;
  }
  double x, y;
  if (v_as_num(a, &x) && v_as_num(b, &y)) {
    if (!strcmp(op, "<")) return x < y;
    if (!strcmp(op, "<=")) return x <= y;
    if (!strcmp(op, ">")) return x > y;
    if (!strcmp(op, ">=")) return x >= y;
  }
  return -1;
}


static value *eval_comparison(interp *st, scope *sc, TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  value *prev = NULL;
  char op[16] = "";
  int result = 1;
  const char *why = NULL;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(x)) {
        uint32_t len;
        const char *t = st_text(st, x, &len);
        size_t cur = strlen(op);
        if (cur + len + 2 < sizeof op) {
          if (cur) op[cur++] = ' ';
          memcpy(op + cur, t, len);
          op[cur + len] = '\0';
        }
        continue;
      }
      if (NODE_IS(x, "comment")) continue;
      value *v = eval(st, sc, x);
      if (prev && (prev->kind == V_TENSOR || v->kind == V_TENSOR)) {
        /* an elementwise comparison: a bool tensor (activations.c) */
        value *t = act_binary(st, "==", prev, v);
        if (t) {
          ts_tree_cursor_delete(&c);
          return t;
        }
      }
      if (prev) {
        int r = compare_values(st, op, prev, v);
        if (r == 0) {
          result = 0;
          break;
        }
        if (r < 0) {
          result = -1;
          if (!why) why = prev->kind == V_UNKNOWN ? prev->why : v->kind == V_UNKNOWN ? v->why : NULL;
        }
      }
      prev = v;
      op[0] = '\0';
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  if (result < 0) {
    value *u = v_new(st, V_UNKNOWN);
    u->why = why;
    return u;
  }
  return v_bool(st, result == 1);
}


/* ---- containers and comprehensions ---- */

/* The named children of N, in order: a cursor keeps long literals linear. */
typedef struct {
  TSTreeCursor c;
  bool started, done;
} children;


static children children_of(TSNode n) {
  children it = {ts_tree_cursor_new(n), false, false};
  return it;
}


static bool next_child(children *it, TSNode *out) {
  for (;;) {
    if (it->done) return false;
    bool moved = it->started ? ts_tree_cursor_goto_next_sibling(&it->c) : ts_tree_cursor_goto_first_child(&it->c);
    it->started = true;
    if (!moved) {
      it->done = true;
      ts_tree_cursor_delete(&it->c);
      return false;
    }
    TSNode x = ts_tree_cursor_current_node(&it->c);
    if (ts_node_is_named(x) && !NODE_IS(x, "comment")) {
      *out = x;
      return true;
    }
  }
}


static void children_end(children *it) {
  if (!it->done) ts_tree_cursor_delete(&it->c);
  it->done = true;
}


static value *eval_sequence(interp *st, scope *sc, TSNode n, vkind kind) {
  value *v = v_list(st, kind);
  children it = children_of(n);
  TSNode x;
  while (next_child(&it, &x)) {
    if (NODE_IS(x, "list_splat")) {
      value *inner = eval(st, sc, ts_node_named_child(x, 0));
      seq *items = v_iterate(st, inner);
      if (!items) {
        children_end(&it);
        return inner->kind == V_UNKNOWN ? inner : v_unknown(st, "unpacks items that are not known");
      }
      for (uint32_t k = 0; k < items->items.len; k++) avec_push(st->a, &v->u.seq->items, items->items.items[k]);
      continue;
    }
    avec_push(st->a, &v->u.seq->items, eval(st, sc, x));
  }
  return v;
}


static value *eval_dictionary(interp *st, scope *sc, TSNode n) {
  /* dictionaries look keys up one by one: a data table is not followed */
  if (ts_node_named_child_count(n) > EST_MAX_DICT) return v_unknown(st, "a dictionary too large to follow");
  value *v = v_dict(st);
  children it = children_of(n);
  TSNode x;
  while (next_child(&it, &x)) {
    if (NODE_IS(x, "pair")) {
      value *k = eval(st, sc, FIELD(x, key));
      value *val = eval(st, sc, FIELD(x, value));
      if (k->kind == V_UNKNOWN) {
        children_end(&it);
        return v_unknown(st, "a dictionary with a key that is not known");
      }
      dict_set(st, v->u.dict, k, val);
    } else if (NODE_IS(x, "dictionary_splat")) {
      value *d = eval(st, sc, ts_node_named_child(x, 0));
      if (d->kind != V_DICT) {
        children_end(&it);
        return d->kind == V_UNKNOWN ? d : v_unknown(st, "unpacks a dictionary that is not known");
      }
      for (uint32_t k = 0; k < d->u.dict->keys.len; k++)
        dict_set(st, v->u.dict, d->u.dict->keys.items[k], d->u.dict->vals.items[k]);
    }
  }
  return v;
}


typedef struct {
  TSNode body;
  TSNode clauses[16];
  uint32_t nclauses;
  value *out;
  bool dict;
  value *fail;
} comp;


static void comp_run(interp *st, scope *sc, comp *c, uint32_t i) {
  if (c->fail || st->stopped) return;
  if (i == c->nclauses) {
    if (c->dict) {
      value *k = eval(st, sc, FIELD(c->body, key));
      value *v = eval(st, sc, FIELD(c->body, value));
      if (k->kind == V_UNKNOWN) c->fail = k;
      else if (c->out->u.dict->keys.len >= EST_MAX_DICT) c->fail = v_unknown(st, "a dictionary too large to follow");
      else dict_set(st, c->out->u.dict, k, v);
    } else {
      if (c->out->u.seq->items.len >= EST_MAX_ITER) c->fail = v_unknown(st, "a comprehension too long to follow");
      else avec_push(st->a, &c->out->u.seq->items, eval(st, sc, c->body));
    }
    return;
  }
  TSNode cl = c->clauses[i];
  if (NODE_IS(cl, "if_clause")) {
    value *cv = eval(st, sc, ts_node_named_child(cl, 0));
    bool t;
    if (!v_truth(cv, &t)) {
      c->fail = cv->kind == V_UNKNOWN ? cv : v_unknown(st, "a comprehension whose filter is not known");
      return;
    }
    if (t) comp_run(st, sc, c, i + 1);
    return;
  }
  TSNode left = FIELD(cl, left);
  TSNode right = FIELD(cl, right);
  value *it = eval(st, sc, right);
  seq *items = v_iterate(st, it);
  if (!items) {
    c->fail = it->kind == V_UNKNOWN ? it : v_unknown(st, "a comprehension over items that are not known");
    return;
  }
  for (uint32_t k = 0; k < items->items.len && !c->fail && !st->stopped; k++) {
    assign_target(st, sc, left, items->items.items[k]);
    comp_run(st, sc, c, i + 1);
  }
}


static value *eval_comprehension(interp *st, scope *sc, TSNode n) {
  comp c = {0};
  c.body = FIELD(n, body);
  c.dict = NODE_IS(n, "dictionary_comprehension");
  if (ts_node_is_null(c.body)) return v_unknown(st, "a comprehension");
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode x = ts_node_named_child(n, i);
    if ((NODE_IS(x, "for_in_clause") || NODE_IS(x, "if_clause")) && c.nclauses < 16) c.clauses[c.nclauses++] = x;
  }
  c.out = c.dict ? v_dict(st) : v_list(st, V_LIST);
  scope *cs = scope_new(st, sc);
  cs->self = sc->self;
  cs->owner = sc->owner;
  comp_run(st, cs, &c, 0);
  return c.fail ? c.fail : c.out;
}


/* ---- subscripts ---- */

static value *slice_of(interp *st, scope *sc, TSNode sl, value *v) {
  seq *items = (v->kind == V_LIST || v->kind == V_TUPLE) ? v->u.seq : NULL;
  if (v->kind == V_OBJECT && v->u.obj->items) items = v->u.obj->items;
  if (!items && v->kind != V_STR) return v->kind == V_UNKNOWN ? v : v_unknown(st, "a slice of a %s", v_kind_name(v));
  int64_t len = items ? items->items.len : v->u.s.n, bounds[3] = {0, len, 1};
  bool given[3] = {false, false, false};
  /* children: [start] ':' [stop] [':' [step]] */
  TSTreeCursor c = ts_tree_cursor_new(sl);
  int part = 0;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(x)) {
        part++;
        continue;
      }
      if (part > 2) break;
      value *b = eval(st, sc, x);
      int64_t i;
      if (b->kind == V_NONE) continue;
      if (!v_as_int(b, &i)) {
        ts_tree_cursor_delete(&c);
        return v_unknown(st, "a slice whose bounds are not known");
      }
      bounds[part] = i;
      given[part] = true;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  int64_t step = bounds[2];
  if (step == 0) return v_unknown(st, "a slice with step 0");
  int64_t start = given[0] ? bounds[0] : (step > 0 ? 0 : len - 1);
  int64_t stop = given[1] ? bounds[1] : (step > 0 ? len : -len - 1);
  if (given[0] && start < 0) start += len;
  if (given[1] && stop < 0) stop += len;
  if (!items) {
    /* `key[2:]` of a string: its bytes */
    char *s = arena_alloc(st->a, (size_t)len + 1);
    uint32_t n = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      if (i >= 0 && i < len) s[n++] = v->u.s.s[i];
    s[n] = '\0';
    return v_str(st, s, n);
  }
  value *out = v_list(st, v->kind == V_TUPLE ? V_TUPLE : V_LIST);
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    if (i >= 0 && i < len) avec_push(st->a, &out->u.seq->items, items->items.items[i]);
  return out;
}


static value *get_item(interp *st, value *v, value *k) {
  if (v->kind == V_UNKNOWN) return script_unnamed(st, v);
  if (k->kind == V_UNKNOWN) return k;
  /* `models.__dict__[args.arch]`: a library's name by a string */
  size_t el = v->kind == V_EXTERN ? strlen(v->u.ext) : 0;
  if (el > 9 && !strcmp(v->u.ext + el - 9, ".__dict__") && k->kind == V_STR) {
    buf q = {0};
    buf_printf(&q, "%.*s.%.*s", (int)(el - 9), v->u.ext, (int)k->u.s.n, k->u.s.s);
    value *e = v_extern(st, st_strdup(st, q.data, q.len));
    buf_free(&q);
    return e;
  }
  int64_t i;
  seq *items = (v->kind == V_LIST || v->kind == V_TUPLE) ? v->u.seq : NULL;
  if (v->kind == V_OBJECT && v->u.obj->items) items = v->u.obj->items;
  if (items && v_as_int(k, &i)) {
    if (i < 0) i += items->items.len;
    if (i < 0 || i >= (int64_t)items->items.len) return v_unknown(st, "an index out of range");
    return items->items.items[i];
  }
  if (v->kind == V_DICT) {
    value *r = dict_get(v->u.dict, k);
    return r ? r : v_unknown(st, "a key that is not in the dictionary");
  }
  if (v->kind == V_OBJECT && k->kind == V_STR) {
    value *r = dict_get_str(v->u.obj->attrs, k->u.s.s, k->u.s.n);
    return r ? r : v_unknown(st, "a key that is not known");
  }
  if (v->kind == V_STR && v_as_int(k, &i)) {
    if (i < 0) i += v->u.s.n;
    if (i < 0 || i >= (int64_t)v->u.s.n) return v_unknown(st, "an index out of range");
    return v_str(st, v->u.s.s + i, 1);
  }
  return v_unknown(st, "an item of a %s", v_kind_name(v));
}


static value *eval_subscript(interp *st, scope *sc, TSNode n) {
  TSNode vn = FIELD(n, value);
  value *v = eval(st, sc, vn);
  uint32_t count = ts_node_named_child_count(n);
  TSNode subs[8];
  uint32_t ns = 0;
  for (uint32_t i = 0; i < count && ns < 8; i++) {
    TSNode x = ts_node_named_child(n, i);
    if (ts_node_eq(x, vn) || NODE_IS(x, "comment")) continue;
    subs[ns++] = x;
  }
  if (v->kind == V_TENSOR || v->kind == V_UNKNOWN || v->kind == V_PARAM) {
    value *t = act_subscript(st, sc, v, subs, ns); /* activations.c */
    if (t) return t;
  }
  if (ns != 1) return v->kind == V_UNKNOWN && v->why ? v : v_unknown(st, "a subscript with several indices");
  if (NODE_IS(subs[0], "slice")) return slice_of(st, sc, subs[0], v);
  return get_item(st, v, eval(st, sc, subs[0]));
}


/* ---- calls ---- */

static void eval_args(interp *st, scope *sc, TSNode an, args *a) {
  if (ts_node_is_null(an)) return;
  if (NODE_IS(an, "generator_expression")) {
    avec_push(st->a, &a->pos, eval(st, sc, an));
    return;
  }
  children it = children_of(an);
  TSNode x;
  while (next_child(&it, &x)) {
    const char *type = ts_node_type(x);
    if (!strcmp(type, "keyword_argument")) {
      TSNode name = FIELD(x, name);
      TSNode val = FIELD(x, value);
      if (ts_node_is_null(name) || ts_node_is_null(val)) continue;
      str s;
      s.s = st_text(st, name, &s.n);
      avec_push(st->a, &a->kwnames, s);
      avec_push(st->a, &a->kwvals, eval(st, sc, val));
    } else if (!strcmp(type, "list_splat")) {
      value *inner = eval(st, sc, ts_node_named_child(x, 0));
      seq *items = v_iterate(st, inner);
      if (!items) {
        a->opaque = true;
        continue;
      }
      for (uint32_t k = 0; k < items->items.len; k++) avec_push(st->a, &a->pos, items->items.items[k]);
    } else if (!strcmp(type, "dictionary_splat")) {
      value *d = eval(st, sc, ts_node_named_child(x, 0));
      if (d->kind != V_DICT) {
        a->opaque = true;
        continue;
      }
      for (uint32_t k = 0; k < d->u.dict->keys.len; k++) {
        value *key = d->u.dict->keys.items[k];
        if (key->kind != V_STR) continue;
        str s = {key->u.s.s, key->u.s.n};
        avec_push(st->a, &a->kwnames, s);
        avec_push(st->a, &a->kwvals, d->u.dict->vals.items[k]);
      }
    } else {
      avec_push(st->a, &a->pos, eval(st, sc, x));
    }
  }
}


static value *eval_call(interp *st, scope *sc, TSNode n) {
  TSNode fn = FIELD(n, function);
  value *callee = eval(st, sc, fn);
  args a;
  memset(&a, 0, sizeof a);
  a.node = n;
  eval_args(st, sc, FIELD(n, arguments), &a);
  if (callee->kind == V_UNKNOWN) {
    uint32_t len;
    const char *t = st_text(st, fn, &len);
    if (callee->why) return callee;
    return v_unknown(st, "the result of `%.*s(...)`", len > 50 ? 50 : (int)len, t);
  }
  if (callee->kind == V_EXTERN && !strchr(callee->u.ext, '.')) {
    value *r = script_builtin(st, sc, callee->u.ext, &a);
    if (r) return r;
  }
  if (callee->kind == V_EXTERN && !strcmp(callee->u.ext, "super")) {
    /* super() in a method: the methods after the method's own class */
    value *s = v_new(st, V_SUPER);
    s->u.sup.self = a.pos.len >= 2 ? a.pos.items[1] : sc->self;
    s->u.sup.after = a.pos.len >= 1 && a.pos.items[0]->kind == V_CLASS ? a.pos.items[0]->u.klass : sc->owner;
    for (scope *p = sc; !s->u.sup.self && p; p = p->parent) s->u.sup.self = p->self;
    if (!s->u.sup.self || !s->u.sup.after) return v_unknown(st, "super() outside a method");
    return s;
  }
  value *r = call_value(st, callee, &a);
  /* a model built by a function of another module (`GPT.from_pretrained`):
   * the script's call is where the script builds it */
  if (r->kind == V_OBJECT && r->u.obj->kind == OBJ_MODULE && n.tree == st->main_tree &&
      !ts_node_is_null(r->u.obj->site) && r->u.obj->site.tree != st->main_tree && ts_node_is_null(r->u.obj->call_site))
    r->u.obj->call_site = n;
  return r;
}


static value *eval_name(interp *st, scope *sc, TSNode n) {
  uint32_t len;
  const char *name = st_text(st, n, &len);
  value *v = scope_get(st, sc, name, len);
  if (v) return v;
  buf q = {0};
  const facts *f = n.tree == st->main_tree || !st->mods.len ? st->f : st_module_of(st, n)->f;
  if (facts_qualname(f, n, &q)) {
    value *e = v_extern(st, st_strdup(st, q.data, q.len));
    buf_free(&q);
    return e;
  }
  buf_free(&q);
  return v_unknown(st, "`%.*s` has no value here", len > 40 ? 40 : (int)len, name);
}


static value *eval_lambda(interp *st, scope *sc, TSNode n) {
  value *f = v_new(st, V_FUNCTION);
  f->u.fn.node = n;
  f->u.fn.closure = sc;
  f->u.fn.flavor = FN_PLAIN;
  return f;
}


static value *eval_inner(interp *st, scope *sc, TSNode n) {
  const char *type = ts_node_type(n);
  switch (type[0]) {
  case 'a':
    if (!strcmp(type, "attribute")) {
      value *o = eval(st, sc, FIELD(n, object));
      TSNode an = FIELD(n, attribute);
      if (ts_node_is_null(an)) return st->unknown;
      uint32_t len;
      const char *name = st_text(st, an, &len);
      return get_attr(st, o, name, len);
    }
    break;
  case 'b':
    if (!strcmp(type, "binary_operator")) {
      value *l = eval(st, sc, FIELD(n, left));
      value *r = eval(st, sc, FIELD(n, right));
      TSNode op = FIELD(n, operator);
      uint32_t len;
      const char *t = st_text(st, op, &len);
      char o[4] = {0};
      memcpy(o, t, len < 3 ? len : 3);
      return eval_binary(st, o, l, r);
    }
    if (!strcmp(type, "boolean_operator")) {
      value *l = eval(st, sc, FIELD(n, left));
      TSNode op = FIELD(n, operator);
      bool is_and = !ts_node_is_null(op) && NODE_IS(op, "and");
      bool t;
      if (!v_truth(l, &t)) {
        value *r = eval(st, sc, FIELD(n, right));
        bool rt;
        /* `x and False` is False, `x or True` is True whatever x is */
        if (v_truth(r, &rt) && rt != is_and) return v_bool(st, rt);
        return l->kind == V_UNKNOWN ? l : v_unknown(st, "a condition that is not known");
      }
      if (is_and ? !t : t) return l;
      return eval(st, sc, FIELD(n, right));
    }
    break;
  case 'c':
    if (!strcmp(type, "call")) return eval_call(st, sc, n);
    if (!strcmp(type, "comparison_operator")) return eval_comparison(st, sc, n);
    if (!strcmp(type, "conditional_expression")) {
      if (ts_node_named_child_count(n) < 3) return st->unknown;
      value *c = eval(st, sc, ts_node_named_child(n, 1));
      bool t;
      if (!v_truth(c, &t)) {
        /* neither arm is chosen; one that builds a layer is reported */
        avec_push(st->a, &st->tentative, st->birth);
        value *x = eval(st, sc, ts_node_named_child(n, 0));
        value *y = eval(st, sc, ts_node_named_child(n, 2));
        st->tentative.len--;
        bool layer = (x->kind == V_OBJECT && x->u.obj->kind == OBJ_MODULE) || x->kind == V_PARAM ||
                     (y->kind == V_OBJECT && y->u.obj->kind == OBJ_MODULE) || y->kind == V_PARAM;
        if (layer) st_blocked(st, n, "a layer is built under a condition that is not known");
        return c->kind == V_UNKNOWN ? c : v_unknown(st, "a conditional expression whose test is not known");
      }
      return eval(st, sc, ts_node_named_child(n, t ? 0 : 2));
    }
    if (!strcmp(type, "concatenated_string")) return eval_string(st, n);
    break;
  case 'd':
    if (!strcmp(type, "dictionary")) return eval_dictionary(st, sc, n);
    if (!strcmp(type, "dictionary_comprehension")) return eval_comprehension(st, sc, n);
    break;
  case 'e':
    if (!strcmp(type, "expression_list")) return eval_sequence(st, sc, n, V_TUPLE);
    break;
  case 'f':
    if (!strcmp(type, "float")) return eval_float(st, n);
    if (!strcmp(type, "false")) return v_bool(st, false);
    break;
  case 'g':
    if (!strcmp(type, "generator_expression")) return eval_comprehension(st, sc, n);
    break;
  case 'i':
    if (!strcmp(type, "identifier")) return eval_name(st, sc, n);
    if (!strcmp(type, "integer")) return eval_integer(st, n);
    break;
  case 'l':
    if (!strcmp(type, "list")) return eval_sequence(st, sc, n, V_LIST);
    if (!strcmp(type, "list_comprehension")) return eval_comprehension(st, sc, n);
    if (!strcmp(type, "lambda")) return eval_lambda(st, sc, n);
    break;
  case 'n':
    if (!strcmp(type, "none")) return st->none;
    if (!strcmp(type, "not_operator")) {
      value *v = eval(st, sc, FIELD(n, argument));
      bool t;
      if (!v_truth(v, &t)) return v->kind == V_UNKNOWN ? v : v_unknown(st, "a condition that is not known");
      return v_bool(st, !t);
    }
    if (!strcmp(type, "named_expression")) {
      value *v = eval(st, sc, FIELD(n, value));
      TSNode name = FIELD(n, name);
      if (!ts_node_is_null(name)) assign_target(st, sc, name, v);
      return v;
    }
    break;
  case 'p':
    if (!strcmp(type, "parenthesized_expression")) {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; i++) {
        TSNode x = ts_node_named_child(n, i);
        if (!NODE_IS(x, "comment")) return eval(st, sc, x);
      }
      return st->unknown;
    }
    break;
  case 's':
    if (!strcmp(type, "string")) return eval_string(st, n);
    if (!strcmp(type, "subscript")) return eval_subscript(st, sc, n);
    if (!strcmp(type, "set")) return eval_sequence(st, sc, n, V_LIST);
    if (!strcmp(type, "set_comprehension")) return eval_comprehension(st, sc, n);
    break;
  case 't':
    if (!strcmp(type, "true")) return v_bool(st, true);
    if (!strcmp(type, "tuple")) return eval_sequence(st, sc, n, V_TUPLE);
    break;
  case 'u':
    if (!strcmp(type, "unary_operator")) {
      value *v = eval(st, sc, FIELD(n, argument));
      TSNode op = FIELD(n, operator);
      int64_t i;
      double d;
      bool neg = !ts_node_is_null(op) && NODE_IS(op, "-");
      bool inv = !ts_node_is_null(op) && NODE_IS(op, "~");
      if (v_as_int(v, &i)) return v_int(st, neg ? -i : inv ? ~i : i);
      if (v_as_num(v, &d) && !inv) return v_float(st, neg ? -d : d);
      return v->kind == V_UNKNOWN ? v : v_unknown(st, "a unary operator on a %s", v_kind_name(v));
    }
    break;
  default:
    break;
  }
  return v_unknown(st, "a `%s` expression", type);
}


/* ---- attributes ---- */

static value *bind_function(interp *st, value *fn, value *self, klass *owner) {
  if (fn->kind != V_FUNCTION) return fn;
  value *b = v_new(st, V_FUNCTION);
  *b = *fn;
  b->u.fn.owner = owner;
  if (fn->u.fn.flavor == FN_STATIC) return b;
  b->u.fn.self = self;
  return b;
}


static value *object_attr(interp *st, value *v, const char *name, uint32_t n) {
  obj *o = v->u.obj;
  value *a = dict_get_str(o->attrs, name, n);
  if (a) return a;
  if (n == 8 && !memcmp(name, "__dict__", 8) && o->kind != OBJ_MODULE) {
    /* the instance's own attributes: updating it sets them */
    value *d = v_new(st, V_DICT);
    d->u.dict = o->attrs;
    return d;
  }
  if (o->klass) {
    klass *found = NULL;
    value *cv = class_attr(st, o->klass, name, n, &found);
    if (cv) {
      if (cv->kind != V_FUNCTION) return cv;
      if (cv->u.fn.flavor == FN_PROPERTY) {
        args none;
        memset(&none, 0, sizeof none);
        none.node = NULL_NODE;
        return call_value(st, bind_function(st, cv, v, found), &none);
      }
      if (cv->u.fn.flavor == FN_CLASS) {
        value *kv = v_new(st, V_CLASS);
        kv->u.klass = o->klass;
        return bind_function(st, cv, kv, found);
      }
      return bind_function(st, cv, v, found);
    }
  }
  if (o->kind == OBJ_MODULE) return torch_module_attr(st, o, name, n);
  if (o->kind == OBJ_LOADER && n == 10 && !memcmp(name, "batch_size", 10) && o->batch_size) return o->batch_size;
  if (o->kind == OBJ_PLAIN && o->type && !strcmp(o->type, "Namespace"))
    return v_unknown(st, "`args.%.*s` is not an argument of the script's parser", (int)n, name);
  if (o->kind == OBJ_PLAIN && o->klass && o->klass->dataclass)
    return v_unknown(st, "`%.*s` is not a field of %s", (int)n, name, o->type);
  value *m = v_new(st, V_METHOD);
  m->u.method.self = v;
  m->u.method.name = st_strdup(st, name, n);
  return m;
}


static value *super_attr(interp *st, value *v, const char *name, uint32_t n) {
  klass *after = v->u.sup.after;
  for (uint32_t i = 0; i < after->bases.len; i++) {
    value *b = after->bases.items[i];
    if (b->kind == V_CLASS) {
      klass *found = NULL;
      value *cv = class_attr(st, b->u.klass, name, n, &found);
      if (cv) return bind_function(st, cv, v->u.sup.self, found);
    } else if (b->kind == V_EXTERN) {
      /* nn.Module.__init__, nn.Linear.__init__ ...: the library's own method */
      value *m = v_new(st, V_METHOD);
      m->u.method.self = v;
      buf q = {0};
      buf_printf(&q, "%s|%.*s", b->u.ext, (int)n, name);
      m->u.method.name = st_strdup(st, q.data, q.len);
      buf_free(&q);
      return m;
    }
  }
  return v_unknown(st, "super().%.*s is not known", (int)n, name);
}


value *get_attr(interp *st, value *v, const char *name, uint32_t n) {
  switch (v->kind) {
  case V_UNKNOWN: return script_unnamed(st, v);
  case V_EXTERN: {
    buf q = {0};
    buf_printf(&q, "%s.%.*s", v->u.ext, (int)n, name);
    value *e = script_attr(st, buf_str(&q));
    if (!e) e = v_extern(st, st_strdup(st, q.data, q.len));
    buf_free(&q);
    return e;
  }
  case V_OBJECT: return object_attr(st, v, name, n);
  case V_CLASS: {
    klass *found = NULL;
    value *cv = class_attr(st, v->u.klass, name, n, &found);
    if (!cv) return v_unknown(st, "`%.*s.%.*s` is not known", (int)v->u.klass->name.n, v->u.klass->name.s, (int)n, name);
    if (cv->kind == V_FUNCTION && cv->u.fn.flavor == FN_CLASS) return bind_function(st, cv, v, found);
    return cv;
  }
  case V_SUPER: return super_attr(st, v, name, n);
  case V_PARAM:
  case V_TENSOR: {
    const shape *sh = v->kind == V_PARAM ? &v->u.param->sh : v->u.tensor;
    if (n == 13 && !memcmp(name, "requires_grad", 13) && v->kind == V_PARAM) return v_bool(st, v->u.param->trainable);
    if (n == 5 && !memcmp(name, "shape", 5)) {
      if (sh->ndim < 0) return v_unknown(st, "the shape of a parameter that is not known");
      value *t = v_list(st, V_TUPLE);
      for (int i = 0; i < sh->ndim; i++)
        avec_push(st->a, &t->u.seq->items, sh->dims[i] < 0 ? v_unknown(st, "a dimension that is not known") : v_int(st, sh->dims[i]));
      return t;
    }
    if (n == 4 && !memcmp(name, "data", 4)) return v;
    break;
  }
  case V_DICT: {
    /* OmegaConf's DictConfig, EasyDict: `cfg.model.width` reads the key
     * (a dictionary's own methods stay methods) */
    value *x = dict_get_str(v->u.dict, name, n);
    if (x) return x;
    break;
  }
  case V_NONE: return v_unknown(st, "an attribute of None");
  case V_INT:
  case V_FLOAT:
  case V_BOOL:
  case V_FUNCTION:
  case V_METHOD:
  case V_FIELD:
  case V_PARTIAL:
    return v_unknown(st, "`.%.*s` of a %s", (int)n, name, v_kind_name(v));
  default:
    break;
  }
  value *m = v_new(st, V_METHOD);
  m->u.method.self = v;
  m->u.method.name = st_strdup(st, name, n);
  return m;
}


static bool holds_modules(const value *v) {
  if (v->kind != V_LIST && v->kind != V_TUPLE) return false;
  for (uint32_t i = 0; i < v->u.seq->items.len; i++) {
    const value *x = v->u.seq->items.items[i];
    if (x->kind == V_OBJECT && x->u.obj->kind == OBJ_MODULE) return true;
  }
  return false;
}


void set_attr(interp *st, value *target, const char *name, uint32_t n, value *v, TSNode where) {
  if (target->kind == V_OBJECT) {
    obj *o = target->u.obj;
    value *old = dict_get_str(o->attrs, name, n);
    if (!st_may_mutate(st, o->birth)) {
      /* a plain object's attribute becomes unknown, with its reason where
       * it is used; a module's is a layer not counted */
      if (o->kind == OBJ_MODULE) {
        buf b = {0};
        buf_printf(&b, "`.%.*s` is set", (int)n, name);
        st_blocked(st, where, buf_str(&b));
        buf_free(&b);
      }
      /* a plain attribute may now hold either value; layers keep theirs */
      bool layer = old && ((old->kind == V_OBJECT && old->u.obj->kind == OBJ_MODULE) || old->kind == V_PARAM);
      if (!layer) dict_set_str(st, o->attrs, st_strdup(st, name, n), v_unknown(st, "set in code that may not run"));
      return;
    }
    if (o->kind == OBJ_MODULE && v->kind == V_PARAM && old && old->kind == V_PARAM && old->u.param != v->u.param) {
      TSNode stmt = ts_node_is_null(where) ? where : ts_node_parent(where);
      if (ts_node_is_null(stmt) || strcmp(ts_node_type(stmt), "assignment") != 0) stmt = where;
      uint32_t len;
      const char *t = st_text(st, stmt, &len);
      buf b = {0};
      buf_printf(&b, "%s: `%.*s` ties two parameters: counted once", st_at(st, where), len > 90 ? 90 : (int)len, t);
      tie_note tn = {o, st_strdup(st, b.data, b.len), st_line(st, where)};
      avec_push(st->a, &st->ties, tn);
      buf_free(&b);
    }
    if (o->kind == OBJ_MODULE && holds_modules(v)) {
      buf b = {0};
      buf_printf(&b, "%s: `.%.*s` is a plain Python list of layers: PyTorch does not register them "
                     "(use nn.ModuleList), so they are not counted", st_at(st, where), (int)n, name);
      loose_note ln = {st_strdup(st, b.data, b.len), o};
      avec_push(st->a, &st->loose, ln);
      buf_free(&b);
    }
    dict_set_str(st, o->attrs, st_strdup(st, name, n), v);
    return;
  }
  if (target->kind == V_PARAM) {
    if (n == 13 && !memcmp(name, "requires_grad", 13)) {
      bool t;
      if (!st_may_mutate(st, target->u.param->birth)) {
        st_blocked(st, where, "`requires_grad` is changed");
        return;
      }
      if (v_truth(v, &t)) target->u.param->trainable = t;
    }
    return;
  }
  if (target->kind == V_CLASS) {
    klass *k = target->u.klass;
    if (!st_may_mutate(st, k->attrs->birth)) {
      st_blocked(st, where, "a class attribute is set");
      return;
    }
    dict_set_str(st, k->attrs, st_strdup(st, name, n), v);
  }
}
