/* The settings digest: one number for everything besides a file's own path
 * and bytes that decides what linting it gives, so that a change to any of
 * it makes every entry written under the old settings unreachable. */
#ifndef OOM_CACHE_SETTINGS_H
#define OOM_CACHE_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "oomlint/oomlint.h"

/** The digest of LINTER's settings: the embedded rule files and data tables,
 *  every loaded rule (origin, whole text, whether selected), the memory
 *  budget and the batch-size limit; and of EXTRA (EXTRA_LEN bytes; may be
 *  NULL), the front end's own settings that act on diagnostics afterwards
 *  (the command line's per-file ignores). */
uint64_t cache_settings_digest(const oom_linter *linter, const char *extra, size_t extra_len);

#endif
