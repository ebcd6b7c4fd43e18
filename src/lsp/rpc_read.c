/* This file contains the JSON-RPC reader: Content-Length framing read from a
 * byte stream, with recovery from malformed headers, bodies and sizes. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lsp/rpc.h"
#include "util/alloc.h"

#define CHUNK (64u << 10)
#define MAX_HEADER_LINE 8192u
#define SALVAGE_PREFIX 4096u

static const char CONTENT_LENGTH[] = "content-length:";


void lsp_reader_init(lsp_reader *self, lsp_read_fn read, void *ctx) {
  memset(self, 0, sizeof *self);
  self->read = read;
  self->ctx = ctx;
  self->max_body = LSP_MAX_MESSAGE;
}


void lsp_reader_free(lsp_reader *self) {
  free(self->data);
  self->data = NULL;
  self->pos = self->len = self->cap = 0;
}


ssize_t lsp_fd_read(void *ctx, void *dst, size_t n) {
  int fd = (int)(intptr_t)ctx;
  for (;;) {
    ssize_t got = read(fd, dst, n);
    if (got >= 0 || errno != EINTR) return got;
  }
}


/* Read more input; false at the end of the stream. Keeps data[pos, len). */
static bool fill(lsp_reader *r) {
  if (r->eof) return false;
  if (r->pos == r->len) {
    r->pos = r->len = 0;
    if (r->cap > (4u << 20)) { /* do not keep a big message's buffer for good */
      free(r->data);
      r->data = NULL;
      r->cap = 0;
    }
  } else if (r->pos > r->cap / 2) {
    memmove(r->data, r->data + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->cap - r->len < CHUNK) {
    r->cap = r->cap ? r->cap * 2 : CHUNK * 2;
    while (r->cap - r->len < CHUNK) r->cap *= 2;
    r->data = oom_xrealloc(r->data, r->cap);
  }
  ssize_t n = r->read(r->ctx, r->data + r->len, r->cap - r->len);
  if (n <= 0) {
    r->eof = true;
    return false;
  }
  r->len += (size_t)n;
  return true;
}


static size_t avail(const lsp_reader *r) {
  return r->len - r->pos;
}


static const char *find_ci(const char *hay, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; i++)
    if (!strncasecmp(hay + i, needle, m)) return hay + i;
  return NULL;
}


/* Skip input up to the next "Content-Length:"; false at the end of the stream. */
static bool resynchronise(lsp_reader *r) {
  for (;;) {
    const char *hit = find_ci(r->data + r->pos, avail(r), CONTENT_LENGTH);
    if (hit) {
      r->pos = (size_t)(hit - r->data);
      r->resync = false;
      return true;
    }
    /* keep a tail that may be the start of a split "Content-Length:" */
    size_t keep = sizeof CONTENT_LENGTH - 2;
    if (avail(r) > keep) r->pos = r->len - keep;
    if (!fill(r)) return false;
  }
}


typedef enum { LINE_OK, LINE_EOF, LINE_TOO_LONG } line_status;

/* The next header line without its "\r\n"; consumed from the buffer. */
static line_status next_line(lsp_reader *r, char **line, size_t *n) {
  size_t scanned = 0;
  for (;;) {
    char *nl = avail(r) > scanned ? memchr(r->data + r->pos + scanned, '\n', avail(r) - scanned) : NULL;
    if (nl) {
      *line = r->data + r->pos;
      *n = (size_t)(nl - *line);
      r->pos += *n + 1;
      if (*n && (*line)[*n - 1] == '\r') (*n)--;
      return LINE_OK;
    }
    scanned = avail(r);
    if (scanned > MAX_HEADER_LINE) return LINE_TOO_LONG;
    if (!fill(r)) return LINE_EOF;
  }
}


static bool is_token(const char *s, size_t n) {
  if (!n) return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_') return false;
  return true;
}


/* "  1234 " -> 1234; false when not a plain decimal number */
static bool parse_length(const char *s, size_t n, size_t *out) {
  while (n && (*s == ' ' || *s == '\t')) s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  if (!n || n > 12) return false;
  size_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isdigit((unsigned char)s[i])) return false;
    v = v * 10 + (size_t)(s[i] - '0');
  }
  *out = v;
  return true;
}


/* The id of a request whose body is not read whole: `"id": 7` or `"id": "x"`
 * before `"params"` in its first bytes (where every client puts it). */
