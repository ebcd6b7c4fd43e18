/* This file contains the environments of reinforcement learning scripts: gym/gymnasium.make
 * through the table of standard environments' spaces (rules/envs.tsv), vector environments,
 * wrappers (which keep the spaces a policy's size depends on), and NumPy's products of shapes. */
#include <stdlib.h>
#include <string.h>

#include "engine/embedded.h"
#include "estimate/interp.h"


static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}


/* A space of the table: `discrete N`, or a Box of dimensions joined by x and an
 * optional dtype after a space (`210x160x3 uint8`; float32 when none is given). */
static value *space(interp *st, const char *kind, const char *dims, size_t n) {
  obj *o = obj_new(st, OBJ_EXTERN, kind);
  o->qual = !strcmp(kind, "Discrete") ? "gym.spaces.Discrete" : "gym.spaces.Box";
  value *dims_v = v_list(st, V_TUPLE);
  const char *dtype = "numpy.float32";
  if (!strcmp(kind, "Discrete")) {
    dict_set_str(st, o->attrs, "n", v_int(st, strtoll(dims, NULL, 10)));
    dtype = "numpy.int64";
  } else {
    const char *p = dims;
    while (p < dims + n) {
      char *end;
      long long d = strtoll(p, &end, 10);
      if (end == p) break;
      avec_push(st->a, &dims_v->u.seq->items, v_int(st, d));
      p = end;
      if (p < dims + n && *p == 'x') p++;
    }
    if (p + 6 <= dims + n && !memcmp(p, " uint8", 6)) dtype = "numpy.uint8";
  }
  dict_set_str(st, o->attrs, "shape", dims_v);
  dict_set_str(st, o->attrs, "dtype", v_extern(st, dtype));
  return v_obj(st, o);
}


/* The bits of a space's elements (its dtype), 0 when not known. */
static int space_bits(const value *sp) {
  if (!sp || sp->kind != V_OBJECT) return 0;
  const value *d = dict_get_str(sp->u.obj->attrs, "dtype", 5);
  if (!d || d->kind != V_EXTERN) return 0;
  const char *q = strrchr(d->u.ext, '.');
  q = q ? q + 1 : d->u.ext;
  if (!strcmp(q, "uint8") || !strcmp(q, "int8") || !strcmp(q, "bool_")) return 8;
  if (!strcmp(q, "float32") || !strcmp(q, "int32")) return 32;
  if (!strcmp(q, "float64") || !strcmp(q, "int64")) return 64;
  return 0;
}


/* The dimensions of a Box's shape into DIMS (at most EST_MAX_DIMS); -1 when not known. */
static int space_dims(const value *sp, int64_t *dims) {
  if (!sp || sp->kind != V_OBJECT || !sp->u.obj->qual || strcmp(sp->u.obj->qual, "gym.spaces.Box") != 0) return -1;
  const value *sh = dict_get_str(sp->u.obj->attrs, "shape", 5);
  if (!sh || (sh->kind != V_TUPLE && sh->kind != V_LIST) || sh->u.seq->items.len > EST_MAX_DIMS) return -1;
  int n = (int)sh->u.seq->items.len;
  for (int i = 0; i < n; i++)
    if (!v_as_int(sh->u.seq->items.items[i], &dims[i]) || dims[i] < 0) return -1;
  return n;
}


static value *box_of(interp *st, const int64_t *dims, int n, const value *dtype) {
  obj *o = obj_new(st, OBJ_EXTERN, "Box");
  o->qual = "gym.spaces.Box";
  value *dims_v = v_list(st, V_TUPLE);
  for (int i = 0; i < n; i++) avec_push(st->a, &dims_v->u.seq->items, v_int(st, dims[i]));
  dict_set_str(st, o->attrs, "shape", dims_v);
  if (dtype) dict_set_str(st, o->attrs, "dtype", (value *)dtype);
  return v_obj(st, o);
}


/* The observation wrappers that change the observation space (gym 0.26 and
 * gymnasium 0.29 and 1.x): ResizeObservation(env, shape) keeps the channels after
 * the new height and width, GrayScaleObservation(env, keep_dim=False) drops the
 * last (RGB) dimension or keeps it as 1, FrameStack(env, n) (FrameStackObservation
 * in gymnasium 1.x) stacks N observations in front. The dtype stays. NULL when
 * QUAL is none of them; a space that does not fit is not known, and says why. */
