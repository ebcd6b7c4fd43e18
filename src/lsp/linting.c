/* This file contains the lint thread. Linting a large file takes seconds, and
 * building a configuration's rules most of one, so both happen here beside
 * the main thread, which keeps answering; edits queued while a lint runs are
 * applied together before the next one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/diagnostics.h"
#include "lsp/linting.h"
#include "lsp/notebook.h"
#include "lsp/uri.h"
#include "util/alloc.h"
#include "util/vec.h"

typedef struct {
  size_t start, end;
  char *text;
  size_t length;
} queued_edit;

typedef struct slot {
  char *uri, *path;
  bool closed;
  int64_t version;       /* the latest version queued */
  uint64_t wanted, done; /* change counters: the diagnostics are current when equal */
  VEC(queued_edit) edits;
  char *reset; /* a whole new text, applied before EDITS */
  size_t reset_len;
  bool has_reset;
  oom_document *doc; /* the lint thread's alone */
  json_t *diagnostics;
  int64_t diagnostics_version;
  uint64_t result_id;
  lsp_config *config; /* what the last lint used (a reference): hover reads its rules */
  bool confirm;       /* the last lint was partial: a whole-file lint is due at CONFIRM_AT */
  struct timespec confirm_at;
  /* a notebook's module: its diagnostics are published to these code
   * cells' URIs (lsp/notebook.c), set with the text they belong to */
  char **cells;
  size_t ncells;
} slot;

/* A partial relint (oom_document_relint) is confirmed by a whole-file lint
 * once the document has been left alone this long; typing postpones it, so
 * a keystroke never waits behind a whole-file lint. */
#define CONFIRM_DELAY_MS 300

typedef struct {
  char *uri;
  json_t *id;
  lsp_answer_fn fn;
  json_t *state;
} deferred;

struct lsp_linting {
  lsp_linting_config config;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake, finished_cond;
  bool stop, finished;
  VEC(slot *) slots;
  VEC(slot *) dead; /* closed slots whose documents the thread frees */
  VEC(deferred) waiting;
  config_overrides next_over; /* settings handed over by the main thread */
  bool has_over;
  VEC(char *) changed_files; /* configuration files to read again */
  VEC(char *) changed_modules; /* Python files changed on disk: the project index reads them again */
  VEC(char *) next_roots;    /* workspace folders handed over by the main thread */
  bool has_roots;
  bool rules_changed;        /* the client reported a changed rule file */
  uint64_t rules_generation; /* the configs' count the documents were last linted under */
  VEC(char *) rules_dirs;    /* every rules folder a linter was built from */
  size_t rules_watched;      /* how many of them the client was asked to watch */
  bool watch_rules, relative_patterns;
  uint64_t requests;         /* of the requests this thread sends */
  lsp_configs *configs;      /* the thread's alone */
  oom_project *project;      /* every document's imports, open ones as the editor holds them; shared by the
                                thread's workers */
  lsp_config *fallback;      /* a reference to the configs' fallback, for hover */
  uint64_t lint_count;
  size_t cursor; /* round-robin start, so one busy document cannot starve the others */
};


static void free_edits(slot *s) {
  for (size_t i = 0; i < s->edits.len; i++) free(s->edits.items[i].text);
  s->edits.len = 0;
}


static void free_cells(slot *s) {
  for (size_t i = 0; i < s->ncells; i++) free(s->cells[i]);
  free(s->cells);
  s->cells = NULL;
  s->ncells = 0;
}


static void slot_free(slot *s) {
  free_edits(s);
  vec_free(&s->edits);
  free(s->reset);
  oom_document_free(s->doc);
  json_decref(s->diagnostics);
  lsp_config_release(s->config);
  free_cells(s);
  free(s->uri);
  free(s->path);
  free(s);
}


static void free_strings(char **items, size_t len) {
  for (size_t i = 0; i < len; i++) free(items[i]);
}


static slot *find(lsp_linting *self, const char *uri) {
  for (size_t i = 0; i < self->slots.len; i++)
    if (!strcmp(self->slots.items[i]->uri, uri)) return self->slots.items[i];
  return NULL;
}


static void format_result_id(const slot *s, char *out, size_t size) {
  snprintf(out, size, "%llu", (unsigned long long)s->result_id);
}


