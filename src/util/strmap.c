/* This file contains the string map of strmap.h. Keys are hashed with the
 * cache's XXH64: paths share long prefixes, which a weak hash clusters. */
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "cache/hash.h"
#include "util/alloc.h"


static size_t slot_of(const strmap *m, const char *key, size_t len) {
  size_t i = (size_t)cache_hash(key, len, 0) & (m->cap - 1);
  while (m->slots[i].key && (m->slots[i].len != len || memcmp(m->slots[i].key, key, len) != 0))
    i = (i + 1) & (m->cap - 1);
  return i;
}


void *strmap_get(const strmap *self, const char *key, size_t len) {
  if (!self->cap) return NULL;
  return self->slots[slot_of(self, key, len)].value;
}


void strmap_put(strmap *self, const char *key, size_t len, void *value) {
  if ((self->used + 1) * 2 > self->cap) {
    size_t cap = self->cap ? self->cap * 2 : 64;
    strmap bigger = {oom_xcalloc(cap, sizeof(strmap_slot)), cap, self->used};
    for (size_t i = 0; i < self->cap; i++)
      if (self->slots[i].key) bigger.slots[slot_of(&bigger, self->slots[i].key, self->slots[i].len)] = self->slots[i];
    free(self->slots);
    *self = bigger;
  }
  size_t i = slot_of(self, key, len);
  if (!self->slots[i].key) {
    self->slots[i].key = oom_xstrndup(key, len);
    self->slots[i].len = len;
    self->used++;
  }
  self->slots[i].value = value;
}


void strmap_free(strmap *self, void (*free_value)(void *)) {
  for (size_t i = 0; i < self->cap; i++) {
    free(self->slots[i].key);
    if (free_value && self->slots[i].value) free_value(self->slots[i].value);
  }
  free(self->slots);
  self->slots = NULL;
  self->cap = self->used = 0;
}