static json_t *salvage_id(const char *s, size_t n) {
  const char *params = find_ci(s, n, "\"params\"");
  size_t limit = params ? (size_t)(params - s) : n;
  const char *k = find_ci(s, limit, "\"id\"");
  if (!k) return NULL;
  const char *p = k + 4, *end = s + limit;
  while (p < end && isspace((unsigned char)*p)) p++;
  if (p >= end || *p++ != ':') return NULL;
  while (p < end && isspace((unsigned char)*p)) p++;
  if (p < end && *p == '"') {
    const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
    return q ? json_stringn(p + 1, (size_t)(q - p - 1)) : NULL;
  }
  const char *q = p;
  if (q < end && *q == '-') q++;
  json_int_t v = 0;
  const char *digits = q;
  while (q < end && isdigit((unsigned char)*q) && q - digits < 18) v = v * 10 + (*q++ - '0');
  if (q == digits) return NULL;
  return json_integer(*p == '-' ? -v : v);
}


/* Discard a body of LENGTH bytes, keeping its first bytes to find the id. */
static lsp_read_status skip_body(lsp_reader *r, size_t length, json_t **id, buf *why) {
  char prefix[SALVAGE_PREFIX];
  size_t kept = 0;
  while (length) {
    if (!avail(r) && !fill(r)) {
      buf_puts(why, "the stream ended inside a message");
      return LSP_READ_EOF;
    }
    size_t take = avail(r) < length ? avail(r) : length;
    if (kept < sizeof prefix) {
      size_t k = take < sizeof prefix - kept ? take : sizeof prefix - kept;
      memcpy(prefix + kept, r->data + r->pos, k);
      kept += k;
    }
    r->pos += take;
    length -= take;
  }
  if (id) *id = salvage_id(prefix, kept);
  return LSP_READ_TOO_LARGE;
}


static lsp_read_status bad_header(lsp_reader *r, buf *why, const char *what, const char *line, size_t n) {
  if (n > 60) n = 60;
  buf_printf(why, "%s: `", what);
  for (size_t i = 0; i < n; i++) buf_putc(why, isprint((unsigned char)line[i]) ? line[i] : '?');
  buf_puts(why, "`");
  r->resync = true;
  return LSP_READ_BAD_HEADER;
}


lsp_read_status lsp_read(lsp_reader *self, json_t **message, json_t **id, buf *why) {
  *message = NULL;
  if (id) *id = NULL;
  buf_clear(why);
  if (self->resync && !resynchronise(self)) return LSP_READ_EOF;
  size_t length = 0;
  bool have_length = false;
  int headers = 0;
  for (;;) {
    char *line;
    size_t n;
    line_status ls = next_line(self, &line, &n);
    if (ls == LINE_EOF) {
      if (headers || avail(self)) buf_puts(why, "the stream ended inside a header");
      return LSP_READ_EOF;
    }
    if (ls == LINE_TOO_LONG) {
      buf_printf(why, "a header line longer than %u bytes", MAX_HEADER_LINE);
      self->pos++; /* resynchronise past this line's start */
      self->resync = true;
      return LSP_READ_BAD_HEADER;
    }
    if (n == 0) {
      if (!headers) continue; /* stray blank lines between messages */
      break;
    }
    const char *colon = memchr(line, ':', n);
    if (!colon || !is_token(line, (size_t)(colon - line))) {
      /* maybe the tail of a body whose Content-Length was too small: the
       * next message's header can follow on this same line */
      self->pos = (size_t)(line - self->data) + 1;
      return bad_header(self, why, "malformed header", line, n);
    }
    size_t name_len = (size_t)(colon - line);
    if (name_len == sizeof CONTENT_LENGTH - 2 && !strncasecmp(line, CONTENT_LENGTH, name_len)) {
      if (!parse_length(colon + 1, n - name_len - 1, &length))
        return bad_header(self, why, "invalid Content-Length", line, n);
      have_length = true;
    }
    /* Content-Type and unknown headers are allowed and ignored */
    headers++;
  }
  if (!have_length) {
    buf_puts(why, "a message without a Content-Length header");
    self->resync = true;
    return LSP_READ_BAD_HEADER;
  }
  if (length > self->max_body) {
    lsp_read_status st = skip_body(self, length, id, why);
    if (st == LSP_READ_TOO_LARGE)
      buf_printf(why, "a message of %zu bytes (the limit is %zu) was skipped", length, self->max_body);
    return st;
  }
  while (avail(self) < length) {
    if (!fill(self)) {
      buf_printf(why, "the stream ended inside a message (%zu of %zu bytes)", avail(self), length);
      return LSP_READ_EOF;
    }
  }
  json_error_t err;
  json_t *value = json_loadb(self->data + self->pos, length, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
  if (!value) {
    buf_printf(why, "invalid JSON at byte %d: %s", err.position, err.text);
  }
  self->pos += length;
  if (!value) return LSP_READ_BAD_JSON;
  *message = value;
  return LSP_READ_MESSAGE;
}
