/* Unit tests of the result cache (src/cache): the hash against XXH64's
 * reference values, the entry format (round trip with fixes and noqa
 * results, every truncation and every flipped byte read as a miss, never as
 * other diagnostics, an entry of another cache file refused), cache files
 * (kept, replaced, damaged, of another build), stamps and the settings
 * digest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/entry.h"
#include "cache/hash.h"
#include "cache/settings.h"
#include "cache/stamp.h"
#include "cache/store.h"
#include "oomlint/oomlint.h"

/* OOM303 with a safe fix (map_location added), OOM501, and an unused noqa
 * comment (OOM001, whose fix removes it): diagnostics with and without fixes,
 * and one that suppression made. */
static const char SOURCE[] =
  "import torch\n"
  "state = torch.load(path)\n"
  "for batch in train_loader:\n"
  "    torch.cuda.empty_cache()\n"
  "    step(batch)  # noqa: OOM101\n";

#define SEED 0x1234abcdull
#define HEAD 12 /* an entry's body length and checksum (entry.c) */

typedef struct {
  oom_linter *linter;
  oom_worker *worker;
  oom_document *doc;
  buf entry;
  cache_stamp stamp;
} fixture;


static int setup(void **state) {
  static fixture f;
  memset(&f, 0, sizeof f);
  char *err = NULL;
  f.linter = oom_linter_new(NULL, &err);
  if (!f.linter) {
    fprintf(stderr, "linter: %s\n", err ? err : "?");
    free(err);
    return -1;
  }
  f.worker = oom_worker_new(f.linter);
  f.doc = oom_document_new("train.py", SOURCE, sizeof SOURCE - 1);
  oom_document_lint(f.doc, f.worker);
  f.stamp = (cache_stamp){sizeof SOURCE - 1, 1700000000123456789LL, cache_hash(SOURCE, sizeof SOURCE - 1, 0), true};
  cache_entry_encode(&f.entry, SEED, "src/train.py", &f.stamp, NULL, 0, f.doc);
  *state = &f;
  return 0;
}


static int teardown(void **state) {
  fixture *f = *state;
  buf_free(&f->entry);
  oom_document_free(f->doc);
  oom_worker_free(f->worker);
  oom_linter_free(f->linter);
  return 0;
}


static void test_hash_reference_values(void **state) {
  (void)state;
  /* XXH64 with seed 0, as the reference implementation (xxhsum -H64) gives */
  assert_true(cache_hash("", 0, 0) == 0xef46db3751d8e999ull);
  assert_true(cache_hash("a", 1, 0) == 0xd24ec4f1a98c6e5bull);
  assert_true(cache_hash("abc", 3, 0) == 0x44bc2cf5ad770999ull);
  const char *fox = "The quick brown fox jumps over the lazy dog"; /* 43 bytes: one stripe and a tail */
  assert_true(cache_hash(fox, strlen(fox), 0) == 0x0b242d361fda71bcull);
  const char *long_ = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ";
  assert_true(cache_hash(long_, strlen(long_), 0) == 0x5b15f946643395e4ull);
  assert_true(cache_hash("abc", 3, 1) != cache_hash("abc", 3, 0));
}


static bool same_diagnostics(const oom_document *a, const oom_document *b) {
  size_t n = oom_document_diagnostic_count(a);
  if (n != oom_document_diagnostic_count(b)) return false;
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *x = oom_document_diagnostic(a, i), *y = oom_document_diagnostic(b, i);
    oom_position xs = oom_diagnostic_start(x), ys = oom_diagnostic_start(y);
    oom_position xe = oom_diagnostic_end(x), ye = oom_diagnostic_end(y);
    if (oom_diagnostic_rule(x) != oom_diagnostic_rule(y) || strcmp(oom_diagnostic_message(x), oom_diagnostic_message(y)))
      return false;
    if (xs.byte != ys.byte || xs.row != ys.row || xs.column != ys.column || xe.byte != ye.byte || xe.row != ye.row ||
        xe.column != ye.column)
      return false;
    const oom_fix *fx = oom_diagnostic_fix(x), *fy = oom_diagnostic_fix(y);
    if (!fx || !fy) {
      if (fx != fy) return false;
      continue;
    }
    if (oom_fix_applicability(fx) != oom_fix_applicability(fy) || oom_fix_edit_count(fx) != oom_fix_edit_count(fy))
      return false;
    const char *tx = oom_fix_title(fx), *ty = oom_fix_title(fy);
    if ((tx == NULL) != (ty == NULL) || (tx && strcmp(tx, ty))) return false;
    for (size_t k = 0; k < oom_fix_edit_count(fx); k++) {
      const oom_edit *ex = oom_fix_edit(fx, k), *ey = oom_fix_edit(fy, k);
      if (ex->start_byte != ey->start_byte || ex->end_byte != ey->end_byte || strcmp(ex->content, ey->content))
        return false;
    }
  }
  return true;
}


