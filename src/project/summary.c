/* This file contains the summary a module is reduced to: for each class,
 * function and method it defines (and each module-level name bound to a
 * model), what the facts found (an nn.Module, returns a graph or a model,
 * trains, runs without gradients), and the names it imports, so that a
 * re-export can be followed. Small data: the importer's facts read it, and
 * the module's tree and facts are not kept for it. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "project/project.h"
#include "util/alloc.h"

#define NODE_IS(n, t) (strcmp(ts_node_type(n), (t)) == 0)

typedef VEC(project_symbol) symbol_vec;
typedef VEC(project_import) import_vec;


static int symbol_cmp(const void *a, const void *b) {
  return strcmp(((const project_symbol *)a)->name, ((const project_symbol *)b)->name);
}


static int import_cmp(const void *a, const void *b) {
  return strcmp(((const project_import *)a)->name, ((const project_import *)b)->name);
}


static void add_symbol(arena *a, symbol_vec *v, const char *name, size_t len, const facts_symbol *sym) {
  project_symbol s = {arena_strndup(a, name, len), *sym};
  vec_push(v, s);
}


/* Whether class node N is defined at module level (possibly decorated). */
static bool top_level(TSNode n) {
  TSNode up = ts_node_parent(n);
  if (!ts_node_is_null(up) && NODE_IS(up, "decorated_definition")) up = ts_node_parent(up);
  return !ts_node_is_null(up) && NODE_IS(up, "module");
}


static facts_symbol function_symbol(const facts_function *fn) {
  facts_symbol s = {0};
  s.flags = SYM_FUNCTION;
  if (fn->returns_model) s.flags |= SYM_MODEL;
  if (fn->returns_graph) s.flags |= SYM_RETURNS_GRAPH;
  if (fn->returns_scalar_loss) s.flags |= SYM_RETURNS_SCALAR;
  if (fn->trains) s.flags |= SYM_TRAINS;
  if (fn->backward) s.flags |= SYM_BACKWARD;
  if (fn->step) s.flags |= SYM_STEP;
  if (fn->no_grad) s.flags |= SYM_NO_GRAD;
  if (fn->returns_device_arg) s.flags |= SYM_TO_DEVICE;
  if (!fn->elems_varied && fn->nelems > 0 && fn->nelems <= FACTS_MAX_ELEMS) {
    s.nelems = fn->nelems;
    memcpy(s.elems, fn->elems, fn->nelems);
  }
  return s;
}


/* Whether NAME (LEN bytes) is bound at module level of F. */
static bool bound_at_module_level(const facts *f, const char *name, size_t len) {
  size_t first, end;
  facts_bindings_named(f, name, (uint32_t)len, &first, &end);
  for (size_t i = first; i < end; i++)
    if (facts_function_at(f, f->bindings.items[i].pos) < 0) return true;
  return false;
}


project_summary *project_summary_build(const facts *f, const project_module *m, const project_view *view) {
  project_summary *s = oom_xcalloc(1, sizeof *s);
  arena *a = &s->arena;
  symbol_vec syms = {0};
  import_vec imps = {0};
  buf name = {0};
  /* classes at module level, and their methods as `Class.method` */
  bool *listed = oom_xcalloc(f->classes.len + 1, sizeof *listed);
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *k = &f->classes.items[i];
    if (!k->name || !top_level(k->node)) continue;
    listed[i] = true;
    facts_symbol sym = {0};
    sym.flags = SYM_CLASS | (k->is_module || k->has_forward ? SYM_MODEL : 0) | (k->is_dataset ? SYM_DATASET : 0);
    add_symbol(a, &syms, k->name, k->name_len, &sym);
  }
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *fn = &f->functions.items[i];
    if (fn->parent >= 0) continue; /* nested in a function: not reachable by name */
    facts_symbol sym = function_symbol(fn);
    if (fn->klass < 0) {
      if (top_level(fn->node)) add_symbol(a, &syms, fn->name, fn->name_len, &sym);
      continue;
    }
    if (!listed[fn->klass]) continue;
    const facts_class *k = &f->classes.items[fn->klass];
    buf_clear(&name);
    buf_append(&name, k->name, k->name_len);
    buf_putc(&name, '.');
    buf_append(&name, fn->name, fn->name_len);
    add_symbol(a, &syms, name.data, name.len, &sym);
  }
  free(listed);
  /* module-level names bound to a model (`model = Net()` in a setup module) */
  for (size_t i = 0; i < f->module_names.len; i++) {
    const char *n = f->module_names.items[i];
    size_t len = strlen(n);
    if (strchr(n, '.') || !bound_at_module_level(f, n, len)) continue;
    facts_symbol sym = {0};
    sym.flags = SYM_VALUE | SYM_MODEL;
    add_symbol(a, &syms, n, len, &sym);
  }
  /* what the module imports at module level, for re-exports */
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !b->qualname || facts_function_at(f, b->pos) >= 0) continue;
    project_import imp = {arena_strndup(a, b->name, b->name_len), arena_strndup(a, b->qualname, strlen(b->qualname))};
    vec_push(&imps, imp);
  }
  buf_free(&name);
  if (syms.len > 1) qsort(syms.items, syms.len, sizeof *syms.items, symbol_cmp);
  if (imps.len > 1) qsort(imps.items, imps.len, sizeof *imps.items, import_cmp);
  /* a name defined twice (`if ...: def f` / `else: def f`): the first one
   * sorted stands for both, which is what a lookup finds */
  s->symbols = arena_alloc(a, (syms.len + 1) * sizeof *s->symbols);
  if (syms.len) memcpy(s->symbols, syms.items, syms.len * sizeof *syms.items);
  s->nsymbols = syms.len;
  s->imports = arena_alloc(a, (imps.len + 1) * sizeof *s->imports);
  if (imps.len) memcpy(s->imports, imps.items, imps.len * sizeof *imps.items);
  s->nimports = imps.len;
  vec_free(&syms);
  vec_free(&imps);
  /* the module itself, then what its lookups read */
  size_t nviews = view ? view->deps.len : 0;
  s->deps = arena_alloc(a, (nviews + 1) * sizeof *s->deps);
  s->deps[0] = (project_dep){arena_strndup(a, m->path, strlen(m->path)), m->hash};
  s->ndeps = 1;
  for (size_t i = 0; i < nviews; i++) {
    if (!strcmp(view->deps.items[i].path, m->path)) continue;
    const project_dep *d = &view->deps.items[i];
    s->deps[s->ndeps++] = (project_dep){arena_strndup(a, d->path, strlen(d->path)), d->hash};
  }
  s->found_imports = view && view->found;
  return s;
}


void project_summary_free(project_summary *s) {
  if (!s) return;
  assert(s->refs == 0);
  arena_free(&s->arena);
  free(s);
}


const project_symbol *project_summary_find(const project_summary *s, const char *name, size_t len) {
  size_t lo = 0, hi = s->nsymbols;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strncmp(s->symbols[mid].name, name, len);
    if (!c && s->symbols[mid].name[len] != '\0') c = 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->nsymbols && !strncmp(s->symbols[lo].name, name, len) && s->symbols[lo].name[len] == '\0')
    return &s->symbols[lo];
  return NULL;
}


const project_import *project_summary_import(const project_summary *s, const char *name, size_t len) {
  size_t lo = 0, hi = s->nimports;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strncmp(s->imports[mid].name, name, len);
    if (!c && s->imports[mid].name[len] != '\0') c = 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->nimports && !strncmp(s->imports[lo].name, name, len) && s->imports[lo].name[len] == '\0')
    return &s->imports[lo];
  return NULL;
}
