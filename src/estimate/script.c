/* This file contains the script as it runs: the modules of its project it imports (read
 * through the project index, each run once), argparse with the user's own command line,
 * the files it reads (exec(open(...).read()), json), os.path and os.environ, and the
 * sizes the user assumes (--assume NAME=VALUE) for what only the data knows. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <yaml.h>
#include <stdlib.h>
#include <string.h>

#include "engine/embedded.h"
#include "estimate/interp.h"
#include "parse/parse.h"

#define MAX_READ (4u << 20) /* bytes of one file the script reads */
#define MAX_MODULES 64      /* modules of the project one run reads */


static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}


/* ---- modules ---- */

est_module *st_module_of(interp *st, TSNode n) {
  for (uint32_t i = 0; i < st->mods.len; i++)
    if (st->mods.items[i]->tree == n.tree) return st->mods.items[i];
  /* the script itself is the first module */
  assert(st->mods.len > 0);
  return st->mods.items[0];
}


static const char *shown_name(interp *st, const char *path) {
  const char *slash = strrchr(path, '/');
  return st_strdup(st, slash ? slash + 1 : path, strlen(slash ? slash + 1 : path));
}


/* Parse TEXT (kept in the run's arena) as a module of the run. */
static est_module *module_parse(interp *st, const char *path, const char *text, size_t len) {
  if (st->mods.len >= MAX_MODULES || len > 0x7fffffffu) return NULL;
  if (!st->parser) {
    const char *why = NULL;
    st->parser = parse_parser_new(&why);
    if (!st->parser) return NULL;
  }
  char *src = arena_alloc(st->a, len + 1);
  memcpy(src, text, len);
  src[len] = '\0';
  TSTree *tree = parse_source(st->parser, src, len, NULL);
  if (!tree) return NULL;
  est_module *m = arena_calloc(st->a, sizeof *m);
  m->own_tree = tree;
  m->tree = tree;
  m->src = src;
  m->len = len;
  m->path = path;
  m->shown = path ? shown_name(st, path) : "<exec>";
  facts_build(&m->own, ts_tree_root_node(tree), src, len);
  m->f = &m->own;
  avec_push(st->a, &st->mods, m);
  return m;
}


static value *module_value(interp *st, est_module *m) {
  if (!m->value) {
    obj *o = obj_new(st, OBJ_PLAIN, "module");
    m->value = v_obj(st, o);
  }
  obj *o = m->value->u.obj;
  for (uint32_t i = 0; m->globals && i < m->globals->vars.len; i++) {
    var *v = &m->globals->vars.items[i];
    dict_set_str(st, o->attrs, st_strdup(st, v->name.s, v->name.n), v->v);
  }
  return m->value;
}


value *script_import(interp *st, TSNode at, const char *qual, bool whole) {
  const facts_imports *imp = st->f->imports;
  if (!imp || !imp->source || st->stopped) return NULL;
  est_module *from = st_module_of(st, at);
  buf path = {0}, text = {0};
  size_t rest = 0, len = strlen(qual);
  bool ok = imp->source(imp, from->path, qual, len, &path, &text, &rest);
  value *result = NULL;
  if (ok) {
    est_module *m = NULL;
    for (uint32_t i = 1; i < st->mods.len && !m; i++)
      if (st->mods.items[i]->path && !strcmp(st->mods.items[i]->path, buf_str(&path))) m = st->mods.items[i];
    if (!m) {
      m = module_parse(st, st_strdup(st, path.data, path.len), buf_str(&text), text.len);
      if (m) {
        /* its names are bound as it runs: a cycle sees what is bound so far */
        m->globals = scope_new(st, NULL);
        m->loading = true;
        exec_block(st, m->globals, ts_tree_root_node(m->own_tree));
        m->loading = false;
      }
    }
    if (m) {
      result = module_value(st, m);
      /* the attribute chain after the module: `model.GPT` */
      const char *p = qual + rest;
      while (*p == '.') p++;
      while (*p && result->kind != V_UNKNOWN) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        result = get_attr(st, result, p, (uint32_t)n);
        p += n;
        while (*p == '.') p++;
      }
      if (!whole && rest == len) result = module_value(st, m);
    }
  }
  buf_free(&path);
  buf_free(&text);
  return result;
}


void script_free(interp *st) {
  for (uint32_t i = 0; i < st->mods.len; i++) {
    est_module *m = st->mods.items[i];
    if (m->own_tree) {
      facts_free(&m->own);
      ts_tree_delete(m->own_tree);
    }
  }
  st->mods.len = 0;
  if (st->parser) ts_parser_delete(st->parser);
  st->parser = NULL;
}


/* ---- the model zoo (rules/zoo.py) ---- */

value *script_zoo(interp *st, const char *qual, args *a) {
  const char *name = strrchr(qual, '.');
  if (!name || !starts_with(qual, "torchvision.models.")) return NULL;
  name++;
  est_module *zoo = NULL;
  for (uint32_t i = 1; i < st->mods.len && !zoo; i++)
    if (st->mods.items[i]->path == NULL && !strcmp(st->mods.items[i]->shown, "rules/zoo.py")) zoo = st->mods.items[i];
  if (!zoo) {
    const oom_embedded_file *f = oom_embedded_files;
    while (f->name && strcmp(f->name, "zoo.py") != 0) f++;
    if (!f->name) return NULL;
    zoo = module_parse(st, NULL, f->data, f->length);
    if (!zoo) return NULL;
    zoo->shown = "rules/zoo.py";
    zoo->globals = scope_new(st, NULL);
    exec_block(st, zoo->globals, ts_tree_root_node(zoo->own_tree));
  }
  value *fn = NULL;
  for (uint32_t i = 0; i < zoo->globals->vars.len && !fn; i++) {
    var *v = &zoo->globals->vars.items[i];
    if (v->name.n == strlen(name) && !memcmp(v->name.s, name, v->name.n) && v->v->kind == V_FUNCTION &&
        name[0] >= 'a' && name[0] <= 'z')
      fn = v->v;
  }
  if (!fn) return NULL;
  value *m = call_value(st, fn, a);
  if (m->kind == V_OBJECT && m->u.obj->kind == OBJ_MODULE) {
    /* built where the script calls the builder */
    m->u.obj->site = a->node;
    m->u.obj->name = NULL;
  }
  return m;
}