static void answer(lsp_linting *self, deferred *d, slot *s) {
  char rid[32] = "";
  if (s) format_result_id(s, rid, sizeof rid);
  json_t *result = d->fn(s ? s->diagnostics : NULL, rid, s ? s->diagnostics_version : 0, d->state);
  lsp_send_result(self->config.out, d->id, result);
  free(d->uri);
  json_decref(d->id);
  json_decref(d->state);
}


/* Answer what waits on URI (with S's diagnostics, or as closed). Locked. */
static void answer_waiting(lsp_linting *self, const char *uri, slot *s) {
  size_t k = 0;
  for (size_t i = 0; i < self->waiting.len; i++) {
    deferred *d = &self->waiting.items[i];
    if (!strcmp(d->uri, uri)) answer(self, d, s);
    else self->waiting.items[k++] = *d;
  }
  self->waiting.len = k;
}


static void send_refresh(lsp_linting *self);


/* The module at PATH now reads differently: lint again every other open
 * document whose last lint read it (the project index). Locked. */
static void relint_dependents(lsp_linting *self, const char *path, const slot *except) {
  bool any = false;
  for (size_t i = 0; i < self->slots.len; i++) {
    slot *t = self->slots.items[i];
    if (t == except || t->closed || !t->doc || !oom_document_depends_on(t->doc, path)) continue;
    t->wanted++;
    any = true;
  }
  if (!any) return;
  pthread_cond_signal(&self->wake);
  /* a pulling client would not ask for the importers again */
  if (self->config.refresh) send_refresh(self);
}


/* Apply the queued changes to the thread's document. */
static void apply(lsp_linting *self, slot *s, bool has_reset, char *reset, size_t reset_len, queued_edit *edits,
                  size_t nedits) {
  if (has_reset) {
    oom_document_free(s->doc);
    s->doc = oom_document_new(s->path, reset, reset_len);
  }
  for (size_t i = 0; i < nedits && s->doc; i++) {
    queued_edit *e = &edits[i];
    if (oom_document_edit(s->doc, e->start, e->end, e->text, e->length))
      fprintf(self->config.log, "oomlint server: %s: an edit outside the document was dropped\n", s->uri);
  }
  if (!s->doc || (!has_reset && !nedits)) return;
  /* other documents importing this one see the buffer, saved or not */
  size_t length;
  const char *text = oom_document_text(s->doc, &length);
  oom_project_set_text(self->project, s->path, text, length);
  pthread_mutex_lock(&self->lock);
  relint_dependents(self, s->path, s);
  pthread_mutex_unlock(&self->lock);
}


/* An open slot for the file at PATH (a document reopened under another
 * URI keeps its buffer). Unlocked: the slots' paths never change, but the
 * list may grow, so it is read under the lock. */
static bool find_open(lsp_linting *self, const char *path) {
  pthread_mutex_lock(&self->lock);
  bool open = false;
  for (size_t i = 0; i < self->slots.len && !open; i++)
    open = !self->slots.items[i]->closed && !strcmp(self->slots.items[i]->path, path);
  pthread_mutex_unlock(&self->lock);
  return open;
}


static slot *next_dirty(lsp_linting *self) {
  size_t n = self->slots.len;
  for (size_t k = 0; k < n; k++) {
    slot *s = self->slots.items[(self->cursor + k) % n];
    if (s->wanted != s->done) {
      self->cursor = (self->cursor + k + 1) % n;
      return s;
    }
  }
  return NULL;
}


/* A problem with a configuration or the settings: shown to the user once
 * (the configs report each file's problem once per change) and logged. */
static void report(void *ctx, int type, const char *message) {
  lsp_linting *self = ctx;
  lsp_send_notification(self->config.out, "window/showMessage",
                        json_pack("{s:i, s:o}", "type", type, "message", lsp_string(message, strlen(message))));
  fprintf(self->config.log, "oomlint server: %s\n", message);
  fflush(self->config.log);
}


/* The diagnostics of S's document linted with CFG: none when it is
 * excluded, or when there are no rules to run (that problem was shown).
 * Relints only the edited definition when it can, unless WHOLE; *PARTIAL
 * says whether it did. */
