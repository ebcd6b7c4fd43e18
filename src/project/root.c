/* This file contains where a file's project is and how its imports find
 * modules: the project root, the folders absolute imports search (the
 * file's own folder, as `python train.py` puts it first on sys.path; the
 * root and a `src/` layout; folders the file adds to sys.path), and the
 * resolution of a dotted name to a module file and an attribute chain. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/children.h"
#include "parse/fields.h"
#include "project/project.h"
#include "util/alloc.h"

#include "parse/node.h"
/* nesting followed in a sys.path expression: os.path.join(os.path.dirname(...)) */
#define MAX_PATH_EXPR_DEPTH 12
/* module-level names bound to a folder, and aliases of `sys`, remembered
 * while scanning for sys.path lines */
#define MAX_PATH_NAMES 8


typedef struct {
  TSNode name; /* the identifier bound */
  char *path;  /* its folder or file, malloc'd; NULL for an alias of `sys` */
} path_name;

typedef struct {
  path_name items[MAX_PATH_NAMES];
  size_t n;
} path_names;

static bool same_text(TSNode a, TSNode b, const char *source, size_t length);


/* Fold "." and "..", merge "//": string work, no system call. IN is
 * absolute. */
static char *fold(const char *in) {
  size_t cap = strlen(in) + 2;
  char *out = oom_xmalloc(cap);
  size_t n = 0;
  const char *p = in;
  while (*p) {
    while (*p == '/') p++;
    const char *s = p;
    while (*p && *p != '/') p++;
    size_t len = (size_t)(p - s);
    if (len == 0 || (len == 1 && s[0] == '.')) continue;
    if (len == 2 && s[0] == '.' && s[1] == '.') {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) n--;
      continue;
    }
    out[n++] = '/';
    memcpy(out + n, s, len);
    n += len;
  }
  if (!n) out[n++] = '/';
  out[n] = '\0';
  return out;
}


/* PATH folded against CWD (NULL: none known, "/" taken). */
static char *absolute_against(const char *cwd, const char *path) {
  if (path[0] == '/') return fold(path);
  buf b = {0};
  if (cwd) buf_puts(&b, cwd);
  buf_putc(&b, '/');
  buf_puts(&b, path);
  char *out = fold(buf_str(&b));
  buf_free(&b);
  return out;
}


char *project_absolute_in(const oom_project *self, const char *path) {
  assert(self);
  return absolute_against(self->cwd, path);
}


/* The folder of absolute PATH (malloc'd): "/a/b.py" -> "/a", "/a" -> "/". */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return oom_xstrdup("/");
  return oom_xstrndup(path, (size_t)(slash - path));
}


static char *join(const char *dir, const char *name) {
  buf b = {0};
  /* asked for every marker of every folder up to the root: no printf */
  if (strcmp(dir, "/") != 0) buf_puts(&b, dir);
  buf_putc(&b, '/');
  buf_puts(&b, name);
  char *out = fold(buf_str(&b));
  buf_free(&b);
  return out;
}


char *project_root_of(oom_project *self, const char *path) {
  static const char *const markers[] = {"pyproject.toml", "setup.py", "setup.cfg", "oomlint.toml", ".oomlint.toml",
                                        ".git", NULL};
  char *dir = dir_of(path);
  char *at = oom_xstrdup(dir);
  for (int guard = 0; guard < 256; guard++) {
    for (size_t i = 0; markers[i]; i++) {
      char *m = join(at, markers[i]);
      bool there = project_exists(self, m);
      free(m);
      if (there) {
        free(dir);
        return at;
      }
    }
    if (!strcmp(at, "/")) break;
    char *up = dir_of(at);
    free(at);
    at = up;
  }
  free(at);
  return dir;
}


/* Whether absolute folder DIR is ROOT or below it. */
static bool within(const char *dir, const char *root) {
  size_t n = strlen(root);
  if (!strcmp(root, "/")) return true;
  return !strncmp(dir, root, n) && (dir[n] == '\0' || dir[n] == '/');
}