/* ---- environments (rules/envs.tsv) ---- */

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


static bool is_env(const value *v) {
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
  if (!is_env(env)) return env->kind == V_UNKNOWN ? env : v_unknown(st, "environments that are not known");
  obj *v = obj_new(st, OBJ_EXTERN, "VectorEnv");
  v->qual = "gym.Env";
  value *obs = dict_get_str(env->u.obj->attrs, "observation_space", 17);
  value *act = dict_get_str(env->u.obj->attrs, "action_space", 12);
  dict_set_str(st, v->attrs, "single_observation_space", obs);
  dict_set_str(st, v->attrs, "single_action_space", act);
  dict_set_str(st, v->attrs, "num_envs", v_int(st, s->items.len));
  return v_obj(st, v);
}


/* tyro.cli(Args): the dataclass with its defaults, `--field-name value` of
 * the script's command line over them */
static value *tyro_cli(interp *st, value *cls, args *a) {
  if (!cls || cls->kind != V_CLASS) return v_unknown(st, "tyro.cli() of something that is not a class of the file");
  args none;
  memset(&none, 0, sizeof none);
  none.node = a->node;
  value *v = instantiate(st, cls->u.klass, &none);
  if (v->kind != V_OBJECT) return v;
  for (int i = 0; st->in && i < st->in->argc; i++) {
    const char *t = st->in->argv[i];
    if (strncmp(t, "--", 2) != 0) continue;
    const char *eq = strchr(t, '=');
    size_t n = eq ? (size_t)(eq - t - 2) : strlen(t + 2);
    char *name = st_strdup(st, t + 2, n);
    for (char *c = name; *c; c++)
      if (*c == '-') *c = '_';
    bool neg = !strncmp(name, "no_", 3) && !dict_get_str(v->u.obj->attrs, name, n);
    const char *key = neg ? name + 3 : name;
    value *old = dict_get_str(v->u.obj->attrs, key, strlen(key));
    if (!old) continue;
    const char *val = eq ? eq + 1 : (i + 1 < st->in->argc && old->kind != V_BOOL ? st->in->argv[++i] : NULL);
    value *nv;
    if (old->kind == V_BOOL) nv = v_bool(st, val ? !strcmp(val, "True") || !strcmp(val, "true") : !neg);
    else if (!val) continue;
    else if (old->kind == V_INT) nv = v_int(st, strtoll(val, NULL, 10));
    else if (old->kind == V_FLOAT) nv = v_float(st, strtod(val, NULL));
    else nv = v_str(st, val, (uint32_t)strlen(val));
    dict_set_str(st, v->u.obj->attrs, key, nv);
  }
  return v;
}


/* ---- files ---- */

/* The text of the file at PATH as the script opens it, or NULL. */
static value *read_file(interp *st, value *pathv, TSNode where) {
  if (!pathv || pathv->kind != V_STR) return v_unknown(st, "a file whose name is not known");
  if (!st->in || !st->in->read) return v_unknown(st, "a file the estimate does not read here");
  char *path = st_strdup(st, pathv->u.s.s, pathv->u.s.n);
  size_t len = 0;
  char *text = st->in->read(st->in->ctx, path, &len);
  if (!text) return v_unknown(st, "`%s` cannot be read", path);
  if (len > MAX_READ || memchr(text, '\0', len)) {
    free(text);
    return v_unknown(st, "`%s` is too large or not text", path);
  }
  char *copy = st_strdup(st, text, len);
  free(text);
  read_note r = {copy, path};
  avec_push(st->a, &st->reads, r);
  (void)where;
  return v_str(st, copy, (uint32_t)len);
}


static value *file_object(interp *st, value *pathv) {
  obj *o = obj_new(st, OBJ_EXTERN, "file");
  o->qual = "builtins.open";
  dict_set_str(st, o->attrs, "\x01path", pathv ? pathv : v_unknown(st, "a file name that is not known"));
  return v_obj(st, o);
}


static bool is_file_object(const value *v) {
  return v && v->kind == V_OBJECT && v->u.obj->qual && !strcmp(v->u.obj->qual, "builtins.open");
}


/* ---- JSON (jansson) ---- */

static value *from_json(interp *st, json_t *j, int depth) {
  if (depth > 64) return v_unknown(st, "JSON nested too deeply");
  switch (json_typeof(j)) {
  case JSON_OBJECT: {
    value *d = v_dict(st);
    const char *k;
    json_t *x;
    uint32_t n = 0;
    json_object_foreach(j, k, x) {
      if (++n > EST_MAX_DICT) break;
      dict_set(st, d->u.dict, v_str(st, st_strdup(st, k, strlen(k)), (uint32_t)strlen(k)), from_json(st, x, depth + 1));
    }
    return d;
  }
  case JSON_ARRAY: {
    value *l = v_list(st, V_LIST);
    size_t i;
    json_t *x;
    json_array_foreach(j, i, x) {
      if (i >= EST_MAX_ITER) break;
      avec_push(st->a, &l->u.seq->items, from_json(st, x, depth + 1));
    }
    return l;
  }
  case JSON_STRING: return v_str(st, st_strdup(st, json_string_value(j), json_string_length(j)), (uint32_t)json_string_length(j));
  case JSON_INTEGER: return v_int(st, (int64_t)json_integer_value(j));
  case JSON_REAL: return v_float(st, json_real_value(j));
  case JSON_TRUE: return v_bool(st, true);
  case JSON_FALSE: return v_bool(st, false);
  default: return st->none;
  }
}


static value *json_text(interp *st, value *text) {
  if (!text || text->kind != V_STR) return text && text->kind == V_UNKNOWN ? text : v_unknown(st, "JSON that is not known");
  json_error_t err;
  json_t *j = json_loadb(text->u.s.s, text->u.s.n, JSON_DECODE_ANY, &err);
  if (!j) return v_unknown(st, "JSON that does not parse (line %d: %s)", err.line, err.text);
  value *v = from_json(st, j, 0);
  json_decref(j);
  return v;
}