static json_t *lint(lsp_linting *self, slot *s, lsp_config *cfg, int64_t version, bool whole, bool *partial) {
  *partial = false;
  oom_worker *worker = cfg ? lsp_config_worker(cfg) : NULL;
  if (!worker) return json_array();
  const config *settings = lsp_config_settings(cfg);
  /* the configuration's globs see the path from its own folder, as the
   * command line's do (config_excluded, config_filter_document) */
  if (config_excluded(settings, s->path)) return json_array();
  oom_worker_use_project(worker, self->project);
  if (whole) oom_document_lint(s->doc, worker);
  else *partial = oom_document_relint(s->doc, worker);
  config_filter_document(settings, s->doc);
  return lsp_diagnostics_json(s->doc, self->config.units, version);
}


static bool before(const struct timespec *a, const struct timespec *b) {
  return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}


/* The slot whose whole-file lint is due, or NULL; *NEXT is set to the
 * earliest one not yet due, and *WAIT says whether there is one. Locked. */
static slot *confirm_due(lsp_linting *self, struct timespec *next, bool *wait) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  *wait = false;
  for (size_t i = 0; i < self->slots.len; i++) {
    slot *s = self->slots.items[i];
    if (!s->confirm) continue;
    if (!before(&now, &s->confirm_at)) return s;
    if (!*wait || before(&s->confirm_at, next)) *next = s->confirm_at;
    *wait = true;
  }
  return NULL;
}


/* Ask a pulling client to pull again. The id is a string, apart from the
 * main thread's numbered requests; the reply is ignored as theirs are.
 * Locked. */
static void send_refresh(lsp_linting *self) {
  char id[48];
  snprintf(id, sizeof id, "oomlint-lint-%llu", (unsigned long long)++self->requests);
  json_t *m = json_pack("{s:s, s:s, s:s}", "jsonrpc", "2.0", "id", id, "method", "workspace/diagnostic/refresh");
  lsp_send(self->config.out, m);
  json_decref(m);
}


/* Ask the client to watch the rule files of the rules folders it does not
 * watch yet. A registration per folder: they are few, and never withdrawn
 * (a folder no longer used only brings a notice that relints for
 * nothing). Locked. */
static void watch_new_rules_dirs(lsp_linting *self) {
  if (!self->watch_rules) return;
  for (; self->rules_watched < self->rules_dirs.len; self->rules_watched++) {
    const char *dir = self->rules_dirs.items[self->rules_watched];
    json_t *glob;
    if (self->relative_patterns) {
      char *uri = lsp_path_to_uri(dir);
      glob = json_pack("{s:o, s:s}", "baseUri", lsp_string(uri, strlen(uri)), "pattern", "*.scm");
      free(uri);
    } else {
      /* a glob of the absolute path: a folder whose name holds glob
       * characters is not watched exactly, and is still checked on lint */
      buf b = {0};
      buf_printf(&b, "%s/*.scm", dir);
      glob = lsp_string(b.data, b.len);
      buf_free(&b);
    }
    char id[48], reg[48];
    snprintf(id, sizeof id, "oomlint-watch-%llu", (unsigned long long)++self->requests);
    snprintf(reg, sizeof reg, "oomlint-rules-folder-%zu", self->rules_watched);
    json_t *m = json_pack("{s:s, s:s, s:s, s:{s:[{s:s, s:s, s:{s:[{s:o}]}}]}}", "jsonrpc", "2.0", "id", id, "method",
                          "client/registerCapability", "params", "registrations", "id", reg, "method",
                          "workspace/didChangeWatchedFiles", "registerOptions", "watchers", "globPattern", glob);
    lsp_send(self->config.out, m);
    json_decref(m);
  }
}


/* The configs built a linter from DIR: remember it, to be watched. Called
 * by the lint thread, unlocked. */
static void rules_dir_seen(void *ctx, const char *dir) {
  lsp_linting *self = ctx;
  char *abs = config_absolute(dir);
  pthread_mutex_lock(&self->lock);
  bool known = false;
  for (size_t i = 0; i < self->rules_dirs.len && !known; i++) known = !strcmp(self->rules_dirs.items[i], abs);
  if (!known) {
    vec_push(&self->rules_dirs, abs);
    abs = NULL;
    watch_new_rules_dirs(self);
  }
  pthread_mutex_unlock(&self->lock);
  free(abs);
}


/* Keep the reference to the configs' fallback, which hover reads, up to
 * date: a changed rules folder replaces it. Unlocked. */
