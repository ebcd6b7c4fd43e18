/* Writing a file atomically: readers see the old contents or the new, never
 * a half-written file, and the file keeps its mode. */
#ifndef OOM_CLI_ATOMIC_H
#define OOM_CLI_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>

/** Replace the contents of PATH (following symbolic links, so a link stays a
 *  link) with DATA: a temporary file in the same folder (mkstemp), the
 *  original's mode (and owner where allowed), fsync, rename over the
 *  original. On failure PATH is untouched, no temporary file is left, and
 *  WHY (size WHYLEN) says what went wrong. */
bool atomic_write(const char *path, const char *data, size_t len, char *why, size_t whylen);

#endif
