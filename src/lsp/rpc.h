/* JSON-RPC 2.0 over a byte stream with LSP's Content-Length framing: a
 * reader that survives malformed input and a thread-safe writer. */
#ifndef OOM_LSP_RPC_H
#define OOM_LSP_RPC_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/buf.h"

/* JSON-RPC and LSP error codes */
#define LSP_PARSE_ERROR (-32700)
#define LSP_INVALID_REQUEST (-32600)
#define LSP_METHOD_NOT_FOUND (-32601)
#define LSP_INVALID_PARAMS (-32602)
#define LSP_INTERNAL_ERROR (-32603)
#define LSP_SERVER_NOT_INITIALIZED (-32002)
#define LSP_REQUEST_CANCELLED (-32800)

/** Bodies above this are skipped unread: an editor never sends one (a 5 MB
 *  document is at most ~30 MB of JSON even with every byte escaped). */
#define LSP_MAX_MESSAGE (64u << 20)

/** Reads up to N bytes into DST: >0 bytes read, 0 end of stream, <0 error. */
typedef ssize_t (*lsp_read_fn)(void *ctx, void *dst, size_t n);
/** Writes all N bytes of SRC: 0, or -1 when the stream is gone. */
typedef int (*lsp_write_fn)(void *ctx, const void *src, size_t n);

typedef enum {
  LSP_READ_MESSAGE,    /* *message holds the parsed JSON value */
  LSP_READ_EOF,        /* the stream ended (between or inside messages) */
  LSP_READ_BAD_HEADER, /* a header was malformed; the reader resynchronises on the next Content-Length */
  LSP_READ_BAD_JSON,   /* the body was not valid JSON (or not UTF-8) */
  LSP_READ_TOO_LARGE   /* the body was over the limit and was skipped */
} lsp_read_status;

typedef struct {
  lsp_read_fn read;
  void *ctx;
  size_t max_body;
  char *data; /* buffered, unconsumed input is data[pos, len) */
  size_t pos, len, cap;
  bool resync; /* after a malformed header: skip to the next "Content-Length:" */
  bool eof;
} lsp_reader;

void lsp_reader_init(lsp_reader *self, lsp_read_fn read, void *ctx);
void lsp_reader_free(lsp_reader *self);
/** Read the next message. On LSP_READ_MESSAGE *MESSAGE is the caller's; on
 *  an error WHY says what was wrong and *ID is the request id when it could
 *  be recovered (a too-large request still deserves an answer), else NULL. */
lsp_read_status lsp_read(lsp_reader *self, json_t **message, json_t **id, buf *why);

typedef struct {
  lsp_write_fn write;
  void *ctx;
  pthread_mutex_t lock; /* the lint thread publishes while the main thread answers */
  bool broken;
} lsp_writer;

void lsp_writer_init(lsp_writer *self, lsp_write_fn write, void *ctx);
void lsp_writer_free(lsp_writer *self);
/** Frame and write MESSAGE (not consumed). Returns 0, or -1 once the stream is gone. */
int lsp_send(lsp_writer *self, const json_t *message);
/** Helpers that build, send and release one message: ID is borrowed (NULL
 *  sends `null`), RESULT and PARAMS are consumed (NULL sends `null`). */
int lsp_send_result(lsp_writer *self, json_t *id, json_t *result);
int lsp_send_error(lsp_writer *self, json_t *id, int code, const char *message);
int lsp_send_notification(lsp_writer *self, const char *method, json_t *params);

/** read(2)/write(2) on a file descriptor passed as (intptr_t) CTX. */
ssize_t lsp_fd_read(void *ctx, void *dst, size_t n);
int lsp_fd_write(void *ctx, const void *src, size_t n);

#endif
