/* This file contains the server's cache of configurations: a document's
 * nearest configuration file found with the command line's walk (config_walk)
 * and read with its reader, one compiled linter per file, kept while the
 * file's identity, size and times stay the same, and its rules folders'
 * (stamps.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lsp/configs.h"
#include "lsp/stamps.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/vec.h"

/* Compiling the rule query takes 50-100 ms (tree-sitter analyses every pattern
 * against the grammar): keep a linter per configuration file, but not for
 * every file a large workspace has ever shown us. */
#define MAX_CACHED 32
/* How often files seen changing while they are read are read again; after
 * that the entry keeps the stamps from before the last read, and the next
 * lookup reads them once more. */
#define MAX_REREADS 8

struct lsp_config {
  int refs;
  char *path; /* NULL: the fallback */
  lsp_file_key key;
  lsp_rules_stamp rules; /* its rules folders, taken before the linter was built */
  bool none; /* a pyproject.toml without [tool.oomlint]: the walk goes past it */
  bool bad;  /* unreadable, invalid or unbuildable (reported): the fallback lints for it */
  config cfg;
  oom_linter *linter;
  oom_worker *worker;
  uint64_t used; /* when it last served a document, for eviction */
};

struct lsp_configs {
  VEC(char *) roots;
  char *config_path;
  bool isolated;
  lsp_configs_report_fn report;
  lsp_configs_dir_fn rules_dir;
  void *report_ctx;
  config_overrides over;
  lsp_config *fallback;
  VEC(lsp_config *) cache;
  uint64_t clock;
  uint64_t rules_generation; /* bumped when a changed rules folder made a linter be built again */
};


void lsp_config_retain(lsp_config *self) {
  self->refs++;
}


void lsp_config_release(lsp_config *self) {
  if (!self || --self->refs > 0) return;
  oom_worker_free(self->worker);
  oom_linter_free(self->linter);
  lsp_rules_stamp_free(&self->rules);
  config_free(&self->cfg);
  free(self->path);
  free(self);
}


const char *lsp_config_path(const lsp_config *self) {
  return self->path;
}


const config *lsp_config_settings(const lsp_config *self) {
  return &self->cfg;
}


const oom_linter *lsp_config_linter(const lsp_config *self) {
  return self->linter;
}


oom_worker *lsp_config_worker(lsp_config *self) {
  return self->worker;
}


static void report(lsp_configs *self, int type, const char *what, const char *error, const char *after) {
  buf m = {0};
  buf_printf(&m, "%s%s%s", what, error, after);
  if (self->report) self->report(self->report_ctx, type, buf_str(&m));
  buf_free(&m);
}


/* A linter from CFG under the settings; NULL with *ERROR when it cannot be built. */
static oom_linter *build(const config_overrides *over, const config *cfg, char **error) {
  oom_options *options = oom_options_new();
  config_apply(cfg, over, options);
  oom_linter *linter = oom_linter_new(options, error);
  oom_options_free(options);
  return linter;
}


/* Stamp the rules folders that CFG (may be empty) and OVER give a linter,
 * in config_apply's order, into OUT; each folder is announced to the
 * rules_dir callback, which has the client watch it. */
static void stamp_rules(lsp_configs *self, const config *cfg, const config_overrides *over, lsp_rules_stamp *out) {
  VEC(const char *) dirs = {0};
  if (cfg->rules_dir) vec_push(&dirs, cfg->rules_dir);
  for (size_t i = 0; i < over->rules_dirs.len; i++) vec_push(&dirs, over->rules_dirs.items[i]);
  lsp_rules_stamp_take(out, dirs.items, dirs.len);
  for (size_t i = 0; i < dirs.len && self->rules_dir; i++) self->rules_dir(self->report_ctx, dirs.items[i]);
  vec_free(&dirs);
}


