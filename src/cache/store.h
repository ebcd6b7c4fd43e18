/* A cache file: the entries of one project (its root folder), linted with
 * one set of settings by one oomlint build. It is read whole at the start
 * of a run, looked up by any number of threads (it does not change while
 * they do), and rewritten whole at the end when something changed.
 *
 * Why one file per project and not one per source file: an unchanged tree
 * of thousands of files must re-lint in well under 100 ms, and opening a
 * file per source file would cost as much as the stat(2) calls themselves.
 * Ruff keeps one file per package for the same reason. */
#ifndef OOM_CACHE_STORE_H
#define OOM_CACHE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/entry.h"
#include "util/buf.h"

/* Bumped whenever the layout of the file or of an entry changes. */
#define CACHE_FORMAT 2

typedef struct cache_store cache_store;

/** The key of a cache file, and its name (16 hex digits): the build's
 *  IDENTITY (the version, and whatever tells builds apart), the settings
 *  digest SETTINGS, and the project ROOT (an absolute path). */
uint64_t cache_store_key(const char *identity, uint64_t settings, const char *root);

/** Read the cache file of KEY in the folder DIR. A missing, unreadable or
 *  damaged file gives an empty store, and a damaged entry is left out:
 *  damage costs a re-lint, never a wrong result. Never NULL. */
cache_store *cache_store_open(const char *dir, uint64_t key);
void cache_store_free(cache_store *self);

/** The file's key. */
uint64_t cache_store_file_key(const cache_store *self);
/** How many entries were read (checksums verified). */
size_t cache_store_count(const cache_store *self);
/** The entry of the file KEY (its path relative to the project root), or
 *  NULL. Safe to call from several threads at once. */
const cache_entry *cache_store_find(const cache_store *self, const char *key);

/** Whether an entry read at open time but not replaced this run is kept. */
typedef bool (*cache_keep_fn)(const cache_entry *entry, void *arg);

/** Write the cache file anew: the entries read at open that FRESH does not
 *  replace and KEEP (may be NULL: all) accepts, then FRESH (NFRESH buffers,
 *  each holding one encoded entry or empty). It is written to a temporary
 *  file in the same folder and renamed over the old one, so a reader, or a
 *  run writing at the same time, sees one whole file or the other; the last
 *  rename wins. False with WHY (size WHYLEN) when it cannot be written. */
bool cache_store_save(const cache_store *self, const buf *fresh, size_t nfresh, cache_keep_fn keep, void *arg,
                      char *why, size_t whylen);

#endif