static void add_base(project_view *v, char *dir, bool first) {
  for (int i = 0; i < v->nbases; i++)
    if (!strcmp(v->bases[i], dir)) {
      free(dir);
      return;
    }
  if (v->nbases == PROJECT_MAX_BASES) {
    free(dir);
    return;
  }
  if (first) {
    memmove(v->bases + 1, v->bases, (size_t)v->nbases * sizeof *v->bases);
    v->bases[0] = dir;
  } else {
    v->bases[v->nbases] = dir;
  }
  v->nbases++;
}


/* The text of string literal NODE without quotes or prefix, when it has no
 * escapes or interpolation; NULL otherwise. */
static char *literal(TSNode node, const char *source, size_t length) {
  if (!NODE_IS(node, "string")) return NULL;
  buf b = {0};
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(node, i);
    if (NODE_IS(c, "string_start") || NODE_IS(c, "string_end")) continue;
    if (!NODE_IS(c, "string_content")) {
      buf_free(&b);
      return NULL;
    }
    uint32_t s = ts_node_start_byte(c), e = ts_node_end_byte(c);
    if (e > length || s > e) break;
    buf_append(&b, source + s, e - s);
  }
  char *out = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return out;
}


static bool text_is(TSNode n, const char *source, size_t length, const char *s) {
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return e <= length && a <= e && strlen(s) == e - a && !memcmp(source + a, s, e - a);
}


/* The last name of callee FN: `os.path.join` -> "join". */
static bool callee_is(TSNode fn, const char *source, size_t length, const char *name) {
  if (NODE_IS(fn, "attribute")) fn = FIELD(fn, attribute);
  return !ts_node_is_null(fn) && text_is(fn, source, length, name);
}


/* The folder or file expression E names, for the forms scripts use to put a
 * folder next to them on sys.path: `__file__`, string literals (taken
 * relative to the file's folder), os.path.join / dirname / abspath /
 * realpath, pathlib's `Path(__file__).resolve().parent / "x"`, `str(...)`.
 * Malloc'd absolute path, or NULL. */
