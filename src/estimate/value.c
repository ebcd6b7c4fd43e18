/* This file contains the interpreter's values (constructors, truth, equality, containers,
 * labels) and the bookkeeping of undecided regions: what they may not change. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate/interp.h"


void avec__grow(arena *a, void **items, uint32_t *cap, size_t size) {
  uint32_t ncap = *cap ? *cap * 2 : 4;
  void *p = arena_alloc(a, ncap * size);
  if (*cap) memcpy(p, *items, *cap * size);
  *items = p;
  *cap = ncap;
}


uint32_t st_birth(interp *st) {
  return ++st->birth;
}


/* Inside an undecided region (a branch whose condition is not known, a loop
 * over an unknown iterable) only what the region made itself may change:
 * anything older keeps its value, and the change is reported as unknown. */
bool st_may_mutate(interp *st, uint32_t birth) {
  if (!st->tentative.len) return true;
  return birth > st->tentative.items[st->tentative.len - 1];
}


void st_blocked(interp *st, TSNode where, const char *what) {
  obj *m = st->building.len ? st->building.items[st->building.len - 1] : NULL;
  /* the data code of another module (a corpus, a dataset) builds no layer */
  if (!m && !ts_node_is_null(where) && where.tree != st->main_tree) return;
  buf b = {0};
  buf_printf(&b, "%s: %s in code that may or may not run (its condition or loop is not known here); not counted",
             st_at(st, where), what);
  for (uint32_t i = 0; i < st->loose.len; i++)
    if (st->loose.items[i].module == m && !strcmp(st->loose.items[i].text, buf_str(&b))) {
      buf_free(&b);
      return;
    }
  loose_note n = {st_strdup(st, b.data, b.len), m};
  avec_push(st->a, &st->loose, n);
  buf_free(&b);
}


void st_note(interp *st, TSNode where, const char *fmt, const char *detail) {
  buf b = {0};
  buf_printf(&b, "%s: ", st_at(st, where));
  buf_printf(&b, fmt, detail);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  obj *m = st->building.len ? st->building.items[st->building.len - 1] : NULL;
  if (m) {
    avec_push(st->a, &m->unknowns, s);
    return;
  }
  loose_note n = {s, NULL};
  avec_push(st->a, &st->loose, n);
}


const char *st_text(interp *st, TSNode n, uint32_t *len) {
  const char *src = st->src;
  size_t total = st->len;
  if (n.tree && n.tree != st->main_tree && st->mods.len) {
    est_module *m = st_module_of(st, n);
    src = m->src;
    total = m->len;
  }
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e > total) e = (uint32_t)total;
  if (s > e) s = e;
  *len = e - s;
  return src + s;
}


char *st_strdup(interp *st, const char *s, size_t n) {
  return arena_strndup(st->a, s, n);
}


uint32_t st_line(interp *st, TSNode n) {
  (void)st;
  return ts_node_start_point(n).row + 1;
}


