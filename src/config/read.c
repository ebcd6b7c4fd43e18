/* This file contains the reading of one configuration file: the TOML syntax
 * tree (tree-sitter-toml) walked for oomlint's keys, each value checked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tree_sitter/api.h>

#include "config/config.h"
#include "estimate/estimate.h"
#include "parse/walk.h"
#include "util/buf.h"

const TSLanguage *tree_sitter_toml(void);

typedef struct {
  const char *path, *text;
  config *out;
  buf err;
  config_strings seen; /* keys already set, to refuse duplicates */
} reader;


static bool fail_at(reader *r, TSNode n, const char *fmt, const char *arg) {
  if (r->err.len) return false;
  TSPoint p = ts_node_start_point(n);
  buf_printf(&r->err, "%s:%u:%u: ", r->path, p.row + 1, p.column + 1);
  buf_printf(&r->err, fmt, arg);
  return false;
}


static char *node_text(reader *r, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return oom_xstrndup(r->text + s, e - s);
}


/* A TOML string's value: quotes removed, the common escapes decoded. */
static char *string_value(reader *r, TSNode n) {
  char *raw = node_text(r, n);
  size_t len = strlen(raw), q = 1;
  if (len >= 6 && (!strncmp(raw, "\"\"\"", 3) || !strncmp(raw, "'''", 3))) q = 3;
  bool literal = raw[0] == '\'';
  buf b = {0};
  for (size_t i = q; i + q < len; i++) {
    char c = raw[i];
    if (c == '\\' && !literal && i + 1 + q < len) {
      char e = raw[++i];
      buf_putc(&b, e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
    } else {
      buf_putc(&b, c);
    }
  }
  free(raw);
  char *s = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return s;
}


/* A key's name: bare as written, quoted ones unquoted, dotted ones joined
 * (walked with a cursor: a dotted key nests one level per part). */
static char *key_name(reader *r, TSNode n) {
  const char *type = ts_node_type(n);
  if (!strcmp(type, "quoted_key")) return string_value(r, n);
  if (strcmp(type, "dotted_key") != 0) return node_text(r, n);
  buf b = {0};
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (;;) {
    TSNode cur = ts_tree_cursor_current_node(&c);
    const char *t = ts_node_type(cur);
    bool leaf = !strcmp(t, "bare_key") || !strcmp(t, "quoted_key");
    if (leaf) {
      char *part = !strcmp(t, "quoted_key") ? string_value(r, cur) : node_text(r, cur);
      if (b.len) buf_putc(&b, '.');
      buf_puts(&b, part);
      free(part);
    }
    if (!leaf && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, n)) break;
  }
  ts_tree_cursor_delete(&c);
  char *s = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return s;
}


static bool is_key(TSNode n) {
  const char *t = ts_node_type(n);
  return !strcmp(t, "bare_key") || !strcmp(t, "quoted_key") || !strcmp(t, "dotted_key");
}


/* A string value; false (and an error) for another type. */
static bool want_string(reader *r, const char *key, TSNode v, char **out) {
  if (strcmp(ts_node_type(v), "string") != 0) return fail_at(r, v, "`%s` must be a string", key);
  *out = string_value(r, v);
  return true;
}


static bool want_strings(reader *r, const char *key, TSNode v, config_strings *out, bool codes, bool globs) {
  if (strcmp(ts_node_type(v), "array") != 0) return fail_at(r, v, "`%s` must be an array of strings", key);
  uint32_t k = ts_node_named_child_count(v);
  for (uint32_t i = 0; i < k; i++) {
    TSNode item = ts_node_named_child(v, i);
    if (!strcmp(ts_node_type(item), "comment")) continue;
    char *s;
    if (!want_string(r, key, item, &s)) return fail_at(r, item, "`%s` must be an array of strings", key);
    if (codes && !oom_selector_is_valid(s)) {
      free(s);
      return fail_at(r, item, "`%s`: invalid rule selector (expected ALL, or OOM followed by up to three digits)", key);
    }
    if (globs && !config_glob_is_valid(s)) {
      free(s);
      return fail_at(r, item, "`%s`: invalid glob", key);
    }
    vec_push(out, s);
  }
  return true;
}


