/* The editor's settings, as overrides above the configuration files. */
#ifndef OOM_LSP_SETTINGS_H
#define OOM_LSP_SETTINGS_H

#include <jansson.h>

#include "config/config.h"
#include "util/buf.h"

/** Read SETTINGS (initializationOptions or didChangeConfiguration's, bare
 *  or under an "oomlint" key) into OUT: select, ignore, extendSelect,
 *  rulesDir (relative to ROOT when not absolute) and gpuMemory. What is
 *  malformed is left out and described in PROBLEMS ("; " between). */
void lsp_settings_parse(const json_t *settings, const char *root, config_overrides *out, buf *problems);

#endif
