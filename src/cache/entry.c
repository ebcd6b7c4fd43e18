/* This file contains the entry format. An entry is
 *
 *   u32 body length | u64 checksum of the body | body
 *
 * and the body is the key, the stamp and the diagnostics:
 *
 *   str key | u64 size | u64 mtime_ns | u64 content hash | u32 flags |
 *   u32 deps | deps x (str key | u64 size | u64 mtime_ns | u64 content hash | u32 flags) |
 *   u32 count | count x (u32 start byte, row, column | u32 end byte, row, column | str code |
 *   str message | u8 fix: 0 none, else 1 + applicability |
 *   [u8 has title | [str title] | u32 edits | edits x (u32 start | u32 end | str content)])
 *
 * (str: u32 length, then the bytes). Integers are little-endian whatever the
 * machine. Rows and columns are stored, though the byte offsets determine
 * them, so that a restored document needs no line index for text output. */
#include "cache/entry.h"

#include <assert.h>
#include <string.h>

#include "cache/hash.h"
#include "engine/engine.h"

#define FLAG_MTIME_TRUSTED 1u
#define HEAD_BYTES 12 /* body length and checksum */


static void put_u32(buf *out, uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; i++) b[i] = (char)(v >> (8 * i));
  buf_append(out, b, 4);
}


static void put_u64(buf *out, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; i++) b[i] = (char)(v >> (8 * i));
  buf_append(out, b, 8);
}


static void put_str(buf *out, const char *s, size_t n) {
  put_u32(out, (uint32_t)n);
  buf_append(out, s, n);
}


static void patch_u32(buf *out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) out->data[at + (size_t)i] = (char)(v >> (8 * i));
}


static void patch_u64(buf *out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; i++) out->data[at + (size_t)i] = (char)(v >> (8 * i));
}


static void put_stamp(buf *out, const cache_stamp *stamp) {
  put_u64(out, stamp->size);
  put_u64(out, (uint64_t)stamp->mtime_ns);
  put_u64(out, stamp->content_hash);
  put_u32(out, stamp->mtime_trusted ? FLAG_MTIME_TRUSTED : 0);
}


void cache_entry_encode(buf *out, uint64_t seed, const char *key, const cache_stamp *stamp, const cache_dep *deps,
                        size_t ndeps, const oom_document *doc) {
  size_t head = out->len;
  put_u32(out, 0);
  put_u64(out, 0);
  size_t body = out->len;
  put_str(out, key, strlen(key));
  put_stamp(out, stamp);
  put_u32(out, (uint32_t)ndeps);
  for (size_t i = 0; i < ndeps; i++) {
    put_str(out, deps[i].key, deps[i].key_len);
    put_stamp(out, &deps[i].stamp);
  }
  size_t n = oom_document_diagnostic_count(doc);
  put_u32(out, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    const char *code = oom_diagnostic_code(d), *msg = oom_diagnostic_message(d);
    oom_position from = oom_diagnostic_start(d), to = oom_diagnostic_end(d);
    put_u32(out, from.byte);
    put_u32(out, from.row);
    put_u32(out, from.column);
    put_u32(out, to.byte);
    put_u32(out, to.row);
    put_u32(out, to.column);
    put_str(out, code, strlen(code));
    put_str(out, msg ? msg : "", msg ? strlen(msg) : 0);
    const oom_fix *fix = oom_diagnostic_fix(d);
    buf_putc(out, (char)(fix ? 1 + oom_fix_applicability(fix) : 0));
    if (!fix) continue;
    const char *title = oom_fix_title(fix);
    buf_putc(out, (char)(title != NULL));
    if (title) put_str(out, title, strlen(title));
    size_t ne = oom_fix_edit_count(fix);
    put_u32(out, (uint32_t)ne);
    for (size_t k = 0; k < ne; k++) {
      const oom_edit *e = oom_fix_edit(fix, k);
      put_u32(out, e->start_byte);
      put_u32(out, e->end_byte);
      put_str(out, e->content, strlen(e->content));
    }
  }
  size_t body_len = out->len - body;
  patch_u32(out, head, (uint32_t)body_len);
  patch_u64(out, head + 4, cache_hash(out->data + body, body_len, seed));
}


/* A bounds-checked reader: past the end it returns zeros and clears OK, so
 * decoding checks once at the end instead of at every field. */
typedef struct {
  const unsigned char *p, *end;
  bool ok;
} reader;


static bool need(reader *r, size_t n) {
  if (!r->ok || (size_t)(r->end - r->p) < n) {
    r->ok = false;
    return false;
  }
  return true;
}


static uint32_t get_u32(reader *r) {
  if (!need(r, 4)) return 0;
  uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
  r->p += 4;
  return v;
}


static uint64_t get_u64(reader *r) {
  if (!need(r, 8)) return 0;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | r->p[i];
  r->p += 8;
  return v;
}


static unsigned get_u8(reader *r) {
  if (!need(r, 1)) return 0;
  return *r->p++;
}


static const char *get_str(reader *r, size_t *len) {
  *len = get_u32(r);
  if (!need(r, *len)) return NULL;
  const char *s = (const char *)r->p;
  r->p += *len;
  return s;
}


