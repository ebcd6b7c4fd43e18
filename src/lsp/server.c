/* This file contains the language server's main loop: reading messages,
 * the lifecycle (initialize ... exit), text synchronisation and diagnostics. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/diagnostics.h"
#include "lsp/lsp.h"
#include "lsp/server.h"
#include "lsp/settings.h"
#include "util/alloc.h"

/* how long `exit` waits for a lint in progress before leaving without it */
#define STOP_TIMEOUT_MS 2000


void lsp_log(lsp_server *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("oomlint server: ", self->log);
  vfprintf(self->log, fmt, ap);
  fputc('\n', self->log);
  fflush(self->log);
  va_end(ap);
}


void lsp_show_message(lsp_server *self, int type, const char *message) {
  lsp_send_notification(&self->out, "window/showMessage",
                        json_pack("{s:i, s:o}", "type", type, "message", lsp_string(message, strlen(message))));
  lsp_log(self, "%s", message);
}


lsp_document *lsp_server_document(lsp_server *self, const char *uri) {
  if (!uri) return NULL;
  for (size_t i = 0; i < self->docs.len; i++)
    if (!strcmp(self->docs.items[i]->uri, uri)) return self->docs.items[i];
  return NULL;
}


static void document_free(lsp_document *d) {
  free(d->uri);
  free(d->path);
  lsp_text_free(&d->text);
  free(d);
}


static void remove_document(lsp_server *self, const char *uri) {
  for (size_t i = 0; i < self->docs.len; i++) {
    if (strcmp(self->docs.items[i]->uri, uri)) continue;
    document_free(self->docs.items[i]);
    memmove(self->docs.items + i, self->docs.items + i + 1, (self->docs.len - i - 1) * sizeof *self->docs.items);
    self->docs.len--;
    return;
  }
}


void lsp_server_remove_document(lsp_server *self, const char *uri) {
  remove_document(self, uri);
}


lsp_document *lsp_server_add_document(lsp_server *self, const char *uri, int64_t version, const char *text,
                                      size_t length) {
  remove_document(self, uri);
  lsp_document *d = oom_xcalloc(1, sizeof *d);
  d->uri = oom_xstrdup(uri);
  d->path = lsp_uri_to_path(uri);
  d->version = version;
  lsp_text_init(&d->text, text, length);
  vec_push(&self->docs, d);
  return d;
}


static const char *uri_of(const json_t *params) {
  return json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
}


/* ---- lifecycle ---- */

static bool offers(const json_t *array, const char *name) {
  size_t i;
  json_t *v;
  json_array_foreach(array, i, v) if (json_is_string(v) && !strcmp(json_string_value(v), name)) return true;
  return false;
}


/* The editor's SETTINGS over the command line's flags, into OUT; what is
 * malformed in them is shown as a warning when SHOW. */
static void read_settings(lsp_server *self, const json_t *settings, bool show, config_overrides *out) {
  config_overrides editor, none = {0};
  buf problems = {0};
  lsp_settings_parse(settings, self->roots.len ? self->roots.items[0] : NULL, &editor, &problems);
  if (problems.len && show) {
    buf msg = {0};
    buf_printf(&msg, "oomlint settings: %s", buf_str(&problems));
    lsp_show_message(self, 2, buf_str(&msg));
    buf_free(&msg);
  }
  buf_free(&problems);
  const config_overrides *flags = self->options && self->options->flags ? self->options->flags : &none;
  config_overrides_merge(flags, &editor, out);
  config_overrides_free(&editor);
}


/* The lint thread takes its own copy: merged onto nothing, it is one. */
static void copy_settings(const config_overrides *from, config_overrides *to) {
  config_overrides none = {0};
  config_overrides_merge(&none, from, to);
}


/* The path of a workspace folder's URI, folded as the configs fold it, so
 * that a removed folder is found whatever its spelling; NULL when it is not
 * a file: URI (it bounds no search on disk). */
static char *root_path(const char *uri) {
  char *path = lsp_uri_to_path(uri);
  char *folded = path[0] == '/' ? config_absolute(path) : NULL;
  free(path);
  return folded;
}


