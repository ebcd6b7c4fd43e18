/* This file contains calls: binding arguments (defaults, keywords, *args, **kwargs), instances of
 * the file's classes (dataclass configs too), built-in functions and methods of lists, dicts, strings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"
#include "parse/fields.h"

#include "parse/node.h"


value *arg_get(const args *a, int pos, const char *kw) {
  if (kw) {
    size_t n = strlen(kw);
    for (uint32_t i = 0; i < a->kwnames.len; i++)
      if (a->kwnames.items[i].n == n && !memcmp(a->kwnames.items[i].s, kw, n)) return a->kwvals.items[i];
  }
  if (pos >= 0 && (uint32_t)pos < a->pos.len) return a->pos.items[pos];
  return NULL;
}


void args_add_kw(interp *st, args *a, const char *name, value *v) {
  str s = {name, (uint32_t)strlen(name)};
  avec_push(st->a, &a->kwnames, s);
  avec_push(st->a, &a->kwvals, v);
}


static args args_empty(TSNode node) {
  args a;
  memset(&a, 0, sizeof a);
  a.node = node;
  return a;
}


/* ---- classes ---- */

value *class_attr(interp *st, klass *k, const char *name, uint32_t n, klass **found) {
  /* depth-first through the bases: close enough to Python's MRO here */
  klass *stack[32];
  int sp = 0;
  stack[sp++] = k;
  while (sp > 0) {
    klass *c = stack[--sp];
    value *v = dict_get_str(c->attrs, name, n);
    if (v) {
      if (found) *found = c;
      return v;
    }
    for (uint32_t i = c->bases.len; i-- > 0;)
      if (c->bases.items[i]->kind == V_CLASS && sp < 32) stack[sp++] = c->bases.items[i]->u.klass;
  }
  (void)st;
  return NULL;
}


bool class_derives(const klass *k, const klass *base) {
  const klass *stack[32];
  int sp = 0;
  stack[sp++] = k;
  while (sp > 0) {
    const klass *c = stack[--sp];
    if (c == base) return true;
    for (uint32_t i = 0; i < c->bases.len; i++)
      if (c->bases.items[i]->kind == V_CLASS && sp < 32) stack[sp++] = c->bases.items[i]->u.klass;
  }
  return false;
}


/* The first library class among K's bases (nn.Linear for `class Linear(nn.Linear)`). */
static const char *extern_base(const klass *k) {
  const klass *stack[32];
  int sp = 0;
  stack[sp++] = k;
  while (sp > 0) {
    const klass *c = stack[--sp];
    for (uint32_t i = 0; i < c->bases.len; i++) {
      const value *b = c->bases.items[i];
      if (b->kind == V_EXTERN) return b->u.ext;
    }
    for (uint32_t i = c->bases.len; i-- > 0;)
      if (c->bases.items[i]->kind == V_CLASS && sp < 32) stack[sp++] = c->bases.items[i]->u.klass;
  }
  return NULL;
}


static value *call_bound(interp *st, value *fn, value *self, klass *owner, args *a) {
  value *b = v_new(st, V_FUNCTION);
  *b = *fn;
  b->u.fn.self = self;
  b->u.fn.owner = owner;
  return call_value(st, b, a);
}


static void fill_dataclass(interp *st, obj *o, klass *k, args *a) {
  dict *seen = dict_new(st);
  for (uint32_t i = 0; i < k->fields.len; i++) {
    str f = k->fields.items[i];
    char name[128];
    if (f.n >= sizeof name) continue;
    memcpy(name, f.s, f.n);
    name[f.n] = '\0';
    value *v = arg_get(a, (int)i, name);
    /* `Config(**checkpoint["model_args"])`: any field may be given there */
    if (!v && a->opaque) v = v_unknown(st, "`%s` may come through **kwargs that are not known", name);
    if (!v) {
      value *d = dict_get_str(k->defaults, f.s, f.n);
      if (d && d->kind == V_FIELD) {
        if (d->u.field.dflt) v = d->u.field.dflt;
        else if (d->u.field.factory) {
          args none = args_empty(a->node);
          v = call_value(st, d->u.field.factory, &none);
        }
      } else if (d) {
        v = d;
      }
    }
    if (!v)
      v = a->opaque ? v_unknown(st, "`%s` may come through **kwargs", name)
                    : v_unknown(st, "`%.*s(...)` leaves `%s` without a value", (int)k->name.n, k->name.s, name);
    dict_set_str(st, o->attrs, st_strdup(st, f.s, f.n), v);
    dict_set_str(st, seen, name, v);
  }
}


value *instantiate(interp *st, klass *k, args *a) {
  obj *o = obj_new(st, k->is_module ? OBJ_MODULE : OBJ_PLAIN, st_strdup(st, k->name.s, k->name.n));
  o->klass = k;
  o->site = a->node;
  value *self = v_obj(st, o);
  klass *found = NULL;
  value *init = class_attr(st, k, "__init__", 8, &found);
  if (k->dataclass && (!init || init->kind != V_FUNCTION)) {
    fill_dataclass(st, o, k, a);
    value *post = class_attr(st, k, "__post_init__", 13, &found);
    if (post && post->kind == V_FUNCTION) {
      args none = args_empty(a->node);
      call_bound(st, post, self, found, &none);
    }
    return self;
  }
  if (o->kind == OBJ_MODULE) avec_push(st->a, &st->building, o);
  if (init && init->kind == V_FUNCTION) {
    call_bound(st, init, self, found, a);
  } else {
    const char *base = extern_base(k);
    if (base && o->kind == OBJ_MODULE) layer_init_into(st, o, base, a);
  }
  const char *ext = o->kind == OBJ_PLAIN ? extern_base(k) : NULL;
  if (ext && (strstr(ext, "Wrapper") || strstr(ext, "gym."))) script_wrapped_env(st, o, a);
  if (o->kind == OBJ_MODULE) st->building.len--;
  return self;
}


/* ---- functions ---- */

static TSNode param_name(TSNode p) {
  if (NODE_IS(p, "identifier")) return p;
  TSNode name = FIELD(p, name);
  if (!ts_node_is_null(name)) return name;
  uint32_t c = ts_node_named_child_count(p);
  for (uint32_t i = 0; i < c; i++) {
    TSNode x = ts_node_named_child(p, i);
    if (NODE_IS(x, "identifier")) return x;
    if (NODE_IS(x, "list_splat_pattern") || NODE_IS(x, "dictionary_splat_pattern")) return param_name(x);
  }
  return NULL_NODE;
}


