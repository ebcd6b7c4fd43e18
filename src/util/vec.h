/* A growable array as a macro, in the manner of tree-sitter's array.h:
 * `VEC(int) v = {0}; vec_push(&v, 3); free(v.items);` */
#ifndef OOM_UTIL_VEC_H
#define OOM_UTIL_VEC_H

#include "util/alloc.h"

#define VEC(T) struct { T *items; size_t len, cap; }

#define vec_reserve(v, n)                                                   \
  do {                                                                      \
    if ((v)->len + (n) > (v)->cap) {                                        \
      size_t vec__cap = (v)->cap ? (v)->cap * 2 : 8;                        \
      while (vec__cap < (v)->len + (n)) vec__cap *= 2;                      \
      (v)->items = oom_xrealloc((v)->items, vec__cap * sizeof *(v)->items); \
      (v)->cap = vec__cap;                                                  \
    }                                                                       \
  } while (0)

#define vec_push(v, x)                 \
  do {                                 \
    vec_reserve((v), 1);               \
    (v)->items[(v)->len++] = (x);      \
  } while (0)

#define vec_free(v)         \
  do {                      \
    free((v)->items);       \
    (v)->items = NULL;      \
    (v)->len = (v)->cap = 0; \
  } while (0)

#endif
