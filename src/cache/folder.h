/* The cache folder: where it is made and what marks it as a cache, as Ruff
 * does for .ruff_cache: a `.gitignore` holding `*` (so version control
 * never picks it up) and a CACHEDIR.TAG (so backup tools can skip it). */
#ifndef OOM_CACHE_FOLDER_H
#define OOM_CACHE_FOLDER_H

#include <stdbool.h>
#include <stddef.h>

/* the folder's name in the project root */
#define CACHE_FOLDER_NAME ".oomlint_cache"

/** Make DIR (and its parents) if missing, with its `.gitignore` and
 *  CACHEDIR.TAG, and its subfolder SUB (the oomlint version). False, with
 *  WHY (size WHYLEN), when that cannot be done. */
bool cache_folder_prepare(const char *dir, const char *sub, char *why, size_t whylen);

#endif
