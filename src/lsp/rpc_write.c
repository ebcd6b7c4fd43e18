/* This file contains the JSON-RPC writer: messages framed with a
 * Content-Length header, written whole under a lock shared by both threads. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/rpc.h"
#include "util/alloc.h"
#include "util/buf.h"


int lsp_fd_write(void *ctx, const void *data, size_t n) {
  int fd = (int)(intptr_t)ctx;
  const char *p = data;
  while (n) {
    ssize_t put = write(fd, p, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return -1;
    p += put;
    n -= (size_t)put;
  }
  return 0;
}


void lsp_writer_init(lsp_writer *self, lsp_write_fn write_fn, void *ctx) {
  self->write = write_fn;
  self->ctx = ctx;
  self->broken = false;
  pthread_mutex_init(&self->lock, NULL);
}


void lsp_writer_free(lsp_writer *self) {
  pthread_mutex_destroy(&self->lock);
}


/* Room for the longest header at the front, so the body is dumped once. */
#define HEADER_ROOM 40

static int append(const char *data, size_t n, void *ctx) {
  buf_append(ctx, data, n);
  return 0;
}


int lsp_send(lsp_writer *self, const json_t *message) {
  /* JSON_COMPACT: one line; jansson escapes NUL and writes UTF-8 as is. One
   * pass: a publish of a few hundred diagnostics is most of a relint's time */
  buf out = {0};
  for (int i = 0; i < HEADER_ROOM; i++) buf_putc(&out, ' ');
  if (json_dump_callback(message, append, &out, JSON_COMPACT) || out.len == HEADER_ROOM) {
    buf_free(&out);
    return -1;
  }
  char header[HEADER_ROOM + 1];
  int h = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", out.len - HEADER_ROOM);
  char *start = out.data + HEADER_ROOM - h;
  memcpy(start, header, (size_t)h);
  pthread_mutex_lock(&self->lock);
  int rc = -1;
  if (!self->broken) {
    rc = self->write(self->ctx, start, out.len - HEADER_ROOM + (size_t)h);
    if (rc) self->broken = true;
  }
  pthread_mutex_unlock(&self->lock);
  buf_free(&out);
  return rc;
}


static int send_new(lsp_writer *self, json_t *message) {
  int rc = lsp_send(self, message);
  json_decref(message);
  return rc;
}


int lsp_send_result(lsp_writer *self, json_t *id, json_t *result) {
  json_t *m = json_object();
  json_object_set_new(m, "jsonrpc", json_string("2.0"));
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "result", result ? result : json_null());
  return send_new(self, m);
}


int lsp_send_error(lsp_writer *self, json_t *id, int code, const char *message) {
  json_t *m = json_object();
  json_object_set_new(m, "jsonrpc", json_string("2.0"));
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "error", json_pack("{s:i, s:s}", "code", code, "message", message));
  return send_new(self, m);
}


int lsp_send_notification(lsp_writer *self, const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "jsonrpc", json_string("2.0"));
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params ? params : json_null());
  return send_new(self, m);
}