/* ---- YAML (libyaml) ---- */

/* A plain scalar as YAML 1.1's core schema reads it, as PyYAML's safe_load
 * does: null, booleans, integers, floats; anything else (or quoted) a string. */
static value *yaml_scalar(interp *st, const yaml_node_t *n) {
  const char *s = (const char *)n->data.scalar.value;
  size_t len = n->data.scalar.length;
  if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return v_str(st, st_strdup(st, s, len), (uint32_t)len);
  if (!len || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL")) return st->none;
  static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", NULL};
  static const char *const no[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", NULL};
  for (size_t i = 0; yes[i]; i++)
    if (!strcmp(s, yes[i])) return v_bool(st, true);
  for (size_t i = 0; no[i]; i++)
    if (!strcmp(s, no[i])) return v_bool(st, false);
  char *digits = st_strdup(st, s, len), *end;
  size_t k = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] != '_') digits[k++] = s[i];
  digits[k] = '\0';
  errno = 0;
  long long i = strtoll(digits, &end, 0);
  if (!*end && !errno && isdigit((unsigned char)digits[digits[0] == '-' || digits[0] == '+'])) return v_int(st, i);
  /* PyYAML wants a dot in a float: 1e-4 stays a string, 1.0e-4 is a float */
  double d = strtod(digits, &end);
  if (!*end && strchr(digits, '.') && (isdigit((unsigned char)digits[0]) || digits[0] == '-' || digits[0] == '+' || digits[0] == '.'))
    return v_float(st, d);
  return v_str(st, st_strdup(st, s, len), (uint32_t)len);
}


static value *from_yaml(interp *st, yaml_document_t *doc, yaml_node_t *n, int depth) {
  if (!n) return st->none;
  if (depth > 64) return v_unknown(st, "YAML nested too deeply");
  switch (n->type) {
  case YAML_SCALAR_NODE: return yaml_scalar(st, n);
  case YAML_SEQUENCE_NODE: {
    value *l = v_list(st, V_LIST);
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
      if (l->u.seq->items.len >= EST_MAX_ITER) break;
      avec_push(st->a, &l->u.seq->items, from_yaml(st, doc, yaml_document_get_node(doc, *i), depth + 1));
    }
    return l;
  }
  case YAML_MAPPING_NODE: {
    value *d = v_dict(st);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
      if (d->u.dict->keys.len >= EST_MAX_DICT) break;
      value *k = from_yaml(st, doc, yaml_document_get_node(doc, p->key), depth + 1);
      if (k->kind == V_UNKNOWN || k->kind == V_LIST || k->kind == V_DICT) continue;
      dict_set(st, d->u.dict, k, from_yaml(st, doc, yaml_document_get_node(doc, p->value), depth + 1));
    }
    return d;
  }
  default: return st->none;
  }
}


static value *yaml_text(interp *st, value *text) {
  if (!text || text->kind != V_STR) return text && text->kind == V_UNKNOWN ? text : v_unknown(st, "YAML that is not known");
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) return v_unknown(st, "YAML cannot be read here");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text->u.s.s, text->u.s.n);
  value *v;
  if (!yaml_parser_load(&parser, &doc)) {
    v = v_unknown(st, "YAML that does not parse (line %zu: %s)", parser.problem_mark.line + 1,
                  parser.problem ? parser.problem : "an error");
  } else {
    v = from_yaml(st, &doc, yaml_document_get_root_node(&doc), 0);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  return v;
}


/* ---- ast.literal_eval ---- */

static value *literal_eval(interp *st, value *s) {
  if (!s || s->kind != V_STR) return s && s->kind == V_UNKNOWN ? s : v_unknown(st, "literal_eval() of something not known");
  char *t = st_strdup(st, s->u.s.s, s->u.s.n);
  while (*t == ' ') t++;
  size_t n = strlen(t);
  while (n && t[n - 1] == ' ') t[--n] = '\0';
  if (!strcmp(t, "True")) return v_bool(st, true);
  if (!strcmp(t, "False")) return v_bool(st, false);
  if (!strcmp(t, "None")) return st->none;
  if (n >= 2 && (t[0] == '\'' || t[0] == '"') && t[n - 1] == t[0]) return v_str(st, t + 1, (uint32_t)(n - 2));
  char *end;
  errno = 0;
  long long i = strtoll(t, &end, 0);
  if (n && !*end && !errno) return v_int(st, i);
  double d = strtod(t, &end);
  if (n && !*end) return v_float(st, d);
  /* Python raises ValueError: the script's `except` takes the string */
  return NULL;
}


/* ---- os.path and os.environ ---- */

static value *path_join(interp *st, args *a) {
  buf b = {0};
  for (uint32_t i = 0; i < a->pos.len; i++) {
    value *p = a->pos.items[i];
    if (p->kind != V_STR) {
      buf_free(&b);
      return p->kind == V_UNKNOWN ? p : v_unknown(st, "os.path.join() of a %s", v_kind_name(p));
    }
    if (p->u.s.n && p->u.s.s[0] == '/') buf_clear(&b);
    else if (b.len && b.data[b.len - 1] != '/') buf_putc(&b, '/');
    buf_append(&b, p->u.s.s, p->u.s.n);
  }
  value *v = v_str(st, st_strdup(st, buf_str(&b), b.len), (uint32_t)b.len);
  buf_free(&b);
  return v;
}


static value *path_exists(interp *st, value *p, bool file_only) {
  if (!p || p->kind != V_STR) return p && p->kind == V_UNKNOWN ? p : v_unknown(st, "a path that is not known");
  if (!st->in || !st->in->read) return v_unknown(st, "whether `%.*s` exists", (int)p->u.s.n, p->u.s.s);
  char *path = st_strdup(st, p->u.s.s, p->u.s.n);
  if (st->in->exists) return v_bool(st, st->in->exists(st->in->ctx, path));
  /* a file the run can read exists */
  size_t len = 0;
  char *text = st->in->read(st->in->ctx, path, &len);
  if (text) {
    free(text);
    return v_bool(st, true);
  }
  /* a name with an extension is a file, which the run could have read */
  const char *base = strrchr(path, '/');
  if (file_only || strchr(base ? base + 1 : path, '.')) return v_bool(st, false);
  return v_unknown(st, "whether `%s` exists", path);
}


