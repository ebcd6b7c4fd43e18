/* Diagnostics in LSP's shape: ranges in the negotiated position encoding,
 * severity, code, tags, and the fix (already in positions) in `data`. */
#ifndef OOM_LSP_DIAGNOSTICS_H
#define OOM_LSP_DIAGNOSTICS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "oomlint/oomlint.h"

/** The LSP diagnostics of DOC's last lint; VERSION goes into each `data`. */
json_t *lsp_diagnostics_json(const oom_document *doc, oom_units units, int64_t version);
/** The LSP position of byte offset BYTE of DOC (as of its last lint). */
json_t *lsp_document_position_json(const oom_document *doc, uint32_t byte, oom_units units);
/** Whether CODE's rule reports a deprecated API (the Deprecated tag). */
bool lsp_code_is_deprecated(const char *code);
/** A JSON string of N bytes of S, invalid UTF-8 replaced by U+FFFD. */
json_t *lsp_string(const char *s, size_t n);

#endif