static void track_fallback(lsp_linting *self) {
  lsp_config *fallback = lsp_configs_fallback(self->configs);
  if (fallback == self->fallback) return; /* only this thread sets it */
  if (fallback) lsp_config_retain(fallback);
  pthread_mutex_lock(&self->lock);
  lsp_config_release(self->fallback);
  self->fallback = fallback;
  pthread_mutex_unlock(&self->lock);
}


/* What S is linted with (a reference), looked up on every lint: a
 * configuration file or rule file changed on disk is noticed even without
 * a didChangeWatchedFiles. When a changed rule file was noticed, the other
 * documents' diagnostics came from the rules before it, and they are
 * linted again too. Unlocked. */
static lsp_config *config_for(lsp_linting *self, slot *s) {
  lsp_config *cfg = lsp_configs_for(self->configs, s->path);
  if (cfg) lsp_config_retain(cfg);
  track_fallback(self);
  uint64_t generation = lsp_configs_rules_generation(self->configs);
  if (generation != self->rules_generation) {
    self->rules_generation = generation;
    pthread_mutex_lock(&self->lock);
    for (size_t i = 0; i < self->slots.len; i++)
      if (self->slots.items[i] != s) self->slots.items[i]->wanted++;
    if (self->config.refresh) send_refresh(self);
    pthread_mutex_unlock(&self->lock);
  }
  return cfg;
}


/* A notebook's diagnostics, to its cells: pushed whether or not the client
 * pulls, as a pull names a cell, which has no lint of its own. Locked. */
static void publish_cells(lsp_linting *self, slot *s, int64_t version) {
  size_t len = 0;
  const char *text = s->doc ? oom_document_text(s->doc, &len) : "";
  lsp_notebook_publish(self->config.out, text, len, s->diagnostics, s->cells, s->ncells, version);
}


/* Lint S's whole document after a partial relint, and publish only when
 * that changes its diagnostics. Locked; unlocks while it lints. */
static void confirm(lsp_linting *self, slot *s) {
  s->confirm = false;
  uint64_t target = s->wanted;
  int64_t version = s->diagnostics_version;
  pthread_mutex_unlock(&self->lock);
  lsp_config *cfg = config_for(self, s);
  bool partial;
  json_t *diagnostics = s->doc ? lint(self, s, cfg, version, true, &partial) : NULL;
  pthread_mutex_lock(&self->lock);
  /* an edit since: the lint it asked for publishes */
  if (s->closed || !diagnostics || s->wanted != target || json_equal(diagnostics, s->diagnostics)) {
    json_decref(diagnostics);
    lsp_config_release(cfg);
    return;
  }
  lsp_config_release(s->config);
  s->config = cfg;
  json_decref(s->diagnostics);
  s->diagnostics = diagnostics;
  s->result_id = ++self->lint_count;
  if (s->ncells) publish_cells(self, s, version);
  else if (self->config.publish)
    lsp_send_notification(self->config.out, "textDocument/publishDiagnostics",
                          json_pack("{s:s, s:I, s:O}", "uri", s->uri, "version", (json_int_t)version, "diagnostics",
                                    diagnostics));
  else if (self->config.refresh)
    send_refresh(self); /* a pulling client would not ask again until the next edit */
}