static bool per_file_pair(reader *r, TSNode pair) {
  TSNode k = ts_node_named_child(pair, 0), v = ts_node_named_child(pair, 1);
  char *glob = key_name(r, k);
  if (!config_glob_is_valid(glob)) {
    free(glob);
    return fail_at(r, k, "`per-file-ignores`: invalid glob", NULL);
  }
  for (size_t i = 0; i < r->out->per_file_ignores.len; i++)
    if (!strcmp(r->out->per_file_ignores.items[i].glob, glob)) {
      fail_at(r, k, "duplicate key `per-file-ignores.%s`", glob);
      free(glob);
      return false;
    }
  config_file_ignore fi = {glob, {0}};
  vec_push(&r->out->per_file_ignores, fi);
  return want_strings(r, "per-file-ignores", v, &r->out->per_file_ignores.items[r->out->per_file_ignores.len - 1].codes,
                      true, false);
}


static bool per_file_table(reader *r, TSNode v) {
  if (strcmp(ts_node_type(v), "inline_table") != 0)
    return fail_at(r, v, "`per-file-ignores` must be a table of glob = [codes]", NULL);
  uint32_t k = ts_node_named_child_count(v);
  for (uint32_t i = 0; i < k; i++) {
    TSNode p = ts_node_named_child(v, i);
    if (!strcmp(ts_node_type(p), "pair") && !per_file_pair(r, p)) return false;
  }
  return true;
}


static bool claim(reader *r, TSNode at, const char *key) {
  for (size_t i = 0; i < r->seen.len; i++)
    if (!strcmp(r->seen.items[i], key)) return fail_at(r, at, "duplicate key `%s`", key);
  vec_push(&r->seen, oom_xstrdup(key));
  return true;
}


static char *resolve(const char *dir, const char *rel) {
  if (rel[0] == '/') return oom_xstrdup(rel);
  buf b = {0};
  buf_printf(&b, "%s/%s", dir, rel);
  char *s = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return s;
}


static bool setting(reader *r, TSNode pair) {
  TSNode k = ts_node_named_child(pair, 0), v = ts_node_named_child(pair, 1);
  char *key = key_name(r, k);
  bool ok = claim(r, k, key);
  config *o = r->out;
  if (!ok) {
  } else if (!strcmp(key, "select")) {
    o->has_select = true;
    ok = want_strings(r, key, v, &o->select, true, false);
  } else if (!strcmp(key, "ignore")) {
    ok = want_strings(r, key, v, &o->ignore, true, false);
  } else if (!strcmp(key, "extend-select")) {
    ok = want_strings(r, key, v, &o->extend_select, true, false);
  } else if (!strcmp(key, "exclude")) {
    ok = want_strings(r, key, v, &o->exclude, false, true);
  } else if (!strcmp(key, "extend-exclude")) {
    ok = want_strings(r, key, v, &o->extend_exclude, false, true);
  } else if (!strcmp(key, "include")) {
    o->has_include = true;
    ok = want_strings(r, key, v, &o->include, false, true);
  } else if (!strcmp(key, "extend-include")) {
    ok = want_strings(r, key, v, &o->extend_include, false, true);
  } else if (!strcmp(key, "per-file-ignores")) {
    ok = per_file_table(r, v);
  } else if (!strcmp(key, "gpu-memory")) {
    char *s = NULL;
    ok = want_string(r, key, v, &s);
    if (ok && !(ok = oom_parse_bytes(s, &o->gpu_memory)))
      fail_at(r, v, "`gpu-memory` must be a size such as \"24GiB\" or \"80GB\"", NULL);
    o->has_gpu_memory = ok;
    free(s);
  } else if (!strcmp(key, "max-batch-size")) {
    char *s = node_text(r, v), *end = NULL;
    errno = 0;
    unsigned long long n = strcmp(ts_node_type(v), "integer") ? 0 : strtoull(s, &end, 10);
    ok = n > 0 && end && !*end && !errno;
    if (!ok) fail_at(r, v, "`max-batch-size` must be a positive integer", NULL);
    o->max_batch_size = n;
    o->has_max_batch_size = ok;
    free(s);
  } else if (!strcmp(key, "rules-dir")) {
    char *s = NULL;
    if ((ok = want_string(r, key, v, &s))) o->rules_dir = resolve(o->dir, s);
    free(s);
  } else if (!strcmp(key, "assume")) {
    if ((ok = want_strings(r, key, v, &o->assume, false, false)))
      for (size_t i = 0; i < o->assume.len && ok; i++)
        if (!estimate_assume_valid(o->assume.items[i]))
          ok = fail_at(r, v, "`assume` entries must be \"NAME=INTEGER\", such as \"vocab_size=33278\"", NULL);
  } else if (!strcmp(key, "torch-version")) {
    char *s = NULL;
    ok = want_string(r, key, v, &s);
    if (ok && (!(s[0] >= '0' && s[0] <= '9') || strspn(s, "0123456789.") != strlen(s)))
      ok = fail_at(r, v, "`torch-version` must be a version such as \"2.3\"", NULL);
    if (ok) o->torch_version = s;
    else free(s);
  } else {
    ok = fail_at(r, k, "unknown key `%s` (known: select, ignore, extend-select, per-file-ignores, exclude, "
                 "extend-exclude, include, extend-include, gpu-memory, max-batch-size, rules-dir, torch-version, "
                 "assume)", key);
  }
  free(key);
  return ok;
}


