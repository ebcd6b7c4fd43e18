/* This file contains the lint thread. Linting a large file takes seconds, so
 * it runs beside the main thread, which keeps answering; edits queued while a
 * lint runs are applied together before the next one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/diagnostics.h"
#include "lsp/linting.h"
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
} slot;

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
  const oom_linter *next_linter; /* handed over by the main thread */
  bool next_owned, has_next;
  uint64_t lint_count;
  size_t cursor; /* round-robin start, so one busy document cannot starve the others */
};


static void free_edits(slot *s) {
  for (size_t i = 0; i < s->edits.len; i++) free(s->edits.items[i].text);
  s->edits.len = 0;
}


static void slot_free(slot *s) {
  free_edits(s);
  vec_free(&s->edits);
  free(s->reset);
  oom_document_free(s->doc);
  json_decref(s->diagnostics);
  free(s->uri);
  free(s->path);
  free(s);
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


static void *run(void *arg) {
  lsp_linting *self = arg;
  const oom_linter *linter = NULL;
  bool owned = false;
  oom_worker *worker = NULL;
  pthread_mutex_lock(&self->lock);
  for (;;) {
    if (self->has_next) {
      const oom_linter *old = linter;
      bool old_owned = owned;
      linter = self->next_linter;
      owned = self->next_owned;
      self->has_next = false;
      pthread_mutex_unlock(&self->lock);
      oom_worker_free(worker);
      if (old_owned) oom_linter_free((oom_linter *)old);
      worker = oom_worker_new(linter);
      if (!worker)
        fprintf(self->config.log, "oomlint server: the Python grammar does not load into this tree-sitter runtime\n");
      pthread_mutex_lock(&self->lock);
      continue;
    }
    if (self->dead.len) {
      VEC(slot *) dead = {self->dead.items, self->dead.len, self->dead.cap};
      self->dead.items = NULL;
      self->dead.len = self->dead.cap = 0;
      pthread_mutex_unlock(&self->lock);
      for (size_t i = 0; i < dead.len; i++) slot_free(dead.items[i]);
      vec_free(&dead);
      pthread_mutex_lock(&self->lock);
      continue;
    }
    if (self->stop) break;
    slot *s = worker ? next_dirty(self) : NULL;
    if (!s) {
      pthread_cond_wait(&self->wake, &self->lock);
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
    json_t *diagnostics = NULL;
    if (s->doc) {
      oom_document_lint(s->doc, worker);
      diagnostics = lsp_diagnostics_json(s->doc, self->config.units, version);
    }

    pthread_mutex_lock(&self->lock);
    if (s->closed || !diagnostics) {
      json_decref(diagnostics);
      continue;
    }
    json_decref(s->diagnostics);
    s->diagnostics = diagnostics;
    s->diagnostics_version = version;
    s->result_id = ++self->lint_count;
    s->done = target;
    if (s->done != s->wanted) continue; /* stale already: the next lint publishes */
    if (self->config.publish) {
      /* under the lock, so a close's clearing cannot overtake this */
      lsp_send_notification(self->config.out, "textDocument/publishDiagnostics",
                             json_pack("{s:s, s:I, s:O}", "uri", s->uri, "version", (json_int_t)version,
                                       "diagnostics", diagnostics));
    }
    answer_waiting(self, s->uri, s);
  }
  pthread_mutex_unlock(&self->lock);
  oom_worker_free(worker);
  if (owned) oom_linter_free((oom_linter *)linter);
  pthread_mutex_lock(&self->lock);
  self->finished = true;
  pthread_cond_broadcast(&self->finished_cond);
  pthread_mutex_unlock(&self->lock);
  return NULL;
}


lsp_linting *lsp_linting_start(const lsp_linting_config *config, const oom_linter *linter, bool owned) {
  lsp_linting *self = oom_xcalloc(1, sizeof *self);
  self->config = *config;
  pthread_mutex_init(&self->lock, NULL);
  pthread_cond_init(&self->wake, NULL);
  pthread_cond_init(&self->finished_cond, NULL);
  self->next_linter = linter;
  self->next_owned = owned;
  self->has_next = true;
  if (pthread_create(&self->thread, NULL, run, self)) {
    fprintf(config->log, "oomlint server: cannot start the lint thread\n");
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
  if (self->has_next && self->next_owned) oom_linter_free((oom_linter *)self->next_linter);
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


void lsp_linting_set_linter(lsp_linting *self, const oom_linter *linter, bool owned) {
  pthread_mutex_lock(&self->lock);
  if (self->has_next && self->next_owned) oom_linter_free((oom_linter *)self->next_linter); /* never used */
  self->next_linter = linter;
  self->next_owned = owned;
  self->has_next = true;
  for (size_t i = 0; i < self->slots.len; i++) self->slots.items[i]->wanted++;
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
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