/* ---- argparse ---- */

/* A parser keeps its actions (dictionaries) in a hidden attribute shared by
 * its groups; a sub-parsers action keeps its parsers by name. */
#define K_ACTIONS "\x01" "actions"
#define K_DEFAULTS "\x01" "defaults"
#define K_PARSERS "\x01" "parsers"

static value *new_parser(interp *st, const char *qual, value *actions) {
  obj *o = obj_new(st, OBJ_EXTERN, "ArgumentParser");
  o->qual = qual;
  dict_set_str(st, o->attrs, K_ACTIONS, actions ? actions : v_list(st, V_LIST));
  dict_set_str(st, o->attrs, K_DEFAULTS, v_dict(st));
  return v_obj(st, o);
}


static bool is_parser(const value *v) {
  return v && v->kind == V_OBJECT && v->u.obj->qual &&
         (!strcmp(v->u.obj->qual, "argparse.ArgumentParser") || !strcmp(v->u.obj->qual, "argparse._ArgumentGroup"));
}


static value *kw(interp *st, dict *d, const char *k) {
  (void)st;
  return dict_get_str(d, k, strlen(k));
}


static value *add_argument(interp *st, value *self, args *a) {
  value *actions = dict_get_str(self->u.obj->attrs, K_ACTIONS, strlen(K_ACTIONS));
  if (!actions || actions->kind != V_LIST) return st->none;
  value *act = v_dict(st);
  dict *d = act->u.dict;
  value *opts = v_list(st, V_LIST);
  bool positional = false;
  for (uint32_t i = 0; i < a->pos.len; i++) {
    value *o = a->pos.items[i];
    if (o->kind != V_STR) continue;
    avec_push(st->a, &opts->u.seq->items, o);
    if (!o->u.s.n || o->u.s.s[0] != '-') positional = true;
  }
  if (!opts->u.seq->items.len) return st->none;
  dict_set_str(st, d, "opts", opts);
  dict_set_str(st, d, "positional", v_bool(st, positional));
  for (uint32_t i = 0; i < a->kwnames.len; i++)
    dict_set_str(st, d, st_strdup(st, a->kwnames.items[i].s, a->kwnames.items[i].n), a->kwvals.items[i]);
  if (!kw(st, d, "dest")) {
    /* the first long option, else the first: `--batch-size` -> batch_size */
    value *pick = opts->u.seq->items.items[0];
    for (uint32_t i = 0; i < opts->u.seq->items.len && !positional; i++) {
      value *o = opts->u.seq->items.items[i];
      if (o->u.s.n > 2 && o->u.s.s[0] == '-' && o->u.s.s[1] == '-') {
        pick = o;
        break;
      }
    }
    uint32_t skip = 0;
    while (skip < pick->u.s.n && pick->u.s.s[skip] == '-') skip++;
    char *name = st_strdup(st, pick->u.s.s + skip, pick->u.s.n - skip);
    for (char *c = name; *c; c++)
      if (*c == '-') *c = '_';
    dict_set_str(st, d, "dest", v_str(st, name, (uint32_t)strlen(name)));
  }
  avec_push(st->a, &actions->u.seq->items, act);
  return st->none;
}


static const char *action_kind(const dict *d) {
  value *a = dict_get_str(d, "action", 6);
  if (!a) return "store";
  if (a->kind == V_STR) return a->u.s.s;
  if (a->kind == V_EXTERN && strstr(a->u.ext, "BooleanOptionalAction")) return "boolean_optional";
  return "other";
}


static value *plain(interp *st, value *v) {
  /* a default or a value of the command line is not a literal OOM301 may rewrite */
  if (v->kind != V_INT || ts_node_is_null(v->origin)) return v;
  return v_int(st, v->u.i);
}


static value *convert(interp *st, dict *d, value *s, TSNode where) {
  value *type = dict_get_str(d, "type", 4);
  value *v = s;
  if (type && s->kind == V_STR) {
    args one;
    memset(&one, 0, sizeof one);
    one.node = where;
    avec_push(st->a, &one.pos, s);
    v = call_value(st, type, &one);
  }
  value *choices = dict_get_str(d, "choices", 7);
  if (choices && (choices->kind == V_LIST || choices->kind == V_TUPLE)) {
    bool found = false, unknown = false;
    for (uint32_t i = 0; i < choices->u.seq->items.len; i++) {
      int e = v_equal(choices->u.seq->items.items[i], v);
      if (e == 1) found = true;
      else if (e < 0) unknown = true;
    }
    if (!found && !unknown) {
      value *dest = dict_get_str(d, "dest", 4);
      buf b = {0};
      v_render(v, &b);
      buf_printf(&b, " is not one of the choices of `%s`", dest && dest->kind == V_STR ? dest->u.s.s : "?");
      st_note(st, where, "%s: the script would stop", buf_str(&b));
      buf_free(&b);
    }
  }
  return v;
}


static value *action_default(interp *st, dict *d, TSNode where) {
  const char *k = action_kind(d);
  value *dflt = dict_get_str(d, "default", 7);
  if (!strcmp(k, "store_true")) return dflt ? plain(st, dflt) : v_bool(st, false);
  if (!strcmp(k, "store_false")) return dflt ? plain(st, dflt) : v_bool(st, true);
  value *req = dict_get_str(d, "required", 8);
  bool required = false;
  value *pos = dict_get_str(d, "positional", 10);
  value *nargs = dict_get_str(d, "nargs", 5);
  bool optional_pos = nargs && nargs->kind == V_STR && (nargs->u.s.s[0] == '?' || nargs->u.s.s[0] == '*');
  if ((req && v_truth(req, &required) && required) || (pos && pos->kind == V_BOOL && pos->u.b && !optional_pos)) {
    value *dest = dict_get_str(d, "dest", 4);
    value *opts = dict_get_str(d, "opts", 4);
    const char *name = opts && opts->kind == V_LIST && opts->u.seq->items.len && opts->u.seq->items.items[0]->kind == V_STR
                           ? opts->u.seq->items.items[0]->u.s.s
                           : dest && dest->kind == V_STR ? dest->u.s.s : "?";
    return v_unknown(st, "the script needs `%s` on its command line (give it after `--`)", name);
  }
  if (!dflt) return st->none;
  if (dflt->kind == V_STR && strcmp(k, "store") == 0) return plain(st, convert(st, d, dflt, where));
  return plain(st, dflt);
}