static bool is_splat(TSNode p, const char *kind) {
  if (NODE_IS(p, kind)) return true;
  /* `*args: Any` is a typed_parameter around the splat */
  if (NODE_IS(p, "typed_parameter") && ts_node_named_child_count(p) && NODE_IS(ts_node_named_child(p, 0), kind))
    return true;
  return false;
}


static void bind_params(interp *st, scope *fsc, value *fn, TSNode params, args *a) {
  uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  AVEC(value *) pos = {0};
  if (fn->u.fn.self) avec_push(st->a, &pos, fn->u.fn.self);
  for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &pos, a->pos.items[i]);
  bool *used = arena_calloc(st->a, a->kwnames.len + 1);
  uint32_t pi = 0;
  bool kwonly = false;
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *type = ts_node_type(p);
    if (!strcmp(type, "keyword_separator")) {
      kwonly = true;
      continue;
    }
    if (!strcmp(type, "positional_separator") || !strcmp(type, "comment")) continue;
    TSNode name = param_name(p);
    if (ts_node_is_null(name)) continue;
    uint32_t nl;
    const char *nm = st_text(st, name, &nl);
    value *v = NULL;
    if (is_splat(p, "list_splat_pattern")) {
      v = v_list(st, V_TUPLE);
      while (pi < pos.len) avec_push(st->a, &v->u.seq->items, pos.items[pi++]);
      if (a->opaque) v = v_unknown(st, "`*%.*s` receives arguments that are not known", (int)nl, nm);
      kwonly = true;
    } else if (is_splat(p, "dictionary_splat_pattern")) {
      v = v_dict(st);
      for (uint32_t k = 0; k < a->kwnames.len; k++)
        if (!used[k]) dict_set(st, v->u.dict, v_str(st, a->kwnames.items[k].s, a->kwnames.items[k].n), a->kwvals.items[k]);
      if (a->opaque) v = v_unknown(st, "`**%.*s` receives arguments that are not known", (int)nl, nm);
    } else {
      if (!kwonly && pi < pos.len) v = pos.items[pi++];
      for (uint32_t k = 0; k < a->kwnames.len && !v; k++)
        if (!used[k] && a->kwnames.items[k].n == nl && !memcmp(a->kwnames.items[k].s, nm, nl)) {
          used[k] = true;
          v = a->kwvals.items[k];
        }
      if (!v) {
        TSNode dv = FIELD(p, value);
        if (a->opaque) v = v_unknown(st, "`%.*s` may be passed through *args or **kwargs", (int)nl, nm);
        else if (!ts_node_is_null(dv)) v = eval(st, fn->u.fn.closure ? fn->u.fn.closure : st->globals, dv);
        else v = v_unknown(st, "no argument gives `%.*s` a value", (int)nl, nm);
      }
    }
    if (v->kind == V_UNKNOWN) {
      value *as = script_assumed(st, nm, nl);
      if (as) {
        v = as;
      } else if (!v->why || !strstr(v->why, "--assume ")) {
        /* a size not named yet (`features.shape[1]`): the parameter's name */
        uint32_t cn;
        const char *ct = ts_node_is_null(a->node) ? "" : st_text(st, a->node, &cn);
        uint32_t k = 0;
        while (!ts_node_is_null(a->node) && k < cn && k < 50 && ct[k] != '\n') k++;
        int wn;
        const char *why = script_cause(v, &wn);
        int64_t bound = v->at_most;
        v = v_unknown(st, "`%.*s` of `%.*s%s` (%s) is not known: %.*s; give it with --assume %.*s=N", (int)nl, nm, (int)k, ct,
                      ts_node_is_null(a->node) || k < cn ? "..." : "", st_at(st, a->node), wn, why, (int)nl, nm);
        v->at_most = bound;
      }
    }
    var nv = {{nm, nl}, v};
    avec_push(st->a, &fsc->vars, nv);
  }
}


static value *call_function(interp *st, value *fn, args *a) {
  if (st->depth + 8 >= EST_MAX_DEPTH) return v_unknown(st, "calls nested too deeply to follow");
  TSNode def = fn->u.fn.node;
  int grad_mode = act_enter_function(st, def); /* @torch.no_grad(): activations.c */
  scope *fsc = scope_new(st, fn->u.fn.closure);
  fsc->self = fn->u.fn.self;
  fsc->owner = fn->u.fn.owner;
  st->depth += 4;
  spend sp = {ts_node_is_null(a->node) ? def : a->node, st->steps};
  avec_push(st->a, &st->open, sp);
  uint32_t open = st->open.len - 1;
  bind_params(st, fsc, fn, FIELD(def, parameters), a);
  value *result;
  TSNode body = FIELD(def, body);
  if (NODE_IS(def, "lambda")) {
    result = eval(st, fsc, body);
  } else {
    flow fl = exec_block(st, fsc, body);
    if (fl == FLOW_RETURN) result = fsc->ret ? fsc->ret : st->none;
    else if (fl == FLOW_RAISE) result = v_unknown(st, "a function that raises");
    else if (fl == FLOW_STOP) result = v_unknown(st, "the estimate stopped: the file takes too long to follow");
    else result = st->none;
    if (fsc->returned && fl != FLOW_STOP) result = v_unknown(st, "a function that may return early");
  }
  st->open.len = open;
  st->depth -= 4;
  act_with_exit(st, grad_mode);
  return result;
}


/* ---- built-in functions ---- */

