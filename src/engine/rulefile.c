/* This file contains the reader of rule files: the `; key: value` metadata
 * header, the Markdown doc, and the message and edit templates. The query
 * itself is compiled later, together with every other rule's. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/alloc.h"


static bool fail(buf *err, const char *origin, size_t line, const char *what, const char *detail) {
  buf_printf(err, "%s:%zu: %s%s%s", origin, line, what, detail ? ": " : "", detail ? detail : "");
  return false;
}


static char *trim_dup(const char *s, size_t n) {
  while (n && isspace((unsigned char)*s)) { s++; n--; }
  while (n && isspace((unsigned char)s[n - 1])) n--;
  return oom_xstrndup(s, n);
}


static bool is_capture_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}


/* "`{target}` and {value}" -> literal and capture parts */
static bool tmpl_parse(const char *s, tmpl *out, const char **bad) {
  VEC(tmpl_part) parts = {0};
  const char *lit = s;
  while (*s) {
    if (*s == '{') {
      const char *e = s + 1;
      while (is_capture_char(*e)) e++;
      if (*e == '}' && e > s + 1) {
        if (s > lit) {
          tmpl_part p = {-1, NULL, lit, (size_t)(s - lit)};
          vec_push(&parts, p);
        }
        tmpl_part p = {0, oom_xstrndup(s + 1, (size_t)(e - s - 1)), NULL, 0};
        vec_push(&parts, p);
        s = lit = e + 1;
        continue;
      }
      *bad = s;
      vec_free(&parts);
      return false;
    }
    s++;
  }
  if (s > lit) {
    tmpl_part p = {-1, NULL, lit, (size_t)(s - lit)};
    vec_push(&parts, p);
  }
  out->parts = parts.items;
  out->count = parts.len;
  return true;
}


void tmpl_free(tmpl *t) {
  for (size_t i = 0; i < t->count; i++) free(t->parts[i].name);
  free(t->parts);
  t->parts = NULL;
  t->count = 0;
}


static const struct {
  const char *name;
  edit_op op;
  bool takes_text;
} EDIT_OPS[] = {
  {"replace", EDIT_REPLACE, true},
  {"insert-before", EDIT_INSERT_BEFORE, true},
  {"insert-after", EDIT_INSERT_AFTER, true},
  {"append-arg", EDIT_APPEND_ARG, true},
  {"prepend-arg", EDIT_PREPEND_ARG, true},
  {"remove-arg", EDIT_REMOVE_ARG, false},
  {"remove-statement", EDIT_REMOVE_STATEMENT, false},
  {"append-clean", EDIT_APPEND_CLEAN, false},
  {"add-decorator", EDIT_ADD_DECORATOR, true},
  {"divide-by-steps", EDIT_DIVIDE_BY_STEPS, false},
  {"amp-device-uses", EDIT_AMP_DEVICE_USES, true},
};


/* "append-arg @args map_location=\"cpu\"" */
static bool parse_edit(oom_rule *r, const char *value, const char *origin, size_t line, buf *err) {
  const char *sp = strchr(value, ' ');
  size_t oplen = sp ? (size_t)(sp - value) : strlen(value);
  size_t k;
  for (k = 0; k < sizeof EDIT_OPS / sizeof *EDIT_OPS; k++)
    if (strlen(EDIT_OPS[k].name) == oplen && !memcmp(EDIT_OPS[k].name, value, oplen)) break;
  if (k == sizeof EDIT_OPS / sizeof *EDIT_OPS)
    return fail(err, origin, line, "unknown edit (expected replace, insert-before, insert-after, append-arg, "
                                   "prepend-arg, remove-arg, remove-statement, append-clean, add-decorator, "
                                   "divide-by-steps or amp-device-uses)", value);
  const char *p = sp ? sp + 1 : value + oplen;
  while (*p == ' ') p++;
  if (*p != '@') return fail(err, origin, line, "an edit names its target capture with @", value);
  const char *e = ++p;
  while (is_capture_char(*e)) e++;
  if (e == p) return fail(err, origin, line, "empty capture name in edit", value);
  edit_spec spec = {EDIT_OPS[k].op, oom_xstrndup(p, (size_t)(e - p)), -1, {0}};
  while (*e == ' ') e++;
  if (EDIT_OPS[k].takes_text) {
    const char *bad = NULL;
    char *text = trim_dup(e, strlen(e));
    if (!*text) {
      free(text);
      free(spec.capture_name);
      return fail(err, origin, line, "this edit needs replacement text", value);
    }
    bool ok = tmpl_parse(text, &spec.text, &bad);
    /* the template points into TEXT: keep it alive with the rule */
    if (!ok) {
      free(text);
      free(spec.capture_name);
      return fail(err, origin, line, "unbalanced `{` in edit text", value);
    }
    /* parts reference `text`; copy literals so `text` can be freed */
    for (size_t i = 0; i < spec.text.count; i++) {
      tmpl_part *tp = &spec.text.parts[i];
      if (tp->capture < 0) tp->name = oom_xstrndup(tp->text, tp->len), tp->text = tp->name;
    }
    free(text);
  } else if (*e) {
    free(spec.capture_name);
    return fail(err, origin, line, "this edit takes no text", value);
  }
  vec_push(&r->edits, spec);
  return true;
}


