/* This file contains the module cache of a project index: each module read
 * once and its summary built once, file tests memoized,
 * editor buffers in place of files, and forgetting what changed. Shared by
 * threads: one lock guards the maps and reference counts; reading, parsing
 * and analysing happen outside it (two threads may build the same summary
 * at once; both get the same result, since a summary depends only on the
 * texts it reads, and the first one stored wins). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/hash.h"
#include "parse/parse.h"
#include "project/project.h"
#include "util/alloc.h"
#include "util/strmap.h"

struct project_maps {
  strmap modules;  /* path -> project_module (the live one) */
  strmap stats;    /* path -> (void *)kind: 1 nothing there, 2 a file, 3 something else */
  strmap overlays; /* path -> project_overlay */
  strmap expected; /* path -> (void *)1: files the run will lint, whose trees are worth keeping */
  strmap offered;  /* path -> project_offer: a linted file's tree, for a summary of it built later */
  VEC(char *) offer_order; /* the paths offered, oldest first: the first to give up when bytes run out */
  size_t offer_first;      /* offer_order's oldest entry still to look at */
};

/* A tree the lint of a file left for its summary, with the bytes it parsed. */
typedef struct {
  TSTree *tree;
  char *text;
  size_t length;
} project_offer;


static void offer_free(void *p) {
  project_offer *o = p;
  if (!o) return;
  ts_tree_delete(o->tree);
  free(o->text);
  free(o);
}

#define GET(map, key) strmap_get(&self->maps->map, (key), strlen(key))
#define PUT(map, key, value) strmap_put(&self->maps->map, (key), strlen(key), (value))


oom_project *oom_project_new(void) {
  oom_project *self = oom_xcalloc(1, sizeof *self);
  pthread_mutex_init(&self->lock, NULL);
  self->maps = oom_xcalloc(1, sizeof *self->maps);
  self->generation = 1;
  self->cwd = getcwd(NULL, 0);
  return self;
}


/* Drop M's reference to its summary; under the lock, as other threads may
 * hold the same summary. */
static void drop_summary(project_module *m) {
  if (m->summary && --m->summary->refs == 0) project_summary_free(m->summary);
  m->summary = NULL;
}


/* Free M, whose summary is dropped already. */
static void module_free(project_module *m) {
  if (m->tree) ts_tree_delete(m->tree);
  free(m->path);
  free(m->text);
  free(m);
}


static void overlay_free(void *p) {
  project_overlay *o = p;
  free(o->text);
  free(o);
}


void oom_project_free(oom_project *self) {
  if (!self) return;
  for (size_t i = 0; i < self->all.len; i++) {
    project_module *m = self->all.items[i];
    assert(m->refs == 1 || m->detached); /* only the index holds it: no lint is running */
    drop_summary(m);
    module_free(m);
  }
  vec_free(&self->all);
  free(self->cwd);
  strmap_free(&self->maps->modules, NULL);
  strmap_free(&self->maps->stats, NULL);
  strmap_free(&self->maps->overlays, overlay_free);
  strmap_free(&self->maps->expected, NULL);
  strmap_free(&self->maps->offered, offer_free);
  for (size_t i = 0; i < self->maps->offer_order.len; i++) free(self->maps->offer_order.items[i]);
  vec_free(&self->maps->offer_order);
  free(self->maps);
  pthread_mutex_destroy(&self->lock);
  free(self);
}


/* ---- file tests ---- */

static int kind_at(oom_project *self, const char *path) {
  pthread_mutex_lock(&self->lock);
  uintptr_t k = (uintptr_t)GET(stats, path);
  bool overlaid = GET(overlays, path) != NULL;
  pthread_mutex_unlock(&self->lock);
  if (overlaid) return 2;
  if (k) return (int)k;
  struct stat st;
  int kind = stat(path, &st) != 0 ? 1 : S_ISREG(st.st_mode) ? 2 : 3;
  pthread_mutex_lock(&self->lock);
  PUT(stats, path, (void *)(uintptr_t)kind);
  pthread_mutex_unlock(&self->lock);
  return kind;
}


