/* This file contains cache files: reading one whole, indexing its entries
 * by path, and writing it back through a temporary file and a rename. The
 * file is
 *
 *   "OOMCACHE" | u32 format | u32 entry count | u64 key | u64 checksum of the
 *   24 bytes before it | entries (entry.c)
 *
 * and every entry carries its own checksum, seeded with the key. */
#include "cache/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/hash.h"
#include "util/alloc.h"
#include "util/vec.h"

#define MAGIC "OOMCACHE"
#define HEADER_BYTES 32
/* a cache file larger than this is not read (it would be damage, or a
 * tree far larger than any checked so far) */
#define MAX_STORE_BYTES ((size_t)1 << 31)

typedef struct {
  cache_entry entry;
  const unsigned char *raw; /* the encoded entry, copied as is when kept */
  size_t raw_len;
  uint64_t key_hash;
} slot;

struct cache_store {
  uint64_t key;
  char *path, *dir;
  unsigned char *data; /* the file's bytes; entries point into them */
  size_t len;
  VEC(slot) slots;
  uint32_t *index; /* open addressing: slot number + 1, 0 empty */
  size_t index_cap;
};


static uint32_t u32_at(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


static uint64_t u64_at(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}


static void header(unsigned char out[HEADER_BYTES], uint64_t key, uint32_t count) {
  memcpy(out, MAGIC, 8);
  for (int i = 0; i < 4; i++) out[8 + i] = (unsigned char)((uint32_t)CACHE_FORMAT >> (8 * i));
  for (int i = 0; i < 4; i++) out[12 + i] = (unsigned char)(count >> (8 * i));
  for (int i = 0; i < 8; i++) out[16 + i] = (unsigned char)(key >> (8 * i));
  uint64_t sum = cache_hash(out, 24, 0);
  for (int i = 0; i < 8; i++) out[24 + i] = (unsigned char)(sum >> (8 * i));
}


uint64_t cache_store_key(const char *identity, uint64_t settings, const char *root) {
  buf b = {0};
  buf_printf(&b, "format %d\n%zu:%s\n%016llx\n%zu:%s", CACHE_FORMAT, strlen(identity), identity,
             (unsigned long long)settings, strlen(root), root);
  uint64_t h = cache_hash(b.data, b.len, 0);
  buf_free(&b);
  return h;
}


static uint64_t key_hash(const char *key, size_t len) {
  return cache_hash(key, len, 0);
}


static const slot *lookup(const cache_store *self, const char *key, size_t len, uint64_t h, size_t *at) {
  size_t mask = self->index_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    *at = i;
    uint32_t k = self->index[i];
    if (!k) return NULL;
    const slot *s = &self->slots.items[k - 1];
    if (s->key_hash == h && s->entry.key_len == len && !memcmp(s->entry.key, key, len)) return s;
  }
}


static void build_index(cache_store *self) {
  self->index_cap = 16;
  while (self->index_cap < self->slots.len * 2) self->index_cap *= 2;
  self->index = oom_xcalloc(self->index_cap, sizeof *self->index);
  for (size_t i = 0; i < self->slots.len; i++) {
    slot *s = &self->slots.items[i];
    size_t at;
    /* a key twice (it should not happen): the later entry is the newer */
    lookup(self, s->entry.key, s->entry.key_len, s->key_hash, &at);
    self->index[at] = (uint32_t)i + 1;
  }
}