static bool valid_code(const char *s) {
  return strlen(s) == 6 && !strncmp(s, "OOM", 3) && isdigit((unsigned char)s[3]) &&
         isdigit((unsigned char)s[4]) && isdigit((unsigned char)s[5]);
}


static bool valid_name(const char *s) {
  if (!*s || *s == '-') return false;
  for (; *s; s++)
    if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-')) return false;
  return true;
}


/* The doc lines lose the indentation they all share. */
static char *dedent(const buf *doc) {
  const char *s = buf_str(doc);
  size_t min = SIZE_MAX;
  for (const char *line = s; *line;) {
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    size_t ind = 0;
    while (ind < n && line[ind] == ' ') ind++;
    if (ind < n && ind < min) min = ind;
    line += n + (nl ? 1 : 0);
  }
  if (min == SIZE_MAX) min = 0;
  buf out = {0};
  for (const char *line = s; *line;) {
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    if (n > min) buf_append(&out, line + min, n - min);
    buf_putc(&out, '\n');
    line += n + (nl ? 1 : 0);
  }
  /* no trailing blank lines */
  while (out.len >= 2 && out.data[out.len - 1] == '\n' && out.data[out.len - 2] == '\n') out.data[--out.len] = '\0';
  char *r = oom_xstrdup(buf_str(&out));
  buf_free(&out);
  return r;
}