/* The first ERROR or MISSING node, depth first (iteratively). */
static bool first_error(TSNode root, TSNode *out) {
  if (!ts_node_has_error(root)) return false;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (!strcmp(ts_node_type(n), "ERROR") || ts_node_is_missing(n)) {
      *out = n;
      found = true;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, root)) break;
  }
  ts_tree_cursor_delete(&c);
  if (!found) *out = root;
  return true;
}


/* Each table header: the settings table, its per-file-ignores, or (inside
 * the prefix) an unknown key. PREFIX is "tool.oomlint" or "". */
static bool walk(reader *r, TSNode root, const char *prefix) {
  size_t plen = strlen(prefix);
  uint32_t k = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < k && !r->err.len; i++) {
    TSNode n = ts_node_named_child(root, i);
    const char *type = ts_node_type(n);
    if (!strcmp(type, "pair")) {
      if (!plen) setting(r, n);
      continue;
    }
    if (strcmp(type, "table") && strcmp(type, "table_array_element")) continue;
    TSNode key = ts_node_named_child(n, 0);
    if (!is_key(key)) continue;
    char *name = key_name(r, key);
    const char *rest = name;
    bool inside = !plen || (!strncmp(name, prefix, plen) && (name[plen] == '.' || !name[plen]));
    if (inside && plen) rest = name[plen] ? name + plen + 1 : "";
    if (!inside) {
    } else if (!*rest && plen) {
      if (!claim(r, key, prefix)) {
        free(name); /* a repeated table: the error is set, stop here */
        break;
      }
      for (uint32_t j = 1; j < ts_node_named_child_count(n); j++) {
        TSNode p = ts_node_named_child(n, j);
        if (!strcmp(ts_node_type(p), "pair") && !setting(r, p)) break;
      }
    } else if (!strcmp(rest, "per-file-ignores")) {
      if (!claim(r, key, "per-file-ignores")) {
        free(name);
        break;
      }
      for (uint32_t j = 1; j < ts_node_named_child_count(n); j++) {
        TSNode p = ts_node_named_child(n, j);
        if (!strcmp(ts_node_type(p), "pair") && !per_file_pair(r, p)) break;
      }
    } else {
      fail_at(r, key, "unknown key `%s`", rest);
    }
    free(name);
  }
  return !r->err.len;
}


/* Whether a pyproject.toml tree has a `[tool.oomlint]` table. */
static bool has_table(reader *r, TSNode root) {
  uint32_t k = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < k; i++) {
    TSNode n = ts_node_named_child(root, i);
    if (strcmp(ts_node_type(n), "table")) continue;
    char *name = key_name(r, ts_node_named_child(n, 0));
    bool yes = !strncmp(name, "tool.oomlint", 12) && (!name[12] || name[12] == '.');
    free(name);
    if (yes) return true;
  }
  return false;
}