static value *range_of(interp *st, args *a) {
  int64_t b[3] = {0, 0, 1};
  uint32_t n = a->pos.len;
  if (n < 1 || n > 3) return v_unknown(st, "range() with %u arguments", n);
  for (uint32_t i = 0; i < n; i++) {
    if (!v_as_int(a->pos.items[i], &b[i])) {
      value *x = a->pos.items[i];
      return x->kind == V_UNKNOWN ? x : v_unknown(st, "range() of a %s", v_kind_name(x));
    }
  }
  int64_t start = n == 1 ? 0 : b[0], stop = n == 1 ? b[0] : b[1], step = n == 3 ? b[2] : 1;
  if (step == 0) return v_unknown(st, "range() with step 0");
  int64_t count = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
  if (count < 0) count = 0;
  if (count > EST_MAX_ITER) return v_unknown(st, "a range of %lld items, too long to follow", (long long)count);
  value *v = v_list(st, V_LIST);
  /* a script's loops make the same small integers again and again */
  if (!st->ints) st->ints = arena_calloc(st->a, (EST_MAX_ITER + 1) * sizeof *st->ints);
  for (int64_t i = 0, x = start; i < count; i++, x += step) {
    value *iv;
    if (x >= 0 && x <= EST_MAX_ITER) {
      if (!st->ints[x]) st->ints[x] = v_int(st, x);
      iv = st->ints[x];
    } else {
      iv = v_int(st, x);
    }
    avec_push(st->a, &v->u.seq->items, iv);
  }
  return v;
}


static value *numeric_fold(interp *st, args *a, int which) {
  /* which: 0 min, 1 max, 2 sum */
  seq *items;
  value *start = NULL;
  if (which == 2 || a->pos.len == 1) {
    if (!a->pos.len) return v_unknown(st, "no arguments");
    items = v_iterate(st, a->pos.items[0]);
    if (which == 2 && a->pos.len > 1) start = a->pos.items[1];
  } else {
    items = seq_new(st);
    for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &items->items, a->pos.items[i]);
  }
  if (!items) return a->pos.items[0]->kind == V_UNKNOWN ? a->pos.items[0] : v_unknown(st, "items that are not known");
  value *acc = which == 2 ? (start ? start : v_int(st, 0)) : NULL;
  value *unknown = NULL;
  int64_t bound = 0, k;
  for (uint32_t i = 0; i < items->items.len; i++) {
    value *x = items->items.items[i];
    if (which == 0 && x->kind == V_UNKNOWN) {
      /* min(bptt, len(source) - 1 - i): not known, but never more than the known ones */
      if (!unknown) unknown = x;
      if (x->at_most > 0 && (!bound || x->at_most < bound)) bound = x->at_most;
      continue;
    }
    if (x->kind == V_UNKNOWN) return x;
    if (which == 2) {
      acc = eval_binary(st, "+", acc, x);
      continue;
    }
    double p, q;
    if (!acc) {
      acc = x;
      continue;
    }
    if (!v_as_num(acc, &p) || !v_as_num(x, &q)) return v_unknown(st, "min/max of values that are not numbers");
    if (which == 0 ? q < p : q > p) acc = x;
  }
  if (unknown) {
    if (acc && v_as_int(acc, &k) && k > 0 && (!bound || k < bound)) bound = k;
    value *u = v_unknown(st, "%s", unknown->why ? unknown->why : "min() of a value not known");
    u->at_most = bound;
    return u;
  }
  return acc ? acc : v_unknown(st, "min/max of nothing");
}


static value *to_int(interp *st, value *x) {
  int64_t i;
  double d;
  if (v_as_int(x, &i)) return v_int(st, i);
  if (v_as_num(x, &d)) {
    if (!isfinite(d) || fabs(d) > 9.2e18) return v_unknown(st, "an integer too large to follow");
    return v_int(st, (int64_t)d);
  }
  if (x->kind == V_STR) {
    char t[32];
    if (x->u.s.n >= sizeof t) return v_unknown(st, "int() of a long string");
    memcpy(t, x->u.s.s, x->u.s.n);
    t[x->u.s.n] = '\0';
    char *end;
    long long v = strtoll(t, &end, 10);
    if (*end || end == t) return v_unknown(st, "int() of a string that is not a number");
    return v_int(st, v);
  }
  return x->kind == V_UNKNOWN ? x : v_unknown(st, "int() of a %s", v_kind_name(x));
}


/* -1 not known, 0 no, 1 yes */
static int is_instance(interp *st, value *x, value *cls) {
  if (cls->kind == V_TUPLE || cls->kind == V_LIST) {
    int any = 0;
    for (uint32_t i = 0; i < cls->u.seq->items.len; i++) {
      int r = is_instance(st, x, cls->u.seq->items.items[i]);
      if (r == 1) return 1;
      if (r < 0) any = -1;
    }
    return any;
  }
  if (x->kind == V_UNKNOWN) return -1;
  if (cls->kind == V_CLASS) {
    if (x->kind != V_OBJECT) return 0;
    if (!x->u.obj->klass) return 0;
    return class_derives(x->u.obj->klass, cls->u.klass);
  }
  if (cls->kind != V_EXTERN) return -1;
  const char *q = cls->u.ext;
  static const struct { const char *name; vkind kind; } builtins[] = {
    {"int", V_INT}, {"float", V_FLOAT}, {"str", V_STR}, {"list", V_LIST}, {"tuple", V_TUPLE},
    {"dict", V_DICT}, {"bool", V_BOOL}};
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    if (!strcmp(q, builtins[i].name)) return x->kind == builtins[i].kind || (builtins[i].kind == V_INT && x->kind == V_BOOL);
  if (x->kind != V_OBJECT) return x->kind == V_PARAM ? (!strcmp(q, "torch.nn.Parameter") || !strcmp(q, "torch.Tensor")) : -1;
  obj *o = x->u.obj;
  if (!strcmp(q, "torch.nn.Module")) return o->kind == OBJ_MODULE;
  if (o->qual && !strncmp(o->qual, "gym.spaces.", 11) && strstr(q, ".spaces.")) {
    /* the spaces of rules/envs.tsv: gym's or gymnasium's, Box or Discrete */
    const char *a = strrchr(o->qual, '.'), *b = strrchr(q, '.');
    return strcmp(a, b) == 0;
  }
  if (o->qual) {
    if (!strcmp(layer_short(st, o->qual), layer_short(st, q))) return 1;
    return strncmp(q, "torch.nn.", 9) == 0 ? 0 : -1;
  }
  if (o->klass) {
    const char *b = extern_base(o->klass);
    if (b && !strcmp(layer_short(st, b), layer_short(st, q))) return 1;
    return strncmp(q, "torch.nn.", 9) == 0 ? 0 : -1;
  }
  return -1;
}