static value *observation_wrapper(interp *st, const char *qual, value *env, args *a) {
  const char *name = strrchr(qual, '.');
  name = name ? name + 1 : qual;
  int kind = !strcmp(name, "ResizeObservation")                                           ? 1
             : !strcmp(name, "GrayScaleObservation") || !strcmp(name, "GrayscaleObservation") ? 2
             : !strcmp(name, "FrameStack") || !strcmp(name, "FrameStackObservation")          ? 3
                                                                                              : 0;
  if (!kind || strncmp(qual, "gym", 3) != 0) return NULL;
  value *obs = dict_get_str(env->u.obj->attrs, "observation_space", 17);
  int64_t dims[EST_MAX_DIMS], out[EST_MAX_DIMS];
  int n = space_dims(obs, dims), m = -1;
  if (kind == 1 && n >= 2) {
    value *sz = arg_get(a, 1, "shape");
    int64_t h, w;
    if (sz && v_as_int(sz, &h)) w = h;
    else if (!sz || (sz->kind != V_TUPLE && sz->kind != V_LIST) || sz->u.seq->items.len != 2 ||
             !v_as_int(sz->u.seq->items.items[0], &h) || !v_as_int(sz->u.seq->items.items[1], &w))
      h = w = -1;
    if (h > 0 && w > 0) {
      out[0] = h;
      out[1] = w;
      for (int i = 2; i < n; i++) out[i] = dims[i];
      m = n;
    }
  } else if (kind == 2 && n == 3 && dims[2] == 3) {
    bool keep = false;
    value *k = arg_get(a, 1, "keep_dim");
    out[0] = dims[0];
    out[1] = dims[1];
    out[2] = 1;
    if (!k || v_truth(k, &keep)) m = keep ? 3 : 2;
  } else if (kind == 3 && n >= 0 && n < EST_MAX_DIMS) {
    int64_t k;
    value *kv = arg_get(a, 1, !strcmp(name, "FrameStack") ? "num_stack" : "stack_size");
    if (kv && v_as_int(kv, &k) && k > 0) {
      out[0] = k;
      for (int i = 0; i < n; i++) out[i + 1] = dims[i];
      m = n + 1;
    }
  }
  obj *w = obj_new(st, OBJ_EXTERN, "Env");
  w->qual = "gym.Env";
  for (uint32_t i = 0; i < env->u.obj->attrs->keys.len; i++)
    dict_set(st, w->attrs, env->u.obj->attrs->keys.items[i], env->u.obj->attrs->vals.items[i]);
  value *sp = m < 0 && obs && obs->kind == V_UNKNOWN && obs->why ? obs /* the first wrapper that did not fit */
             : m < 0 ? v_unknown(st, "the observation space after `%s`: its arguments are not known or the space it wraps does not fit", name)
                    : box_of(st, out, m, obs ? dict_get_str(obs->u.obj->attrs, "dtype", 5) : NULL);
  dict_set_str(st, w->attrs, "observation_space", sp);
  return v_obj(st, w);
}


/* gym.make("CartPole-v1"): an environment with the table's spaces */
static value *make_env(interp *st, value *id) {
  if (!id || id->kind != V_STR) return id && id->kind == V_UNKNOWN ? id : v_unknown(st, "an environment whose id is not known");
  const oom_embedded_file *f = oom_embedded_files;
  while (f->name && strcmp(f->name, "envs.tsv") != 0) f++;
  for (const char *p = f->name ? f->data : NULL, *end = p ? p + f->length : NULL; p && p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *t1 = memchr(p, '\t', (size_t)(le - p));
    const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(le - t1 - 1)) : NULL;
    if (*p != '#' && t2 && (size_t)(t1 - p) == id->u.s.n && !memcmp(p, id->u.s.s, id->u.s.n)) {
      obj *env = obj_new(st, OBJ_EXTERN, "Env");
      env->qual = "gym.Env";
      dict_set_str(st, env->attrs, "observation_space", space(st, "Box", t1 + 1, (size_t)(t2 - t1 - 1)));
      const char *act = t2 + 1;
      bool discrete = !strncmp(act, "discrete ", 9);
      const char *dims = act + (discrete ? 9 : 4);
      dict_set_str(st, env->attrs, "action_space", space(st, discrete ? "Discrete" : "Box", dims, (size_t)(le - dims)));
      return v_obj(st, env);
    }
    p = nl ? nl + 1 : end;
  }
  return v_unknown(st, "the spaces of environment `%.*s` are not in oomlint's table", (int)id->u.s.n, id->u.s.s);
}


