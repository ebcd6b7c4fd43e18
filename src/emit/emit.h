/* The emitters: diagnostics of linted documents written as text (full or
 * concise), JSON (Ruff's schema), JSON lines, GitHub workflow commands, SARIF,
 * GitLab Code Quality or JUnit XML. */
#ifndef OOM_EMIT_EMIT_H
#define OOM_EMIT_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "oomlint/oomlint.h"

typedef enum {
  EMIT_FULL,
  EMIT_CONCISE,
  EMIT_JSON,
  EMIT_JSON_LINES,
  EMIT_GITHUB,
  EMIT_SARIF,
  EMIT_GITLAB,
  EMIT_JUNIT
} emit_format;

typedef struct emitter emitter;

/** Parse "full", "concise", ... ; false when unknown. */
bool emit_format_parse(const char *name, emit_format *out);

emitter *emit_begin(FILE *out, emit_format format, bool color);
/** Mark diagnostics whose fix is applied at LEVEL with `[*]` after the code
 *  (OOM_FIX_SAFE unless --unsafe-fixes; the default is OOM_FIX_SAFE). */
void emit_set_fix_level(emitter *self, oom_applicability level);
/** The linter whose enabled rules SARIF describes (without it: none). */
void emit_set_linter(emitter *self, const oom_linter *linter);
/** Write DOC's diagnostics (all of them: filtering happened in the engine). */
void emit_document(emitter *self, const oom_document *doc);
/** Write what closes the output (JSON's `]`), and free the emitter. */
void emit_end(emitter *self);

/** Append the JSON object of one diagnostic, Ruff's schema plus `severity` and
 *  `name`, to ARRAY (a json_t *; void here so jansson stays out of callers). */
void emit_json_diagnostic(const oom_document *doc, const oom_diagnostic *d, void *array);

#endif