static value *has_attr(interp *st, value *o, value *name, value *dflt, bool get) {
  if (name->kind != V_STR) return v_unknown(st, "getattr with a name that is not known");
  if (o->kind == V_OBJECT) {
    value *v = dict_get_str(o->u.obj->attrs, name->u.s.s, name->u.s.n);
    if (!v && o->u.obj->klass) v = class_attr(st, o->u.obj->klass, name->u.s.s, name->u.s.n, NULL);
    if (v) return get ? get_attr(st, o, name->u.s.s, name->u.s.n) : v_bool(st, true);
    if (o->u.obj->kind == OBJ_PLAIN || (o->u.obj->klass && o->u.obj->klass->dataclass)) {
      if (!get) return v_bool(st, false);
      if (dflt) return dflt;
    }
    if (get && !dflt) return get_attr(st, o, name->u.s.s, name->u.s.n);
  }
  if (o->kind == V_CLASS) {
    value *v = class_attr(st, o->u.klass, name->u.s.s, name->u.s.n, NULL);
    if (v) return get ? v : v_bool(st, true);
    return get ? (dflt ? dflt : v_unknown(st, "no such class attribute")) : v_bool(st, false);
  }
  if (get && !dflt) return get_attr(st, o, name->u.s.s, name->u.s.n);
  /* the estimate models PyTorch 2.x: F.scaled_dot_product_attention and the
   * like exist (nanoGPT's `self.flash`) */
  if (!get && o->kind == V_EXTERN && !strncmp(o->u.ext, "torch", 5) && (o->u.ext[5] == 0 || o->u.ext[5] == '.'))
    return v_bool(st, true);
  return v_unknown(st, "%s() on a %s", get ? "getattr" : "hasattr", v_kind_name(o));
}


