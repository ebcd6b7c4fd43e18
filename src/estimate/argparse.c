/* This file contains argparse as the script runs it: its parsers, groups and sub-parsers, their
 * actions, defaults, types and choices, on the script's own command line (after `--`); and
 * tyro.cli's dataclasses. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/interp.h"


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
value *script_argv(interp *st, bool with_name) {
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


value *argparse_method(interp *st, value *self, const char *name, args *a) {
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
  return NULL;
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


value *argparse_call(interp *st, const char *qual, args *a) {
  if (!strcmp(qual, "argparse.ArgumentParser")) return new_parser(st, "argparse.ArgumentParser", NULL);
  if (!strcmp(qual, "tyro.cli")) return tyro_cli(st, a->pos.len ? a->pos.items[0] : NULL, a);
  return NULL;
}