static void *run(void *arg) {
  lsp_linting *self = arg;
  pthread_mutex_lock(&self->lock);
  for (;;) {
    /* first, so that exit need not wait for a build of rules; what is
     * still pending is freed by lsp_linting_stop */
    if (self->stop) break;
    if (self->has_over) {
      config_overrides over = self->next_over;
      memset(&self->next_over, 0, sizeof self->next_over);
      self->has_over = false;
      pthread_mutex_unlock(&self->lock);
      lsp_configs_set_overrides(self->configs, &over);
      lsp_config *fallback = lsp_configs_fallback(self->configs);
      if (fallback) lsp_config_retain(fallback);
      pthread_mutex_lock(&self->lock);
      lsp_config_release(self->fallback);
      self->fallback = fallback;
      continue;
    }
    if (self->rules_changed) {
      self->rules_changed = false;
      pthread_mutex_unlock(&self->lock);
      lsp_configs_rules_changed(self->configs);
      track_fallback(self);
      /* the main thread has asked for every document to be linted again */
      self->rules_generation = lsp_configs_rules_generation(self->configs);
      pthread_mutex_lock(&self->lock);
      continue;
    }
    if (self->has_roots) {
      VEC(char *) roots = {self->next_roots.items, self->next_roots.len, self->next_roots.cap};
      memset(&self->next_roots, 0, sizeof self->next_roots);
      self->has_roots = false;
      pthread_mutex_unlock(&self->lock);
      lsp_configs_set_roots(self->configs, (const char *const *)roots.items, roots.len);
      free_strings(roots.items, roots.len);
      vec_free(&roots);
      pthread_mutex_lock(&self->lock);
      continue;
    }
    if (self->changed_files.len) {
      VEC(char *) files = {self->changed_files.items, self->changed_files.len, self->changed_files.cap};
      memset(&self->changed_files, 0, sizeof self->changed_files);
      pthread_mutex_unlock(&self->lock);
      for (size_t i = 0; i < files.len; i++) {
        lsp_configs_forget(self->configs, files.items[i]);
        free(files.items[i]);
      }
      vec_free(&files);
      pthread_mutex_lock(&self->lock);
      continue;
    }
    if (self->changed_modules.len) {
      VEC(char *) files = {self->changed_modules.items, self->changed_modules.len, self->changed_modules.cap};
      memset(&self->changed_modules, 0, sizeof self->changed_modules);
      pthread_mutex_unlock(&self->lock);
      for (size_t i = 0; i < files.len; i++) oom_project_forget(self->project, files.items[i]);
      pthread_mutex_lock(&self->lock);
      for (size_t i = 0; i < files.len; i++) {
        relint_dependents(self, files.items[i], NULL);
        free(files.items[i]);
      }
      vec_free(&files);
      continue;
    }
    if (self->dead.len) {
      VEC(slot *) dead = {self->dead.items, self->dead.len, self->dead.cap};
      self->dead.items = NULL;
      self->dead.len = self->dead.cap = 0;
      pthread_mutex_unlock(&self->lock);
      /* a closed document's module is read from its file again */
      for (size_t i = 0; i < dead.len; i++) {
        if (dead.items[i]->doc && !find_open(self, dead.items[i]->path))
          oom_project_set_text(self->project, dead.items[i]->path, NULL, 0);
      }
      pthread_mutex_lock(&self->lock);
      for (size_t i = 0; i < dead.len; i++)
        if (dead.items[i]->doc) relint_dependents(self, dead.items[i]->path, NULL);
      pthread_mutex_unlock(&self->lock);
      for (size_t i = 0; i < dead.len; i++) slot_free(dead.items[i]);
      vec_free(&dead);
      pthread_mutex_lock(&self->lock);
      continue;
    }
    slot *s = next_dirty(self);
    if (!s) {
      struct timespec next = {0, 0};
      bool wait;
      slot *due = confirm_due(self, &next, &wait);
      if (due) confirm(self, due);
      else if (wait) pthread_cond_timedwait(&self->wake, &self->lock, &next);
      else pthread_cond_wait(&self->wake, &self->lock);
      continue;
    }
    /* take the queued changes; the main thread may queue more meanwhile */
    uint64_t target = s->wanted;
    int64_t version = s->version;
    bool has_reset = s->has_reset;
    char *reset = s->reset;
    size_t reset_len = s->reset_len, nedits = s->edits.len;
    queued_edit *edits = s->edits.items;
    s->has_reset = false;
    s->reset = NULL;
    s->edits.items = NULL;
    s->edits.len = s->edits.cap = 0;
    pthread_mutex_unlock(&self->lock);

    apply(self, s, has_reset, reset, reset_len, edits, nedits);
    for (size_t i = 0; i < nedits; i++) free(edits[i].text);
    free(edits);
    free(reset);
    lsp_config *cfg = config_for(self, s);
    bool partial = false;
    json_t *diagnostics = s->doc ? lint(self, s, cfg, version, false, &partial) : NULL;

    pthread_mutex_lock(&self->lock);
    s->confirm = partial;
    if (partial) {
      clock_gettime(CLOCK_MONOTONIC, &s->confirm_at);
      s->confirm_at.tv_nsec += CONFIRM_DELAY_MS * 1000000L;
      s->confirm_at.tv_sec += s->confirm_at.tv_nsec / 1000000000L;
      s->confirm_at.tv_nsec %= 1000000000L;
    }
    if (s->closed || !diagnostics) {
      json_decref(diagnostics);
      lsp_config_release(cfg);
      continue;
    }
    lsp_config_release(s->config);
    s->config = cfg;
    /* the last diagnostics are freed after the publish: freeing hundreds
     * of JSON objects takes as long as the partial relint itself */
    json_t *old = s->diagnostics;
    s->diagnostics = diagnostics;
    s->diagnostics_version = version;
    s->result_id = ++self->lint_count;
    s->done = target;
    if (s->done == s->wanted) {
      if (s->ncells) {
        publish_cells(self, s, version);
      } else if (self->config.publish) {
        /* under the lock, so a close's clearing cannot overtake this */
        lsp_send_notification(self->config.out, "textDocument/publishDiagnostics",
                               json_pack("{s:s, s:I, s:O}", "uri", s->uri, "version", (json_int_t)version,
                                         "diagnostics", diagnostics));
      }
      answer_waiting(self, s->uri, s);
    }
    pthread_mutex_unlock(&self->lock);
    json_decref(old);
    pthread_mutex_lock(&self->lock);
  }
  self->finished = true;
  pthread_cond_broadcast(&self->finished_cond);
  pthread_mutex_unlock(&self->lock);
  return NULL;
}