bool script_is_env(const value *v) {
  return v && v->kind == V_OBJECT && v->u.obj->qual && !strcmp(v->u.obj->qual, "gym.Env");
}


/* gym.vector.SyncVectorEnv([thunk, ...]): the first environment's spaces as
 * single_observation_space and single_action_space */
static value *vector_env(interp *st, value *fns, TSNode where) {
  seq *s = fns ? v_iterate(st, fns) : NULL;
  if (!s || !s->items.len) return v_unknown(st, "a vector of environments that are not known");
  args none;
  memset(&none, 0, sizeof none);
  none.node = where;
  value *env = call_value(st, s->items.items[0], &none);
  if (!script_is_env(env)) return env->kind == V_UNKNOWN ? env : v_unknown(st, "environments that are not known");
  obj *v = obj_new(st, OBJ_EXTERN, "VectorEnv");
  v->qual = "gym.Env";
  value *obs = dict_get_str(env->u.obj->attrs, "observation_space", 17);
  value *act = dict_get_str(env->u.obj->attrs, "action_space", 12);
  dict_set_str(st, v->attrs, "single_observation_space", obs);
  dict_set_str(st, v->attrs, "single_action_space", act);
  dict_set_str(st, v->attrs, "num_envs", v_int(st, s->items.len));
  return v_obj(st, v);
}


void script_wrapped_env(interp *st, obj *o, args *a) {
  value *env = a->pos.len ? a->pos.items[0] : arg_get(a, -1, "env");
  if (!script_is_env(env)) return;
  /* a gym.Wrapper subclass of the project: the spaces of what it wraps,
   * unless its __init__ set its own */
  static const char *const keys[] = {"observation_space", "action_space", "single_observation_space", "single_action_space"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    value *v = dict_get_str(env->u.obj->attrs, keys[i], strlen(keys[i]));
    if (v && !dict_get_str(o->attrs, keys[i], strlen(keys[i]))) dict_set_str(st, o->attrs, keys[i], v);
  }
  o->qual = "gym.Env";
}


value *envs_call(interp *st, const char *qual, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  value *v;
  if (!strcmp(qual, "gym.make") || !strcmp(qual, "gymnasium.make")) return make_env(st, arg_get(a, 0, "id"));
  if (!strcmp(qual, "gym.vector.SyncVectorEnv") || !strcmp(qual, "gym.vector.AsyncVectorEnv") ||
      !strcmp(qual, "gymnasium.vector.SyncVectorEnv") || !strcmp(qual, "gymnasium.vector.AsyncVectorEnv"))
    return vector_env(st, arg_get(a, 0, "env_fns"), a->node);
  if (script_is_env(x) && (v = observation_wrapper(st, qual, x, a))) return v;
  /* other wrappers keep the spaces a policy's size depends on */
  if ((starts_with(qual, "gym.wrappers.") || starts_with(qual, "gymnasium.wrappers.") ||
       starts_with(qual, "stable_baselines3.common.atari_wrappers.")) &&
      (script_is_env(x) || (x && x->kind == V_UNKNOWN)))
    return x;
  /* any library's wrapper of an environment (`NoopResetEnv(env)`) */
  if (script_is_env(x) && (strstr(qual, "wrappers") || strstr(qual, "Wrapper") || strstr(qual, "Env"))) return x;
  if ((!strcmp(qual, "numpy.prod") || !strcmp(qual, "numpy.array") || !strcmp(qual, "numpy.asarray")) && x &&
      x->kind == V_UNKNOWN)
    return x;
  if ((!strcmp(qual, "numpy.prod") || !strcmp(qual, "numpy.array") || !strcmp(qual, "numpy.asarray")) && x &&
      (x->kind == V_TUPLE || x->kind == V_LIST)) {
    if (qual[6] == 'a') return x; /* an array of a shape: its items */
    int64_t p = 1, d;
    for (uint32_t i = 0; i < x->u.seq->items.len; i++) {
      if (!v_as_int(x->u.seq->items.items[i], &d) || __builtin_mul_overflow(p, d, &p))
        return v_unknown(st, "numpy.prod() of sizes that are not known");
    }
    return v_int(st, p);
  }
  return NULL;
}