static void test_source_has_what_the_tests_need(void **state) {
  fixture *f = *state;
  bool fix_with_edits = false, fix_without = false, noqa = false;
  for (size_t i = 0; i < oom_document_diagnostic_count(f->doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(f->doc, i);
    const oom_fix *fix = oom_diagnostic_fix(d);
    if (fix && oom_fix_edit_count(fix)) fix_with_edits = true;
    if (!fix) fix_without = true;
    if (!strcmp(oom_diagnostic_code(d), "OOM001")) noqa = true;
  }
  assert_true(fix_with_edits);
  assert_true(fix_without || oom_document_diagnostic_count(f->doc) >= 3);
  assert_true(noqa);
}


static void test_round_trip(void **state) {
  fixture *f = *state;
  cache_entry e;
  size_t used = cache_entry_decode((const unsigned char *)f->entry.data, f->entry.len, SEED, &e);
  assert_int_equal(used, f->entry.len);
  assert_int_equal(e.key_len, strlen("src/train.py"));
  assert_memory_equal(e.key, "src/train.py", e.key_len);
  assert_true(e.stamp.size == f->stamp.size && e.stamp.mtime_ns == f->stamp.mtime_ns);
  assert_true(e.stamp.content_hash == f->stamp.content_hash && e.stamp.mtime_trusted);
  assert_int_equal(e.ndiags, oom_document_diagnostic_count(f->doc));
  oom_document *back = oom_document_new("train.py", SOURCE, sizeof SOURCE - 1);
  assert_true(cache_entry_restore(&e, f->linter, back));
  assert_true(same_diagnostics(f->doc, back));
  /* a restored document builds its line index when first asked */
  for (uint32_t b = 0; b <= sizeof SOURCE - 1; b += 7) {
    oom_position x = oom_document_position(f->doc, b), y = oom_document_position(back, b);
    assert_true(x.byte == y.byte && x.row == y.row && x.column == y.column);
  }
  oom_document_free(back);
}


static void test_document_takes_its_text(void **state) {
  fixture *f = *state;
  char *text = strdup(SOURCE);
  oom_document *doc = oom_document_new_owned("train.py", text, sizeof SOURCE - 1);
  size_t len;
  assert_ptr_equal(oom_document_text(doc, &len), text);
  assert_int_equal(len, sizeof SOURCE - 1);
  oom_document_lint(doc, f->worker);
  assert_true(same_diagnostics(f->doc, doc));
  oom_document_free(doc); /* frees TEXT: the sanitizer build checks */
}


/* The modules a lint read travel with its entry, in order, with their
 * stamps; a damaged count is a miss, never an out-of-bounds read. */
static void test_round_trip_with_dependencies(void **state) {
  fixture *f = *state;
  cache_dep deps[2] = {{"model.py", 8, {120, 5000000000LL, 0xabcdefULL, true}},
                       {"/elsewhere/layers.py", 20, {7, 6000000000LL, 0x1234ULL, false}}};
  buf b = {0};
  cache_entry_encode(&b, SEED, "train.py", &f->stamp, deps, 2, f->doc);
  cache_entry e;
  assert_int_equal(cache_entry_decode((const unsigned char *)b.data, b.len, SEED, &e), b.len);
  assert_int_equal(e.ndeps, 2);
  for (uint32_t i = 0; i < 2; i++) {
    cache_dep d;
    cache_entry_dep(&e, i, &d);
    assert_int_equal(d.key_len, deps[i].key_len);
    assert_memory_equal(d.key, deps[i].key, d.key_len);
    assert_false(cache_stamp_differs(&d.stamp, &deps[i].stamp));
  }
  /* the diagnostics after the dependencies are intact */
  oom_document *back = oom_document_new("train.py", SOURCE, sizeof SOURCE - 1);
  assert_true(cache_entry_restore(&e, f->linter, back));
  assert_true(same_diagnostics(f->doc, back));
  oom_document_free(back);
  /* a dependency count larger than the bytes can hold: no entry (the
   * checksum is recomputed so that only the count is wrong) */
  size_t at = HEAD + 4 + strlen("train.py") + 28;
  b.data[at] = (char)0xff;
  b.data[at + 1] = (char)0xff;
  uint32_t body = (uint32_t)(b.len - HEAD);
  uint64_t sum = cache_hash(b.data + HEAD, body, SEED);
  for (int i = 0; i < 8; i++) b.data[4 + i] = (char)(sum >> (8 * i));
  assert_int_equal(cache_entry_decode((const unsigned char *)b.data, b.len, SEED, &e), 0);
  buf_free(&b);
}


static void test_restore_with_an_uncompiled_linter(void **state) {
  fixture *f = *state;
  /* a run served wholly from the cache never compiles the rule patterns */
  char *err = NULL;
  oom_linter *loaded = oom_linter_load(NULL, &err);
  assert_non_null(loaded);
  cache_entry e;
  assert_int_not_equal(cache_entry_decode((const unsigned char *)f->entry.data, f->entry.len, SEED, &e), 0);
  oom_document *back = oom_document_new("train.py", SOURCE, sizeof SOURCE - 1);
  assert_true(cache_entry_restore(&e, loaded, back));
  assert_int_equal(oom_document_diagnostic_count(back), oom_document_diagnostic_count(f->doc));
  for (size_t i = 0; i < oom_document_diagnostic_count(back); i++)
    assert_string_equal(oom_diagnostic_code(oom_document_diagnostic(back, i)),
                        oom_diagnostic_code(oom_document_diagnostic(f->doc, i)));
  oom_document_free(back);
  oom_linter_free(loaded);
}


static void test_every_truncation_is_a_miss(void **state) {
  fixture *f = *state;
  for (size_t n = 0; n < f->entry.len; n++) {
    cache_entry e;
    assert_int_equal(cache_entry_decode((const unsigned char *)f->entry.data, n, SEED, &e), 0);
  }
}


static void test_every_flipped_byte_is_a_miss(void **state) {
  fixture *f = *state;
  unsigned char *copy = malloc(f->entry.len);
  for (size_t i = 0; i < f->entry.len; i++) {
    for (int bit = 0; bit < 8; bit += 3) {
      memcpy(copy, f->entry.data, f->entry.len);
      copy[i] ^= (unsigned char)(1u << bit);
      cache_entry e;
      size_t used = cache_entry_decode(copy, f->entry.len, SEED, &e);
      if (used) {
        /* only possible if the flip left a shorter whole entry behind: then it
         * must still restore to what was linted, never to something else */
        oom_document *back = oom_document_new("train.py", SOURCE, sizeof SOURCE - 1);
        if (cache_entry_restore(&e, f->linter, back)) assert_true(same_diagnostics(f->doc, back));
        oom_document_free(back);
      }
      assert_int_equal(used, 0);
    }
  }
  free(copy);
}


static void test_entry_of_another_cache_file_is_a_miss(void **state) {
  fixture *f = *state;
  cache_entry e;
  assert_int_equal(cache_entry_decode((const unsigned char *)f->entry.data, f->entry.len, SEED + 1, &e), 0);
}


static void test_restore_refuses_a_shorter_text(void **state) {
  fixture *f = *state;
  cache_entry e;
  assert_int_not_equal(cache_entry_decode((const unsigned char *)f->entry.data, f->entry.len, SEED, &e), 0);
  oom_document *other = oom_document_new("train.py", "import torch\n", 13);
  assert_false(cache_entry_restore(&e, f->linter, other));
  assert_int_equal(oom_document_diagnostic_count(other), 0);
  oom_document_free(other);
}


static char *find_bytes(char *hay, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(hay + i, needle, k)) return hay + i;
  return NULL;
}