static value *builtin_call(interp *st, const char *name, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(name, "range")) return range_of(st, a);
  if (!strcmp(name, "len")) {
    if (!x) return v_unknown(st, "len()");
    if (x->kind == V_LIST || x->kind == V_TUPLE) return v_int(st, x->u.seq->items.len);
    if (x->kind == V_DICT) return v_int(st, x->u.dict->keys.len);
    if (x->kind == V_STR) return v_int(st, x->u.s.n);
    seq *items = v_iterate(st, x);
    if (items) return v_int(st, items->items.len);
    return x->kind == V_UNKNOWN ? x : v_unknown(st, "len() of a %s", v_kind_name(x));
  }
  if (!strcmp(name, "int")) return x ? to_int(st, x) : v_int(st, 0);
  if (!strcmp(name, "float")) {
    double d;
    if (x && v_as_num(x, &d)) return v_float(st, d);
    if (x && x->kind == V_STR) return v_float(st, strtod(st_strdup(st, x->u.s.s, x->u.s.n), NULL));
    return x && x->kind == V_UNKNOWN ? x : v_unknown(st, "float() of something not known");
  }
  if (!strcmp(name, "bool")) {
    bool t;
    if (!x) return v_bool(st, false);
    return v_truth(x, &t) ? v_bool(st, t) : (x->kind == V_UNKNOWN ? x : v_unknown(st, "bool() of a %s", v_kind_name(x)));
  }
  if (!strcmp(name, "str")) {
    if (!x) return v_str(st, "", 0);
    if (x->kind == V_STR) return x;
    buf b = {0};
    if (x->kind == V_INT || x->kind == V_BOOL || x->kind == V_NONE || x->kind == V_FLOAT) v_render(x, &b);
    value *r = b.len ? v_str(st, st_strdup(st, b.data, b.len), (uint32_t)b.len) : v_unknown(st, "str() of a %s", v_kind_name(x));
    buf_free(&b);
    return r;
  }
  if (!strcmp(name, "list") || !strcmp(name, "tuple") || !strcmp(name, "set") || !strcmp(name, "frozenset") ||
      !strcmp(name, "sorted") || !strcmp(name, "reversed")) {
    vkind k = !strcmp(name, "tuple") ? V_TUPLE : V_LIST;
    if (!x) return v_list(st, k);
    seq *items = v_iterate(st, x);
    if (!items) return x->kind == V_UNKNOWN ? x : v_unknown(st, "%s() of a %s", name, v_kind_name(x));
    value *v = v_list(st, k);
    bool rev = !strcmp(name, "reversed");
    for (uint32_t i = 0; i < items->items.len; i++)
      avec_push(st->a, &v->u.seq->items, items->items.items[rev ? items->items.len - 1 - i : i]);
    if (!strcmp(name, "sorted")) {
      /* numbers only; anything else keeps its order and becomes unknown */
      uint32_t n = v->u.seq->items.len;
      for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0; j--) {
          double p, q;
          if (!v_as_num(v->u.seq->items.items[j - 1], &p) || !v_as_num(v->u.seq->items.items[j], &q))
            return v_unknown(st, "sorted() of values that are not numbers");
          if (p <= q) break;
          value *t = v->u.seq->items.items[j];
          v->u.seq->items.items[j] = v->u.seq->items.items[j - 1];
          v->u.seq->items.items[j - 1] = t;
        }
    }
    return v;
  }
  if (!strcmp(name, "dict")) {
    value *v = v_dict(st);
    if (x && x->kind == V_DICT) {
      for (uint32_t i = 0; i < x->u.dict->keys.len; i++) dict_set(st, v->u.dict, x->u.dict->keys.items[i], x->u.dict->vals.items[i]);
    } else if (x) {
      seq *items = v_iterate(st, x);
      if (!items) return v_unknown(st, "dict() of items that are not known");
      if (items->items.len > EST_MAX_DICT) return v_unknown(st, "a dictionary too large to follow");
      for (uint32_t i = 0; i < items->items.len; i++) {
        value *p = items->items.items[i];
        if ((p->kind != V_TUPLE && p->kind != V_LIST) || p->u.seq->items.len != 2) return v_unknown(st, "dict() of items that are not pairs");
        dict_set(st, v->u.dict, p->u.seq->items.items[0], p->u.seq->items.items[1]);
      }
    }
    for (uint32_t i = 0; i < a->kwnames.len; i++)
      dict_set(st, v->u.dict, v_str(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
    if (a->opaque) return v_unknown(st, "dict() of arguments that are not known");
    return v;
  }
  if (!strcmp(name, "min")) return numeric_fold(st, a, 0);
  if (!strcmp(name, "max")) return numeric_fold(st, a, 1);
  if (!strcmp(name, "sum")) return numeric_fold(st, a, 2);
  if (!strcmp(name, "abs")) {
    int64_t i;
    double d;
    if (x && v_as_int(x, &i)) return v_int(st, i < 0 ? -i : i);
    if (x && v_as_num(x, &d)) return v_float(st, fabs(d));
    return v_unknown(st, "abs() of something not known");
  }
  if (!strcmp(name, "round")) {
    double d;
    if (!x || !v_as_num(x, &d)) return v_unknown(st, "round() of something not known");
    if (a->pos.len > 1) {
      int64_t nd;
      if (!v_as_int(a->pos.items[1], &nd)) return v_unknown(st, "round() to digits not known");
      double m = pow(10.0, (double)nd);
      return v_float(st, nearbyint(d * m) / m);
    }
    return v_int(st, (int64_t)nearbyint(d));
  }
  if (!strcmp(name, "pow") && a->pos.len == 2) return eval_binary(st, "**", a->pos.items[0], a->pos.items[1]);
  if (!strcmp(name, "divmod") && a->pos.len == 2) {
    value *t = v_list(st, V_TUPLE);
    avec_push(st->a, &t->u.seq->items, eval_binary(st, "//", a->pos.items[0], a->pos.items[1]));
    avec_push(st->a, &t->u.seq->items, eval_binary(st, "%", a->pos.items[0], a->pos.items[1]));
    return t;
  }
  if (!strcmp(name, "zip")) {
    seq *lists[8];
    uint32_t n = a->pos.len < 8 ? a->pos.len : 8, len = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
      lists[i] = v_iterate(st, a->pos.items[i]);
      if (!lists[i]) return v_unknown(st, "zip() of items that are not known");
      if (lists[i]->items.len < len) len = lists[i]->items.len;
    }
    value *v = v_list(st, V_LIST);
    for (uint32_t k = 0; n && k < len; k++) {
      value *t = v_list(st, V_TUPLE);
      for (uint32_t i = 0; i < n; i++) avec_push(st->a, &t->u.seq->items, lists[i]->items.items[k]);
      avec_push(st->a, &v->u.seq->items, t);
    }
    return v;
  }
  if (!strcmp(name, "enumerate")) {
    seq *items = x ? v_iterate(st, x) : NULL;
    if (!items) return x && x->kind == V_UNKNOWN ? x : v_unknown(st, "enumerate() of items that are not known");
    value *s = arg_get(a, 1, "start");
    int64_t start = 0;
    if (s && !v_as_int(s, &start)) return v_unknown(st, "enumerate() from a start that is not known");
    value *v = v_list(st, V_LIST);
    for (uint32_t k = 0; k < items->items.len; k++) {
      value *t = v_list(st, V_TUPLE);
      avec_push(st->a, &t->u.seq->items, v_int(st, start + k));
      avec_push(st->a, &t->u.seq->items, items->items.items[k]);
      avec_push(st->a, &v->u.seq->items, t);
    }
    return v;
  }
  if (!strcmp(name, "any") || !strcmp(name, "all")) {
    seq *items = x ? v_iterate(st, x) : NULL;
    if (!items) return v_unknown(st, "%s() of items that are not known", name);
    bool want = !strcmp(name, "any"), unknown = false;
    for (uint32_t k = 0; k < items->items.len; k++) {
      bool t;
      if (!v_truth(items->items.items[k], &t)) unknown = true;
      else if (t == want) return v_bool(st, want);
    }
    return unknown ? v_unknown(st, "%s() of values not known", name) : v_bool(st, !want);
  }
  if ((!strcmp(name, "map") || !strcmp(name, "filter")) && a->pos.len == 2) {
    seq *items = v_iterate(st, a->pos.items[1]);
    if (!items) return v_unknown(st, "%s() of items that are not known", name);
    value *fn = a->pos.items[0];
    value *v = v_list(st, V_LIST);
    for (uint32_t k = 0; k < items->items.len; k++) {
      value *item = items->items.items[k];
      value *r = item;
      if (fn->kind != V_NONE) {
        args one = args_empty(a->node);
        avec_push(st->a, &one.pos, item);
        r = call_value(st, fn, &one);
      }
      if (!strcmp(name, "map")) {
        avec_push(st->a, &v->u.seq->items, r);
        continue;
      }
      bool t;
      if (!v_truth(r, &t)) return v_unknown(st, "filter() with a test that is not known");
      if (t) avec_push(st->a, &v->u.seq->items, item);
    }
    return v;
  }
  if (!strcmp(name, "isinstance") && a->pos.len == 2) {
    if (a->pos.items[0]->kind == V_UNKNOWN && a->pos.items[0]->why) return a->pos.items[0];
    int r = is_instance(st, a->pos.items[0], a->pos.items[1]);
    return r < 0 ? v_unknown(st, "isinstance() that is not known") : v_bool(st, r == 1);
  }
  if (!strcmp(name, "hasattr") && a->pos.len == 2) return has_attr(st, a->pos.items[0], a->pos.items[1], NULL, false);
  if (!strcmp(name, "getattr") && a->pos.len >= 2)
    return has_attr(st, a->pos.items[0], a->pos.items[1], a->pos.len > 2 ? a->pos.items[2] : NULL, true);
  if (!strcmp(name, "setattr") && a->pos.len == 3) {
    value *n = a->pos.items[1];
    if (n->kind == V_STR) set_attr(st, a->pos.items[0], n->u.s.s, n->u.s.n, a->pos.items[2], a->node);
    else if (a->pos.items[0]->kind == V_OBJECT) st_note(st, a->node, "%s: not counted", "setattr() with a name that is not known");
    return st->none;
  }
  if (!strcmp(name, "vars") && x && x->kind == V_OBJECT) return get_attr(st, x, "__dict__", 8);
  if (!strcmp(name, "print")) return st->none;
  if (!strcmp(name, "iter")) return x ? x : v_unknown(st, "iter()");
  if (!strcmp(name, "next")) {
    seq *items = x ? v_iterate(st, x) : NULL;
    if (items && items->items.len) return items->items.items[0];
    return v_unknown(st, "next() of items that are not known");
  }
  if (!strcmp(name, "object")) return v_obj(st, obj_new(st, OBJ_PLAIN, "object"));
  return v_unknown(st, "the result of %s()", name);
}


