/* Allocation in one place: out of memory is reported once and ends the
 * process, so callers never thread NULL checks for small allocations. */
#ifndef OOM_UTIL_ALLOC_H
#define OOM_UTIL_ALLOC_H

#include <stddef.h>

void *oom_xmalloc(size_t size);
void *oom_xcalloc(size_t count, size_t size);
void *oom_xrealloc(void *ptr, size_t size);
char *oom_xstrdup(const char *s);
char *oom_xstrndup(const char *s, size_t n);

#endif