static char *path_value(const project_view *v, const path_names *names, TSNode e, const char *source, size_t length,
                        int depth) {
  if (ts_node_is_null(e) || depth > MAX_PATH_EXPR_DEPTH) return NULL;
  if (NODE_IS(e, "identifier")) {
    if (text_is(e, source, length, "__file__")) return oom_xstrdup(v->path);
    /* `ROOT = os.path.dirname(os.path.dirname(__file__))` above */
    for (size_t i = names->n; i-- > 0;)
      if (names->items[i].path && same_text(names->items[i].name, e, source, length))
        return oom_xstrdup(names->items[i].path);
    return NULL;
  }
  if (NODE_IS(e, "string")) {
    char *s = literal(e, source, length);
    if (!s) return NULL;
    char *out = s[0] == '/' ? fold(s) : join(v->dir, s);
    free(s);
    return out;
  }
  if (NODE_IS(e, "parenthesized_expression") && ts_node_named_child_count(e) == 1)
    return path_value(v, names, ts_node_named_child(e, 0), source, length, depth + 1);
  if (NODE_IS(e, "attribute")) {
    /* pathlib: `.parent` */
    TSNode attr = FIELD(e, attribute);
    if (ts_node_is_null(attr) || !text_is(attr, source, length, "parent")) return NULL;
    char *of = path_value(v, names, FIELD(e, object), source, length, depth + 1);
    if (!of) return NULL;
    char *out = dir_of(of);
    free(of);
    return out;
  }
  if (NODE_IS(e, "binary_operator")) {
    /* pathlib: `base / "lib"` */
    TSNode op = FIELD(e, operator);
    if (ts_node_is_null(op) || !NODE_IS(op, "/")) return NULL;
    char *left = path_value(v, names, FIELD(e, left), source, length, depth + 1);
    char *right = left ? literal(FIELD(e, right), source, length) : NULL;
    char *out = right ? join(left, right) : NULL;
    free(left);
    free(right);
    return out;
  }
  if (!NODE_IS(e, "call")) return NULL;
  TSNode fn = FIELD(e, function), args = FIELD(e, arguments);
  if (ts_node_is_null(fn) || ts_node_is_null(args)) return NULL;
  uint32_t nargs = ts_node_named_child_count(args);
  if (callee_is(fn, source, length, "join")) {
    char *acc = NULL;
    for (uint32_t i = 0; i < nargs; i++) {
      TSNode a = ts_node_named_child(args, i);
      char *part = i == 0 ? path_value(v, names, a, source, length, depth + 1) : literal(a, source, length);
      if (!part) {
        free(acc);
        return NULL;
      }
      char *next = i == 0 ? part : (part[0] == '/' ? fold(part) : join(acc, part));
      if (i) free(part);
      free(acc);
      acc = next;
    }
    return acc;
  }
  if (nargs == 0 && NODE_IS(fn, "attribute")) {
    /* `Path(__file__).resolve()`, `.absolute()` */
    if (callee_is(fn, source, length, "resolve") || callee_is(fn, source, length, "absolute"))
      return path_value(v, names, FIELD(fn, object), source, length, depth + 1);
    return NULL;
  }
  if (nargs != 1) return NULL;
  TSNode a0 = ts_node_named_child(args, 0);
  if (callee_is(fn, source, length, "dirname")) {
    char *of = path_value(v, names, a0, source, length, depth + 1);
    if (!of) return NULL;
    char *out = dir_of(of);
    free(of);
    return out;
  }
  if (callee_is(fn, source, length, "abspath") || callee_is(fn, source, length, "realpath") ||
      callee_is(fn, source, length, "normpath") || callee_is(fn, source, length, "Path") ||
      callee_is(fn, source, length, "str"))
    return path_value(v, names, a0, source, length, depth + 1);
  return NULL;
}


static bool same_text(TSNode a, TSNode b, const char *source, size_t length) {
  uint32_t as = ts_node_start_byte(a), ae = ts_node_end_byte(a), bs = ts_node_start_byte(b), be = ts_node_end_byte(b);
  return ae <= length && be <= length && ae - as == be - bs && !memcmp(source + as, source + bs, ae - as);
}


/* Records NAME in NAMES (the last binding wins), taking ownership of PATH. */
static void remember(path_names *names, TSNode name, char *path, const char *source, size_t length) {
  for (size_t i = 0; i < names->n; i++)
    if (same_text(names->items[i].name, name, source, length)) {
      free(names->items[i].path);
      names->items[i].path = path;
      return;
    }
  if (names->n == MAX_PATH_NAMES) {
    free(path);
    return;
  }
  names->items[names->n++] = (path_name){name, path};
}


/* `import sys as _sys`: the alias names sys. */
static void remember_sys_alias(path_names *names, TSNode import, const char *source, size_t length) {
  TSNode c;
  for (children k = children_of(import); children_next(&k, &c);) {
    if (!NODE_IS(c, "aliased_import")) continue;
    TSNode mod = FIELD(c, name), alias = FIELD(c, alias);
    if (!ts_node_is_null(mod) && !ts_node_is_null(alias) && text_is(mod, source, length, "sys"))
      remember(names, alias, NULL, source, length);
  }
}


/* `ROOT = os.path.dirname(os.path.abspath(__file__))`: a module-level name
 * bound to a folder, which a sys.path line below may join. */
static void remember_path_name(const project_view *v, path_names *names, TSNode assign, const char *source,
                               size_t length) {
  TSNode left = FIELD(assign, left), right = FIELD(assign, right);
  if (ts_node_is_null(left) || ts_node_is_null(right) || !NODE_IS(left, "identifier")) return;
  char *path = path_value(v, names, right, source, length, 0);
  if (path) remember(names, left, path, source, length);
}