static bool is_option(const char *t) {
  if (t[0] != '-' || !t[1]) return false;
  /* -1, -0.5: a negative number is a value */
  return !(isdigit((unsigned char)t[1]) || (t[1] == '.' && isdigit((unsigned char)t[2])));
}


/* The action of option NAME (LEN bytes) of the parser's ACTIONS; unique
 * prefixes of long options count, as argparse's allow_abbrev. *NEG: the
 * `--no-x` of a BooleanOptionalAction. */
static dict *find_option(value *actions, const char *name, size_t len, bool *neg) {
  dict *prefix = NULL;
  int prefixes = 0;
  *neg = false;
  for (uint32_t i = 0; i < actions->u.seq->items.len; i++) {
    value *av = actions->u.seq->items.items[i];
    if (av->kind != V_DICT) continue;
    value *opts = dict_get_str(av->u.dict, "opts", 4);
    if (!opts || opts->kind != V_LIST) continue;
    for (uint32_t k = 0; k < opts->u.seq->items.len; k++) {
      value *o = opts->u.seq->items.items[k];
      if (o->kind != V_STR || o->u.s.s[0] != '-') continue;
      if (o->u.s.n == len && !memcmp(o->u.s.s, name, len)) return av->u.dict;
      if (!strcmp(action_kind(av->u.dict), "boolean_optional") && o->u.s.n > 2 && len == o->u.s.n + 3 &&
          !memcmp(name, "--no-", 5) && !memcmp(name + 5, o->u.s.s + 2, o->u.s.n - 2)) {
        *neg = true;
        return av->u.dict;
      }
      if (len > 2 && name[1] == '-' && o->u.s.n > len && !memcmp(o->u.s.s, name, len)) {
        if (prefix != av->u.dict) prefixes++;
        prefix = av->u.dict;
      }
    }
  }
  return prefixes == 1 ? prefix : NULL;
}


static void set_dest(interp *st, obj *ns, dict *d, value *v) {
  value *dest = dict_get_str(d, "dest", 4);
  if (dest && dest->kind == V_STR) dict_set(st, ns->attrs, dest, v);
}


static void fill_defaults(interp *st, value *parser, obj *ns, TSNode where) {
  value *actions = dict_get_str(parser->u.obj->attrs, K_ACTIONS, strlen(K_ACTIONS));
  for (uint32_t i = 0; actions && actions->kind == V_LIST && i < actions->u.seq->items.len; i++) {
    value *av = actions->u.seq->items.items[i];
    if (av->kind != V_DICT) continue;
    value *dest = dict_get_str(av->u.dict, "dest", 4);
    if (dest && dest->kind == V_STR && dest->u.s.n == 4 && !memcmp(dest->u.s.s, "help", 4)) continue;
    const char *k = action_kind(av->u.dict);
    if (!strcmp(k, "help") || !strcmp(k, "version")) continue;
    if (dict_get_str(av->u.dict, "\x01sub", 4)) {
      if (dest && dest->kind == V_STR) set_dest(st, ns, av->u.dict, st->none);
      continue;
    }
    set_dest(st, ns, av->u.dict, action_default(st, av->u.dict, where));
  }
  value *defaults = dict_get_str(parser->u.obj->attrs, K_DEFAULTS, strlen(K_DEFAULTS));
  for (uint32_t i = 0; defaults && defaults->kind == V_DICT && i < defaults->u.dict->keys.len; i++) {
    value *k = defaults->u.dict->keys.items[i];
    if (k->kind == V_STR) dict_set(st, ns->attrs, k, defaults->u.dict->vals.items[i]);
  }
}