lsp_linting *lsp_linting_start(const lsp_linting_config *setup, config_overrides *over) {
  lsp_linting *self = oom_xcalloc(1, sizeof *self);
  self->config = *setup;
  self->config.configs.report = report;
  self->config.configs.report_ctx = self;
  self->config.configs.rules_dir = rules_dir_seen;
  self->configs = lsp_configs_new(&self->config.configs);
  self->project = oom_project_new();
  /* the setup's strings were copied; its pointers are not kept */
  self->config.configs.roots = NULL;
  self->config.configs.nroots = 0;
  self->config.configs.config_path = NULL;
  pthread_mutex_init(&self->lock, NULL);
  /* the wait for a due whole-file lint runs on the monotonic clock */
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&self->wake, &attr);
  pthread_condattr_destroy(&attr);
  pthread_cond_init(&self->finished_cond, NULL);
  self->next_over = *over;
  memset(over, 0, sizeof *over);
  self->has_over = true;
  if (pthread_create(&self->thread, NULL, run, self)) {
    fprintf(setup->log, "oomlint server: cannot start the lint thread\n");
    config_overrides_free(&self->next_over);
    lsp_configs_free(self->configs);
    oom_project_free(self->project);
    pthread_mutex_destroy(&self->lock);
    pthread_cond_destroy(&self->wake);
    pthread_cond_destroy(&self->finished_cond);
    free(self);
    return NULL;
  }
  return self;
}


int lsp_linting_stop(lsp_linting *self, int timeout_ms) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += timeout_ms / 1000;
  deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  pthread_mutex_lock(&self->lock);
  self->stop = true;
  pthread_cond_signal(&self->wake);
  while (!self->finished)
    if (pthread_cond_timedwait(&self->finished_cond, &self->lock, &deadline) == ETIMEDOUT) break;
  bool finished = self->finished;
  pthread_mutex_unlock(&self->lock);
  if (!finished) return -1;
  pthread_join(self->thread, NULL);
  for (size_t i = 0; i < self->waiting.len; i++) answer(self, &self->waiting.items[i], NULL);
  vec_free(&self->waiting);
  for (size_t i = 0; i < self->slots.len; i++) slot_free(self->slots.items[i]);
  vec_free(&self->slots);
  for (size_t i = 0; i < self->dead.len; i++) slot_free(self->dead.items[i]);
  vec_free(&self->dead);
  config_overrides_free(&self->next_over);
  free_strings(self->changed_files.items, self->changed_files.len);
  vec_free(&self->changed_files);
  free_strings(self->changed_modules.items, self->changed_modules.len);
  vec_free(&self->changed_modules);
  free_strings(self->next_roots.items, self->next_roots.len);
  vec_free(&self->next_roots);
  free_strings(self->rules_dirs.items, self->rules_dirs.len);
  vec_free(&self->rules_dirs);
  lsp_config_release(self->fallback);
  lsp_configs_free(self->configs);
  /* after the documents: none is linting, so nothing holds the index */
  oom_project_free(self->project);
  pthread_mutex_destroy(&self->lock);
  pthread_cond_destroy(&self->wake);
  pthread_cond_destroy(&self->finished_cond);
  free(self);
  return 0;
}