/* A linter from CFG under OVER, with RULES the stamp of its rules folders
 * as the build read them: a rule file written during the build (an editor
 * truncates, then writes) would leave a stamp from before the write beside
 * rules built from the new contents, and the next lookup would build them,
 * and report their error, again. NULL with *ERROR when it cannot be built. */
static oom_linter *build_stamped(lsp_configs *self, const config *cfg, const config_overrides *over,
                                 lsp_rules_stamp *rules, char **error) {
  for (int rebuild = 0;; rebuild++) {
    stamp_rules(self, cfg, over, rules);
    oom_linter *linter = build(over, cfg, error);
    if (!lsp_rules_stamp_changed(rules, true) || rebuild == MAX_REREADS) return linter;
    oom_linter_free(linter);
    free(*error);
    *error = NULL;
    lsp_rules_stamp_free(rules);
  }
}


static lsp_config *entry_new(const char *path) {
  lsp_config *e = oom_xcalloc(1, sizeof *e);
  e->refs = 1;
  e->path = path ? oom_xstrdup(path) : NULL;
  return e;
}


static bool attach_linter(lsp_config *e, oom_linter *linter) {
  e->linter = linter;
  e->worker = linter ? oom_worker_new(linter) : NULL;
  return e->worker != NULL;
}


static void free_roots(lsp_configs *self) {
  for (size_t i = 0; i < self->roots.len; i++) free(self->roots.items[i]);
  self->roots.len = 0;
}


void lsp_configs_set_roots(lsp_configs *self, const char *const *roots, size_t nroots) {
  free_roots(self);
  for (size_t i = 0; i < nroots; i++) vec_push(&self->roots, config_absolute(roots[i]));
}


lsp_configs *lsp_configs_new(const lsp_configs_setup *setup) {
  lsp_configs *self = oom_xcalloc(1, sizeof *self);
  lsp_configs_set_roots(self, setup->roots, setup->nroots);
  self->config_path = setup->config_path ? config_absolute(setup->config_path) : NULL;
  self->isolated = setup->isolated;
  self->report = setup->report;
  self->rules_dir = setup->rules_dir;
  self->report_ctx = setup->report_ctx;
  return self;
}


static void clear_cache(lsp_configs *self) {
  for (size_t i = 0; i < self->cache.len; i++) lsp_config_release(self->cache.items[i]);
  self->cache.len = 0;
}


void lsp_configs_free(lsp_configs *self) {
  if (!self) return;
  clear_cache(self);
  vec_free(&self->cache);
  lsp_config_release(self->fallback);
  config_overrides_free(&self->over);
  free_roots(self);
  vec_free(&self->roots);
  free(self->config_path);
  free(self);
}


/* The fallback configuration becomes LINTER, built from the rules RULES
 * stamps; the old one lives on while a lint still holds it. */
static void replace_fallback(lsp_configs *self, oom_linter *linter, lsp_rules_stamp rules) {
  lsp_config *fallback = entry_new(NULL);
  fallback->rules = rules;
  if (!attach_linter(fallback, linter))
    report(self, 1, "oomlint: ", "the Python grammar does not load into this tree-sitter runtime", "");
  lsp_config_release(self->fallback);
  self->fallback = fallback;
}


bool lsp_configs_set_overrides(lsp_configs *self, config_overrides *over) {
  config none = {0};
  char *error = NULL;
  lsp_rules_stamp rules;
  oom_linter *linter = build_stamped(self, &none, over, &rules, &error);
  if (!linter && !self->fallback) {
    /* nothing to keep yet: the built-in rules alone, so that linting goes on */
    report(self, 1, "oomlint settings not applied: ", error ? error : "the rules could not be built", "");
    free(error);
    error = NULL;
    config_overrides_free(over);
    lsp_rules_stamp_free(&rules);
    linter = build_stamped(self, &none, over, &rules, &error);
  }
  if (!linter) {
    report(self, 1, "oomlint settings not applied: ", error ? error : "the rules could not be built", "");
    free(error);
    config_overrides_free(over);
    lsp_rules_stamp_free(&rules);
    return false;
  }
  replace_fallback(self, linter, rules);
  config_overrides_free(&self->over);
  self->over = *over;
  memset(over, 0, sizeof *over);
  clear_cache(self);
  return true;
}


