/* One cache entry: what a file was when it was linted (its stamp) and the
 * diagnostics the lint gave, everything the emitters and the summary need
 * (code, message, range, fix with its edits; noqa already applied), in a
 * compact little-endian form behind a checksum. */
#ifndef OOM_CACHE_ENTRY_H
#define OOM_CACHE_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oomlint/oomlint.h"
#include "util/buf.h"

/* What the file was: stat(2)'s size and modification time, taken before it
 * was read, and the hash of the bytes that were read. */
typedef struct {
  uint64_t size;
  int64_t mtime_ns;
  uint64_t content_hash;
  /* the modification time may stand for the contents (stamp.c) */
  bool mtime_trusted;
} cache_stamp;

/* A module of the project whose summary the lint read (the project index):
 * the entry holds only while each is as it was. KEY is its path as entries
 * key files (relative to the root when below it); not NUL-terminated when
 * decoded. */
typedef struct {
  const char *key;
  size_t key_len;
  cache_stamp stamp;
} cache_dep;

/* A decoded entry: views into the bytes it was decoded from. */
typedef struct {
  const char *key; /* the file's path relative to the project root; not NUL-terminated */
  size_t key_len;
  cache_stamp stamp;
  uint32_t ndeps;
  const unsigned char *deps; /* the encoded dependencies */
  uint32_t ndiags;
  const unsigned char *diags, *end; /* the encoded diagnostics */
} cache_entry;

/** Append to OUT the entry of the file KEY with STAMP, holding DOC's
 *  diagnostics, valid while the NDEPS modules DEPS are as stamped. The
 *  checksum is seeded with SEED, the key of the cache file the entry goes
 *  into, so an entry read from another file never verifies. */
void cache_entry_encode(buf *out, uint64_t seed, const char *key, const cache_stamp *stamp, const cache_dep *deps,
                        size_t ndeps, const oom_document *doc);

/** Decode the entry at the start of DATA (AVAIL bytes there). Returns the
 *  bytes it takes, or 0 when they are not a whole entry whose checksum
 *  (seeded with SEED) matches: truncated, corrupted, or from another file. */
size_t cache_entry_decode(const unsigned char *data, size_t avail, uint64_t seed, cache_entry *out);

/** Dependency INDEX (below ndeps) of a decoded entry. */
void cache_entry_dep(const cache_entry *self, uint32_t index, cache_dep *out);

/** Give DOC, which holds the text the entry's file had, the entry's
 *  diagnostics, as linting it with LINTER would have. False, leaving DOC
 *  without diagnostics, when they do not fit DOC or LINTER: a rule LINTER
 *  lacks, a range past the text, overlapping edits. */
bool cache_entry_restore(const cache_entry *self, const oom_linter *linter, oom_document *doc);

#endif