/* Add PATH (consumed, may be NULL) to the roots; false when it is one already. */
static bool add_root(lsp_server *self, char *path) {
  if (!path) return false;
  for (size_t i = 0; i < self->roots.len; i++)
    if (!strcmp(self->roots.items[i], path)) {
      free(path);
      return false;
    }
  vec_push(&self->roots, path);
  return true;
}


/* Remove PATH (consumed, may be NULL) from the roots; false when it was none. */
static bool remove_root(lsp_server *self, char *path) {
  bool found = false;
  for (size_t i = 0; path && i < self->roots.len && !found; i++) {
    if (strcmp(self->roots.items[i], path)) continue;
    free(self->roots.items[i]);
    memmove(self->roots.items + i, self->roots.items + i + 1, (self->roots.len - i - 1) * sizeof *self->roots.items);
    self->roots.len--;
    found = true;
  }
  free(path);
  return found;
}


static json_t *initialize(lsp_server *self, const json_t *params) {
  const json_t *caps = json_object_get(params, "capabilities");
  const json_t *encodings = json_object_get(json_object_get(caps, "general"), "positionEncodings");
  /* UTF-8 needs no conversion at all; UTF-16 is the protocol's default */
  const char *encoding = "utf-16";
  self->units = OOM_UNITS_UTF16;
  if (offers(encodings, "utf-8")) {
    encoding = "utf-8";
    self->units = OOM_UNITS_BYTES;
  } else if (!offers(encodings, "utf-16") && offers(encodings, "utf-32")) {
    encoding = "utf-32";
    self->units = OOM_UNITS_CODEPOINTS;
  }
  const json_t *td = json_object_get(caps, "textDocument");
  self->pull = json_object_get(td, "diagnostic") != NULL;
  const json_t *ws = json_object_get(caps, "workspace");
  self->document_changes = json_is_true(json_object_get(json_object_get(ws, "workspaceEdit"), "documentChanges"));
  self->refresh = json_is_true(json_object_get(json_object_get(ws, "diagnostics"), "refreshSupport"));
  const json_t *watched = json_object_get(ws, "didChangeWatchedFiles");
  self->watch = json_is_true(json_object_get(watched, "dynamicRegistration"));
  self->relative_patterns = json_is_true(json_object_get(watched, "relativePatternSupport"));

  /* the workspace folders bound each document's search for its
   * configuration file: a file above the project is not the project's */
  const json_t *folders = json_object_get(params, "workspaceFolders");
  size_t i;
  json_t *f;
  json_array_foreach(folders, i, f) {
    const char *uri = json_string_value(json_object_get(f, "uri"));
    if (uri) add_root(self, root_path(uri));
  }
  const char *root_uri = json_string_value(json_object_get(params, "rootUri"));
  const char *old_root = json_string_value(json_object_get(params, "rootPath"));
  if (!self->roots.len && root_uri) add_root(self, root_path(root_uri));
  else if (!self->roots.len && old_root && old_root[0] == '/') add_root(self, config_absolute(old_root));

  const json_t *options = json_object_get(params, "initializationOptions");
  self->editor_settings = options ? json_deep_copy(options) : NULL;
  read_settings(self, options, true, &self->settings);
  config_overrides settings;
  copy_settings(&self->settings, &settings);
  lsp_linting_config setup = {&self->out, self->log, self->units, !self->pull, self->pull && self->refresh,
                               {(const char *const *)self->roots.items, self->roots.len,
                                self->options ? self->options->config_path : NULL,
                                self->options && self->options->isolated, NULL, NULL, NULL}};
  self->linting = lsp_linting_start(&setup, &settings);
  if (!self->linting) {
    config_overrides_free(&settings);
    return NULL;
  }

  json_t *capabilities = json_pack(
    "{s:s, s:{s:b, s:i, s:{s:b}}, s:{s:[s, s, s], s:b}, s:b}", "positionEncoding", encoding, "textDocumentSync",
    "openClose", 1, "change", 2, "save", "includeText", 0, "codeActionProvider", "codeActionKinds", "quickfix",
    "source.fixAll", "source.fixAll.oomlint", "resolveProvider", 0, "hoverProvider", 1);
  /* notebooks: Jupyter's, their Python cells (VS Code syncs them this way) */
  json_object_set_new(capabilities, "notebookDocumentSync",
                      json_pack("{s:[{s:{s:s}, s:[{s:s}]}], s:b}", "notebookSelector", "notebook", "notebookType",
                                "jupyter-notebook", "cells", "language", "python", "save", 0));
  json_object_set_new(capabilities, "workspace",
                      json_pack("{s:{s:b, s:b}}", "workspaceFolders", "supported", 1, "changeNotifications", 1));
  if (self->pull)
    json_object_set_new(capabilities, "diagnosticProvider",
                        json_pack("{s:s, s:b, s:b}", "identifier", "oomlint", "interFileDependencies", 1,
                                  "workspaceDiagnostics", 0));
  self->initialized = true;
  return json_pack("{s:o, s:{s:s, s:s}}", "capabilities", capabilities, "serverInfo", "name", "oomlint", "version",
                   oom_version());
}