static void remove_at(lsp_configs *self, size_t i) {
  lsp_config_release(self->cache.items[i]);
  memmove(self->cache.items + i, self->cache.items + i + 1, (self->cache.len - i - 1) * sizeof *self->cache.items);
  self->cache.len--;
}


static void evict_oldest(lsp_configs *self) {
  size_t oldest = 0;
  for (size_t i = 1; i < self->cache.len; i++)
    if (self->cache.items[i]->used < self->cache.items[oldest]->used) oldest = i;
  remove_at(self, oldest);
}


static lsp_file_key key_now(const char *path) {
  struct stat st;
  bool exists = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  return lsp_file_key_of(exists ? &st : NULL);
}


/* Read and build PATH (ST: its stat, NULL when it is missing). */
static lsp_config *load(lsp_configs *self, const char *path, const struct stat *st) {
  lsp_config *e = entry_new(path);
  e->key = lsp_file_key_of(st);
  char *error = NULL;
  bool ok;
  /* The key must describe the bytes read. A file written while it is read
   * (an editor truncates, then writes) would otherwise leave a key from
   * before the write beside the new contents: the next lookup or the
   * client's notice would see a changed file and report its error again. */
  for (int reread = 0;; reread++) {
    memset(&e->cfg, 0, sizeof e->cfg);
    ok = config_load_discovered(path, &e->cfg, &error);
    lsp_file_key after = key_now(path);
    if (lsp_file_key_same(&e->key, &after) || reread == MAX_REREADS) break;
    config_free(&e->cfg);
    free(error);
    error = NULL;
    e->key = after;
  }
  if (ok && !e->cfg.path) {
    e->none = true;
  } else if (!ok) {
    e->bad = true;
    report(self, 1, "oomlint: ", error ? error : path,
           " (the files under it are linted with the default settings until it is fixed)");
  } else {
    oom_linter *linter = build_stamped(self, &e->cfg, &self->over, &e->rules, &error);
    if (!linter || !attach_linter(e, linter)) {
      e->bad = true;
      buf what = {0};
      buf_printf(&what, "oomlint: %s: the rules could not be built: ", path);
      report(self, 1, buf_str(&what), error ? error : "the Python grammar does not load",
             " (the files under it are linted with the default settings until it is fixed)");
      buf_free(&what);
    }
  }
  free(error);
  /* a broken file lints with the defaults: none of its excludes or ignores */
  if (e->bad) config_free(&e->cfg);
  return e;
}


/* The cached entry for PATH, read again when the file is not as it was. */
static lsp_config *lookup(lsp_configs *self, const char *path, const struct stat *st) {
  lsp_file_key k = lsp_file_key_of(st);
  lsp_config *e = NULL;
  for (size_t i = 0; i < self->cache.len; i++) {
    lsp_config *c = self->cache.items[i];
    if (strcmp(c->path, path)) continue;
    bool same = lsp_file_key_same(&c->key, &k);
    if (same && !lsp_rules_stamp_changed(&c->rules, false)) {
      e = c;
    } else {
      if (same) self->rules_generation++;
      remove_at(self, i);
    }
    break;
  }
  if (!e) {
    if (self->cache.len >= MAX_CACHED) evict_oldest(self);
    e = load(self, path, st);
    vec_push(&self->cache, e);
  }
  e->used = ++self->clock;
  return e;
}


typedef struct {
  lsp_configs *self;
  lsp_config *found;
} walk_state;


static bool probe(const char *path, const struct stat *st, void *arg) {
  walk_state *w = arg;
  lsp_config *e = lookup(w->self, path, st);
  if (e->none) return false;
  w->found = e;
  return true;
}