const char *st_at(interp *st, TSNode n) {
  buf b = {0};
  uint32_t line = ts_node_is_null(n) ? 0 : st_line(st, n);
  if (!ts_node_is_null(n) && n.tree != st->main_tree && st->mods.len)
    buf_printf(&b, "%s:%u", st_module_of(st, n)->shown, line);
  else
    buf_printf(&b, "line %u", line);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


bool st_step(interp *st) {
  if (st->stopped) return false;
  if (++st->steps > EST_MAX_STEPS) {
    st->stopped = true;
    if (st->open.len) {
      st->stop_site = st->open.items[0].node;
      st->stop_inner = st->open.items[st->open.len - 1].node;
    } else {
      st->stop_site = st->stop_inner = st->top;
    }
    return false;
  }
  return true;
}


value *v_new(interp *st, vkind kind) {
  value *v = arena_calloc(st->a, sizeof *v);
  v->kind = kind;
  v->origin = NULL_NODE;
  v->dim0 = NULL_NODE;
  return v;
}


value *v_unknown(interp *st, const char *fmt, ...) {
  value *v = v_new(st, V_UNKNOWN);
  buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  buf_puts(&b, small);
  v->why = st_strdup(st, b.data ? b.data : "", b.len);
  buf_free(&b);
  return v;
}


value *v_int(interp *st, int64_t i) {
  value *v = v_new(st, V_INT);
  v->u.i = i;
  return v;
}


value *v_float(interp *st, double f) {
  value *v = v_new(st, V_FLOAT);
  v->u.f = f;
  return v;
}


value *v_bool(interp *st, bool b) {
  value *v = v_new(st, V_BOOL);
  v->u.b = b;
  return v;
}


value *v_str(interp *st, const char *s, uint32_t n) {
  value *v = v_new(st, V_STR);
  v->u.s.s = s;
  v->u.s.n = n;
  return v;
}


value *v_extern(interp *st, const char *qual) {
  value *v = v_new(st, V_EXTERN);
  v->u.ext = qual;
  return v;
}


seq *seq_new(interp *st) {
  seq *s = arena_calloc(st->a, sizeof *s);
  s->birth = st_birth(st);
  return s;
}


dict *dict_new(interp *st) {
  dict *d = arena_calloc(st->a, sizeof *d);
  d->birth = st_birth(st);
  return d;
}


value *v_list(interp *st, vkind kind) {
  value *v = v_new(st, kind);
  v->u.seq = seq_new(st);
  return v;
}


value *v_dict(interp *st) {
  value *v = v_new(st, V_DICT);
  v->u.dict = dict_new(st);
  return v;
}


value *v_obj(interp *st, obj *o) {
  value *v = v_new(st, V_OBJECT);
  v->u.obj = o;
  return v;
}


obj *obj_new(interp *st, obj_kind kind, const char *type) {
  obj *o = arena_calloc(st->a, sizeof *o);
  o->kind = kind;
  o->type = type;
  o->attrs = dict_new(st);
  o->site = NULL_NODE;
  o->call_site = NULL_NODE;
  o->birth = st_birth(st);
  o->input_bytes = -1;
  o->opt_fixed_bytes = -1;
  if (kind == OBJ_MODULE) avec_push(st->a, &st->modules, o);
  return o;
}


shape *shape_new(interp *st, int ndim) {
  shape *s = arena_calloc(st->a, sizeof *s);
  s->ndim = ndim;
  s->bits = st->default_bits;
  return s;
}


param *param_new(interp *st, const shape *sh, int64_t count, obj *owner, TSNode site, const char *label) {
  param *p = arena_calloc(st->a, sizeof *p);
  if (sh) p->sh = *sh;
  else p->sh.ndim = -1;
  p->count = count;
  p->bits = st->default_bits;
  p->dtype = st->default_dtype;
  p->trainable = true;
  p->owner = owner;
  p->site = site;
  p->label = label;
  p->birth = st_birth(st);
  return p;
}


bool v_truth(const value *v, bool *out) {
  switch (v->kind) {
  case V_NONE: *out = false; return true;
  case V_BOOL: *out = v->u.b; return true;
  case V_INT: *out = v->u.i != 0; return true;
  case V_FLOAT: *out = v->u.f != 0.0; return true;
  case V_STR: *out = v->u.s.n != 0; return true;
  case V_LIST:
  case V_TUPLE: *out = v->u.seq->items.len != 0; return true;
  case V_DICT: *out = v->u.dict->keys.len != 0; return true;
  case V_CLASS:
  case V_FUNCTION:
  case V_PARTIAL:
  case V_PARAM: *out = true; return true;
  case V_OBJECT:
    /* a container's truth is its length; other objects are true */
    if (v->u.obj->items) {
      *out = v->u.obj->items->items.len != 0;
      return true;
    }
    /* a torchvision transform defines no __len__ or __bool__ (`if self.transform:`) */
    if (v->u.obj->kind == OBJ_EXTERN && v->u.obj->qual && !strncmp(v->u.obj->qual, "torchvision.transforms.", 23)) {
      *out = true;
      return true;
    }
    if (v->u.obj->kind == OBJ_EXTERN) return false;
    *out = true;
    return true;
  default: return false;
  }
}


bool v_as_int(const value *v, int64_t *out) {
  if (v->kind == V_INT) { *out = v->u.i; return true; }
  if (v->kind == V_BOOL) { *out = v->u.b; return true; }
  return false;
}


bool v_as_num(const value *v, double *out) {
  int64_t i;
  if (v_as_int(v, &i)) { *out = (double)i; return true; }
  if (v->kind == V_FLOAT) { *out = v->u.f; return true; }
  return false;
}


bool v_is_str(const value *v, const char *s) {
  return v->kind == V_STR && v->u.s.n == strlen(s) && !memcmp(v->u.s.s, s, v->u.s.n);
}


static int equal_at(const value *a, const value *b, int depth) {
  if (a == b && a->kind != V_UNKNOWN) return 1;
  if (depth > 32) return -1;
  if (a->kind == V_UNKNOWN || b->kind == V_UNKNOWN) return -1;
  double x, y;
  if (v_as_num(a, &x) && v_as_num(b, &y)) return x == y;
  if (a->kind == V_NONE || b->kind == V_NONE) {
    if (a->kind == V_NONE && b->kind == V_NONE) return 1;
    /* an opaque object is not None; an unknown value may be */
    return (a->kind == V_OBJECT && a->u.obj->kind == OBJ_EXTERN) ? 0 : 0;
  }
  if (a->kind == V_STR && b->kind == V_STR)
    return a->u.s.n == b->u.s.n && !memcmp(a->u.s.s, b->u.s.s, a->u.s.n);
  if ((a->kind == V_TUPLE || a->kind == V_LIST) && a->kind == b->kind) {
    if (a->u.seq->items.len != b->u.seq->items.len) return 0;
    for (uint32_t i = 0; i < a->u.seq->items.len; i++) {
      int e = equal_at(a->u.seq->items.items[i], b->u.seq->items.items[i], depth + 1);
      if (e != 1) return e;
    }
    return 1;
  }
  if (a->kind == V_EXTERN && b->kind == V_EXTERN) return !strcmp(a->u.ext, b->u.ext) ? 1 : -1;
  if (a->kind == V_OBJECT && b->kind == V_OBJECT) return a->u.obj == b->u.obj ? 1 : -1;
  if (a->kind == V_CLASS && b->kind == V_CLASS) return a->u.klass == b->u.klass;
  if (a->kind == V_PARAM && b->kind == V_PARAM) return a->u.param == b->u.param;
  if (a->kind == V_STR || b->kind == V_STR) {
    vkind o = a->kind == V_STR ? b->kind : a->kind;
    if (o == V_INT || o == V_FLOAT || o == V_BOOL || o == V_LIST || o == V_TUPLE || o == V_DICT) return 0;
  }
  return -1;
}


int v_equal(const value *a, const value *b) {
  return equal_at(a, b, 0);
}


static bool key_is_str(const value *k, const char *s, size_t n) {
  return k->kind == V_STR && k->u.s.n == n && !memcmp(k->u.s.s, s, n);
}


value *dict_get(const dict *d, const value *key) {
  for (uint32_t i = 0; i < d->keys.len; i++)
    if (v_equal(d->keys.items[i], key) == 1) return d->vals.items[i];
  return NULL;
}


value *dict_get_str(const dict *d, const char *key, size_t n) {
  for (uint32_t i = 0; i < d->keys.len; i++)
    if (key_is_str(d->keys.items[i], key, n)) return d->vals.items[i];
  return NULL;
}


void dict_set(interp *st, dict *d, value *key, value *val) {
  for (uint32_t i = 0; i < d->keys.len; i++)
    if (v_equal(d->keys.items[i], key) == 1) {
      d->vals.items[i] = val;
      return;
    }
  avec_push(st->a, &d->keys, key);
  avec_push(st->a, &d->vals, val);
}


void dict_set_str(interp *st, dict *d, const char *key, value *val) {
  for (uint32_t i = 0; i < d->keys.len; i++)
    if (key_is_str(d->keys.items[i], key, strlen(key))) {
      d->vals.items[i] = val;
      return;
    }
  avec_push(st->a, &d->keys, v_str(st, key, (uint32_t)strlen(key)));
  avec_push(st->a, &d->vals, val);
}


bool dict_del_str(dict *d, const char *key, size_t n) {
  for (uint32_t i = 0; i < d->keys.len; i++)
    if (key_is_str(d->keys.items[i], key, n)) {
      memmove(&d->keys.items[i], &d->keys.items[i + 1], (d->keys.len - i - 1) * sizeof *d->keys.items);
      memmove(&d->vals.items[i], &d->vals.items[i + 1], (d->vals.len - i - 1) * sizeof *d->vals.items);
      d->keys.len--;
      d->vals.len--;
      return true;
    }
  return false;
}


/* layer labels show evaluated arguments, so that a reader can redo the sum */
static void render_at(const value *v, buf *out, int depth) {
  if (depth > 4) {
    buf_puts(out, "...");
    return;
  }
  switch (v->kind) {
  case V_NONE: buf_puts(out, "None"); return;
  case V_BOOL: buf_puts(out, v->u.b ? "True" : "False"); return;
  case V_INT: buf_printf(out, "%" PRId64, v->u.i); return;
  case V_FLOAT: {
    char t[64];
    snprintf(t, sizeof t, "%g", v->u.f);
    buf_puts(out, t);
    if (!strpbrk(t, ".eEn")) buf_puts(out, ".0");
    return;
  }
  case V_STR:
    buf_putc(out, '\'');
    buf_append(out, v->u.s.s, v->u.s.n > 40 ? 40 : v->u.s.n);
    buf_putc(out, '\'');
    return;
  case V_LIST:
  case V_TUPLE: {
    buf_putc(out, v->kind == V_LIST ? '[' : '(');
    uint32_t n = v->u.seq->items.len;
    for (uint32_t i = 0; i < n && i < 8; i++) {
      if (i) buf_puts(out, ", ");
      render_at(v->u.seq->items.items[i], out, depth + 1);
    }
    if (n > 8) buf_puts(out, ", ...");
    if (v->kind == V_TUPLE && n == 1) buf_putc(out, ',');
    buf_putc(out, v->kind == V_LIST ? ']' : ')');
    return;
  }
  case V_EXTERN: {
    const char *dot = strrchr(v->u.ext, '.');
    if (!strncmp(v->u.ext, "torch.", 6) && dot && !strchr(v->u.ext + 6, '.')) buf_puts(out, v->u.ext);
    else buf_puts(out, dot ? dot + 1 : v->u.ext);
    return;
  }
  case V_OBJECT: buf_puts(out, v->u.obj->type ? v->u.obj->type : "object"); buf_puts(out, "(...)"); return;
  case V_CLASS: buf_append(out, v->u.klass->name.s, v->u.klass->name.n); return;
  default: buf_putc(out, '?'); return;
  }
}


void v_render(const value *v, buf *out) {
  render_at(v, out, 0);
}


const char *v_kind_name(const value *v) {
  static const char *const names[] = {"unknown", "None", "bool", "int", "float", "str", "list", "tuple", "dict",
                                      "object", "class", "function", "name", "method", "parameter", "tensor",
                                      "iterator", "partial", "field", "super"};
  return names[v->kind];
}