static void test_restore_refuses_an_unknown_rule(void **state) {
  fixture *f = *state;
  buf b = {0};
  buf_append(&b, f->entry.data, f->entry.len);
  char *at = find_bytes(b.data, b.len, "OOM303");
  assert_non_null(at);
  /* a changed code fails the checksum ... */
  memcpy(at, "OOM999", 6);
  cache_entry e;
  assert_int_equal(cache_entry_decode((const unsigned char *)b.data, b.len, SEED, &e), 0);
  /* ... and were it to pass, restoring refuses a rule the linter lacks (the
   * decoded view points into B, so it names OOM999 after the decode) */
  memcpy(at, "OOM303", 6);
  assert_int_not_equal(cache_entry_decode((const unsigned char *)b.data, b.len, SEED, &e), 0);
  memcpy(at, "OOM999", 6);
  oom_document *back = oom_document_new("x.py", SOURCE, sizeof SOURCE - 1);
  assert_false(cache_entry_restore(&e, f->linter, back));
  assert_int_equal(oom_document_diagnostic_count(back), 0);
  oom_document_free(back);
  buf_free(&b);
}


/* ---- cache files ---- */

static char *temp_dir(void) {
  char tmpl[] = "/tmp/oomlint-cache-test.XXXXXX";
  char *d = mkdtemp(tmpl);
  assert_non_null(d);
  return strdup(d);
}