/* A pulling client asks again for what changed under it. */
static void refresh(lsp_server *self) {
  if (!self->pull || !self->refresh) return;
  json_t *m = json_pack("{s:s, s:I, s:s}", "jsonrpc", "2.0", "id", (json_int_t)++self->next_request_id, "method",
                        "workspace/diagnostic/refresh");
  lsp_send(&self->out, m);
  json_decref(m);
}


/* Read SETTINGS (SHOW: their problems too) and hand them to the lint
 * thread, which lints every document again; false when they say what the
 * last ones said. */
static bool apply_settings(lsp_server *self, const json_t *settings, bool show) {
  config_overrides next;
  read_settings(self, settings, show, &next);
  /* editors send this for any change of their settings: rebuilding every
   * configuration's rules for nothing would cost a second per file */
  if (config_overrides_equal(&next, &self->settings)) {
    config_overrides_free(&next);
    return false;
  }
  config_overrides_free(&self->settings);
  self->settings = next;
  config_overrides copy;
  copy_settings(&self->settings, &copy);
  lsp_linting_set_overrides(self->linting, &copy);
  return true;
}


static void did_change_configuration(lsp_server *self, const json_t *params) {
  const json_t *settings = json_object_get(params, "settings");
  if (!json_is_object(settings)) return;
  json_decref(self->editor_settings);
  self->editor_settings = json_deep_copy(settings);
  if (apply_settings(self, settings, true)) refresh(self);
}


/* ---- workspace folders ---- */

/* Whether the first of ROOTS and the first of OTHER differ. */
static bool other_anchor(char *const *roots, size_t n, char *const *other, size_t m) {
  if (!n || !m) return n != m;
  return strcmp(roots[0], other[0]) != 0;
}


/* Whether PATH's search for its configuration file stops at another folder
 * under ROOTS than under OTHER. */
static bool other_stop(char *const *roots, size_t n, char *const *other, size_t m, const char *path) {
  const char *a = lsp_configs_root_for((const char *const *)roots, n, path);
  const char *b = lsp_configs_root_for((const char *const *)other, m, path);
  if (!a || !b) return a != b;
  return strcmp(a, b) != 0;
}


/* Each folder's path in FOLDERS (an array of WorkspaceFolder), NULL for
 * one that is malformed or not a file: URI, handed to EACH. */
static bool each_folder(lsp_server *self, const json_t *folders, bool (*each)(lsp_server *, char *)) {
  bool changed = false;
  size_t i;
  json_t *f;
  json_array_foreach(folders, i, f) {
    const char *uri = json_string_value(json_object_get(f, "uri"));
    if (!uri) lsp_log(self, "a workspace folder without a uri: ignored");
    changed |= each(self, uri ? root_path(uri) : NULL);
  }
  return changed;
}