/* ---- methods of built-in values ---- */

/* whether V is or holds a layer or a parameter (one level down) */
static bool holds_layers(const value *v) {
  if (!v) return false;
  if ((v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE) || v->kind == V_PARAM) return true;
  if (v->kind != V_LIST && v->kind != V_TUPLE) return false;
  for (uint32_t i = 0; i < v->u.seq->items.len; i++) {
    const value *x = v->u.seq->items.items[i];
    if ((x->kind == V_OBJECT && x->u.obj->kind == OBJ_MODULE) || x->kind == V_PARAM) return true;
  }
  return false;
}


static value *list_method(interp *st, value *self, const char *name, args *a) {
  seq *s = self->u.seq;
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  bool mutates = !strcmp(name, "append") || !strcmp(name, "extend") || !strcmp(name, "insert") ||
                 !strcmp(name, "pop") || !strcmp(name, "clear") || !strcmp(name, "remove") ||
                 !strcmp(name, "reverse") || !strcmp(name, "sort");
  if (mutates && (self->kind == V_TUPLE || !st_may_mutate(st, s->birth))) {
    /* a list of rewards or losses changed in a loop is no layer not counted */
    bool layers = holds_layers(self);
    for (uint32_t i = 0; i < a->pos.len; i++) layers |= holds_layers(a->pos.items[i]);
    if (self->kind == V_LIST && layers) {
      buf b = {0};
      buf_printf(&b, "`.%s()` changes a list", name);
      st_blocked(st, a->node, buf_str(&b));
      buf_free(&b);
    }
    /* a list a data loop fills (`idss.append(torch.tensor(ids))` for each line of a
     * file): how many items is not known, what they are like is */
    if (self->kind == V_LIST && x && !strcmp(name, "append")) s->more = x;
    else if (self->kind == V_LIST && x && !strcmp(name, "extend")) {
      seq *items = v_iterate(st, x);
      if (items && items->items.len) s->more = items->items.items[0];
      else if (items && items->more) s->more = items->more;
    }
    return v_unknown(st, "a list changed in code that may not run");
  }
  if (!strcmp(name, "append") && x) {
    avec_push(st->a, &s->items, x);
    return st->none;
  }
  if (!strcmp(name, "extend") && x) {
    seq *items = v_iterate(st, x);
    if (!items) {
      st_note(st, a->node, "%s: not counted", "a list is extended with items that are not known");
      return st->none;
    }
    uint32_t n = items->items.len;
    for (uint32_t i = 0; i < n; i++) avec_push(st->a, &s->items, items->items.items[i]);
    return st->none;
  }
  if (!strcmp(name, "insert") && a->pos.len == 2) {
    int64_t i;
    if (!v_as_int(a->pos.items[0], &i)) return v_unknown(st, "insert() at a place not known");
    if (i < 0) i += s->items.len;
    if (i < 0) i = 0;
    if (i > (int64_t)s->items.len) i = s->items.len;
    avec_push(st->a, &s->items, a->pos.items[1]);
    memmove(&s->items.items[i + 1], &s->items.items[i], (s->items.len - 1 - (uint32_t)i) * sizeof *s->items.items);
    s->items.items[i] = a->pos.items[1];
    return st->none;
  }
  if (!strcmp(name, "pop")) {
    if (!s->items.len) return v_unknown(st, "pop() of an empty list");
    int64_t i = (int64_t)s->items.len - 1;
    if (x && !v_as_int(x, &i)) return v_unknown(st, "pop() at a place not known");
    if (i < 0) i += s->items.len;
    if (i < 0 || i >= (int64_t)s->items.len) return v_unknown(st, "pop() out of range");
    value *r = s->items.items[i];
    memmove(&s->items.items[i], &s->items.items[i + 1], (s->items.len - 1 - (uint32_t)i) * sizeof *s->items.items);
    s->items.len--;
    return r;
  }
  if (!strcmp(name, "clear")) {
    s->items.len = 0;
    return st->none;
  }
  if (!strcmp(name, "reverse")) {
    for (uint32_t i = 0, j = s->items.len; i + 1 < j; i++, j--) {
      value *t = s->items.items[i];
      s->items.items[i] = s->items.items[j - 1];
      s->items.items[j - 1] = t;
    }
    return st->none;
  }
  if (!strcmp(name, "copy")) {
    value *v = v_list(st, V_LIST);
    for (uint32_t i = 0; i < s->items.len; i++) avec_push(st->a, &v->u.seq->items, s->items.items[i]);
    return v;
  }
  if (!strcmp(name, "index") && x) {
    for (uint32_t i = 0; i < s->items.len; i++)
      if (v_equal(s->items.items[i], x) == 1) return v_int(st, i);
    return v_unknown(st, "index() of an item not found");
  }
  if (!strcmp(name, "prod") && !x) {
    /* np.array(space.shape).prod() */
    int64_t p = 1, d;
    for (uint32_t i = 0; i < s->items.len; i++)
      if (!v_as_int(s->items.items[i], &d) || __builtin_mul_overflow(p, d, &p)) return v_unknown(st, "prod() of sizes not known");
    return v_int(st, p);
  }
  if (!strcmp(name, "count") && x) {
    int64_t n = 0;
    for (uint32_t i = 0; i < s->items.len; i++) n += v_equal(s->items.items[i], x) == 1;
    return v_int(st, n);
  }
  return v_unknown(st, "list.%s()", name);
}