static value *batch_tensor(interp *st, int64_t b, const int64_t *dims, int n, int bits, TSNode dim0) {
  shape *sh = shape_new(st, n + 1);
  sh->dims[0] = b;
  for (int i = 0; i < n; i++) sh->dims[i + 1] = dims[i];
  sh->bits = bits;
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = sh;
  t->dim0 = dim0;
  return t;
}


/* Stable-Baselines3's ReplayBuffer(buffer_size, observation_space, action_space, ...)
 * (and cleanrl_utils' copy of it): `rb.sample(batch_size)` gives ReplayBufferSamples of
 * tensors in the spaces' dtypes (th.tensor of the stored arrays): observations and
 * next_observations B x obs shape, actions B x action dim (1 for Discrete, int64),
 * dones and rewards B x 1 float32. NULL when SELF is no such buffer. */
value *envs_method(interp *st, value *self, const char *name, args *a) {
  obj *o = self->u.obj;
  static const char suffix[] = ".buffers.ReplayBuffer";
  size_t ql = o->qual ? strlen(o->qual) : 0, sl = sizeof suffix - 1;
  if (o->kind != OBJ_EXTERN || ql < sl || strcmp(o->qual + ql - sl, suffix) != 0 ||
      (!starts_with(o->qual, "stable_baselines3.") && !starts_with(o->qual, "cleanrl_utils.")))
    return NULL;
  if (strcmp(name, "sample") != 0) return v_unknown(st, "the result of `ReplayBuffer.%s()`", name);
  value *bv = arg_get(a, 0, "batch_size");
  int64_t b;
  if (!bv || !v_as_int(bv, &b) || b < 1) return v_unknown(st, "a replay batch of a size not known");
  value *obs = o->args && o->args->items.len > 1 ? o->args->items.items[1] : dict_get_str(o->attrs, "observation_space", 17);
  value *act = o->args && o->args->items.len > 2 ? o->args->items.items[2] : dict_get_str(o->attrs, "action_space", 12);
  int64_t od[EST_MAX_DIMS], ad[EST_MAX_DIMS];
  int on = space_dims(obs, od), ob = space_bits(obs), an = -1;
  if (on < 0 || on + 1 > EST_MAX_DIMS || !ob)
    return obs && obs->kind == V_UNKNOWN && obs->why ? obs : v_unknown(st, "a replay batch of observations whose space is not known");
  bool discrete = act && act->kind == V_OBJECT && act->u.obj->qual && !strcmp(act->u.obj->qual, "gym.spaces.Discrete");
  if (discrete) {
    an = 1;
    ad[0] = 1;
  } else if ((an = space_dims(act, ad)) >= 0) {
    /* SB3's get_action_dim: a Box's actions flattened */
    int64_t p = 1;
    for (int i = 0; i < an; i++) p *= ad[i];
    an = 1;
    ad[0] = p;
  }
  if (an < 0) return v_unknown(st, "a replay batch of actions whose space is not known");
  int64_t one[1] = {1};
  TSNode d0 = bv->origin;
  obj *r = obj_new(st, OBJ_PLAIN, "ReplayBufferSamples");
  r->items = seq_new(st);
  static const char *const fields[] = {"observations", "actions", "next_observations", "dones", "rewards"};
  for (int i = 0; i < 5; i++) {
    value *t = i == 0 || i == 2 ? batch_tensor(st, b, od, on, ob, d0)
               : i == 1         ? batch_tensor(st, b, ad, 1, discrete ? 64 : 32, d0) /* float64 cast to float32 */
                                : batch_tensor(st, b, one, 1, 32, d0);
    dict_set_str(st, r->attrs, fields[i], t);
    avec_push(st->a, &r->items->items, t);
  }
  return v_obj(st, r);
}