/* Retire URI's slot, if any. Locked. */
static void retire(lsp_linting *self, const char *uri) {
  for (size_t i = 0; i < self->slots.len; i++) {
    slot *s = self->slots.items[i];
    if (strcmp(s->uri, uri)) continue;
    s->closed = true;
    vec_push(&self->dead, s);
    memmove(self->slots.items + i, self->slots.items + i + 1, (self->slots.len - i - 1) * sizeof *self->slots.items);
    self->slots.len--;
    return;
  }
}


void lsp_linting_open(lsp_linting *self, const char *uri, const char *path, int64_t version, const char *text,
                      size_t length) {
  slot *s = oom_xcalloc(1, sizeof *s);
  s->uri = oom_xstrdup(uri);
  s->path = oom_xstrdup(path);
  s->version = version;
  s->reset = oom_xstrndup(text, length);
  s->reset_len = length;
  s->has_reset = true;
  s->wanted = 1;
  pthread_mutex_lock(&self->lock);
  retire(self, uri); /* opened twice: the newer text wins */
  vec_push(&self->slots, s);
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
}


/* Past this many queued edits a fresh copy is cheaper than replaying them. */
#define MAX_QUEUED_EDITS 256


void lsp_linting_notebook(lsp_linting *self, const char *uri, const char *path, int64_t version, const char *text,
                          size_t length, const lsp_byte_edit *edit, char *const *cells, size_t ncells) {
  char **copy = oom_xcalloc(ncells + 1, sizeof *copy);
  for (size_t i = 0; i < ncells; i++) copy[i] = oom_xstrdup(cells[i]);
  char *reset = oom_xstrndup(text, length);
  queued_edit e = {0, 0, NULL, 0};
  if (edit) e = (queued_edit){edit->start, edit->end, oom_xstrndup(edit->text, edit->length), edit->length};
  /* the text and its cells change together, so no lint publishes one with
   * the other's cells */
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  if (s && edit && s->edits.len < MAX_QUEUED_EDITS) {
    vec_push(&s->edits, e);
    e.text = NULL;
  } else {
    if (!s) {
      s = oom_xcalloc(1, sizeof *s);
      s->uri = oom_xstrdup(uri);
      s->path = oom_xstrdup(path);
      vec_push(&self->slots, s);
    }
    free_edits(s);
    free(s->reset);
    s->reset = reset;
    s->reset_len = length;
    s->has_reset = true;
    reset = NULL;
  }
  s->version = version;
  s->wanted++;
  free_cells(s);
  s->cells = copy;
  s->ncells = ncells;
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
  free(reset);
  free(e.text);
}


bool lsp_linting_change(lsp_linting *self, const char *uri, int64_t version, const lsp_byte_edit *edits,
                        size_t count) {
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  if (s) {
    for (size_t i = 0; i < count; i++) {
      queued_edit e = {edits[i].start, edits[i].end, oom_xstrndup(edits[i].text, edits[i].length), edits[i].length};
      vec_push(&s->edits, e);
    }
    s->version = version;
    s->wanted++;
    pthread_cond_signal(&self->wake);
  }
  bool too_many = s && s->edits.len > MAX_QUEUED_EDITS;
  pthread_mutex_unlock(&self->lock);
  return too_many;
}


void lsp_linting_reset(lsp_linting *self, const char *uri, int64_t version, const char *text, size_t length) {
  char *copy = oom_xstrndup(text, length);
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  if (s) {
    free_edits(s);
    free(s->reset);
    s->reset = copy;
    s->reset_len = length;
    s->has_reset = true;
    s->version = version;
    s->wanted++;
    copy = NULL;
    pthread_cond_signal(&self->wake);
  }
  pthread_mutex_unlock(&self->lock);
  free(copy);
}


void lsp_linting_close(lsp_linting *self, const char *uri) {
  pthread_mutex_lock(&self->lock);
  retire(self, uri);
  answer_waiting(self, uri, NULL);
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
}


/* Every document is to be linted again. Locked. */
static void relint_all(lsp_linting *self) {
  for (size_t i = 0; i < self->slots.len; i++) self->slots.items[i]->wanted++;
  pthread_cond_signal(&self->wake);
}


void lsp_linting_set_overrides(lsp_linting *self, config_overrides *over) {
  pthread_mutex_lock(&self->lock);
  config_overrides_free(&self->next_over); /* never used */
  self->next_over = *over;
  memset(over, 0, sizeof *over);
  self->has_over = true;
  relint_all(self);
  pthread_mutex_unlock(&self->lock);
}


