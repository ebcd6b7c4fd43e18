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


static value *space(interp *st, const char *kind, const char *dims, size_t n) {
  obj *o = obj_new(st, OBJ_EXTERN, kind);
  o->qual = !strcmp(kind, "Discrete") ? "gym.spaces.Discrete" : "gym.spaces.Box";
  value *dims_v = v_list(st, V_TUPLE);
  if (!strcmp(kind, "Discrete")) {
    dict_set_str(st, o->attrs, "n", v_int(st, strtoll(dims, NULL, 10)));
  } else {
    for (const char *p = dims; p < dims + n;) {
      char *end;
      long long d = strtoll(p, &end, 10);
      if (end == p) break;
      avec_push(st->a, &dims_v->u.seq->items, v_int(st, d));
      p = end;
      if (p < dims + n && *p == 'x') p++;
    }
  }
  dict_set_str(st, o->attrs, "shape", dims_v);
  return v_obj(st, o);
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
  if (!strcmp(qual, "gym.make") || !strcmp(qual, "gymnasium.make")) return make_env(st, arg_get(a, 0, "id"));
  if (!strcmp(qual, "gym.vector.SyncVectorEnv") || !strcmp(qual, "gym.vector.AsyncVectorEnv") ||
      !strcmp(qual, "gymnasium.vector.SyncVectorEnv") || !strcmp(qual, "gymnasium.vector.AsyncVectorEnv"))
    return vector_env(st, arg_get(a, 0, "env_fns"), a->node);
  /* wrappers keep the spaces a policy's size depends on */
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