static void did_change_workspace_folders(lsp_server *self, const json_t *params) {
  const json_t *event = json_object_get(params, "event");
  const json_t *added = json_object_get(event, "added"), *removed = json_object_get(event, "removed");
  if (!json_is_object(event) || (added && !json_is_array(added)) || (removed && !json_is_array(removed))) {
    lsp_log(self, "didChangeWorkspaceFolders without an event of arrays: ignored");
    return;
  }
  VEC(char *) before = {0};
  for (size_t k = 0; k < self->roots.len; k++) vec_push(&before, oom_xstrdup(self->roots.items[k]));
  /* removed first: a folder both removed and added stays */
  bool changed = each_folder(self, removed, remove_root);
  changed |= each_folder(self, added, add_root);
  if (changed) {
    /* only the documents whose search now stops elsewhere can find another
     * file; with --config or --isolated no document searches at all */
    bool searching = !(self->options && (self->options->isolated || self->options->config_path));
    VEC(const char *) uris = {0};
    for (size_t k = 0; k < self->docs.len && searching; k++) {
      const lsp_document *d = self->docs.items[k];
      if (other_stop(before.items, before.len, self->roots.items, self->roots.len, d->path)) vec_push(&uris, d->uri);
    }
    lsp_linting_set_roots(self->linting, (const char *const *)self->roots.items, self->roots.len, uris.items,
                          uris.len);
    /* a relative rulesDir is read from the first folder */
    bool resettled = other_anchor(before.items, before.len, self->roots.items, self->roots.len) &&
                     apply_settings(self, self->editor_settings, false);
    if (uris.len || resettled) refresh(self);
    vec_free(&uris);
  }
  for (size_t k = 0; k < before.len; k++) free(before.items[k]);
  vec_free(&before);
}


/* Ask a client that can for notices of changed configuration files, and
 * of changed rule files in the rules folders (the lint thread asks for
 * those, as it learns which folders the configurations name). */
static void register_watchers(lsp_server *self) {
  if (!self->watch) return;
  lsp_linting_watch_rules(self->linting, self->relative_patterns);
  bool isolated = self->options && self->options->isolated;
  json_t *watchers = json_array();
  for (size_t i = 0; !isolated && config_file_names[i]; i++) {
    buf glob = {0};
    buf_printf(&glob, "**/%s", config_file_names[i]);
    json_array_append_new(watchers, json_pack("{s:s}", "globPattern", buf_str(&glob)));
    buf_free(&glob);
  }
  /* the modules documents import: the project index reads them again */
  json_array_append_new(watchers, json_pack("{s:s}", "globPattern", "**/*.py"));
  const char *named = self->options && !isolated ? self->options->config_path : NULL;
  if (named) {
    const char *base = strrchr(named, '/');
    buf glob = {0};
    buf_printf(&glob, "**/%s", base ? base + 1 : named);
    json_array_append_new(watchers, json_pack("{s:o}", "globPattern", lsp_string(glob.data, glob.len)));
    buf_free(&glob);
  }
  json_t *m = json_pack("{s:s, s:I, s:s, s:{s:[{s:s, s:s, s:{s:o}}]}}", "jsonrpc", "2.0", "id",
                        (json_int_t)++self->next_request_id, "method", "client/registerCapability", "params",
                        "registrations", "id", "oomlint-configuration-files", "method",
                        "workspace/didChangeWatchedFiles", "registerOptions", "watchers", watchers);
  lsp_send(&self->out, m);
  json_decref(m);
}


static bool is_config_file(const lsp_server *self, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  for (size_t i = 0; config_file_names[i]; i++)
    if (!strcmp(base, config_file_names[i])) return true;
  const char *named = self->options ? self->options->config_path : NULL;
  if (!named) return false;
  const char *nbase = strrchr(named, '/');
  return !strcmp(base, nbase ? nbase + 1 : named);
}


/* Whether PATH names a rule file: the only other files watched. */
static bool is_rule_file(const char *path) {
  size_t n = strlen(path);
  return n > 4 && !strcmp(path + n - 4, ".scm");
}