void lsp_linting_configs_changed(lsp_linting *self, const char *const *paths, size_t count) {
  pthread_mutex_lock(&self->lock);
  for (size_t i = 0; i < count; i++) vec_push(&self->changed_files, oom_xstrdup(paths[i]));
  relint_all(self);
  pthread_mutex_unlock(&self->lock);
}


void lsp_linting_modules_changed(lsp_linting *self, const char *const *paths, size_t count, bool created) {
  pthread_mutex_lock(&self->lock);
  for (size_t i = 0; i < count; i++) vec_push(&self->changed_modules, oom_xstrdup(paths[i]));
  /* a new module may be what an import that did not resolve names: no
   * document's last lint read it, so every one is linted again */
  if (created) relint_all(self);
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
}


void lsp_linting_set_roots(lsp_linting *self, const char *const *roots, size_t nroots, const char *const *uris,
                           size_t nuris) {
  pthread_mutex_lock(&self->lock);
  /* an earlier list the thread has not taken yet is simply replaced; the
   * thread applies the list before it lints again, like the settings */
  free_strings(self->next_roots.items, self->next_roots.len);
  self->next_roots.len = 0;
  for (size_t i = 0; i < nroots; i++) vec_push(&self->next_roots, oom_xstrdup(roots[i]));
  self->has_roots = true;
  for (size_t i = 0; i < nuris; i++) {
    slot *s = find(self, uris[i]);
    if (s) s->wanted++;
  }
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
}


void lsp_linting_rules_changed(lsp_linting *self) {
  pthread_mutex_lock(&self->lock);
  self->rules_changed = true;
  relint_all(self);
  pthread_mutex_unlock(&self->lock);
}


void lsp_linting_watch_rules(lsp_linting *self, bool relative_patterns) {
  pthread_mutex_lock(&self->lock);
  self->watch_rules = true;
  self->relative_patterns = relative_patterns;
  watch_new_rules_dirs(self);
  pthread_mutex_unlock(&self->lock);
}


bool lsp_linting_rule_doc(lsp_linting *self, const char *uri, const char *code,
                          void (*format)(buf *out, const oom_rule *rule), buf *out) {
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  /* the lint thread swaps these under the lock, so the linter stays alive
   * while FORMAT reads it */
  const lsp_config *cfg = s && s->config ? s->config : self->fallback;
  const oom_linter *linter = cfg ? lsp_config_linter(cfg) : NULL;
  const oom_rule *rule = linter ? oom_linter_find_rule(linter, code) : NULL;
  if (rule) format(out, rule);
  pthread_mutex_unlock(&self->lock);
  return rule != NULL;
}


json_t *lsp_linting_snapshot(lsp_linting *self, const char *uri, bool *current, int64_t *version, char *result_id,
                             size_t result_id_size) {
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  json_t *d = s ? json_incref(s->diagnostics) : NULL;
  if (current) *current = s && s->done == s->wanted && d;
  if (version) *version = s ? s->diagnostics_version : 0;
  if (result_id && s) format_result_id(s, result_id, result_id_size);
  pthread_mutex_unlock(&self->lock);
  return d;
}


void lsp_linting_defer(lsp_linting *self, const char *uri, json_t *id, lsp_answer_fn fn, json_t *state) {
  deferred d = {oom_xstrdup(uri), json_incref(id), fn, state};
  pthread_mutex_lock(&self->lock);
  slot *s = find(self, uri);
  if (!s || (s->done == s->wanted && s->diagnostics)) answer(self, &d, s);
  else vec_push(&self->waiting, d);
  pthread_mutex_unlock(&self->lock);
}


bool lsp_linting_cancel(lsp_linting *self, const json_t *id) {
  bool found = false;
  pthread_mutex_lock(&self->lock);
  for (size_t i = 0; i < self->waiting.len; i++) {
    deferred *d = &self->waiting.items[i];
    if (!json_equal(d->id, (json_t *)id)) continue;
    lsp_send_error(self->config.out, d->id, LSP_REQUEST_CANCELLED, "cancelled");
    free(d->uri);
    json_decref(d->id);
    json_decref(d->state);
    memmove(d, d + 1, (self->waiting.len - i - 1) * sizeof *d);
    self->waiting.len--;
    found = true;
    break;
  }
  pthread_mutex_unlock(&self->lock);
  return found;
}