bool rulefile_parse(const char *origin, const char *text, size_t len, oom_rule *r, buf *err) {
  memset(r, 0, sizeof *r);
  r->fix = -1;
  r->origin = oom_xstrdup(origin);
  r->text = oom_xstrndup(text, len);
  r->text_len = len;
  if (memchr(text, '\0', len)) return fail(err, origin, 1, "rule file contains a NUL byte", NULL);
  buf doc = {0};
  bool in_doc = false, ok = true, seen_severity = false;
  size_t lineno = 0;
  const char *p = r->text, *end = r->text + len;
  while (p < end && ok) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    lineno++;
    if (n == 0 || p[0] != ';') break;
    char *line = oom_xstrndup(p + 1, n - 1);
    if (n >= 2 && line[n - 2] == '\r') line[n - 2] = '\0';
    p += n + (nl ? 1 : 0);
    if (in_doc) {
      buf_puts(&doc, line);
      buf_putc(&doc, '\n');
      free(line);
      continue;
    }
    char *l = line;
    while (*l == ' ' || *l == '\t') l++;
    if (!*l) { free(line); continue; }
    char *colon = strchr(l, ':');
    if (!colon) {
      ok = fail(err, origin, lineno, "expected `; key: value` in the rule header", l);
      free(line);
      break;
    }
    char *key = trim_dup(l, (size_t)(colon - l));
    char *value = trim_dup(colon + 1, strlen(colon + 1));
    bool repeated = (!strcmp(key, "code") && r->code) || (!strcmp(key, "name") && r->name) ||
                    (!strcmp(key, "message") && r->message_src) || (!strcmp(key, "fix") && r->fix_title) ||
                    (!strcmp(key, "severity") && seen_severity) || (!strcmp(key, "report") && r->once_per_function);
    if (!strcmp(key, "severity")) seen_severity = true;
    if (repeated) {
      ok = fail(err, origin, lineno, "repeated header key", key);
    } else if (!strcmp(key, "code")) {
      if (!valid_code(value)) ok = fail(err, origin, lineno, "code must be OOM and three digits", value);
      else r->code = oom_xstrdup(value);
    } else if (!strcmp(key, "name")) {
      if (!valid_name(value)) ok = fail(err, origin, lineno, "name must be kebab-case", value);
      else r->name = oom_xstrdup(value);
    } else if (!strcmp(key, "severity")) {
      if (!strcmp(value, "error")) r->severity = OOM_SEVERITY_ERROR;
      else if (!strcmp(value, "warning")) r->severity = OOM_SEVERITY_WARNING;
      else if (!strcmp(value, "info")) r->severity = OOM_SEVERITY_INFO;
      else ok = fail(err, origin, lineno, "severity must be error, warning or info", value);
    } else if (!strcmp(key, "message")) {
      const char *bad = NULL;
      r->message_src = oom_xstrdup(value);
      if (!tmpl_parse(r->message_src, &r->message, &bad))
        ok = fail(err, origin, lineno, "unbalanced `{` in message", bad);
    } else if (!strcmp(key, "fix")) {
      char *c2 = strchr(value, ':');
      char *kind = c2 ? trim_dup(value, (size_t)(c2 - value)) : oom_xstrdup(value);
      if (!strcmp(kind, "safe")) r->fix = OOM_FIX_SAFE;
      else if (!strcmp(kind, "unsafe")) r->fix = OOM_FIX_UNSAFE;
      else if (!strcmp(kind, "display")) r->fix = OOM_FIX_DISPLAY;
      else ok = fail(err, origin, lineno, "fix must be `safe: TITLE`, `unsafe: TITLE` or `display: TITLE`", value);
      if (ok) {
        r->fix_title = c2 ? trim_dup(c2 + 1, strlen(c2 + 1)) : oom_xstrdup("");
        if (!*r->fix_title) ok = fail(err, origin, lineno, "a fix needs a title after its applicability", value);
      }
      free(kind);
    } else if (!strcmp(key, "edit")) {
      ok = parse_edit(r, value, origin, lineno, err);
    } else if (!strcmp(key, "report")) {
      if (!strcmp(value, "once per function")) r->once_per_function = true;
      else ok = fail(err, origin, lineno, "report must be `once per function`", value);
    } else if (!strcmp(key, "doc")) {
      in_doc = true;
      if (*value) {
        buf_puts(&doc, value);
        buf_putc(&doc, '\n');
      }
    } else {
      ok = fail(err, origin, lineno, "unknown header key (expected code, name, severity, message, fix, edit, report, doc)", key);
    }
    free(key);
    free(value);
    free(line);
  }
  if (ok) {
    if (!r->code) ok = fail(err, origin, 1, "missing `; code:`", NULL);
    else if (!r->name) ok = fail(err, origin, 1, "missing `; name:`", NULL);
    else if (!r->message_src) ok = fail(err, origin, 1, "missing `; message:`", NULL);
    else if (!in_doc || doc.len == 0) ok = fail(err, origin, 1, "missing `; doc:` (the text `oomlint rule` prints)", NULL);
    else if (r->edits.len && r->fix < 0) ok = fail(err, origin, 1, "`; edit:` lines need a `; fix:` line", NULL);
    else if (r->edits.len && r->fix == OOM_FIX_DISPLAY)
      ok = fail(err, origin, 1, "a `display` fix makes no edits; use safe or unsafe", NULL);
  }
  if (ok) {
    /* a file named OOMnnn-name.scm must say that code and name */
    const char *base = strrchr(origin, '/');
    base = base ? base + 1 : origin;
    buf want = {0};
    buf_printf(&want, "%s-%s.scm", r->code, r->name);
    if (strcmp(base, buf_str(&want)) != 0)
      ok = fail(err, origin, 1, "the file name must be CODE-name.scm, here", buf_str(&want));
    buf_free(&want);
  }
  if (ok) {
    r->doc = dedent(&doc);
    /* an empty query makes a rule the engine implements itself */
    const char *q = p;
    bool empty = true;
    for (const char *s = q; s < end && empty; s++) {
      if (*s == ';') {
        while (s < end && *s != '\n') s++;
        continue;
      }
      if (!isspace((unsigned char)*s)) empty = false;
    }
    r->builtin = empty;
  }
  buf_free(&doc);
  return ok;
}


void rulefile_free(oom_rule *r) {
  free(r->code);
  free(r->name);
  free(r->origin);
  free(r->message_src);
  free(r->doc);
  free(r->fix_title);
  free(r->text);
  tmpl_free(&r->message);
  for (size_t i = 0; i < r->edits.len; i++) {
    free(r->edits.items[i].capture_name);
    tmpl_free(&r->edits.items[i].text);
  }
  vec_free(&r->edits);
}