const char *lsp_configs_root_for(const char *const *roots, size_t nroots, const char *path) {
  const char *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < nroots; i++) {
    size_t n = strlen(roots[i]);
    while (n > 1 && roots[i][n - 1] == '/') n--; /* "/src/" holds "/src/x" */
    bool holds = !strncmp(path, roots[i], n) && (path[n] == '/' || !path[n] || (n == 1 && roots[i][0] == '/'));
    if (holds && (!best || n > best_len)) {
      best = roots[i];
      best_len = n;
    }
  }
  return best;
}


/* The fallback built again from the settings, its rules folders having
 * changed. When it cannot be, that is reported as for settings that cannot
 * be applied, and the rules that last built stay; the new stamp is kept
 * either way, so the problem is reported once per change. */
static void rebuild_fallback(lsp_configs *self) {
  config none = {0};
  lsp_rules_stamp rules;
  char *error = NULL;
  oom_linter *linter = build_stamped(self, &none, &self->over, &rules, &error);
  self->rules_generation++;
  if (!linter) {
    report(self, 1, "oomlint settings not applied: ", error ? error : "the rules could not be built", "");
    free(error);
    lsp_rules_stamp_free(&self->fallback->rules);
    self->fallback->rules = rules;
    return;
  }
  replace_fallback(self, linter, rules);
}


lsp_config *lsp_configs_for(lsp_configs *self, const char *path) {
  if (!self->fallback) return NULL; /* not even the built-in rules could be built */
  if (lsp_rules_stamp_changed(&self->fallback->rules, false)) rebuild_fallback(self);
  lsp_config *found = NULL;
  if (self->isolated || !path || path[0] != '/') {
    /* no files, or a document that is not a file (untitled:...) */
  } else if (self->config_path) {
    struct stat st;
    bool exists = stat(self->config_path, &st) == 0 && S_ISREG(st.st_mode);
    found = lookup(self, self->config_path, exists ? &st : NULL);
    if (found->none) found = NULL;
  } else {
    const char *stop = lsp_configs_root_for((const char *const *)self->roots.items, self->roots.len, path);
    walk_state w = {self, NULL};
    config_walk(path, stop, probe, &w);
    found = w.found;
  }
  return found && !found->bad ? found : self->fallback;
}


lsp_config *lsp_configs_fallback(lsp_configs *self) {
  return self->fallback;
}


void lsp_configs_forget(lsp_configs *self, const char *path) {
  /* a lint may have read the new file before the client's notice arrives:
   * an entry that matches the file on disk is already the new one, and
   * reading it again would report its error a second time */
  char *abs = config_absolute(path);
  struct stat st;
  bool exists = stat(abs, &st) == 0 && S_ISREG(st.st_mode);
  lsp_file_key now = lsp_file_key_of(exists ? &st : NULL);
  for (size_t i = 0; i < self->cache.len; i++)
    if (!strcmp(self->cache.items[i]->path, abs)) {
      if (!lsp_file_key_same(&self->cache.items[i]->key, &now)) remove_at(self, i);
      break;
    }
  free(abs);
}


void lsp_configs_rules_changed(lsp_configs *self) {
  /* as in lsp_configs_forget: a linter that a lint has already built again
   * matches the folders, and building it once more would report its error
   * a second time */
  for (size_t i = self->cache.len; i-- > 0;)
    if (lsp_rules_stamp_changed(&self->cache.items[i]->rules, true)) {
      remove_at(self, i);
      self->rules_generation++;
    }
  if (self->fallback && lsp_rules_stamp_changed(&self->fallback->rules, true)) rebuild_fallback(self);
}


uint64_t lsp_configs_rules_generation(const lsp_configs *self) {
  return self->rules_generation;
}


size_t lsp_configs_count(const lsp_configs *self) {
  return self->cache.len;
}