static bool read_whole(const char *path, unsigned char **data, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_STORE_BYTES) {
    close(fd);
    return false;
  }
  size_t cap = (size_t)st.st_size, n = 0;
  unsigned char *p = oom_xmalloc(cap + 1);
  /* read what stat promised; a file cut or grown meanwhile is caught by the
   * checksums like any other damage */
  while (n < cap) {
    ssize_t r = read(fd, p + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(fd);
  *data = p;
  *len = n;
  return true;
}


static void parse(cache_store *self) {
  const unsigned char *p = self->data;
  size_t len = self->len;
  if (len < HEADER_BYTES || memcmp(p, MAGIC, 8) != 0 || u32_at(p + 8) != CACHE_FORMAT ||
      u64_at(p + 16) != self->key || cache_hash(p, 24, 0) != u64_at(p + 24))
    return;
  size_t at = HEADER_BYTES;
  while (at < len) {
    slot s;
    size_t used = cache_entry_decode(p + at, len - at, self->key, &s.entry);
    if (!used) {
      /* a damaged entry whose length still fits is skipped; a damaged
       * length leaves nothing after it that can be found */
      if (len - at < 12) break;
      size_t skip = 12 + (size_t)u32_at(p + at);
      if (skip > len - at) break;
      at += skip;
      continue;
    }
    s.raw = p + at;
    s.raw_len = used;
    s.key_hash = key_hash(s.entry.key, s.entry.key_len);
    vec_push(&self->slots, s);
    at += used;
  }
}


cache_store *cache_store_open(const char *dir, uint64_t key) {
  cache_store *self = oom_xcalloc(1, sizeof *self);
  self->key = key;
  self->dir = oom_xstrdup(dir);
  size_t n = strlen(dir) + 18;
  self->path = oom_xmalloc(n);
  snprintf(self->path, n, "%s/%016llx", dir, (unsigned long long)key);
  if (read_whole(self->path, &self->data, &self->len)) parse(self);
  build_index(self);
  return self;
}


void cache_store_free(cache_store *self) {
  if (!self) return;
  free(self->data);
  free(self->path);
  free(self->dir);
  vec_free(&self->slots);
  free(self->index);
  free(self);
}


uint64_t cache_store_file_key(const cache_store *self) {
  return self->key;
}


size_t cache_store_count(const cache_store *self) {
  return self->slots.len;
}


const cache_entry *cache_store_find(const cache_store *self, const char *key) {
  size_t len = strlen(key), at;
  const slot *s = lookup(self, key, len, key_hash(key, len), &at);
  return s ? &s->entry : NULL;
}


static bool write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}


bool cache_store_save(const cache_store *self, const buf *fresh, size_t nfresh, cache_keep_fn keep, void *arg,
                      char *why, size_t whylen) {
  /* the keys FRESH replaces, in a store of their own (same index code) */
  cache_store seen = {0};
  seen.key = self->key;
  for (size_t i = 0; i < nfresh; i++) {
    slot s;
    if (!fresh[i].len) continue;
    size_t used = cache_entry_decode((const unsigned char *)fresh[i].data, fresh[i].len, self->key, &s.entry);
    if (used != fresh[i].len) continue; /* not one whole entry: never written */
    s.raw = (const unsigned char *)fresh[i].data;
    s.raw_len = used;
    s.key_hash = key_hash(s.entry.key, s.entry.key_len);
    vec_push(&seen.slots, s);
  }
  build_index(&seen);
  buf out = {0};
  unsigned char head[HEADER_BYTES] = {0};
  buf_append(&out, (const char *)head, HEADER_BYTES);
  uint32_t count = 0;
  for (size_t i = 0; i < self->slots.len; i++) {
    const slot *s = &self->slots.items[i];
    size_t at;
    if (lookup(&seen, s->entry.key, s->entry.key_len, s->key_hash, &at)) continue;
    /* of a key twice, only the indexed (later) entry counts */
    lookup(self, s->entry.key, s->entry.key_len, s->key_hash, &at);
    if (self->index[at] != i + 1) continue;
    if (keep && !keep(&s->entry, arg)) continue;
    buf_append(&out, (const char *)s->raw, s->raw_len);
    count++;
  }
  for (size_t i = 0; i < seen.slots.len; i++) {
    const slot *s = &seen.slots.items[i];
    size_t at;
    lookup(&seen, s->entry.key, s->entry.key_len, s->key_hash, &at);
    if (seen.index[at] != i + 1) continue; /* the same file twice (two spellings of its path): the last */
    buf_append(&out, (const char *)s->raw, s->raw_len);
    count++;
  }
  vec_free(&seen.slots);
  free(seen.index);
  header(head, self->key, count);
  memcpy(out.data, head, HEADER_BYTES);

  size_t n = strlen(self->dir) + sizeof "/.tmp-XXXXXX";
  char *tmp = oom_xmalloc(n);
  snprintf(tmp, n, "%s/.tmp-XXXXXX", self->dir);
  /* no fsync: after a crash a torn file fails its checksums and costs one
   * re-lint, while syncing would cost every run milliseconds */
  int fd = mkstemp(tmp);
  const char *what = NULL;
  int err = 0;
  if (fd < 0) what = "cannot create a temporary file", err = errno;
  else {
    if (!write_all(fd, (const unsigned char *)out.data, out.len)) what = "cannot write", err = errno;
    if (close(fd) != 0 && !what) what = "cannot close", err = errno;
    if (!what && rename(tmp, self->path) != 0) what = "cannot rename", err = errno;
    if (what) unlink(tmp);
  }
  if (what) snprintf(why, whylen, "%s: %s: %s", self->path, what, strerror(err));
  free(tmp);
  buf_free(&out);
  return what == NULL;
}