static void remove_dir(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}


static char *store_path(const char *dir, uint64_t key) {
  char *p = malloc(strlen(dir) + 20);
  sprintf(p, "%s/%016llx", dir, (unsigned long long)key);
  return p;
}


/* Write entries for a.py, b.py and c.py (b.py clean) under KEY. */
static void write_three(fixture *f, const char *dir, uint64_t key) {
  cache_store *s = cache_store_open(dir, key);
  assert_int_equal(cache_store_count(s), 0);
  buf fresh[3] = {{0}};
  oom_document *clean = oom_document_new("b.py", "x = 1\n", 6);
  oom_document_lint(clean, f->worker);
  cache_entry_encode(&fresh[0], key, "a.py", &f->stamp, NULL, 0, f->doc);
  cache_entry_encode(&fresh[1], key, "b.py", &f->stamp, NULL, 0, clean);
  cache_entry_encode(&fresh[2], key, "c.py", &f->stamp, NULL, 0, f->doc);
  char why[256];
  assert_true(cache_store_save(s, fresh, 3, NULL, NULL, why, sizeof why));
  for (int i = 0; i < 3; i++) buf_free(&fresh[i]);
  oom_document_free(clean);
  cache_store_free(s);
}


static void test_store_round_trip_and_replace(void **state) {
  fixture *f = *state;
  char *dir = temp_dir();
  uint64_t key = cache_store_key("oomlint test", 7, "/project");
  write_three(f, dir, key);
  cache_store *s = cache_store_open(dir, key);
  assert_int_equal(cache_store_count(s), 3);
  const cache_entry *a = cache_store_find(s, "a.py"), *b = cache_store_find(s, "b.py");
  assert_non_null(a);
  assert_non_null(b);
  assert_null(cache_store_find(s, "d.py"));
  assert_int_equal(a->ndiags, oom_document_diagnostic_count(f->doc));
  assert_int_equal(b->ndiags, 0);
  /* a run that re-linted b.py only: a.py and c.py are kept, b.py replaced */
  cache_stamp newer = f->stamp;
  newer.mtime_ns += 5;
  buf fresh[2] = {{0}};
  cache_entry_encode(&fresh[1], key, "b.py", &newer, NULL, 0, f->doc);
  char why[256];
  assert_true(cache_store_save(s, fresh, 2, NULL, NULL, why, sizeof why));
  buf_free(&fresh[1]);
  cache_store_free(s);
  s = cache_store_open(dir, key);
  assert_int_equal(cache_store_count(s), 3);
  b = cache_store_find(s, "b.py");
  assert_non_null(b);
  assert_true(b->stamp.mtime_ns == newer.mtime_ns);
  assert_int_equal(b->ndiags, oom_document_diagnostic_count(f->doc));
  cache_store_free(s);
  remove_dir(dir);
  free(dir);
}


static bool keep_not_c(const cache_entry *e, void *arg) {
  (void)arg;
  return !(e->key_len == 4 && !memcmp(e->key, "c.py", 4));
}