/* Whether OBJ is `sys.path`, or `S.path` for an alias S of sys. */
static bool is_sys_path(const path_names *names, TSNode obj, const char *source, size_t length) {
  if (text_is(obj, source, length, "sys.path")) return true;
  if (!NODE_IS(obj, "attribute")) return false;
  TSNode attr = FIELD(obj, attribute), mod = FIELD(obj, object);
  if (ts_node_is_null(attr) || ts_node_is_null(mod) || !text_is(attr, source, length, "path")) return false;
  for (size_t i = 0; i < names->n; i++)
    if (!names->items[i].path && same_text(names->items[i].name, mod, source, length)) return true;
  return false;
}


void project_view_scan_sys_path(project_view *self, const char *root, TSNode root_node, const char *source,
                                size_t length) {
  if (ts_node_is_null(root_node) || !source) return;
  /* sibling to sibling: a module of many top-level statements (a notebook
   * exported as a script) is not walked once per statement */
  path_names names = {.n = 0};
  TSNode s;
  for (children k = children_of(root_node); children_next(&k, &s);) {
    if (NODE_IS(s, "import_statement")) {
      remember_sys_alias(&names, s, source, length);
      continue;
    }
    if (!NODE_IS(s, "expression_statement") || ts_node_named_child_count(s) != 1) continue;
    TSNode call = ts_node_named_child(s, 0);
    if (NODE_IS(call, "assignment")) {
      remember_path_name(self, &names, call, source, length);
      continue;
    }
    if (!NODE_IS(call, "call")) continue;
    TSNode fn = FIELD(call, function), args = FIELD(call, arguments);
    if (ts_node_is_null(fn) || ts_node_is_null(args) || !NODE_IS(fn, "attribute")) continue;
    TSNode obj = FIELD(fn, object);
    if (ts_node_is_null(obj) || !is_sys_path(&names, obj, source, length)) continue;
    bool insert = callee_is(fn, source, length, "insert"), append = callee_is(fn, source, length, "append");
    uint32_t nargs = ts_node_named_child_count(args);
    if (!(insert && nargs == 2) && !(append && nargs == 1)) continue;
    char *dir = path_value(self, &names, ts_node_named_child(args, nargs - 1), source, length, 0);
    /* only folders of the project: the index reads no module outside it */
    if (dir && within(dir, root)) add_base(self, dir, insert);
    else free(dir);
  }
  for (size_t i = 0; i < names.n; i++) free(names.items[i].path);
}


/* The module file for PARTS[0..K) under BASE: `a/b.py`, else
 * `a/b/__init__.py`; malloc'd, or NULL. */
static char *module_file(oom_project *p, const char *base, const char *qual, const size_t *starts, const size_t *lens,
                         size_t k) {
  buf b = {0};
  buf_puts(&b, strcmp(base, "/") ? base : "");
  for (size_t i = 0; i < k; i++) {
    buf_putc(&b, '/');
    buf_append(&b, qual + starts[i], lens[i]);
  }
  size_t stem = b.len;
  char *found = NULL;
  buf_puts(&b, ".py");
  if (project_is_file(p, buf_str(&b))) found = oom_xstrdup(buf_str(&b));
  if (!found) {
    b.len = stem;
    buf_puts(&b, "/__init__.py");
    if (project_is_file(p, buf_str(&b))) found = oom_xstrdup(buf_str(&b));
  }
  buf_free(&b);
  return found;
}