static value *dict_method(interp *st, value *self, const char *name, args *a) {
  dict *d = self->u.dict;
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(name, "get") && x) {
    value *r = dict_get(d, x);
    if (r) return r;
    return a->pos.len > 1 ? a->pos.items[1] : st->none;
  }
  if (!strcmp(name, "keys") || !strcmp(name, "values") || !strcmp(name, "items")) {
    value *v = v_list(st, V_LIST);
    for (uint32_t i = 0; i < d->keys.len; i++) {
      value *item;
      if (name[0] == 'k') item = d->keys.items[i];
      else if (name[0] == 'v') item = d->vals.items[i];
      else {
        item = v_list(st, V_TUPLE);
        avec_push(st->a, &item->u.seq->items, d->keys.items[i]);
        avec_push(st->a, &item->u.seq->items, d->vals.items[i]);
      }
      avec_push(st->a, &v->u.seq->items, item);
    }
    return v;
  }
  if (!strcmp(name, "copy")) {
    value *v = v_dict(st);
    for (uint32_t i = 0; i < d->keys.len; i++) dict_set(st, v->u.dict, d->keys.items[i], d->vals.items[i]);
    return v;
  }
  bool mutates = !strcmp(name, "update") || !strcmp(name, "pop") || !strcmp(name, "setdefault") || !strcmp(name, "clear");
  if (mutates && !st_may_mutate(st, d->birth)) {
    /* the entries it may change are not known afterwards: they say why
     * where they are used */
    value *u = v_unknown(st, "set in code that may not run (%s)", st_at(st, a->node));
    if (!strcmp(name, "update") && x && x->kind == V_DICT) {
      for (uint32_t i = 0; i < x->u.dict->keys.len; i++) dict_set(st, d, x->u.dict->keys.items[i], u);
      for (uint32_t i = 0; i < a->kwnames.len; i++) dict_set(st, d, v_str(st, a->kwnames.items[i].s, a->kwnames.items[i].n), u);
    } else if ((!strcmp(name, "pop") || !strcmp(name, "setdefault")) && x && x->kind == V_STR) {
      dict_set(st, d, x, u);
    } else {
      st_blocked(st, a->node, "a dictionary is changed");
    }
    return v_unknown(st, "a dictionary changed in code that may not run");
  }
  if (!strcmp(name, "update")) {
    if (x && x->kind == V_DICT)
      for (uint32_t i = 0; i < x->u.dict->keys.len; i++) dict_set(st, d, x->u.dict->keys.items[i], x->u.dict->vals.items[i]);
    else if (x) st_note(st, a->node, "%s: not counted", "a dictionary is updated with entries that are not known");
    for (uint32_t i = 0; i < a->kwnames.len; i++)
      dict_set(st, d, v_str(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
    return st->none;
  }
  if (!strcmp(name, "pop") && x) {
    value *r = dict_get(d, x);
    if (r && x->kind == V_STR) dict_del_str(d, x->u.s.s, x->u.s.n);
    if (r) return r;
    return a->pos.len > 1 ? a->pos.items[1] : v_unknown(st, "pop() of a missing key");
  }
  if (!strcmp(name, "setdefault") && x) {
    value *r = dict_get(d, x);
    if (r) return r;
    value *dv = a->pos.len > 1 ? a->pos.items[1] : st->none;
    dict_set(st, d, x, dv);
    return dv;
  }
  if (!strcmp(name, "clear")) {
    d->keys.len = d->vals.len = 0;
    return st->none;
  }
  return v_unknown(st, "dict.%s()", name);
}


static bool str_affix(const value *s, const value *x, bool end) {
  if (x->kind != V_STR || x->u.s.n > s->u.s.n) return false;
  const char *p = end ? s->u.s.s + s->u.s.n - x->u.s.n : s->u.s.s;
  return !memcmp(p, x->u.s.s, x->u.s.n);
}


static value *str_method(interp *st, value *self, const char *name, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if ((!strcmp(name, "endswith") || !strcmp(name, "startswith")) && x) {
    bool end = name[0] == 'e';
    if (x->kind == V_TUPLE) {
      for (uint32_t i = 0; i < x->u.seq->items.len; i++)
        if (str_affix(self, x->u.seq->items.items[i], end)) return v_bool(st, true);
      return v_bool(st, false);
    }
    if (x->kind != V_STR) return v_unknown(st, "str.%s() of something not known", name);
    return v_bool(st, str_affix(self, x, end));
  }
  if (!strcmp(name, "lower") || !strcmp(name, "upper")) {
    char *s = st_strdup(st, self->u.s.s, self->u.s.n);
    for (uint32_t i = 0; i < self->u.s.n; i++)
      if (name[0] == 'l' && s[i] >= 'A' && s[i] <= 'Z') s[i] = (char)(s[i] + 32);
      else if (name[0] == 'u' && s[i] >= 'a' && s[i] <= 'z') s[i] = (char)(s[i] - 32);
    return v_str(st, s, self->u.s.n);
  }
  if (!strcmp(name, "replace") && a->pos.len >= 2 && x->kind == V_STR && a->pos.items[1]->kind == V_STR && x->u.s.n) {
    value *y = a->pos.items[1];
    buf b = {0};
    for (uint32_t i = 0; i < self->u.s.n;) {
      if (i + x->u.s.n <= self->u.s.n && !memcmp(self->u.s.s + i, x->u.s.s, x->u.s.n)) {
        buf_append(&b, y->u.s.s, y->u.s.n);
        i += x->u.s.n;
      } else {
        buf_putc(&b, self->u.s.s[i++]);
      }
    }
    value *r = v_str(st, st_strdup(st, buf_str(&b), b.len), (uint32_t)b.len);
    buf_free(&b);
    return r;
  }
  if (!strcmp(name, "strip")) {
    uint32_t b = 0, e = self->u.s.n;
    while (b < e && (self->u.s.s[b] == ' ' || self->u.s.s[b] == '\n' || self->u.s.s[b] == '\t')) b++;
    while (e > b && (self->u.s.s[e - 1] == ' ' || self->u.s.s[e - 1] == '\n' || self->u.s.s[e - 1] == '\t')) e--;
    return v_str(st, self->u.s.s + b, e - b);
  }
  if (!strcmp(name, "split") && x && x->kind == V_STR && x->u.s.n) {
    value *v = v_list(st, V_LIST);
    uint32_t start = 0;
    for (uint32_t i = 0; i + x->u.s.n <= self->u.s.n;) {
      if (!memcmp(self->u.s.s + i, x->u.s.s, x->u.s.n)) {
        avec_push(st->a, &v->u.seq->items, v_str(st, self->u.s.s + start, i - start));
        i += x->u.s.n;
        start = i;
      } else {
        i++;
      }
    }
    avec_push(st->a, &v->u.seq->items, v_str(st, self->u.s.s + start, self->u.s.n - start));
    return v;
  }
  if (!strcmp(name, "join") && x) {
    seq *items = v_iterate(st, x);
    if (!items) return v_unknown(st, "str.join() of items not known");
    buf b = {0};
    for (uint32_t i = 0; i < items->items.len; i++) {
      value *p = items->items.items[i];
      if (p->kind != V_STR) {
        buf_free(&b);
        return v_unknown(st, "str.join() of items that are not strings");
      }
      if (i) buf_append(&b, self->u.s.s, self->u.s.n);
      buf_append(&b, p->u.s.s, p->u.s.n);
    }
    value *r = v_str(st, st_strdup(st, buf_str(&b), b.len), (uint32_t)b.len);
    buf_free(&b);
    return r;
  }
  return v_unknown(st, "str.%s()", name);
}


value *call_method(interp *st, value *self, const char *name, args *a) {
  const char *bar = strchr(name, '|');
  if (bar && self->kind == V_SUPER) {
    /* a library base class's method called through super() */
    value *me = self->u.sup.self;
    if (!strcmp(bar + 1, "__init__") && me->kind == V_OBJECT && me->u.obj->kind == OBJ_MODULE) {
      char *qual = st_strdup(st, name, (size_t)(bar - name));
      layer_init_into(st, me->u.obj, qual, a);
    }
    return st->none;
  }
  switch (self->kind) {
  case V_LIST:
  case V_TUPLE: return list_method(st, self, name, a);
  case V_DICT: return dict_method(st, self, name, a);
  case V_STR: return str_method(st, self, name, a);
  case V_PARAM:
  case V_TENSOR: return torch_tensor_method(st, self, name, a);
  case V_OBJECT:
    if (self->u.obj->kind == OBJ_MODULE) return torch_module_method(st, self, self->u.obj, name, a);
    return torch_extern_method(st, self, name, a);
  default: return v_unknown(st, "`.%s()` of a %s", name, v_kind_name(self));
  }
}


/* An instance of a namedtuple class K (its fields in K->args): a tuple of the values given,
 * each also an attribute by its field's name (`features.relu2_2`). */
static value *namedtuple_make(interp *st, obj *k, args *a) {
  obj *o = obj_new(st, OBJ_PLAIN, "namedtuple");
  o->items = seq_new(st);
  for (uint32_t i = 0; i < k->args->items.len; i++) {
    const value *f = k->args->items.items[i];
    value *v = arg_get(a, (int)i, st_strdup(st, f->u.s.s, f->u.s.n));
    if (!v) return v_unknown(st, "a namedtuple missing its field `%.*s`", (int)f->u.s.n, f->u.s.s);
    avec_push(st->a, &o->items->items, v);
    dict_set_str(st, o->attrs, st_strdup(st, f->u.s.s, f->u.s.n), v);
  }
  return v_obj(st, o);
}


value *call_value(interp *st, value *fn, args *a) {
  if (st->stopped) return v_unknown(st, "the estimate stopped: the file takes too long to follow");
  switch (fn->kind) {
  case V_FUNCTION: return call_function(st, fn, a);
  case V_CLASS: return instantiate(st, fn->u.klass, a);
  case V_EXTERN: return strchr(fn->u.ext, '.') ? torch_call(st, fn->u.ext, a) : builtin_call(st, fn->u.ext, a);
  case V_METHOD: return call_method(st, fn->u.method.self, fn->u.method.name, a);
  case V_OBJECT:
    if (fn->u.obj->kind == OBJ_MODULE) return act_module_call(st, fn->u.obj, a);
    if (fn->u.obj->qual && !strcmp(fn->u.obj->qual, "collections.namedtuple")) return namedtuple_make(st, fn->u.obj, a);
    /* a torchvision transform called on an image or a tensor */
    if (fn->u.obj->kind == OBJ_EXTERN && fn->u.obj->qual && !strncmp(fn->u.obj->qual, "torchvision.transforms.", 23))
      return a->pos.len == 1 ? torch_transform_call(st, fn, a->pos.items[0], a->node)
                             : v_unknown(st, "a transform called with %u arguments", a->pos.len);
    return v_unknown(st, "the result of calling a %s", fn->u.obj->type ? fn->u.obj->type : "object");
  case V_PARTIAL: {
    args m = args_empty(a->node);
    seq *p = fn->u.partial.args;
    for (uint32_t i = 0; p && i < p->items.len; i++) avec_push(st->a, &m.pos, p->items.items[i]);
    for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &m.pos, a->pos.items[i]);
    for (uint32_t i = 0; i < a->kwnames.len; i++) {
      avec_push(st->a, &m.kwnames, a->kwnames.items[i]);
      avec_push(st->a, &m.kwvals, a->kwvals.items[i]);
    }
    dict *kw = fn->u.partial.kw;
    for (uint32_t i = 0; kw && i < kw->keys.len; i++) {
      value *k = kw->keys.items[i];
      if (k->kind != V_STR) continue;
      char *name = st_strdup(st, k->u.s.s, k->u.s.n);
      if (!arg_get(a, -1, name)) args_add_kw(st, &m, name, kw->vals.items[i]);
    }
    m.opaque = a->opaque;
    return call_value(st, fn->u.partial.fn, &m);
  }
  case V_UNKNOWN: return fn;
  default: return v_unknown(st, "calling a %s", v_kind_name(fn));
  }
}