static char *read_all(const char *path, char **error) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    buf b = {0};
    buf_printf(&b, "%s: %s", path, strerror(errno));
    *error = oom_xstrdup(buf_str(&b));
    buf_free(&b);
    return NULL;
  }
  buf b = {0};
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, n);
  fclose(f);
  char *s = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return s;
}


static bool is_pyproject(const char *path) {
  const char *base = strrchr(path, '/');
  return !strcmp(base ? base + 1 : path, "pyproject.toml");
}


/* Reads PATH; with SKIP_NO_TABLE a pyproject.toml lacking the table yields
 * *FOUND false instead of an empty config. */
static bool load(const char *path, config *out, char **error, bool skip_no_table, bool *found) {
  memset(out, 0, sizeof *out);
  *error = NULL;
  *found = false;
  char *text = read_all(path, error);
  if (!text) return false;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_toml());
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)strlen(text));
  TSNode root = ts_tree_root_node(tree);
  reader r = {path, text, out, {0}, {0}};
  char *abs = config_absolute(path);
  char *slash = strrchr(abs, '/');
  out->dir = slash == abs ? oom_xstrdup("/") : oom_xstrndup(abs, (size_t)(slash - abs));
  free(abs);
  TSNode bad;
  bool py = is_pyproject(path);
  if (first_error(root, &bad)) {
    fail_at(&r, bad, "TOML syntax error%s", ts_node_is_missing(bad) ? " (something is missing here)" : "");
  } else if (py && !has_table(&r, root)) {
    if (!skip_no_table) *found = true;
  } else {
    *found = true;
    walk(&r, root, py ? "tool.oomlint" : "");
  }
  if (*found || r.err.len) out->path = oom_xstrdup(path);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  free(text);
  for (size_t i = 0; i < r.seen.len; i++) free(r.seen.items[i]);
  vec_free(&r.seen);
  if (r.err.len) {
    *error = oom_xstrdup(buf_str(&r.err));
    buf_free(&r.err);
    return false;
  }
  return true;
}


bool config_load(const char *path, config *out, char **error) {
  bool found;
  return load(path, out, error, false, &found);
}


bool config_load_discovered(const char *path, config *out, char **error) {
  bool found;
  bool ok = load(path, out, error, true, &found);
  if (ok && !found) config_free(out);
  return ok;
}


/* Cuts DIR (absolute) to its parent; false when it is the root already. */
static bool up(char *dir) {
  char *s = strrchr(dir, '/');
  if (!s || (s == dir && !dir[1])) return false;
  if (s == dir) dir[1] = '\0';
  else *s = '\0';
  return true;
}


/* Ruff's order within one folder: the tool's own files before pyproject */
const char *const config_file_names[] = {".oomlint.toml", "oomlint.toml", "pyproject.toml", NULL};


void config_walk(const char *start, const char *stop, config_probe probe, void *arg) {
  char *dir = config_absolute(start);
  char *top = stop ? config_absolute(stop) : NULL;
  struct stat st;
  /* a file's search starts in its folder */
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) up(dir);
  bool done = false;
  while (!done) {
    for (size_t i = 0; config_file_names[i] && !done; i++) {
      buf p = {0};
      buf_printf(&p, "%s/%s", strcmp(dir, "/") ? dir : "", config_file_names[i]);
      if (stat(buf_str(&p), &st) == 0 && S_ISREG(st.st_mode)) done = probe(buf_str(&p), &st, arg);
      buf_free(&p);
    }
    if (top && !strcmp(dir, top)) break;
    if (!up(dir)) break;
  }
  free(top);
  free(dir);
}


typedef struct {
  config *out;
  char **error;
  bool ok;
} discovery;


static bool discover_probe(const char *path, const struct stat *st, void *arg) {
  (void)st;
  discovery *d = arg;
  d->ok = config_load_discovered(path, d->out, d->error);
  return !d->ok || d->out->path;
}


bool config_discover(const char *start, config *out, char **error) {
  memset(out, 0, sizeof *out);
  *error = NULL;
  discovery d = {out, error, true};
  config_walk(start, NULL, discover_probe, &d);
  return d.ok;
}