static void test_store_keep_drops_entries(void **state) {
  fixture *f = *state;
  char *dir = temp_dir();
  uint64_t key = cache_store_key("oomlint test", 7, "/project");
  write_three(f, dir, key);
  cache_store *s = cache_store_open(dir, key);
  buf fresh[1] = {{0}};
  cache_stamp st = f->stamp;
  cache_entry_encode(&fresh[0], key, "d.py", &st, NULL, 0, f->doc);
  char why[256];
  assert_true(cache_store_save(s, fresh, 1, keep_not_c, NULL, why, sizeof why));
  buf_free(&fresh[0]);
  cache_store_free(s);
  s = cache_store_open(dir, key);
  assert_int_equal(cache_store_count(s), 3);
  assert_null(cache_store_find(s, "c.py"));
  assert_non_null(cache_store_find(s, "d.py"));
  cache_store_free(s);
  remove_dir(dir);
  free(dir);
}


static void test_store_of_another_version_is_empty(void **state) {
  fixture *f = *state;
  char *dir = temp_dir();
  uint64_t key = cache_store_key("oomlint 0.1.0", 7, "/project");
  uint64_t other = cache_store_key("oomlint 0.2.0", 7, "/project");
  assert_true(key != other);
  assert_true(cache_store_key("oomlint 0.1.0", 8, "/project") != key);
  assert_true(cache_store_key("oomlint 0.1.0", 7, "/other") != key);
  write_three(f, dir, key);
  /* the file of one key copied where another key's file would be */
  char *from = store_path(dir, key), *to = store_path(dir, other);
  assert_int_equal(rename(from, to), 0);
  cache_store *s = cache_store_open(dir, other);
  assert_int_equal(cache_store_count(s), 0);
  assert_null(cache_store_find(s, "a.py"));
  cache_store_free(s);
  free(from);
  free(to);
  remove_dir(dir);
  free(dir);
}


static unsigned char *slurp(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  fseek(fp, 0, SEEK_END);
  *len = (size_t)ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *d = malloc(*len + 1);
  assert_int_equal(fread(d, 1, *len, fp), *len);
  fclose(fp);
  return d;
}


static void spit(const char *path, const unsigned char *d, size_t len) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(d, 1, len, fp), len);
  fclose(fp);
}


/* Every entry a damaged file still yields is one that was written. */
static void check_only_true_entries(fixture *f, cache_store *s) {
  const char *names[] = {"a.py", "b.py", "c.py"};
  for (int i = 0; i < 3; i++) {
    const cache_entry *e = cache_store_find(s, names[i]);
    if (!e) continue;
    oom_document *back = oom_document_new("t.py", SOURCE, sizeof SOURCE - 1);
    if (i == 1) {
      assert_int_equal(e->ndiags, 0);
    } else {
      assert_true(cache_entry_restore(e, f->linter, back));
      assert_true(same_diagnostics(f->doc, back));
    }
    oom_document_free(back);
  }
}


static void test_store_damage_is_a_miss(void **state) {
  fixture *f = *state;
  char *dir = temp_dir();
  uint64_t key = cache_store_key("oomlint test", 7, "/project");
  write_three(f, dir, key);
  char *path = store_path(dir, key);
  size_t len;
  unsigned char *good = slurp(path, &len);
  unsigned char *bad = malloc(len);
  /* every flipped byte: what is left is true, and the damaged entry is gone */
  for (size_t i = 0; i < len; i++) {
    memcpy(bad, good, len);
    bad[i] ^= 0x10;
    spit(path, bad, len);
    cache_store *s = cache_store_open(dir, key);
    check_only_true_entries(f, s);
    assert_true(cache_store_count(s) < 3);
    if (i < 32) assert_int_equal(cache_store_count(s), 0); /* the header */
    cache_store_free(s);
  }
  /* every truncation: whole entries before the cut only */
  for (size_t n = 0; n < len; n += 7) {
    spit(path, good, n);
    cache_store *s = cache_store_open(dir, key);
    check_only_true_entries(f, s);
    assert_true(cache_store_count(s) < 3);
    cache_store_free(s);
  }
  /* garbage */
  spit(path, (const unsigned char *)"not a cache file", 16);
  cache_store *s = cache_store_open(dir, key);
  assert_int_equal(cache_store_count(s), 0);
  cache_store_free(s);
  free(good);
  free(bad);
  free(path);
  remove_dir(dir);
  free(dir);
}