seq *v_iterate(interp *st, value *v) {
  switch (v->kind) {
  case V_LIST:
  case V_TUPLE: return v->u.seq;
  case V_DICT: {
    seq *s = seq_new(st);
    for (uint32_t i = 0; i < v->u.dict->keys.len; i++) avec_push(st->a, &s->items, v->u.dict->keys.items[i]);
    return s;
  }
  case V_STR: {
    if (v->u.s.n > 4096) return NULL;
    seq *s = seq_new(st);
    for (uint32_t i = 0; i < v->u.s.n; i++) avec_push(st->a, &s->items, v_str(st, v->u.s.s + i, 1));
    return s;
  }
  case V_ITER: return torch_iter_items(st, v);
  case V_TENSOR: return act_iterate(st, v);
  case V_OBJECT: {
    obj *o = v->u.obj;
    if (o->items) return o->items;
    if (o->qual && (!strcmp(o->qual, "torch.nn.ModuleDict") || !strcmp(o->qual, "torch.nn.ParameterDict"))) {
      seq *s = seq_new(st);
      for (uint32_t i = 0; i < o->attrs->keys.len; i++) avec_push(st->a, &s->items, o->attrs->keys.items[i]);
      return s;
    }
    return NULL;
  }
  default: return NULL;
  }
}
