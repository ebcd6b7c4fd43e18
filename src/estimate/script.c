/* This file contains the script as it runs: the modules of its project it imports (read
 * through the project index, each run once), the model zoo (rules/zoo.py), the files it reads
 * (exec(open(...).read()), configs), os.path and os.environ, mp.spawn, and the sizes the user
 * assumes (--assume NAME=VALUE) for what only the data knows. argparse.c, envs.c and formats.c
 * hold the rest of what script_call answers. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
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


/* ---- files ---- */

/* The text of the file at PATH as the script opens it, or NULL. */
value *script_read(interp *st, value *pathv, TSNode where) {
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


bool script_is_file(const value *v) {
  return v && v->kind == V_OBJECT && v->u.obj->qual && !strcmp(v->u.obj->qual, "builtins.open");
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


value *script_method(interp *st, value *self, const char *name, args *a) {
  value *p = argparse_method(st, self, name, a);
  if (p || (self->kind == V_OBJECT && (p = envs_method(st, self, name, a)))) return p;
  if (script_is_file(self)) {
    value *path = dict_get_str(self->u.obj->attrs, "\x01path", 5);
    if (!strcmp(name, "read")) return script_read(st, path, a->node);
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
  value *v;
  if ((v = argparse_call(st, qual, a)) || (v = envs_call(st, qual, a))) return v;
  if (!strcmp(qual, "ast.literal_eval")) {
    v = format_literal(st, x);
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
    value *text = script_is_file(x) ? script_read(st, dict_get_str(x->u.obj->attrs, "\x01path", 5), a->node) : NULL;
    return text ? format_json(st, text) : v_unknown(st, "JSON from a stream that is not known");
  }
  if (!strcmp(qual, "json.loads")) return format_json(st, x);
  if (!strcmp(qual, "omegaconf.OmegaConf.load") && x) {
    value *text = x->kind == V_STR ? script_read(st, x, a->node) : x;
    return text->kind == V_STR ? format_yaml(st, text) : text;
  }
  if (!strcmp(qual, "omegaconf.OmegaConf.create") && x && x->kind == V_DICT) return x;
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
  if ((!strcmp(qual, "yaml.safe_load") || !strcmp(qual, "yaml.load") || !strcmp(qual, "yaml.full_load")) && x) {
    value *text = script_is_file(x) ? script_read(st, dict_get_str(x->u.obj->attrs, "\x01path", 5), a->node) : x;
    return format_yaml(st, text);
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


value *script_unnamed(interp *st, value *v) {
  const char *tail = v->kind == V_UNKNOWN && v->why ? strstr(v->why, "; give it with --assume ") : NULL;
  if (!tail) return v;
  value *u = v_unknown(st, "%.*s", (int)(tail - v->why), v->why);
  u->at_most = v->at_most;
  return u;
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
