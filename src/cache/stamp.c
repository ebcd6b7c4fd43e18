/* This file contains file stamps: stat(2) before reading, and the rule for
 * trusting a modification time (see stamp.h). */
#include "cache/stamp.h"

#include <sys/stat.h>
#include <time.h>


void cache_stamp_from_stat(const struct stat *st, int64_t clock_ns, cache_stamp *out) {
  out->size = (uint64_t)st->st_size;
  out->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
  out->content_hash = 0;
  /* a time in the future (clock skew, `touch -d`) is never trusted either */
  out->mtime_trusted = out->mtime_ns < clock_ns - CACHE_RACY_NS;
}


bool cache_stamp_take(const char *path, cache_stamp *out) {
  /* the clock first: a write after this moment moves the time past it */
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  cache_stamp_from_stat(&st, (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec, out);
  return true;
}


bool cache_stamp_unchanged(const cache_stamp *old, const cache_stamp *now) {
  return old->mtime_trusted && old->size == now->size && old->mtime_ns == now->mtime_ns;
}


bool cache_stamp_differs(const cache_stamp *a, const cache_stamp *b) {
  return a->size != b->size || a->mtime_ns != b->mtime_ns || a->content_hash != b->content_hash ||
         a->mtime_trusted != b->mtime_trusted;
}
