/* This file contains the allocation wrappers declared in alloc.h. */
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void alloc__die(size_t size) {
  fprintf(stderr, "oomlint: out of memory (allocating %zu bytes)\n", size);
  abort();
}


void *oom_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) alloc__die(size);
  return p;
}


void *oom_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) alloc__die(count * size);
  return p;
}


void *oom_xrealloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) alloc__die(size);
  return p;
}


char *oom_xstrndup(const char *s, size_t n) {
  char *p = oom_xmalloc(n + 1);
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}


char *oom_xstrdup(const char *s) {
  return oom_xstrndup(s, strlen(s));
}
