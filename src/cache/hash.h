/* The cache's hash: XXH64, a 64-bit non-cryptographic hash, written here
 * from its published specification (xxhash_spec.md, "XXH64 Algorithm
 * Description"). None of oomlint's dependencies has a hash function, and
 * the cache needs one for three jobs: file contents (must run at memory
 * speed, so a whole tree can be checked quickly), entry checksums (catch
 * torn or corrupted writes) and the settings digest. XXH64 is well studied,
 * has a stable, documented output (checked against its reference test
 * vectors in tests/unit/test_cache.c) and processes 32 bytes per step;
 * FNV-1a, the other simple choice, goes a byte at a time and is several
 * times slower on large files. Nothing here defends against an adversary:
 * the cache lives in the user's own folder. */
#ifndef OOM_CACHE_HASH_H
#define OOM_CACHE_HASH_H

#include <stddef.h>
#include <stdint.h>

/** XXH64 of LEN bytes at DATA with SEED. */
uint64_t cache_hash(const void *data, size_t len, uint64_t seed);

#endif