/* Parse TOKS[*I..N) into NS with PARSER; what it does not know goes to EXTRA. */
static void parse_into(interp *st, value *parser, obj *ns, value **toks, uint32_t n, value *extra, TSNode where, int depth) {
  fill_defaults(st, parser, ns, where);
  value *actions = dict_get_str(parser->u.obj->attrs, K_ACTIONS, strlen(K_ACTIONS));
  if (!actions || actions->kind != V_LIST) return;
  uint32_t next_pos = 0;
  for (uint32_t i = 0; i < n;) {
    value *tv = toks[i];
    if (tv->kind != V_STR) {
      i++;
      continue;
    }
    const char *t = tv->u.s.s;
    if (!strcmp(t, "--")) {
      i++;
      continue;
    }
    if (is_option(t)) {
      const char *eq = strchr(t, '=');
      size_t len = eq ? (size_t)(eq - t) : strlen(t);
      bool neg;
      dict *d = find_option(actions, t, len, &neg);
      i++;
      if (!d) {
        avec_push(st->a, &extra->u.seq->items, tv);
        continue;
      }
      const char *k = action_kind(d);
      if (!strcmp(k, "store_true") || !strcmp(k, "store_false")) {
        set_dest(st, ns, d, v_bool(st, k[6] == 't'));
      } else if (!strcmp(k, "boolean_optional")) {
        set_dest(st, ns, d, v_bool(st, !neg));
      } else if (!strcmp(k, "store_const") || !strcmp(k, "append_const")) {
        value *c = dict_get_str(d, "const", 5);
        set_dest(st, ns, d, c ? c : st->none);
      } else if (!strcmp(k, "count")) {
        value *dest = dict_get_str(d, "dest", 4);
        value *cur = dest && dest->kind == V_STR ? dict_get_str(ns->attrs, dest->u.s.s, dest->u.s.n) : NULL;
        int64_t c = 0;
        if (cur) v_as_int(cur, &c);
        set_dest(st, ns, d, v_int(st, c + 1));
      } else if (!strcmp(k, "help") || !strcmp(k, "version")) {
        continue;
      } else {
        /* store / append / extend: its values */
        value *nargs = dict_get_str(d, "nargs", 5);
        int64_t count = 1;
        bool many = false, maybe = false;
        if (nargs && nargs->kind == V_STR) {
          many = nargs->u.s.s[0] == '+' || nargs->u.s.s[0] == '*';
          maybe = nargs->u.s.s[0] == '?';
        } else if (nargs) {
          v_as_int(nargs, &count);
          many = true;
        }
        value *list = v_list(st, V_LIST);
        if (eq) avec_push(st->a, &list->u.seq->items, convert(st, d, v_str(st, eq + 1, (uint32_t)strlen(eq + 1)), where));
        while (i < n && toks[i]->kind == V_STR && !is_option(toks[i]->u.s.s) &&
               (many ? (nargs->kind == V_STR || (int64_t)list->u.seq->items.len < count) : list->u.seq->items.len == 0)) {
          avec_push(st->a, &list->u.seq->items, convert(st, d, toks[i], where));
          i++;
        }
        value *v;
        if (many) v = list;
        else if (list->u.seq->items.len) v = list->u.seq->items.items[0];
        else if (maybe) v = dict_get_str(d, "const", 5) ? dict_get_str(d, "const", 5) : st->none;
        else v = v_unknown(st, "`%s` without a value on the command line", t);
        if (!strcmp(k, "append") || !strcmp(k, "extend")) {
          value *dest = dict_get_str(d, "dest", 4);
          value *cur = dest && dest->kind == V_STR ? dict_get_str(ns->attrs, dest->u.s.s, dest->u.s.n) : NULL;
          value *acc = v_list(st, V_LIST);
          if (cur && cur->kind == V_LIST)
            for (uint32_t j = 0; j < cur->u.seq->items.len; j++) avec_push(st->a, &acc->u.seq->items, cur->u.seq->items.items[j]);
          if (!strcmp(k, "extend") && v->kind == V_LIST)
            for (uint32_t j = 0; j < v->u.seq->items.len; j++) avec_push(st->a, &acc->u.seq->items, v->u.seq->items.items[j]);
          else avec_push(st->a, &acc->u.seq->items, v);
          v = acc;
        }
        set_dest(st, ns, d, v);
      }
      continue;
    }
    /* a positional value: the next positional action, or a sub-command */
    dict *d = NULL;
    uint32_t seen = 0;
    for (uint32_t k = 0; k < actions->u.seq->items.len && !d; k++) {
      value *av = actions->u.seq->items.items[k];
      if (av->kind != V_DICT) continue;
      value *p = dict_get_str(av->u.dict, "positional", 10);
      if (!p || p->kind != V_BOOL || !p->u.b) continue;
      if (seen++ == next_pos) d = av->u.dict;
    }
    if (!d) {
      avec_push(st->a, &extra->u.seq->items, tv);
      i++;
      continue;
    }
    next_pos++;
    value *subs = dict_get_str(d, "\x01sub", 4);
    if (subs && subs->kind == V_DICT) {
      value *sub = dict_get_str(subs->u.dict, t, strlen(t));
      set_dest(st, ns, d, tv);
      i++;
      if (sub && depth < 8) parse_into(st, sub, ns, toks + i, n - i, extra, where, depth + 1);
      else if (!sub) st_note(st, where, "`%s` is not a sub-command of the script: not counted", t);
      return;
    }
    value *nargs = dict_get_str(d, "nargs", 5);
    if (nargs && nargs->kind == V_STR && (nargs->u.s.s[0] == '+' || nargs->u.s.s[0] == '*')) {
      value *list = v_list(st, V_LIST);
      while (i < n && toks[i]->kind == V_STR && !is_option(toks[i]->u.s.s)) avec_push(st->a, &list->u.seq->items, convert(st, d, toks[i++], where));
      set_dest(st, ns, d, list);
    } else {
      set_dest(st, ns, d, convert(st, d, tv, where));
      i++;
    }
  }
}


/* The script's own command line: a list of strings. */
static value *script_argv(interp *st, bool with_name) {
  value *l = v_list(st, V_LIST);
  if (with_name) {
    const char *p = st->in && st->in->path ? st->in->path : "script.py";
    avec_push(st->a, &l->u.seq->items, v_str(st, p, (uint32_t)strlen(p)));
  }
  for (int i = 0; st->in && i < st->in->argc; i++)
    avec_push(st->a, &l->u.seq->items, v_str(st, st->in->argv[i], (uint32_t)strlen(st->in->argv[i])));
  return l;
}


static value *parse_args(interp *st, value *parser, args *a, bool known) {
  value *given = arg_get(a, 0, "args");
  value *toks = given && (given->kind == V_LIST || given->kind == V_TUPLE) ? given : script_argv(st, false);
  obj *ns = obj_new(st, OBJ_PLAIN, "Namespace");
  value *nsv = arg_get(a, 1, "namespace");
  if (nsv && nsv->kind == V_OBJECT) ns = nsv->u.obj;
  value *extra = v_list(st, V_LIST);
  /* strings made by slicing or split() do not end in NUL: the parser's do */
  uint32_t n = toks->u.seq->items.len;
  value **own = arena_alloc(st->a, (n + 1) * sizeof *own);
  for (uint32_t i = 0; i < n; i++) {
    value *t = toks->u.seq->items.items[i];
    own[i] = t->kind == V_STR ? v_str(st, st_strdup(st, t->u.s.s, t->u.s.n), t->u.s.n) : t;
  }
  parse_into(st, parser, ns, own, n, extra, a->node, 0);
  if (known) {
    value *t = v_list(st, V_TUPLE);
    avec_push(st->a, &t->u.seq->items, v_obj(st, ns));
    avec_push(st->a, &t->u.seq->items, extra);
    return t;
  }
  for (uint32_t i = 0; i < extra->u.seq->items.len; i++) {
    value *x = extra->u.seq->items.items[i];
    if (x->kind == V_STR)
      st_note(st, a->node, "`%s` on the command line is not an argument of the script's parser: ignored", x->u.s.s);
  }
  return v_obj(st, ns);
}


