/* A bump allocator for per-document data: everything a lint allocates is
 * freed at once when the document is re-linted or closed. */
#ifndef OOM_UTIL_ARENA_H
#define OOM_UTIL_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;
typedef struct {
  arena_chunk *head;
} arena;

void *arena_alloc(arena *self, size_t size);
void *arena_calloc(arena *self, size_t size);
char *arena_strndup(arena *self, const char *s, size_t n);
/** Free every chunk but the first, keeping it for reuse. */
void arena_reset(arena *self);
void arena_free(arena *self);

#endif