static bool is_python_file(const char *path) {
  size_t n = strlen(path);
  return n > 3 && !strcmp(path + n - 3, ".py");
}


static void did_change_watched_files(lsp_server *self, const json_t *params) {
  VEC(char *) paths = {0};
  VEC(char *) modules = {0};
  bool rules = false, created = false;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(params, "changes"), i, c) {
    const char *uri = json_string_value(json_object_get(c, "uri"));
    if (!uri) continue;
    char *path = lsp_uri_to_path(uri);
    rules |= is_rule_file(path);
    if (is_python_file(path)) {
      created |= json_integer_value(json_object_get(c, "type")) == 1; /* FileChangeType.Created */
      vec_push(&modules, path);
    } else if (is_config_file(self, path)) vec_push(&paths, path);
    else free(path);
  }
  if (paths.len) lsp_linting_configs_changed(self->linting, (const char *const *)paths.items, paths.len);
  if (modules.len) lsp_linting_modules_changed(self->linting, (const char *const *)modules.items, modules.len, created);
  if (rules) lsp_linting_rules_changed(self->linting);
  if (paths.len || rules || modules.len) refresh(self);
  for (size_t k = 0; k < paths.len; k++) free(paths.items[k]);
  vec_free(&paths);
  for (size_t k = 0; k < modules.len; k++) free(modules.items[k]);
  vec_free(&modules);
}


/* ---- text synchronisation ---- */

static void did_open(lsp_server *self, const json_t *params) {
  const json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  const json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text)) {
    lsp_log(self, "didOpen without a uri or text: ignored");
    return;
  }
  remove_document(self, uri);
  lsp_document *d = oom_xcalloc(1, sizeof *d);
  d->uri = oom_xstrdup(uri);
  d->path = lsp_uri_to_path(uri);
  d->version = json_integer_value(json_object_get(td, "version"));
  lsp_text_init(&d->text, json_string_value(text), json_string_length(text));
  vec_push(&self->docs, d);
  lsp_linting_open(self->linting, uri, d->path, d->version, d->text.data, d->text.len);
}


static void did_change(lsp_server *self, const json_t *params) {
  const char *uri = uri_of(params);
  lsp_document *d = lsp_server_document(self, uri);
  if (!d) {
    lsp_log(self, "didChange of a document that is not open (%s): ignored", uri ? uri : "no uri");
    return;
  }
  const json_t *changes = json_object_get(params, "contentChanges");
  int64_t version = json_integer_value(json_object_get(json_object_get(params, "textDocument"), "version"));
  VEC(lsp_byte_edit) edits = {0};
  bool whole = false;
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    const json_t *text = json_object_get(c, "text");
    if (!json_is_string(text)) continue;
    const char *s = json_string_value(text);
    size_t n = json_string_length(text);
    const json_t *range = json_object_get(c, "range");
    if (!range) {
      /* a whole new text: earlier edits of this batch no longer matter */
      lsp_text_free(&d->text);
      lsp_text_init(&d->text, s, n);
      edits.len = 0;
      whole = true;
      continue;
    }
    size_t start, end;
    if (!lsp_range_bytes(&d->text, range, self->units, &start, &end)) {
      lsp_log(self, "didChange with a malformed range: change ignored");
      continue;
    }
    lsp_text_replace(&d->text, start, end, s, n);
    lsp_byte_edit e = {start, end, s, n};
    vec_push(&edits, e);
  }
  d->version = version;
  /* a whole text, or a long queue of edits: send the text as it is now */
  if (whole || lsp_linting_change(self->linting, uri, version, edits.items, edits.len))
    lsp_linting_reset(self->linting, uri, version, d->text.data, d->text.len);
  vec_free(&edits);
}


static void did_close(lsp_server *self, const json_t *params) {
  const char *uri = uri_of(params);
  if (!lsp_server_document(self, uri)) {
    lsp_log(self, "didClose of a document that is not open: ignored");
    return;
  }
  lsp_linting_close(self->linting, uri);
  if (!self->pull)
    lsp_send_notification(&self->out, "textDocument/publishDiagnostics",
                          json_pack("{s:s, s:[]}", "uri", uri, "diagnostics"));
  remove_document(self, uri);
}


