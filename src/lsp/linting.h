/* The server's lint thread: it owns the oom_documents and the configurations
 * (each document's file and linter), applies the byte edits the main thread
 * queues, lints, publishes, and answers deferred requests. */
#ifndef OOM_LSP_LINTING_H
#define OOM_LSP_LINTING_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "lsp/configs.h"
#include "lsp/rpc.h"
#include "oomlint/oomlint.h"
#include "util/buf.h"

typedef struct lsp_linting lsp_linting;

/** One change in bytes of the text as it was after the previous one. */
typedef struct {
  size_t start, end;
  const char *text;
  size_t length;
} lsp_byte_edit;

/** How a deferred request is answered once its document's diagnostics are
 *  current: DIAGNOSTICS (NULL when the document was closed), their RESULT_ID
 *  and the VERSION they belong to, and the request's STATE. Returns the result. */
typedef json_t *(*lsp_answer_fn)(json_t *diagnostics, const char *result_id, int64_t version, json_t *state);

typedef struct {
  lsp_writer *out;
  FILE *log;
  oom_units units;
  bool publish; /* push publishDiagnostics (clients that do not pull) */
  bool refresh; /* a pulling client takes workspace/diagnostic/refresh */
  /* where configuration files are looked for (its report is set by the
   * thread: a problem goes to window/showMessage and the log) */
  lsp_configs_setup configs;
} lsp_linting_config;

/** Start the thread, its linters built with OVER (consumed: the command
 *  line's flags under the editor's settings) above the configuration files. */
lsp_linting *lsp_linting_start(const lsp_linting_config *setup, config_overrides *over);
/** Stop the thread. Returns 0 when it ended and everything was freed, or -1
 *  when it is still inside a long lint after TIMEOUT_MS (the caller exits). */
int lsp_linting_stop(lsp_linting *self, int timeout_ms);

void lsp_linting_open(lsp_linting *self, const char *uri, const char *path, int64_t version,
                      const char *text, size_t length);
/** Queue edits (in order) bringing the document to VERSION. Returns true
 *  when so many wait that the caller should send the whole text instead. */
bool lsp_linting_change(lsp_linting *self, const char *uri, int64_t version, const lsp_byte_edit *edits,
                        size_t count);
/** Queue a whole new text (a full-document change). */
void lsp_linting_reset(lsp_linting *self, const char *uri, int64_t version, const char *text, size_t length);
/** Open or change the module of a notebook at URI to TEXT: by EDIT (the
 *  one change from the last text, so that an edit inside one definition
 *  relints only it) when given and the document is open, else by the whole
 *  text. Its diagnostics are published to CELLS (NCELLS code cells' URIs,
 *  copied; the module's cells in order), not to URI. */
void lsp_linting_notebook(lsp_linting *self, const char *uri, const char *path, int64_t version, const char *text,
                          size_t length, const lsp_byte_edit *edit, char *const *cells, size_t ncells);
/** Forget the document; deferred requests on it are answered at once. */
void lsp_linting_close(lsp_linting *self, const char *uri);
/** Lint every document again with OVER (consumed) instead; when its rules
 *  cannot be built, the error is shown and the old settings stay. */
void lsp_linting_set_overrides(lsp_linting *self, config_overrides *over);
/** Configuration files at PATHS were created, changed or deleted: read
 *  them again and lint every document again. */
void lsp_linting_configs_changed(lsp_linting *self, const char *const *paths, size_t count);

/** Python files at PATHS (absolute) changed on disk: the project index
 *  forgets them, and the open documents whose lint read them are linted
 *  again (every document when one was CREATED). An open document's own
 *  buffer stays what its imports see. */
void lsp_linting_modules_changed(lsp_linting *self, const char *const *paths, size_t count, bool created);

/** The workspace folders are now ROOTS (copied): lint again the documents
 *  at URIS, the ones whose search for a configuration file they bound
 *  differently. */
void lsp_linting_set_roots(lsp_linting *self, const char *const *roots, size_t nroots, const char *const *uris,
                           size_t nuris);

/** The client reported a changed rule file: build again the linters whose
 *  rules folders changed, and lint every document again. */
void lsp_linting_rules_changed(lsp_linting *self);
/** From now on, ask the client to watch the `*.scm` files of every rules
 *  folder a linter is built from (with RelativePatterns when the client
 *  takes them). Call once the client is initialized. */
void lsp_linting_watch_rules(lsp_linting *self, bool relative_patterns);

/** The diagnostics (a new reference) of the document's last lint, or NULL;
 *  *CURRENT says whether they belong to its latest text and settings. */
json_t *lsp_linting_snapshot(lsp_linting *self, const char *uri, bool *current, int64_t *version,
                             char *result_id, size_t result_id_size);
/** Answer request ID with FN once the document's diagnostics are current
 *  (at once if they are). STATE is consumed; ID is borrowed. */
void lsp_linting_defer(lsp_linting *self, const char *uri, json_t *id, lsp_answer_fn fn, json_t *state);
/** Call FORMAT with OUT and the rule CODE of the linter that last linted
 *  URI (the fallback one before a lint); false when it has no such rule. */
bool lsp_linting_rule_doc(lsp_linting *self, const char *uri, const char *code,
                          void (*format)(buf *out, const oom_rule *rule), buf *out);
/** Answer a deferred request ID with RequestCancelled; false if none waits. */
bool lsp_linting_cancel(lsp_linting *self, const json_t *id);

#endif
