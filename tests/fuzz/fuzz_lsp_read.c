/* libFuzzer target: the LSP message reader (src/lsp/rpc.h) on an arbitrary
 * byte stream, served in small uneven reads as a pipe would. */
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "lsp/rpc.h"

typedef struct {
  const uint8_t *data;
  size_t size, pos;
} stream;

/* Reads of 1..17 bytes, the length taken from the data itself, so that header
 * and body boundaries fall everywhere. */
static ssize_t read_some(void *ctx, void *dst, size_t n) {
  stream *s = ctx;
  if (s->pos >= s->size) return 0;
  size_t k = 1 + (s->data[s->pos] % 17);
  if (k > n) k = n;
  if (k > s->size - s->pos) k = s->size - s->pos;
  memcpy(dst, s->data + s->pos, k);
  s->pos += k;
  return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  stream s = {data, size, 0};
  lsp_reader r;
  lsp_reader_init(&r, read_some, &s);
  r.max_body = 1 << 16; /* exercise the too-large path too */
  buf why = {0};
  for (int i = 0; i < 1000; i++) {
    json_t *msg = NULL, *id = NULL;
    why.len = 0;
    lsp_read_status st = lsp_read(&r, &msg, &id, &why);
    if (msg) json_decref(msg);
    if (id) json_decref(id);
    if (st == LSP_READ_EOF) break;
  }
  buf_free(&why);
  lsp_reader_free(&r);
  return 0;
}