static value *parser_method(interp *st, value *self, const char *name, args *a) {
  obj *o = self->u.obj;
  if (!strcmp(name, "add_argument")) return add_argument(st, self, a);
  if (!strcmp(name, "add_argument_group") || !strcmp(name, "add_mutually_exclusive_group")) {
    value *g = new_parser(st, "argparse._ArgumentGroup", dict_get_str(o->attrs, K_ACTIONS, strlen(K_ACTIONS)));
    dict_set_str(st, g->u.obj->attrs, K_DEFAULTS, dict_get_str(o->attrs, K_DEFAULTS, strlen(K_DEFAULTS)));
    return g;
  }
  if (!strcmp(name, "set_defaults")) {
    value *d = dict_get_str(o->attrs, K_DEFAULTS, strlen(K_DEFAULTS));
    for (uint32_t i = 0; d && d->kind == V_DICT && i < a->kwnames.len; i++)
      dict_set(st, d->u.dict, v_str(st, a->kwnames.items[i].s, a->kwnames.items[i].n), plain(st, a->kwvals.items[i]));
    return st->none;
  }
  if (!strcmp(name, "get_default")) {
    value *n = arg_get(a, 0, "dest");
    obj *ns = obj_new(st, OBJ_PLAIN, "Namespace");
    fill_defaults(st, self, ns, a->node);
    value *v = n && n->kind == V_STR ? dict_get_str(ns->attrs, n->u.s.s, n->u.s.n) : NULL;
    return v ? v : st->none;
  }
  if (!strcmp(name, "parse_args")) return parse_args(st, self, a, false);
  if (!strcmp(name, "parse_known_args")) return parse_args(st, self, a, true);
  if (!strcmp(name, "add_subparsers")) {
    obj *s = obj_new(st, OBJ_EXTERN, "_SubParsersAction");
    s->qual = "argparse._SubParsersAction";
    value *parsers = v_dict(st);
    dict_set_str(st, s->attrs, K_PARSERS, parsers);
    value *actions = dict_get_str(o->attrs, K_ACTIONS, strlen(K_ACTIONS));
    if (actions && actions->kind == V_LIST) {
      value *act = v_dict(st);
      dict_set_str(st, act->u.dict, "positional", v_bool(st, true));
      dict_set_str(st, act->u.dict, "\x01sub", parsers);
      value *dest = arg_get(a, -1, "dest");
      if (dest && dest->kind == V_STR) dict_set_str(st, act->u.dict, "dest", dest);
      avec_push(st->a, &actions->u.seq->items, act);
    }
    return v_obj(st, s);
  }
  if (!strcmp(name, "print_help") || !strcmp(name, "print_usage") || !strcmp(name, "error") || !strcmp(name, "exit"))
    return st->none;
  return v_unknown(st, "the result of `ArgumentParser.%s()`", name);
}


value *script_method(interp *st, value *self, const char *name, args *a) {
  if (is_parser(self)) return parser_method(st, self, name, a);
  if (self->kind == V_OBJECT && self->u.obj->qual && !strcmp(self->u.obj->qual, "argparse._SubParsersAction")) {
    if (strcmp(name, "add_parser") != 0) return st->none;
    value *parsers = dict_get_str(self->u.obj->attrs, K_PARSERS, strlen(K_PARSERS));
    value *p = new_parser(st, "argparse.ArgumentParser", NULL);
    value *n = arg_get(a, 0, "name");
    if (parsers && parsers->kind == V_DICT && n && n->kind == V_STR) {
      dict_set(st, parsers->u.dict, n, p);
      value *aliases = arg_get(a, -1, "aliases");
      seq *al = aliases ? v_iterate(st, aliases) : NULL;
      for (uint32_t i = 0; al && i < al->items.len; i++)
        if (al->items.items[i]->kind == V_STR) dict_set(st, parsers->u.dict, al->items.items[i], p);
    }
    return p;
  }
  if (is_file_object(self)) {
    value *path = dict_get_str(self->u.obj->attrs, "\x01path", 5);
    if (!strcmp(name, "read")) return read_file(st, path, a->node);
    if (!strcmp(name, "__enter__")) return self;
    if (!strcmp(name, "close") || !strcmp(name, "__exit__")) return st->none;
    return v_unknown(st, "the result of `file.%s()`", name);
  }
  return NULL;
}


value *script_attr(interp *st, const char *qual) {
  if (!strcmp(qual, "sys.argv")) return script_argv(st, true);
  return NULL;
}


