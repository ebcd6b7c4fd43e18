/* A map from strings to pointers: open addressing over a power-of-two table
 * of copied keys. Entries are set, never removed (a NULL value reads as
 * absent), which is all the project index and its memos need. */
#ifndef OOM_UTIL_STRMAP_H
#define OOM_UTIL_STRMAP_H

#include <stddef.h>

typedef struct {
  char *key;
  size_t len;
  void *value;
} strmap_slot;

typedef struct {
  strmap_slot *slots;
  size_t cap, used;
} strmap;

/** The value of KEY (LEN bytes), or NULL. */
void *strmap_get(const strmap *self, const char *key, size_t len);
/** Set KEY (LEN bytes, copied) to VALUE. */
void strmap_put(strmap *self, const char *key, size_t len, void *value);
/** Free the keys, and each non-NULL value with FREE_VALUE when given. */
void strmap_free(strmap *self, void (*free_value)(void *));

#endif
