/* When a file's stamp (size, modification time) may stand for its contents,
 * so that an unchanged tree is checked with stat(2) alone. */
#ifndef OOM_CACHE_STAMP_H
#define OOM_CACHE_STAMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cache/entry.h"

/* A modification time this close to the moment the file was read is not
 * trusted: file systems store times coarsely (a kernel tick; 2 s on FAT),
 * so a write in the same tick as the read could leave the time unchanged.
 * Git's index has the same "racily clean" rule. Such files are hashed on the
 * next run, and their entries trusted once they are older. */
#define CACHE_RACY_NS 2000000000LL

/** The stamp of PATH before it is read: stat(2)'s size (following links,
 *  as reading does) and modification time, trusted when it is
 *  CACHE_RACY_NS older than the clock. content_hash is left 0 (the caller
 *  hashes what it reads). False when stat fails. */
bool cache_stamp_take(const char *path, cache_stamp *out);

/** The same from ST, a stat(2) result taken after the clock read CLOCK_NS:
 *  for callers that have stat'ed the file already (the command line's walk). */
void cache_stamp_from_stat(const struct stat *st, int64_t clock_ns, cache_stamp *out);

/** Whether a file stamped NOW is, without reading it, the one stamped OLD:
 *  OLD's time is trusted, and the size and time are the same. */
bool cache_stamp_unchanged(const cache_stamp *old, const cache_stamp *now);

/** Whether two stamps differ in anything an entry records. */
bool cache_stamp_differs(const cache_stamp *a, const cache_stamp *b);

#endif
