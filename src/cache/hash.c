/* This file contains XXH64 (see hash.h for why this hash), following the
 * specification's steps: four accumulators over 32-byte stripes, a merge,
 * the tail in 8-, 4- and 1-byte pieces, and a final avalanche. */
#include "cache/hash.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull


static uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}


/* the specification reads lanes little-endian whatever the machine */
static uint64_t read64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}


static uint32_t read32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


static uint64_t hash__round(uint64_t acc, uint64_t lane) {
  acc += lane * P2;
  acc = rotl(acc, 31);
  return acc * P1;
}


static uint64_t hash__merge(uint64_t acc, uint64_t v) {
  acc ^= hash__round(0, v);
  return acc * P1 + P4;
}


uint64_t cache_hash(const void *data, size_t len, uint64_t seed) {
  static const unsigned char none[1];
  if (!data) { /* nothing to read: the hash of the empty input */
    data = none;
    len = 0;
  }
  const unsigned char *p = data;
  const unsigned char *end = p + len;
  uint64_t acc;
  if (len >= 32) {
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    for (; end - p >= 32; p += 32) {
      v1 = hash__round(v1, read64(p));
      v2 = hash__round(v2, read64(p + 8));
      v3 = hash__round(v3, read64(p + 16));
      v4 = hash__round(v4, read64(p + 24));
    }
    acc = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    acc = hash__merge(acc, v1);
    acc = hash__merge(acc, v2);
    acc = hash__merge(acc, v3);
    acc = hash__merge(acc, v4);
  } else {
    acc = seed + P5;
  }
  acc += (uint64_t)len;
  for (; end - p >= 8; p += 8) {
    acc ^= hash__round(0, read64(p));
    acc = rotl(acc, 27) * P1 + P4;
  }
  if (end - p >= 4) {
    acc ^= (uint64_t)read32(p) * P1;
    acc = rotl(acc, 23) * P2 + P3;
    p += 4;
  }
  for (; p < end; p++) {
    acc ^= (uint64_t)*p * P5;
    acc = rotl(acc, 11) * P1;
  }
  acc ^= acc >> 33;
  acc *= P2;
  acc ^= acc >> 29;
  acc *= P3;
  acc ^= acc >> 32;
  return acc;
}
