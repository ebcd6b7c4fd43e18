/* This file contains the bump allocator declared in arena.h. */
#include "util/arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#define ARENA_CHUNK_SIZE (64 * 1024)

struct arena_chunk {
  arena_chunk *next;
  size_t used, size;
  alignas(max_align_t) unsigned char data[];
};


void *arena_alloc(arena *self, size_t size) {
  size = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
  arena_chunk *c = self->head;
  if (!c || c->size - c->used < size) {
    size_t cap = size > ARENA_CHUNK_SIZE ? size : ARENA_CHUNK_SIZE;
    c = oom_xmalloc(sizeof *c + cap);
    c->size = cap;
    c->used = 0;
    c->next = self->head;
    self->head = c;
  }
  void *p = c->data + c->used;
  c->used += size;
  return p;
}


void *arena_calloc(arena *self, size_t size) {
  void *p = arena_alloc(self, size);
  memset(p, 0, size);
  return p;
}


char *arena_strndup(arena *self, const char *s, size_t n) {
  char *p = arena_alloc(self, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}


void arena_reset(arena *self) {
  arena_chunk *c = self->head;
  if (!c) return;
  arena_chunk *rest = c->next;
  while (rest) {
    arena_chunk *next = rest->next;
    free(rest);
    rest = next;
  }
  /* keep the most recent chunk, the largest in use lately */
  c->next = NULL;
  c->used = 0;
}


void arena_free(arena *self) {
  arena_chunk *c = self->head;
  while (c) {
    arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  self->head = NULL;
}