value *script_call(interp *st, const char *qual, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(qual, "argparse.ArgumentParser")) return new_parser(st, "argparse.ArgumentParser", NULL);
  if (!strcmp(qual, "ast.literal_eval")) {
    value *v = literal_eval(st, x);
    /* Python raises ValueError, and scripts take the string instead
     * (nanoGPT's configurator: `except (SyntaxError, ValueError): attempt = val`);
     * the interpreter's calls cannot raise, so the string is what follows */
    return v ? v : x;
  }
  if (!strcmp(qual, "os.path.join")) return path_join(st, a);
  if (!strcmp(qual, "os.path.exists")) return path_exists(st, x, false);
  if (!strcmp(qual, "os.path.isfile")) return path_exists(st, x, true);
  if (!strcmp(qual, "os.path.expanduser") || !strcmp(qual, "os.path.abspath") || !strcmp(qual, "os.path.normpath"))
    return x ? x : v_unknown(st, "a path");
  if (!strcmp(qual, "os.environ.get") || !strcmp(qual, "os.getenv")) {
    /* a plain `python train.py`: no launcher's variables */
    value *d = arg_get(a, 1, "default");
    return d ? d : st->none;
  }
  if (!strcmp(qual, "json.load") && x) {
    value *text = is_file_object(x) ? read_file(st, dict_get_str(x->u.obj->attrs, "\x01path", 5), a->node) : NULL;
    return text ? json_text(st, text) : v_unknown(st, "JSON from a stream that is not known");
  }
  if (!strcmp(qual, "json.loads")) return json_text(st, x);
  if (!strcmp(qual, "omegaconf.OmegaConf.load") && x) {
    value *text = x->kind == V_STR ? read_file(st, x, a->node) : x;
    return text->kind == V_STR ? yaml_text(st, text) : text;
  }
  if (!strcmp(qual, "omegaconf.OmegaConf.create") && x && x->kind == V_DICT) return x;
  if (!strcmp(qual, "gym.make") || !strcmp(qual, "gymnasium.make")) return make_env(st, arg_get(a, 0, "id"));
  if (!strcmp(qual, "gym.vector.SyncVectorEnv") || !strcmp(qual, "gym.vector.AsyncVectorEnv") ||
      !strcmp(qual, "gymnasium.vector.SyncVectorEnv") || !strcmp(qual, "gymnasium.vector.AsyncVectorEnv"))
    return vector_env(st, arg_get(a, 0, "env_fns"), a->node);
  /* wrappers keep the spaces a policy's size depends on */
  if ((starts_with(qual, "gym.wrappers.") || starts_with(qual, "gymnasium.wrappers.") ||
       starts_with(qual, "stable_baselines3.common.atari_wrappers.")) && (is_env(x) || (x && x->kind == V_UNKNOWN)))
    return x;
  /* any library's wrapper of an environment (`NoopResetEnv(env)`) */
  if (is_env(x) && (strstr(qual, "wrappers") || strstr(qual, "Wrapper") || strstr(qual, "Env"))) return x;
  if (!strcmp(qual, "tyro.cli")) return tyro_cli(st, x, a);
  /* mp.spawn(main, args=(...), nprocs=n): each process runs main(rank, *args);
   * rank 0 builds what every rank builds */
  if ((!strcmp(qual, "torch.multiprocessing.spawn") || !strcmp(qual, "torch.multiprocessing.start_processes")) && x) {
    args call;
    memset(&call, 0, sizeof call);
    call.node = a->node;
    avec_push(st->a, &call.pos, v_int(st, 0));
    value *rest = arg_get(a, 1, "args");
    seq *items = rest ? v_iterate(st, rest) : NULL;
    for (uint32_t i = 0; items && i < items->items.len; i++) avec_push(st->a, &call.pos, items->items.items[i]);
    call.opaque = rest && !items;
    call_value(st, x, &call);
    return st->none;
  }
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
  if ((!strcmp(qual, "yaml.safe_load") || !strcmp(qual, "yaml.load") || !strcmp(qual, "yaml.full_load")) && x) {
    value *text = is_file_object(x) ? read_file(st, dict_get_str(x->u.obj->attrs, "\x01path", 5), a->node) : x;
    return yaml_text(st, text);
  }
  return NULL;
}


value *script_builtin(interp *st, scope *sc, const char *fn, args *a) {
  scope *top = sc;
  while (top->parent) top = top->parent;
  if (!strcmp(fn, "open")) return file_object(st, a->pos.len ? a->pos.items[0] : NULL);
  if (!strcmp(fn, "globals")) {
    value *d = v_dict(st);
    d->u.dict->live = top;
    for (uint32_t i = 0; i < top->vars.len; i++)
      dict_set(st, d->u.dict, v_str(st, top->vars.items[i].name.s, top->vars.items[i].name.n), top->vars.items[i].v);
    return d;
  }
  if (!strcmp(fn, "exec")) {
    value *code = a->pos.len ? a->pos.items[0] : NULL;
    if (!code || code->kind != V_STR) {
      st_note(st, a->node, "%s: what it sets is not known", "exec() of code that is not known");
      return st->none;
    }
    const char *path = NULL;
    for (uint32_t i = 0; i < st->reads.len; i++)
      if (st->reads.items[i].text == code->u.s.s) path = st->reads.items[i].path;
    est_module *m = module_parse(st, path, code->u.s.s, code->u.s.n);
    if (!m) return st->none;
    /* exec() without globals runs in the caller's module, its names set there */
    m->globals = top;
    exec_block(st, sc, ts_tree_root_node(m->own_tree));
    return st->none;
  }
  return NULL;
}


const char *script_cause(const value *v, int *len) {
  const char *why = v->why ? v->why : "not known";
  const char *last = NULL;
  for (const char *p = strstr(why, " is not known: "); p; p = strstr(p + 1, " is not known: ")) last = p;
  /* only the names this file gives (`x` (line 3) is not known: ...) */
  if (last && why[0] == '`') why = last + 15;
  const char *tail = strstr(why, "; give it with --assume ");
  *len = tail ? (int)(tail - why) : (int)strlen(why);
  return why;
}


void script_wrapped_env(interp *st, obj *o, args *a) {
  value *env = a->pos.len ? a->pos.items[0] : arg_get(a, -1, "env");
  if (!is_env(env)) return;
  /* a gym.Wrapper subclass of the project: the spaces of what it wraps,
   * unless its __init__ set its own */
  static const char *const keys[] = {"observation_space", "action_space", "single_observation_space", "single_action_space"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    value *v = dict_get_str(env->u.obj->attrs, keys[i], strlen(keys[i]));
    if (v && !dict_get_str(o->attrs, keys[i], strlen(keys[i]))) dict_set_str(st, o->attrs, keys[i], v);
  }
  o->qual = "gym.Env";
}


value *script_unnamed(interp *st, value *v) {
  const char *tail = v->kind == V_UNKNOWN && v->why ? strstr(v->why, "; give it with --assume ") : NULL;
  if (!tail) return v;
  return v_unknown(st, "%.*s", (int)(tail - v->why), v->why);
}


value *script_assumed(interp *st, const char *name, uint32_t n) {
  for (int i = 0; st->in && i < st->in->nassume; i++) {
    const char *s = st->in->assume[i];
    const char *eq = strchr(s, '=');
    if (!eq || (size_t)(eq - s) != n || memcmp(s, name, n) != 0) continue;
    char *end;
    errno = 0;
    long long v = strtoll(eq + 1, &end, 10);
    if (!errno && !*end && end != eq + 1) return v_int(st, v);
  }
  return NULL;
}


bool estimate_assume_valid(const char *s) {
  const char *eq = strchr(s, '=');
  if (!eq || eq == s) return false;
  for (const char *p = s; p < eq; p++)
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.') return false;
  char *end;
  errno = 0;
  long long v = strtoll(eq + 1, &end, 10);
  return !errno && !*end && end != eq + 1 && v >= 0;
}
