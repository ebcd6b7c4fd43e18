/* This file contains the configuration formats the estimate reads as the script would: JSON
 * (jansson), YAML (libyaml, its plain scalars as PyYAML reads them) and ast.literal_eval. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "estimate/interp.h"


/* ---- JSON (jansson) ---- */

static value *from_json(interp *st, json_t *j, int depth) {
  if (!st_step(st)) return v_unknown(st, "JSON too large to follow");
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


value *format_json(interp *st, value *text) {
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
  /* aliases are shared nodes: a document of nested aliases would be walked
   * exponentially often; each node walked is a step of the run's budget */
  if (!st_step(st)) return v_unknown(st, "YAML too large to follow");
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


value *format_yaml(interp *st, value *text) {
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

value *format_literal(interp *st, value *s) {
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