static void test_store_save_leaves_no_temporary_file(void **state) {
  fixture *f = *state;
  char *dir = temp_dir();
  uint64_t key = cache_store_key("oomlint test", 7, "/project");
  write_three(f, dir, key);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s' | wc -l)\" = 1", dir);
  assert_int_equal(system(cmd), 0);
  /* a folder that is gone: the save fails, and says so */
  remove_dir(dir);
  cache_store *s = cache_store_open(dir, key);
  buf fresh[1] = {{0}};
  cache_entry_encode(&fresh[0], key, "a.py", &f->stamp, NULL, 0, f->doc);
  char why[256] = "";
  assert_false(cache_store_save(s, fresh, 1, NULL, NULL, why, sizeof why));
  assert_non_null(strstr(why, "temporary"));
  buf_free(&fresh[0]);
  cache_store_free(s);
  free(dir);
}


/* ---- stamps and settings ---- */

static void test_stamp_trust(void **state) {
  (void)state;
  char *dir = temp_dir();
  char path[512];
  snprintf(path, sizeof path, "%s/f.py", dir);
  spit(path, (const unsigned char *)"x = 1\n", 6);
  cache_stamp now;
  assert_true(cache_stamp_take(path, &now));
  assert_int_equal(now.size, 6);
  /* just written: the time could hide a write in the same tick */
  assert_false(now.mtime_trusted);
  assert_false(cache_stamp_unchanged(&now, &now));
  char cmd[600];
  snprintf(cmd, sizeof cmd, "touch -d '2020-01-01 00:00:00' '%s'", path);
  assert_int_equal(system(cmd), 0);
  cache_stamp old;
  assert_true(cache_stamp_take(path, &old));
  assert_true(old.mtime_trusted);
  assert_true(cache_stamp_unchanged(&old, &old));
  cache_stamp moved = old;
  moved.mtime_ns += 1;
  assert_false(cache_stamp_unchanged(&old, &moved));
  moved = old;
  moved.size += 1;
  assert_false(cache_stamp_unchanged(&old, &moved));
  assert_false(cache_stamp_take(dir, &now)); /* a folder is not a stamped file */
  remove_dir(dir);
  free(dir);
}


static uint64_t digest_of(const char *select, uint64_t gpu) {
  oom_options *o = oom_options_new();
  if (select) oom_options_select(o, select);
  if (gpu) oom_options_set_gpu_memory(o, gpu);
  char *err = NULL;
  oom_linter *l = oom_linter_load(o, &err);
  oom_options_free(o);
  assert_non_null(l);
  uint64_t d = cache_settings_digest(l, NULL, 0);
  oom_linter_free(l);
  return d;
}


static void test_settings_digest(void **state) {
  (void)state;
  assert_true(digest_of(NULL, 0) == digest_of(NULL, 0));
  assert_true(digest_of("OOM5", 0) != digest_of(NULL, 0));
  assert_true(digest_of("OOM5", 0) != digest_of("OOM501", 0));
  assert_true(digest_of(NULL, 24ull << 30) != digest_of(NULL, 0));
  assert_true(digest_of(NULL, 24ull << 30) != digest_of(NULL, 80ull << 30));
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_hash_reference_values),
    cmocka_unit_test(test_source_has_what_the_tests_need),
    cmocka_unit_test(test_round_trip),
    cmocka_unit_test(test_round_trip_with_dependencies),
    cmocka_unit_test(test_restore_with_an_uncompiled_linter),
    cmocka_unit_test(test_document_takes_its_text),
    cmocka_unit_test(test_every_truncation_is_a_miss),
    cmocka_unit_test(test_every_flipped_byte_is_a_miss),
    cmocka_unit_test(test_entry_of_another_cache_file_is_a_miss),
    cmocka_unit_test(test_restore_refuses_a_shorter_text),
    cmocka_unit_test(test_restore_refuses_an_unknown_rule),
    cmocka_unit_test(test_store_round_trip_and_replace),
    cmocka_unit_test(test_store_keep_drops_entries),
    cmocka_unit_test(test_store_of_another_version_is_empty),
    cmocka_unit_test(test_store_damage_is_a_miss),
    cmocka_unit_test(test_store_save_leaves_no_temporary_file),
    cmocka_unit_test(test_stamp_trust),
    cmocka_unit_test(test_settings_digest),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