/* ---- pull diagnostics ---- */

static json_t *diagnostic_report(json_t *diagnostics, const char *result_id, int64_t version, json_t *state) {
  (void)version;
  const char *previous = json_string_value(json_object_get(state, "previousResultId"));
  if (diagnostics && previous && !strcmp(previous, result_id))
    return json_pack("{s:s, s:s}", "kind", "unchanged", "resultId", result_id);
  json_t *report = json_pack("{s:s, s:o}", "kind", "full", "items",
                              diagnostics ? json_incref(diagnostics) : json_array());
  if (diagnostics) json_object_set_new(report, "resultId", json_string(result_id));
  return report;
}


static void pull_diagnostics(lsp_server *self, json_t *id, const json_t *params) {
  const char *uri = uri_of(params);
  if (!lsp_server_document(self, uri)) {
    lsp_log(self, "diagnostics asked for a document that is not open: answered with none");
    lsp_send_result(&self->out, id, json_pack("{s:s, s:[]}", "kind", "full", "items"));
    return;
  }
  lsp_linting_defer(self->linting, uri, id, diagnostic_report, json_deep_copy(params));
}


/* ---- dispatch ---- */

static void request(lsp_server *self, const char *method, json_t *id, const json_t *params) {
  if (!strcmp(method, "initialize")) {
    json_t *result = self->initialized ? NULL : initialize(self, params);
    if (result) lsp_send_result(&self->out, id, result);
    else if (self->initialized) lsp_send_error(&self->out, id, LSP_INVALID_REQUEST, "initialize was already received");
    else lsp_send_error(&self->out, id, LSP_INTERNAL_ERROR, "the lint thread cannot start");
    return;
  }
  if (!self->initialized) {
    lsp_send_error(&self->out, id, LSP_SERVER_NOT_INITIALIZED, "the server is not initialized");
    return;
  }
  if (self->shutdown) {
    lsp_send_error(&self->out, id, LSP_INVALID_REQUEST, "the server is shutting down");
    return;
  }
  if (!strcmp(method, "shutdown")) {
    self->shutdown = true;
    lsp_send_result(&self->out, id, NULL);
  } else if (!strcmp(method, "textDocument/hover")) {
    lsp_send_result(&self->out, id, lsp_hover(self, params));
  } else if (!strcmp(method, "textDocument/codeAction")) {
    lsp_code_action(self, id, params);
  } else if (!strcmp(method, "textDocument/diagnostic")) {
    pull_diagnostics(self, id, params);
  } else {
    char msg[200];
    snprintf(msg, sizeof msg, "unknown method `%.150s`", method);
    lsp_send_error(&self->out, id, LSP_METHOD_NOT_FOUND, msg);
  }
}


static void notification(lsp_server *self, const char *method, const json_t *params) {
  if (!strcmp(method, "exit")) {
    self->exited = true;
    return;
  }
  if (!self->initialized) return; /* the protocol drops notifications before initialize */
  if (!strcmp(method, "textDocument/didOpen")) did_open(self, params);
  else if (!strcmp(method, "notebookDocument/didOpen")) lsp_notebook_did_open(self, params);
  else if (!strcmp(method, "notebookDocument/didChange")) lsp_notebook_did_change(self, params);
  else if (!strcmp(method, "notebookDocument/didClose")) lsp_notebook_did_close(self, params);
  else if (!strcmp(method, "textDocument/didChange")) did_change(self, params);
  else if (!strcmp(method, "textDocument/didClose")) did_close(self, params);
  else if (!strcmp(method, "workspace/didChangeConfiguration")) did_change_configuration(self, params);
  else if (!strcmp(method, "workspace/didChangeWatchedFiles")) did_change_watched_files(self, params);
  else if (!strcmp(method, "workspace/didChangeWorkspaceFolders")) did_change_workspace_folders(self, params);
  else if (!strcmp(method, "initialized")) register_watchers(self);
  else if (!strcmp(method, "$/cancelRequest")) {
    /* only deferred requests are still pending; the others were answered in order */
    lsp_linting_cancel(self->linting, json_object_get(params, "id"));
  }
  /* didSave (the text is already known) and unknown ones: nothing to do */
}