bool project_is_file(oom_project *self, const char *path) {
  return kind_at(self, path) == 2;
}


bool project_exists(oom_project *self, const char *path) {
  return kind_at(self, path) != 1;
}


/* ---- modules ---- */

/* The bytes of the regular file at PATH, NUL-terminated, when it has at
 * most PROJECT_MAX_MODULE_BYTES of them; NULL otherwise. */
static char *read_module(const char *path, size_t *length) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)PROJECT_MAX_MODULE_BYTES) {
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 2, len = 0;
  char *data = oom_xmalloc(cap);
  for (;;) {
    ssize_t n = read(fd, data + len, cap - len - 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += (size_t)n;
    if (len + 1 == cap) {
      /* grown since the stat: a module being written; take it whole or not at all */
      if (cap > PROJECT_MAX_MODULE_BYTES) {
        free(data);
        close(fd);
        return NULL;
      }
      data = oom_xrealloc(data, cap *= 2);
    }
  }
  close(fd);
  data[len] = '\0';
  *length = len;
  return data;
}


/* Read the module at PATH (TEXT given: an overlay's copy) into a new
 * module; it is not readable when it cannot be read or is over a bound.
 * Only the text is kept: a tree is ten times its size, and the summary is
 * built once. */
static project_module *load(const char *path, char *text, size_t length) {
  project_module *m = oom_xcalloc(1, sizeof *m);
  m->path = oom_xstrdup(path);
  if (!text) text = read_module(path, &length);
  if (!text) return m;
  /* a NUL byte: binary, or no Python CPython would run */
  if (length > PROJECT_MAX_MODULE_BYTES || memchr(text, '\0', length)) {
    free(text);
    return m;
  }
  m->text = text;
  m->length = length;
  m->hash = cache_hash(text, length, 0);
  m->readable = true;
  return m;
}


project_module *project_module_get(oom_project *self, const char *path) {
  pthread_mutex_lock(&self->lock);
  project_module *m = GET(modules, path);
  if (m) {
    m->refs++;
    pthread_mutex_unlock(&self->lock);
    return m->readable ? m : (project_module_release(self, m), NULL);
  }
  bool full = self->all.len >= PROJECT_MAX_MODULES || self->total_bytes >= PROJECT_MAX_TOTAL_BYTES;
  project_overlay *o = GET(overlays, path);
  char *copy = o ? oom_xstrndup(o->text, o->length) : NULL;
  size_t copy_len = o ? o->length : 0;
  uint64_t generation = self->generation;
  pthread_mutex_unlock(&self->lock);
  if (full) {
    free(copy);
    return NULL;
  }
  project_module *fresh = load(path, copy, copy_len);
  pthread_mutex_lock(&self->lock);
  m = GET(modules, path);
  if (m || generation != self->generation) {
    /* another thread stored it first, or it changed while we read it: the
     * stored one, or none this time (the next lint reads it again) */
    if (m) m->refs++;
    pthread_mutex_unlock(&self->lock);
    module_free(fresh); /* never shared: it has no summaries */
    return m && m->readable ? m : (m ? (project_module_release(self, m), NULL) : NULL);
  }
  fresh->refs = 2; /* the index's and the caller's */
  PUT(modules, path, fresh);
  vec_push(&self->all, fresh);
  self->total_bytes += fresh->length;
  pthread_mutex_unlock(&self->lock);
  if (!fresh->readable) {
    project_module_release(self, fresh);
    return NULL;
  }
  return fresh;
}


void project_module_release(oom_project *self, project_module *m) {
  if (!m) return;
  pthread_mutex_lock(&self->lock);
  assert(m->refs > 0);
  bool gone = --m->refs == 0;
  if (gone) {
    /* only detached modules lose their last reference: take it off the list */
    assert(m->detached);
    for (size_t i = 0; i < self->all.len; i++)
      if (self->all.items[i] == m) {
        self->all.items[i] = self->all.items[--self->all.len];
        break;
      }
    drop_summary(m);
  }
  pthread_mutex_unlock(&self->lock);
  if (gone) module_free(m);
}


/* ---- summaries ---- */

/* Build M's summary: its facts alone, reduced. */
static project_summary *build(oom_project *self, project_module *m) {
  /* a file the run linted already left its tree, if it parsed these bytes */
  TSTree *tree = NULL;
  pthread_mutex_lock(&self->lock);
  project_offer *o = GET(offered, m->path);
  if (o) {
    PUT(offered, m->path, NULL);
    self->offered_bytes -= o->length;
    if (o->length == m->length && !memcmp(o->text, m->text, m->length)) {
      tree = o->tree;
      o->tree = NULL;
    }
  }
  pthread_mutex_unlock(&self->lock);
  if (o) {
    if (o->tree) ts_tree_delete(o->tree);
    free(o->text);
    free(o);
  }
  if (!tree) {
    const char *why = NULL;
    TSParser *parser = parse_parser_new(&why);
    tree = parser ? parse_source(parser, m->text, m->length, NULL) : NULL;
    if (parser) ts_parser_delete(parser);
  }
  if (!tree) return NULL;
  TSNode root = ts_tree_root_node(tree);
  /* the view only finds the folders its sys.path lines add, for the summary */
  project_view v;
  project_view_init(&v, self, m->path, root, m->text, m->length);
  project_view_add_package_parent(&v, self);
  facts f;
  facts_build(&f, root, m->text, m->length);
  project_summary *s = project_summary_build(&f, m, &v);
  s->refs = 1; /* the caller's */
  facts_free(&f);
  project_view_free(&v);
  /* a file the run lints later is not parsed twice: its lint takes the tree */
  pthread_mutex_lock(&self->lock);
  bool keep = !m->detached && !m->tree && GET(expected, m->path) &&
              self->kept_bytes + m->length <= PROJECT_MAX_KEPT_TEXT_BYTES;
  if (keep) {
    m->tree = tree;
    self->kept_bytes += m->length;
  }
  pthread_mutex_unlock(&self->lock);
  if (!keep) ts_tree_delete(tree);
  return s;
}


void oom_project_expect(oom_project *self, const char *path) {
  char *abs = project_absolute_in(self, path);
  pthread_mutex_lock(&self->lock);
  self->batch = true;
  PUT(expected, abs, (void *)1);
  pthread_mutex_unlock(&self->lock);
  free(abs);
}


void project_offer_tree(oom_project *self, const char *path, const char *text, size_t length, const TSTree *tree) {
  assert(tree);
  char *abs = project_absolute_in(self, path);
  pthread_mutex_lock(&self->lock);
  project_module *m = GET(modules, abs);
  /* only in a run that lints many files, once per file, while its summary
   * is still to build, within the bytes kept */
  size_t n = strlen(abs);
  bool want = self->batch && n > 3 && !strcmp(abs + n - 3, ".py") && !(m && m->summary) && !GET(offered, abs) &&
              length <= PROJECT_MAX_OFFERED_TEXT_BYTES;
  /* the oldest offers give way: a module is most often imported by files
   * of its own project, linted near it */
  struct project_maps *maps = self->maps;
  VEC(project_offer *) gone = {0}; /* freed after the lock: deleting a tree takes a while */
  while (want && self->offered_bytes + length > PROJECT_MAX_OFFERED_TEXT_BYTES &&
         maps->offer_first < maps->offer_order.len) {
    char *old = maps->offer_order.items[maps->offer_first];
    maps->offer_order.items[maps->offer_first++] = NULL;
    project_offer *o = GET(offered, old);
    if (o) {
      PUT(offered, old, NULL);
      self->offered_bytes -= o->length;
      vec_push(&gone, o);
    }
    free(old);
  }
  if (want) {
    vec_push(&maps->offer_order, oom_xstrdup(abs));
    project_offer *o = oom_xcalloc(1, sizeof *o);
    o->tree = ts_tree_copy(tree);
    o->text = oom_xmalloc(length + 1);
    memcpy(o->text, text, length);
    o->text[length] = '\0';
    o->length = length;
    PUT(offered, abs, o);
    self->offered_bytes += length;
    assert(self->offered_bytes <= PROJECT_MAX_OFFERED_TEXT_BYTES);
  }
  pthread_mutex_unlock(&self->lock);
  for (size_t i = 0; i < gone.len; i++) offer_free(gone.items[i]);
  vec_free(&gone);
  free(abs);
}


TSTree *project_take_tree(oom_project *self, const char *path, const char *text, size_t length) {
  char *abs = project_absolute_in(self, path);
  TSTree *tree = NULL;
  pthread_mutex_lock(&self->lock);
  if (GET(expected, abs)) {
    PUT(expected, abs, NULL);
    project_module *m = GET(modules, abs);
    if (m && m->tree) {
      /* the text the lint holds may not be what the summary read (an edit
       * in between): the tree is only good for the same bytes */
      if (m->length == length && !memcmp(m->text, text, length)) tree = m->tree;
      else ts_tree_delete(m->tree);
      m->tree = NULL;
      self->kept_bytes -= m->length;
    }
  }
  pthread_mutex_unlock(&self->lock);
  free(abs);
  return tree;
}


project_summary *project_summary_get(oom_project *self, project_module *m) {
  if (!m || !m->readable) return NULL;
  pthread_mutex_lock(&self->lock);
  project_summary *s = m->summary;
  if (s) {
    s->refs++;
    pthread_mutex_unlock(&self->lock);
    return s;
  }
  pthread_mutex_unlock(&self->lock);
  project_summary *fresh = build(self, m);
  if (!fresh) return NULL;
  pthread_mutex_lock(&self->lock);
  if (m->summary) {
    /* another thread stored the same summary first */
    project_summary *first = m->summary;
    first->refs++;
    pthread_mutex_unlock(&self->lock);
    project_summary_release(self, fresh);
    return first;
  }
  fresh->refs++; /* the module's */
  m->summary = fresh;
  pthread_mutex_unlock(&self->lock);
  return fresh;
}


void project_summary_release(oom_project *self, project_summary *s) {
  if (!s) return;
  pthread_mutex_lock(&self->lock);
  assert(s->refs > 0);
  bool gone = --s->refs == 0;
  pthread_mutex_unlock(&self->lock);
  if (gone) project_summary_free(s);
}


/* ---- changes ---- */

/* Drop the live module of PATH; under the lock. Other modules' summaries
 * stay: each was built from its own text alone. */
static void invalidate(oom_project *self, const char *path) {
  project_module *m = GET(modules, path);
  if (m) {
    PUT(modules, path, NULL);
    m->detached = true;
    self->total_bytes -= m->length;
    if (m->tree) {
      ts_tree_delete(m->tree);
      m->tree = NULL;
      self->kept_bytes -= m->length;
    }
    if (--m->refs == 0) {
      for (size_t i = 0; i < self->all.len; i++)
        if (self->all.items[i] == m) {
          self->all.items[i] = self->all.items[--self->all.len];
          break;
        }
      drop_summary(m);
      module_free(m);
    }
  }
  /* a file that appeared or vanished changes what imports resolve to */
  strmap_free(&self->maps->stats, NULL);
  self->generation++;
}


void oom_project_set_text(oom_project *self, const char *path, const char *text, size_t length) {
  char *abs = project_absolute_in(self, path);
  pthread_mutex_lock(&self->lock);
  project_overlay *o = GET(overlays, abs);
  if (text) {
    if (!o) {
      o = oom_xcalloc(1, sizeof *o);
      PUT(overlays, abs, o);
    }
    free(o->text);
    o->text = oom_xstrndup(text, length);
    o->length = length;
  } else if (o) {
    PUT(overlays, abs, NULL);
    overlay_free(o);
  }
  invalidate(self, abs);
  pthread_mutex_unlock(&self->lock);
  free(abs);
}


void oom_project_forget(oom_project *self, const char *path) {
  char *abs = project_absolute_in(self, path);
  pthread_mutex_lock(&self->lock);
  invalidate(self, abs);
  pthread_mutex_unlock(&self->lock);
  free(abs);
}