static void get_stamp(reader *r, cache_stamp *stamp) {
  stamp->size = get_u64(r);
  stamp->mtime_ns = (int64_t)get_u64(r);
  stamp->content_hash = get_u64(r);
  stamp->mtime_trusted = (get_u32(r) & FLAG_MTIME_TRUSTED) != 0;
}


/* one dependency: a key of at least one byte and a stamp */
#define DEP_MIN_BYTES (4 + 1 + 28)


size_t cache_entry_decode(const unsigned char *data, size_t avail, uint64_t seed, cache_entry *out) {
  reader r = {data, data + avail, true};
  uint32_t body_len = get_u32(&r);
  uint64_t sum = get_u64(&r);
  if (!need(&r, body_len)) return 0;
  if (cache_hash(r.p, body_len, seed) != sum) return 0;
  r.end = r.p + body_len;
  memset(out, 0, sizeof *out);
  out->key = get_str(&r, &out->key_len);
  get_stamp(&r, &out->stamp);
  out->ndeps = get_u32(&r);
  out->deps = r.p;
  /* walk the dependencies once here, so that cache_entry_dep can trust them */
  if (r.ok && out->ndeps > (size_t)(r.end - r.p) / DEP_MIN_BYTES) return 0;
  for (uint32_t i = 0; i < out->ndeps && r.ok; i++) {
    size_t len;
    cache_stamp st;
    if (!get_str(&r, &len) || len == 0) return 0;
    get_stamp(&r, &st);
  }
  out->ndiags = get_u32(&r);
  if (!r.ok || !out->key) return 0;
  out->diags = r.p;
  out->end = r.end;
  return HEAD_BYTES + (size_t)body_len;
}


void cache_entry_dep(const cache_entry *self, uint32_t index, cache_dep *out) {
  assert(index < self->ndeps);
  /* decode checked the whole list: no bound can fail below */
  reader r = {self->deps, self->end, true};
  for (uint32_t i = 0;; i++) {
    out->key = get_str(&r, &out->key_len);
    get_stamp(&r, &out->stamp);
    if (i == index) break;
  }
  assert(r.ok && out->key);
}


static bool restore_diagnostics(const cache_entry *self, const oom_linter *linter, oom_document *doc) {
  reader r = {self->diags, self->end, true};
  arena *a = &doc->arena;
  for (uint32_t i = 0; i < self->ndiags; i++) {
    oom_position s, e;
    s.byte = get_u32(&r);
    s.row = get_u32(&r);
    s.column = get_u32(&r);
    e.byte = get_u32(&r);
    e.row = get_u32(&r);
    e.column = get_u32(&r);
    size_t code_len, msg_len;
    const char *code = get_str(&r, &code_len);
    const char *msg = get_str(&r, &msg_len);
    unsigned fix_kind = get_u8(&r);
    if (!r.ok || s.byte > e.byte || e.byte > doc->length || s.column > s.byte || e.column > e.byte ||
        s.row > e.row || code_len == 0 || code_len >= 32 || fix_kind > 1 + OOM_FIX_SAFE)
      return false;
    char name[32];
    memcpy(name, code, code_len);
    name[code_len] = '\0';
    const oom_rule *rule = oom_linter_find_rule(linter, name);
    if (!rule || strcmp(oom_rule_code(rule), name) != 0) return false;
    /* not diagnostic_new: it would build the line index for the positions */
    oom_diagnostic *d = arena_calloc(a, sizeof *d);
    d->rule = rule;
    d->message = arena_strndup(a, msg, msg_len);
    d->start = s;
    d->end = e;
    vec_push(&doc->diagnostics, d);
    if (!fix_kind) continue;
    oom_fix *fix = arena_calloc(a, sizeof *fix);
    fix->applicability = (oom_applicability)(fix_kind - 1);
    if (get_u8(&r)) {
      size_t tlen;
      const char *title = get_str(&r, &tlen);
      if (!title) return false;
      fix->title = arena_strndup(a, title, tlen);
    }
    uint32_t ne = get_u32(&r);
    /* each edit takes at least 12 bytes: a count past that is damage */
    if (!r.ok || ne > (size_t)(r.end - r.p) / 12) return false;
    fix->edits = ne ? arena_calloc(a, ne * sizeof *fix->edits) : NULL;
    fix->nedits = ne;
    uint32_t prev_end = 0;
    for (uint32_t k = 0; k < ne; k++) {
      oom_edit *ed = &fix->edits[k];
      ed->start_byte = get_u32(&r);
      ed->end_byte = get_u32(&r);
      size_t clen;
      const char *content = get_str(&r, &clen);
      if (!content || ed->start_byte > ed->end_byte || ed->end_byte > doc->length || ed->start_byte < prev_end)
        return false;
      prev_end = ed->end_byte;
      ed->content = arena_strndup(a, content, clen);
    }
    d->fix = fix;
  }
  return r.ok && r.p == r.end;
}


bool cache_entry_restore(const cache_entry *self, const oom_linter *linter, oom_document *doc) {
  document_reset_results(doc);
  if (restore_diagnostics(self, linter, doc)) return true;
  document_reset_results(doc);
  return false;
}