static void dispatch(lsp_server *self, json_t *message) {
  if (!json_is_object(message)) {
    lsp_log(self, "a message that is not a JSON object: answered with InvalidRequest");
    lsp_send_error(&self->out, NULL, LSP_INVALID_REQUEST, "a message must be a JSON object");
    return;
  }
  json_t *id = json_object_get(message, "id");
  const json_t *method = json_object_get(message, "method");
  const json_t *params = json_object_get(message, "params");
  bool valid_id = id && (json_is_string(id) || json_is_integer(id));
  if (!method) {
    /* a response to one of our requests (workspace/diagnostic/refresh) */
    if (id && (json_object_get(message, "result") || json_object_get(message, "error"))) return;
    lsp_send_error(&self->out, valid_id ? id : NULL, LSP_INVALID_REQUEST, "a message without a method");
    return;
  }
  if (!json_is_string(method) || (id && !valid_id)) {
    lsp_send_error(&self->out, valid_id ? id : NULL, LSP_INVALID_REQUEST,
                   "a method must be a string and an id a number or a string");
    return;
  }
  if (params && !json_is_object(params) && !json_is_array(params)) {
    if (id) lsp_send_error(&self->out, id, LSP_INVALID_PARAMS, "params must be an object or an array");
    return;
  }
  if (id) request(self, json_string_value(method), id, params);
  else notification(self, json_string_value(method), params);
}


int lsp_serve(const lsp_options *options, int in_fd, int out_fd, FILE *log) {
  lsp_server self;
  memset(&self, 0, sizeof self);
  self.log = log;
  self.options = options;
  self.units = OOM_UNITS_UTF16;
  lsp_writer_init(&self.out, lsp_fd_write, (void *)(intptr_t)out_fd);
  lsp_reader reader;
  lsp_reader_init(&reader, lsp_fd_read, (void *)(intptr_t)in_fd);
  buf why = {0};
  for (;;) {
    json_t *message = NULL, *id = NULL;
    lsp_read_status st = lsp_read(&reader, &message, &id, &why);
    if (st == LSP_READ_EOF) {
      if (why.len) lsp_log(&self, "%s", buf_str(&why));
      break;
    }
    if (st == LSP_READ_MESSAGE) {
      dispatch(&self, message);
      json_decref(message);
      if (self.exited) break;
      continue;
    }
    lsp_log(&self, "%s", buf_str(&why));
    if (st == LSP_READ_BAD_JSON) lsp_send_error(&self.out, NULL, LSP_PARSE_ERROR, buf_str(&why));
    if (st == LSP_READ_TOO_LARGE && id) lsp_send_error(&self.out, id, LSP_INVALID_REQUEST, buf_str(&why));
    json_decref(id);
  }
  int status = self.shutdown ? 0 : 1;
  if (!self.exited) lsp_log(&self, "the input ended without an exit notification");
  buf_free(&why);
  lsp_reader_free(&reader);
  if (self.linting && lsp_linting_stop(self.linting, STOP_TIMEOUT_MS)) {
    /* the lint thread is inside a long lint and cannot be interrupted; the
     * client has gone, so leave without waiting for it */
    lsp_log(&self, "leaving while a lint is still running");
    fflush(NULL);
    _exit(status);
  }
  for (size_t i = 0; i < self.docs.len; i++) document_free(self.docs.items[i]);
  vec_free(&self.docs);
  for (size_t i = 0; i < self.notebooks.len; i++) lsp_notebook_free(self.notebooks.items[i]);
  vec_free(&self.notebooks);
  config_overrides_free(&self.settings);
  json_decref(self.editor_settings);
  for (size_t i = 0; i < self.roots.len; i++) free(self.roots.items[i]);
  vec_free(&self.roots);
  lsp_writer_free(&self.out);
  return status;
}
