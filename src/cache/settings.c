/* This file contains the settings digest: the resolved settings written out
 * in one unambiguous byte string (every piece length-prefixed), hashed. The
 * rule files are hashed whole rather than by name, so an edited --rules-dir
 * file, or a rebuilt binary with changed built-in rules, misses. */
#include "cache/settings.h"

#include <string.h>

#include "cache/hash.h"
#include "engine/embedded.h"
#include "engine/engine.h"


static void put_bytes(buf *b, const char *s, size_t n) {
  buf_printf(b, "%zu:", n);
  buf_append(b, s ? s : "", s ? n : 0);
}


uint64_t cache_settings_digest(const oom_linter *linter, const char *extra, size_t extra_len) {
  buf b = {0};
  /* the data tables beside the rules (pretrained model sizes) steer the C
   * analyses, and are not rules: hash every embedded file */
  for (const oom_embedded_file *f = oom_embedded_files; f->name; f++) {
    put_bytes(&b, f->name, strlen(f->name));
    put_bytes(&b, f->data, f->length);
  }
  for (size_t i = 0; i < linter->rules.len; i++) {
    const oom_rule *r = linter->rules.items[i];
    put_bytes(&b, r->origin, r->origin ? strlen(r->origin) : 0);
    put_bytes(&b, r->text, r->text_len);
    buf_printf(&b, "%d%d", (int)linter->enabled[i], (int)r->builtin);
  }
  buf_printf(&b, "gpu:%llu mbs:%llu", (unsigned long long)linter->gpu_memory,
             (unsigned long long)linter->max_batch_size);
  for (size_t i = 0; i < linter->assume.len; i++) put_bytes(&b, linter->assume.items[i], strlen(linter->assume.items[i]));
  put_bytes(&b, extra, extra ? extra_len : 0);
  uint64_t h = cache_hash(b.data, b.len, 0);
  buf_free(&b);
  return h;
}