/* Whether BASE holds FIRST (LEN bytes) as a module or a folder. */
static bool first_part_here(oom_project *p, const char *base, const char *first, size_t len) {
  buf b = {0};
  /* asked for every import and folder of the search: no printf */
  if (strcmp(base, "/") != 0) buf_puts(&b, base);
  buf_putc(&b, '/');
  buf_append(&b, first, len);
  bool there = project_exists(p, buf_str(&b));
  if (!there) {
    buf_puts(&b, ".py");
    there = project_is_file(p, buf_str(&b));
  }
  buf_free(&b);
  return there;
}


#define MAX_PARTS 32


/* `graphsaint.pytorch_version.models` imported by a script of a project
 * whose root is itself the package `graphsaint/` (its setup.py inside it):
 * run as `python -m graphsaint...` from the folder above, the package is
 * found there. Only imports whose first part is the root's own name are
 * looked up there, so nothing else of the folder above it is read. */
static char *package_root_module(const project_view *view, const char *q, const size_t *starts, const size_t *lens,
                                 size_t nparts, const char **rest) {
  if (!view->package_name || strlen(view->package_name) != lens[0] || memcmp(view->package_name, q, lens[0]) != 0)
    return NULL;
  char *init = join(view->package_above, view->package_name), *file = join(init, "__init__.py");
  bool package = project_is_file(view->project, file);
  free(init);
  free(file);
  if (!package) return NULL;
  char *found = NULL;
  for (size_t k = nparts; k > 0 && !found; k--) {
    found = module_file(view->project, view->package_above, q, starts, lens, k);
    if (found) *rest = k < nparts ? q + starts[k] : q + strlen(q);
  }
  return found;
}


char *project_resolve(const project_view *view, const char *importer_dir, const char *qualname, const char **rest) {
  size_t level = 0;
  while (qualname[level] == '.') level++;
  const char *q = qualname + level;
  size_t starts[MAX_PARTS], lens[MAX_PARTS], nparts = 0;
  for (const char *p = q; *p && nparts < MAX_PARTS;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    if (len == 0) return NULL; /* "a..b": not a name */
    starts[nparts] = (size_t)(p - q);
    lens[nparts++] = len;
    p += len;
    if (*p == '.') p++;
  }
  const char *bases[PROJECT_MAX_BASES];
  char *owned = NULL;
  int nbases = 0;
  if (level > 0) {
    /* `from ..x import y` in a/b/c.py: the package two levels up, a */
    owned = oom_xstrdup(importer_dir);
    for (size_t i = 1; i < level; i++) {
      char *up = dir_of(owned);
      free(owned);
      owned = up;
    }
    bases[nbases++] = owned;
  } else {
    for (int i = 0; i < view->nbases; i++) bases[nbases++] = view->bases[i];
  }
  char *found = NULL;
  size_t depth = 0; /* the parts FOUND covers */
  for (int b = 0; b < nbases && (!found || depth < nparts); b++) {
    /* nothing named like the first part here (`torch`, `numpy`): nothing
     * below it either, and most names a file uses are of other libraries */
    bool here = nparts > 0 && first_part_here(view->project, bases[b], q, lens[0]);
    /* a folder earlier on the path that covers fewer parts yields to one
     * that covers more: `dalle2_pytorch.trainer` in the package's
     * `__init__.py` is not `trainer` in the package's own module
     * `dalle2_pytorch.py` (a package's folder is on sys.path only when one
     * of its files runs as a script) */
    for (size_t k = nparts; here && k > depth; k--) {
      char *file = module_file(view->project, bases[b], q, starts, lens, k);
      if (!file) continue;
      free(found);
      found = file;
      depth = k;
      *rest = k < nparts ? q + starts[k] : q + strlen(q);
    }
    if (!found && level > 0) {
      /* `from . import x`, x a name the package's __init__.py defines */
      char *init = join(bases[b], "__init__.py");
      if (project_is_file(view->project, init)) {
        found = init;
        *rest = q;
      } else {
        free(init);
      }
    }
  }
  free(owned);
  if (!found && level == 0 && nparts > 0) found = package_root_module(view, q, starts, lens, nparts, rest);
  return found;
}
