/* Unit tests of the language server's parts (src/lsp): the framing reader on
 * byte streams, well-formed and not; the writer; UTF-16/UTF-32/UTF-8 position
 * conversion with CJK, emoji and combining marks; the server's text with its
 * line index; incremental edits giving what a fresh document gives; noqa
 * scanning; file URIs; editor settings, their precedence over the command
 * line's, and the cache of configuration files and their linters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "lsp/configs.h"
#include "lsp/noqa.h"
#include "lsp/rpc.h"
#include "lsp/server.h"
#include "lsp/settings.h"
#include "lsp/stamps.h"
#include "lsp/text.h"
#include "oomlint/oomlint.h"

/* ---- an in-memory byte stream, handed out CHUNK bytes at a time ---- */

typedef struct {
  const char *data;
  size_t len, pos, chunk;
} stream;

static ssize_t stream_read(void *ctx, void *dst, size_t n) {
  stream *s = ctx;
  size_t left = s->len - s->pos;
  if (n > left) n = left;
  if (s->chunk && n > s->chunk) n = s->chunk;
  memcpy(dst, s->data + s->pos, n);
  s->pos += n;
  return (ssize_t)n;
}

typedef struct {
  lsp_reader reader;
  stream in;
  buf why;
} fixture;

static void open_stream(fixture *f, const char *data, size_t len, size_t chunk) {
  memset(f, 0, sizeof *f);
  f->in = (stream){data, len, 0, chunk};
  lsp_reader_init(&f->reader, stream_read, &f->in);
}

static void close_stream(fixture *f) {
  lsp_reader_free(&f->reader);
  buf_free(&f->why);
}

/* The next read's status; a message's "n" member goes into *N. */
static lsp_read_status next(fixture *f, json_int_t *n, json_t **id) {
  json_t *m = NULL, *salvaged = NULL;
  lsp_read_status st = lsp_read(&f->reader, &m, &salvaged, &f->why);
  if (n) *n = m ? json_integer_value(json_object_get(m, "n")) : -1;
  if (id) *id = salvaged;
  else json_decref(salvaged);
  json_decref(m);
  return st;
}

#define MSG(body) "Content-Length: " #body "\r\n\r\n"

static void test_reads_messages_byte_by_byte(void **state) {
  (void)state;
  static const char in[] =
    "Content-Length: 7\r\n\r\n{\"n\":1}"
    "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 7\r\n\r\n{\"n\":2}"
    "\r\nContent-Length:7\r\n\r\n{\"n\":3}";
  for (size_t chunk = 1; chunk <= 8; chunk += 7) {
    fixture f;
    open_stream(&f, in, sizeof in - 1, chunk);
    json_int_t n;
    assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
    assert_int_equal(n, 1);
    assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
    assert_int_equal(n, 2);
    assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
    assert_int_equal(n, 3);
    assert_int_equal(next(&f, &n, NULL), LSP_READ_EOF);
    assert_int_equal(f.why.len, 0); /* a clean end */
    close_stream(&f);
  }
}

static void test_recovers_from_malformed_headers(void **state) {
  (void)state;
  static const char in[] =
    "garbage without a colon\r\n\r\n"       /* not a header */
    "Content-Length: 7\r\n\r\n{\"n\":1}"
    "Content-Length: abc\r\n\r\n{\"n\":9}"  /* a bad value: its body is skipped */
    "Content-Length: 7\r\n\r\n{\"n\":2}"
    "X-Other: 1\r\n\r\n{\"n\":9}"           /* no Content-Length at all */
    "Content-Length: 7\r\n\r\n{\"n\":3}";
  fixture f;
  open_stream(&f, in, sizeof in - 1, 5);
  json_int_t n;
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_HEADER);
  assert_non_null(strstr(buf_str(&f.why), "malformed header"));
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 1);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_HEADER);
  assert_non_null(strstr(buf_str(&f.why), "invalid Content-Length"));
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 2);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_HEADER);
  assert_non_null(strstr(buf_str(&f.why), "without a Content-Length"));
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 3);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_EOF);
  close_stream(&f);
}

static void test_wrong_content_length(void **state) {
  (void)state;
  /* too short: the body is cut, the rest runs into the next header */
  static const char shorter[] = "Content-Length: 5\r\n\r\n{\"n\":1}" MSG(7) "{\"n\":2}";
  fixture f;
  open_stream(&f, shorter, sizeof shorter - 1, 0);
  json_int_t n;
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_JSON);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_HEADER);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 2);
  close_stream(&f);
  /* too long: the body swallows the next message and the stream ends inside it */
  static const char longer[] = "Content-Length: 40\r\n\r\n{\"n\":1}" MSG(7) "{\"n\":2}";
  open_stream(&f, longer, sizeof longer - 1, 3);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_EOF);
  assert_non_null(strstr(buf_str(&f.why), "ended inside a message"));
  close_stream(&f);
}

static void test_invalid_json_and_utf8(void **state) {
  (void)state;
  static const char in[] = MSG(6) "{\"n\":}" MSG(9) "{\"s\":\"\xff\"}" MSG(7) "{\"n\":4}" MSG(1) "7";
  fixture f;
  open_stream(&f, in, sizeof in - 1, 0);
  json_int_t n;
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_JSON);
  assert_non_null(strstr(buf_str(&f.why), "invalid JSON"));
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_JSON); /* jansson refuses invalid UTF-8 */
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 4);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE); /* valid JSON, not an object: the server's to judge */
  close_stream(&f);
}

static void test_huge_message_is_skipped_with_its_id(void **state) {
  (void)state;
  size_t big = 100000;
  buf in = {0};
  buf body = {0};
  buf_puts(&body, "{\"jsonrpc\":\"2.0\",\"id\": 42,\"method\":\"x\",\"params\":{\"text\":\"");
  for (size_t i = 0; i < big; i++) buf_putc(&body, 'a');
  buf_puts(&body, "\"}}");
  buf_printf(&in, "Content-Length: %zu\r\n\r\n%s" MSG(7) "{\"n\":5}", body.len, buf_str(&body));
  fixture f;
  open_stream(&f, in.data, in.len, 4096);
  f.reader.max_body = 1000;
  json_int_t n;
  json_t *id = NULL;
  assert_int_equal(next(&f, &n, &id), LSP_READ_TOO_LARGE);
  assert_true(json_is_integer(id));
  assert_int_equal(json_integer_value(id), 42);
  json_decref(id);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 5);
  close_stream(&f);
  /* a header line that never ends */
  buf_clear(&in);
  for (size_t i = 0; i < 20000; i++) buf_putc(&in, 'x');
  buf_puts(&in, MSG(7) "{\"n\":6}");
  open_stream(&f, in.data, in.len, 1000);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_BAD_HEADER);
  assert_int_equal(next(&f, &n, NULL), LSP_READ_MESSAGE);
  assert_int_equal(n, 6);
  close_stream(&f);
  buf_free(&in);
  buf_free(&body);
}

static void test_eof_inside_header(void **state) {
  (void)state;
  static const char in[] = "Content-Len";
  fixture f;
  open_stream(&f, in, sizeof in - 1, 0);
  assert_int_equal(next(&f, NULL, NULL), LSP_READ_EOF);
  assert_true(f.why.len > 0);
  close_stream(&f);
  open_stream(&f, "", 0, 0);
  assert_int_equal(next(&f, NULL, NULL), LSP_READ_EOF);
  assert_int_equal(f.why.len, 0);
  close_stream(&f);
}

static int sink_write(void *ctx, const void *src, size_t n) {
  buf_append(ctx, src, n);
  return 0;
}

static void test_writer_frames(void **state) {
  (void)state;
  buf out = {0};
  lsp_writer w;
  lsp_writer_init(&w, sink_write, &out);
  json_t *id = json_integer(3);
  lsp_send_result(&w, id, json_pack("{s:s}", "a", "\xe4\xb8\xad")); /* 中: 3 bytes */
  lsp_send_error(&w, NULL, LSP_PARSE_ERROR, "bad");
  json_decref(id);
  lsp_writer_free(&w);
  const char *first = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"a\":\"\xe4\xb8\xad\"}}";
  char expect[256];
  snprintf(expect, sizeof expect, "Content-Length: %zu\r\n\r\n%s", strlen(first), first);
  assert_memory_equal(out.data, expect, strlen(expect));
  /* and the reader reads back what the writer wrote */
  fixture f;
  open_stream(&f, out.data, out.len, 0);
  json_t *m = NULL;
  assert_int_equal(lsp_read(&f.reader, &m, NULL, &f.why), LSP_READ_MESSAGE);
  json_decref(m);
  assert_int_equal(lsp_read(&f.reader, &m, NULL, &f.why), LSP_READ_MESSAGE);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "error"), "code")), LSP_PARSE_ERROR);
  assert_true(json_is_null(json_object_get(m, "id")));
  json_decref(m);
  close_stream(&f);
  buf_free(&out);
}

/* ---- positions ---- */

/* a, 中 (3 bytes, 1 UTF-16 unit), 😀 (4 bytes, 2 units), e + U+0301 (1 + 2
 * bytes: a combining mark is a code point of its own), z */
static const char LINE[] = "a\xe4\xb8\xad\xf0\x9f\x98\x80" "e\xcc\x81z";

static void test_units_to_bytes_and_back(void **state) {
  (void)state;
  size_t n = sizeof LINE - 1;
  /* byte offset of each code point boundary, and its UTF-16 / UTF-32 column */
  static const uint32_t bytes[] = {0, 1, 4, 8, 9, 11, 12};
  static const uint32_t utf16[] = {0, 1, 2, 4, 5, 6, 7};
  static const uint32_t utf32[] = {0, 1, 2, 3, 4, 5, 6};
  for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
    assert_int_equal(oom_column_convert(LINE, n, bytes[i], OOM_UNITS_UTF16), utf16[i]);
    assert_int_equal(oom_column_convert(LINE, n, bytes[i], OOM_UNITS_CODEPOINTS), utf32[i]);
    assert_int_equal(lsp_units_to_byte(LINE, n, utf16[i], OOM_UNITS_UTF16), bytes[i]);
    assert_int_equal(lsp_units_to_byte(LINE, n, utf32[i], OOM_UNITS_CODEPOINTS), bytes[i]);
    assert_int_equal(lsp_units_to_byte(LINE, n, bytes[i], OOM_UNITS_BYTES), bytes[i]);
  }
  /* inside the emoji's surrogate pair: the start of the emoji */
  assert_int_equal(lsp_units_to_byte(LINE, n, 3, OOM_UNITS_UTF16), 4);
  /* past the end of the line: its end */
  assert_int_equal(lsp_units_to_byte(LINE, n, 99, OOM_UNITS_UTF16), n);
  assert_int_equal(lsp_units_to_byte(LINE, n, 99, OOM_UNITS_BYTES), n);
  /* an invalid byte counts one unit, as oom_column_convert counts it */
  static const char bad[] = "a\xff" "b";
  assert_int_equal(lsp_units_to_byte(bad, 3, 2, OOM_UNITS_UTF16), 2);
  assert_int_equal(oom_column_convert(bad, 3, 2, OOM_UNITS_UTF16), 2);
}

static void test_text_positions(void **state) {
  (void)state;
  buf b = {0};
  buf_printf(&b, "x = 1\r\n%s\n\nlast", LINE);
  lsp_text t;
  lsp_text_init(&t, b.data, b.len);
  assert_int_equal(lsp_text_line_count(&t), 4);
  size_t n;
  const char *l0 = lsp_text_line(&t, 0, &n);
  assert_int_equal(n, 5); /* without the \r */
  assert_memory_equal(l0, "x = 1", 5);
  assert_null(lsp_text_line(&t, 4, &n));
  size_t line1 = 7;
  assert_int_equal(lsp_text_offset(&t, 1, 4, OOM_UNITS_UTF16), line1 + 8);     /* after the emoji */
  assert_int_equal(lsp_text_offset(&t, 0, 99, OOM_UNITS_UTF16), 5);            /* before the \r\n */
  assert_int_equal(lsp_text_offset(&t, 9, 0, OOM_UNITS_UTF16), b.len);         /* past the last line */
  assert_int_equal(lsp_text_offset(&t, 3, 2, OOM_UNITS_CODEPOINTS), b.len - 2);
  uint32_t line, ch;
  lsp_text_position(&t, line1 + 11, OOM_UNITS_UTF16, &line, &ch); /* before z */
  assert_int_equal(line, 1);
  assert_int_equal(ch, 6);
  lsp_text_position(&t, b.len, OOM_UNITS_UTF16, &line, &ch);
  assert_int_equal(line, 3);
  assert_int_equal(ch, 4);
  /* edits keep the line index what a fresh index would be */
  lsp_text_replace(&t, 2, line1 + 4, "\xe4\xb8\xad\n\n", 5); /* across lines, adding two */
  lsp_text_replace(&t, 0, 0, "", 0);
  lsp_text_replace(&t, t.len, t.len, "\n", 1);
  lsp_text fresh;
  lsp_text_init(&fresh, t.data, t.len);
  assert_int_equal(t.lines.len, fresh.lines.len);
  assert_memory_equal(t.lines.items, fresh.lines.items, t.lines.len * sizeof *t.lines.items);
  lsp_text_free(&fresh);
  lsp_text_free(&t);
  buf_free(&b);
}

/* The line index after edits is what a fresh index of the text would be. */
static void assert_index_fresh(const lsp_text *t) {
  lsp_text fresh;
  lsp_text_init(&fresh, t->data, t->len);
  assert_int_equal(t->lines.len, fresh.lines.len);
  assert_memory_equal(t->lines.items, fresh.lines.items, t->lines.len * sizeof *t->lines.items);
  lsp_text_free(&fresh);
}


static void test_text_positions_lone_cr(void **state) {
  (void)state;
  /* the LSP's three line ends: "a" LF, "bc" CRLF, "" CR, "d" CR, "e" */
  static const char text[] = "a\nbc\r\n\rd\re";
  lsp_text t;
  lsp_text_init(&t, text, sizeof text - 1);
  assert_int_equal(lsp_text_line_count(&t), 5);
  static const char *const want[] = {"a", "bc", "", "d", "e"};
  for (uint32_t i = 0; i < 5; i++) {
    size_t n;
    const char *l = lsp_text_line(&t, i, &n);
    assert_int_equal(n, strlen(want[i]));
    assert_memory_equal(l, want[i], n);
  }
  assert_int_equal(lsp_text_offset(&t, 3, 0, OOM_UNITS_UTF16), 7);
  assert_int_equal(lsp_text_offset(&t, 3, 9, OOM_UNITS_UTF16), 8); /* before its "\r" */
  assert_int_equal(lsp_text_offset(&t, 4, 1, OOM_UNITS_UTF16), 10);
  uint32_t line, ch;
  lsp_text_position(&t, 8, OOM_UNITS_UTF16, &line, &ch); /* the "\r" after "d" */
  assert_int_equal(line, 3);
  assert_int_equal(ch, 1);
  lsp_text_position(&t, 9, OOM_UNITS_UTF16, &line, &ch);
  assert_int_equal(line, 4);
  assert_int_equal(ch, 0);
  /* a "\n" typed after a lone "\r" makes one "\r\n": no new line, the
   * next one starts a byte later */
  lsp_text_replace(&t, 7, 7, "\n", 1);
  assert_int_equal(lsp_text_line_count(&t), 5);
  assert_int_equal(lsp_text_offset(&t, 3, 0, OOM_UNITS_UTF16), 8);
  assert_index_fresh(&t);
  /* and deleting it splits them again */
  lsp_text_replace(&t, 7, 8, "", 0);
  assert_int_equal(lsp_text_line_count(&t), 5);
  assert_index_fresh(&t);
  /* the "\n" of a "\r\n" deleted: its "\r" is lone, still one break */
  lsp_text_replace(&t, 5, 6, "", 0);
  assert_int_equal(lsp_text_line_count(&t), 5);
  assert_index_fresh(&t);
  /* a "\r" inserted before a "\n", at the end, at the start, over everything */
  lsp_text_replace(&t, 1, 1, "\r", 1);
  assert_int_equal(lsp_text_line_count(&t), 5);
  assert_index_fresh(&t);
  lsp_text_replace(&t, t.len, t.len, "\r", 1);
  assert_index_fresh(&t);
  lsp_text_replace(&t, 0, 0, "\r\r", 2);
  assert_index_fresh(&t);
  lsp_text_replace(&t, 1, t.len - 1, "x\ry\r\nz", 7);
  assert_index_fresh(&t);
  lsp_text_free(&t);
}

/* ---- incremental edits against a fresh document ---- */

static const char TRAIN[] =
  "import torch\n"
  "# 训练 — training 😀 loop\n"
  "model = torch.nn.DataParallel(net)\n"
  "total = 0\n"
  "for x, y in loader:\n"
  "    loss = criterion(model(x), y)  # é\xcc\x81\n"
  "    loss.backward()\n"
  "    optimizer.step()\n"
  "    total += loss\n"
  "    torch.cuda.empty_cache()\n";

/* Diagnostics as text: code, byte range, message; for comparison. */
static void describe(const oom_document *doc, buf *out) {
  buf_clear(out);
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    buf_printf(out, "%s %u-%u %s\n", oom_diagnostic_code(d), oom_diagnostic_start(d).byte, oom_diagnostic_end(d).byte,
               oom_diagnostic_message(d));
  }
}

typedef struct {
  uint32_t l0, c0, l1, c1; /* in UTF-16 units */
  const char *text;
} lsp_change;

static void apply_change(lsp_text *t, oom_document *doc, const lsp_change *c) {
  size_t s = lsp_text_offset(t, c->l0, c->c0, OOM_UNITS_UTF16);
  size_t e = lsp_text_offset(t, c->l1, c->c1, OOM_UNITS_UTF16);
  lsp_text_replace(t, s, e, c->text, strlen(c->text));
  assert_int_equal(oom_document_edit(doc, s, e, c->text, strlen(c->text)), 0);
}

static void check_same_as_fresh(const lsp_text *t, oom_document *doc, oom_worker *w) {
  size_t len;
  const char *text = oom_document_text(doc, &len);
  assert_int_equal(len, t->len);
  assert_memory_equal(text, t->data, len);
  oom_document_lint(doc, w);
  oom_document *fresh = oom_document_new("fresh.py", t->data, t->len);
  oom_document_lint(fresh, w);
  buf a = {0}, b = {0};
  describe(doc, &a);
  describe(fresh, &b);
  assert_string_equal(buf_str(&a), buf_str(&b));
  oom_document_free(fresh);
  buf_free(&a);
  buf_free(&b);
}

static void test_incremental_edits_equal_fresh(void **state) {
  (void)state;
  oom_linter *linter = oom_linter_new(NULL, NULL);
  assert_non_null(linter);
  oom_worker *w = oom_worker_new(linter);
  lsp_text t;
  lsp_text_init(&t, TRAIN, sizeof TRAIN - 1);
  oom_document *doc = oom_document_new("t.py", TRAIN, sizeof TRAIN - 1);
  oom_document_lint(doc, w);
  assert_true(oom_document_diagnostic_count(doc) > 0);
  static const lsp_change script[] = {
    {1, 2, 1, 4, "訓練"},                        /* CJK for CJK, after the `# ` */
    {1, 16, 1, 18, "🙂🙂"},                      /* an emoji (two units) for two emoji */
    {8, 13, 8, 17, "loss.item()"},               /* `total += loss` -> `.item()`: OOM101 goes */
    {5, 39, 5, 39, "\xcc\x81"},                  /* another combining mark after é + U+0301 */
    {2, 0, 3, 0, ""},                            /* a whole line out (DataParallel) */
    {8, 0, 8, 0, "    total += loss\n"},         /* and a new accumulation back in */
    {0, 0, 0, 0, "import gc\n"},
  };
  for (size_t i = 0; i < sizeof script / sizeof *script; i++) {
    apply_change(&t, doc, &script[i]);
    if (i % 2) check_same_as_fresh(&t, doc, w); /* relint after some edits only: queued edits too */
  }
  check_same_as_fresh(&t, doc, w);
  /* a pseudo-random walk of one-character edits, ASCII and not */
  static const char *const pieces[] = {"x", " ", "\n", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "(", ")", ":", "#", ""};
  uint32_t seed = 12345;
  for (int i = 0; i < 300; i++) {
    seed = seed * 1103515245u + 12345u;
    uint32_t line = (seed >> 8) % (uint32_t)lsp_text_line_count(&t);
    size_t n;
    const char *l = lsp_text_line(&t, line, &n);
    uint32_t units = oom_column_convert(l, n, (uint32_t)n, OOM_UNITS_UTF16);
    uint32_t c0 = units ? (seed >> 16) % (units + 1) : 0;
    uint32_t c1 = c0 + ((seed >> 4) % 3 == 0 && c0 < units ? 1 : 0);
    lsp_change c = {line, c0, line, c1, pieces[(seed >> 20) % 10]};
    apply_change(&t, doc, &c);
    if (i % 25 == 0) check_same_as_fresh(&t, doc, w);
  }
  check_same_as_fresh(&t, doc, w);
  oom_document_free(doc);
  lsp_text_free(&t);
  oom_worker_free(w);
  oom_linter_free(linter);
}

/* ---- noqa comments, URIs ---- */

static void test_noqa_scan(void **state) {
  (void)state;
  lsp_noqa q;
  const char *s = "x = \"# noqa\"  # noqa: OOM101, oom5";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_true(q.found);
  assert_false(q.blanket);
  assert_int_equal(q.comment, 14);
  assert_int_equal(q.ncodes, 2);
  assert_int_equal(q.codes_end, strlen(s));
  s = "y = 1  # keep  # NOQA";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_true(q.found && q.blanket);
  s = "# oomlint: noqa";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_false(q.found);
  s = "z = '''doc # noqa";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_false(q.found);
  assert_true(q.open_string);
  s = "w = a + \\";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_true(q.open_string);
  s = "v = 'it\\'s'";
  lsp_noqa_scan(s, strlen(s), &q);
  assert_false(q.open_string);
  assert_int_equal(q.comment, strlen(s));
}

static void test_uri_to_path(void **state) {
  (void)state;
  char *p = lsp_uri_to_path("file:///home/a%20b/%E8%A8%93.py");
  assert_string_equal(p, "/home/a b/\xe8\xa8\x93.py");
  free(p);
  p = lsp_uri_to_path("file://host/srv/x.py");
  assert_string_equal(p, "/srv/x.py");
  free(p);
  p = lsp_uri_to_path("untitled:Untitled-1");
  assert_string_equal(p, "untitled:Untitled-1");
  free(p);
  /* and back, for the folders the client is asked to watch */
  p = lsp_path_to_uri("/home/a b/\xe8\xa8\x93_x-1.~/#?%");
  assert_string_equal(p, "file:///home/a%20b/%E8%A8%93_x-1.~/%23%3F%25");
  char *back = lsp_uri_to_path(p);
  assert_string_equal(back, "/home/a b/\xe8\xa8\x93_x-1.~/#?%");
  free(back);
  free(p);
}

/* ---- settings and configuration files ---- */

static void assert_list(const config_strings *l, const char *const *want) {
  size_t n = 0;
  while (want[n]) n++;
  assert_int_equal(l->len, n);
  for (size_t i = 0; i < n; i++) assert_string_equal(l->items[i], want[i]);
}

static void test_settings_parse(void **state) {
  (void)state;
  json_t *j = json_loads("{\"oomlint\": {\"select\": \"OOM1, OOM5\", \"ignore\": [\"OOM501\", \"OOM12345\", 7],"
                         " \"extend-select\": [], \"rulesDir\": [\"lint/rules\", \"/abs\", \"\"],"
                         " \"gpuMemory\": \"24GiB\"}}", 0, NULL);
  assert_non_null(j);
  config_overrides o;
  buf problems = {0};
  lsp_settings_parse(j, "/ws", &o, &problems);
  assert_list(&o.select, (const char *const[]){"OOM1", "OOM5", NULL});
  assert_list(&o.ignore, (const char *const[]){"OOM501", NULL});
  assert_list(&o.extend_select, (const char *const[]){NULL});
  assert_list(&o.rules_dirs, (const char *const[]){"/ws/lint/rules", "/abs", NULL});
  assert_true(o.has_gpu_memory);
  assert_true(o.gpu_memory == 24ull << 30);
  assert_non_null(strstr(buf_str(&problems), "invalid rule selector `OOM12345`"));
  config_overrides_free(&o);
  json_decref(j);

  /* a bad size is a problem, an empty one is "not set"; a non-object is nothing */
  buf_clear(&problems);
  j = json_loads("{\"gpuMemory\": \"lots\"}", 0, NULL);
  lsp_settings_parse(j, NULL, &o, &problems);
  assert_false(o.has_gpu_memory);
  assert_non_null(strstr(buf_str(&problems), "gpuMemory"));
  json_decref(j);
  buf_clear(&problems);
  j = json_loads("{\"gpuMemory\": \"\", \"rulesDir\": \"rel\"}", 0, NULL);
  lsp_settings_parse(j, NULL, &o, &problems);
  assert_int_equal(problems.len, 0);
  assert_list(&o.rules_dirs, (const char *const[]){"rel", NULL});
  config_overrides_free(&o);
  json_decref(j);
  /* sizes for the estimate: NAME=INTEGER, a bad one is a problem */
  j = json_loads("{\"assume\": [\"vocab_size=33278\", \"n_embd=lots\"]}", 0, NULL);
  lsp_settings_parse(j, NULL, &o, &problems);
  assert_list(&o.assume, (const char *const[]){"vocab_size=33278", NULL});
  assert_non_null(strstr(buf_str(&problems), "n_embd=lots"));
  config_overrides_free(&o);
  json_decref(j);
  buf_clear(&problems);
  j = json_string("OOM1");
  lsp_settings_parse(j, "/ws", &o, &problems);
  assert_int_equal(o.select.len + o.ignore.len + o.rules_dirs.len, 0);
  json_decref(j);
  buf_free(&problems);
}

static void push(config_strings *l, const char *s) {
  vec_push(l, oom_xstrdup(s));
}

static void test_overrides_merge(void **state) {
  (void)state;
  config_overrides flags = {0}, editor = {0}, out, again;
  push(&flags.select, "OOM1");
  push(&flags.ignore, "OOM101");
  push(&flags.extend_select, "OOM6");
  push(&flags.rules_dirs, "/a");
  flags.has_gpu_memory = true;
  flags.gpu_memory = 1;
  /* the editor adds an ignore and a folder: the flags' selection stands */
  push(&editor.ignore, "OOM5");
  push(&editor.rules_dirs, "/b");
  config_overrides_merge(&flags, &editor, &out);
  assert_list(&out.select, (const char *const[]){"OOM1", NULL});
  assert_list(&out.ignore, (const char *const[]){"OOM101", "OOM5", NULL});
  assert_list(&out.extend_select, (const char *const[]){"OOM6", NULL});
  assert_list(&out.rules_dirs, (const char *const[]){"/a", "/b", NULL});
  assert_true(out.has_gpu_memory && out.gpu_memory == 1);
  config_overrides_merge(&flags, &editor, &again);
  assert_true(config_overrides_equal(&out, &again));
  config_overrides_free(&out);
  config_overrides_free(&again);
  /* the editor's select takes the flags' selection and their ignores away */
  push(&editor.select, "OOM4");
  editor.has_gpu_memory = true;
  editor.gpu_memory = 2;
  config_overrides_merge(&flags, &editor, &out);
  assert_list(&out.select, (const char *const[]){"OOM4", NULL});
  assert_list(&out.ignore, (const char *const[]){"OOM5", NULL});
  assert_true(out.gpu_memory == 2);
  assert_false(config_overrides_equal(&out, &flags));
  config_overrides_free(&out);
  config_overrides_free(&flags);
  config_overrides_free(&editor);
}

static void test_root_for(void **state) {
  (void)state;
  const char *const roots[] = {"/w", "/w/app", "/w/app2/"};
  assert_string_equal(lsp_configs_root_for(roots, 3, "/w/app/x.py"), "/w/app");
  assert_string_equal(lsp_configs_root_for(roots, 3, "/w/app2/a/x.py"), "/w/app2/");
  assert_string_equal(lsp_configs_root_for(roots, 3, "/w/apple/x.py"), "/w"); /* a name's prefix is not a folder */
  assert_null(lsp_configs_root_for(roots, 3, "/elsewhere/x.py"));
  assert_null(lsp_configs_root_for(roots, 0, "/w/x.py"));
  const char *const slash[] = {"/"};
  assert_string_equal(lsp_configs_root_for(slash, 1, "/x.py"), "/");
}

typedef struct {
  int count;
  char last[512];
} reports;

static void count_report(void *ctx, int type, const char *message) {
  reports *r = ctx;
  assert_int_equal(type, 1);
  r->count++;
  snprintf(r->last, sizeof r->last, "%s", message);
}

static void write_file(const char *dir, const char *rel, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    mkdir(path, 0755);
    *s = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *join(const char *dir, const char *rel) {
  buf b = {0};
  buf_printf(&b, "%s/%s", dir, rel);
  char *s = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return s;
}

static bool rule_on(const lsp_config *c, const char *code) {
  const oom_linter *l = lsp_config_linter(c);
  return oom_linter_rule_enabled(l, oom_linter_find_rule(l, code));
}

static void remove_tree(const char *dir) {
  char cmd[1100];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void test_configs_cache(void **state) {
  (void)state;
  char tmp[] = "/tmp/oomlint-configs-XXXXXX";
  assert_non_null(mkdtemp(tmp));
  /* above the workspace folder: never read */
  write_file(tmp, "pyproject.toml", "[tool.oomlint]\nselect = [\"OOM101\"]\n");
  write_file(tmp, "ws/sub/pyproject.toml", "[project]\nname = \"no table\"\n");
  char *ws = join(tmp, "ws"), *doc = join(tmp, "ws/sub/a.py"), *py = join(tmp, "ws/pyproject.toml");
  reports r = {0};
  const char *roots[] = {ws};
  lsp_configs_setup setup = {roots, 1, NULL, false, count_report, &r, NULL};
  lsp_configs *c = lsp_configs_new(&setup);
  config_overrides none = {0};
  assert_true(lsp_configs_set_overrides(c, &none));
  lsp_config *fallback = lsp_configs_fallback(c);
  assert_null(lsp_config_path(fallback));
  assert_ptr_equal(lsp_configs_for(c, doc), fallback);
  assert_true(rule_on(fallback, "OOM501"));
  assert_ptr_equal(lsp_configs_for(c, "untitled:Untitled-1"), fallback);

  /* found past the pyproject.toml without a table; the same entry while
   * the file stays as it is: the rules are compiled once */
  write_file(tmp, "ws/pyproject.toml", "[tool.oomlint]\nselect = [\"OOM5\"]\n");
  lsp_config *first = lsp_configs_for(c, doc);
  assert_string_equal(lsp_config_path(first), py);
  assert_true(rule_on(first, "OOM501"));
  assert_false(rule_on(first, "OOM101"));
  size_t cached = lsp_configs_count(c);
  assert_ptr_equal(lsp_configs_for(c, doc), first);
  assert_int_equal(lsp_configs_count(c), cached);
  lsp_config_retain(first); /* kept alive, so that a new entry cannot reuse its address */
  write_file(tmp, "ws/pyproject.toml", "[tool.oomlint]\nselect = [\"OOM1\", \"OOM5\"]\n");
  lsp_config *second = lsp_configs_for(c, doc);
  assert_ptr_not_equal(second, first);
  assert_true(rule_on(second, "OOM101"));
  assert_int_equal(lsp_configs_count(c), cached);
  lsp_config_release(first);
  assert_int_equal(r.count, 0);

  /* a broken file: reported once per change, and the fallback lints */
  write_file(tmp, "ws/bad/oomlint.toml", "select = [\n");
  char *bad_doc = join(tmp, "ws/bad/b.py"), *bad = join(tmp, "ws/bad/oomlint.toml");
  assert_ptr_equal(lsp_configs_for(c, bad_doc), fallback);
  assert_ptr_equal(lsp_configs_for(c, bad_doc), fallback);
  assert_int_equal(r.count, 1);
  assert_non_null(strstr(r.last, "oomlint.toml:"));
  /* the client's notice of a change a lint has already read: not read (and
   * reported) again */
  lsp_configs_forget(c, bad);
  assert_ptr_equal(lsp_configs_for(c, bad_doc), fallback);
  assert_int_equal(r.count, 1);
  /* changed again, still broken: reported again */
  write_file(tmp, "ws/bad/oomlint.toml", "select = [\n\n");
  lsp_configs_forget(c, bad);
  assert_ptr_equal(lsp_configs_for(c, bad_doc), fallback);
  assert_int_equal(r.count, 2);
  write_file(tmp, "ws/bad/oomlint.toml", "rules-dir = \"missing\"\n");
  assert_ptr_equal(lsp_configs_for(c, bad_doc), fallback);
  assert_int_equal(r.count, 3);
  assert_non_null(strstr(r.last, "the rules could not be built"));

  /* settings the rules cannot be built with are refused, the old ones stay */
  config_overrides broken = {0};
  push(&broken.rules_dirs, "/nonexistent/oomlint/rules");
  assert_false(lsp_configs_set_overrides(c, &broken));
  assert_int_equal(r.count, 4);
  assert_ptr_equal(lsp_configs_fallback(c), fallback);
  /* accepted ones replace the fallback and empty the cache */
  config_overrides ignore = {0};
  push(&ignore.ignore, "OOM501");
  assert_true(lsp_configs_set_overrides(c, &ignore));
  assert_int_equal(lsp_configs_count(c), 0);
  lsp_config *third = lsp_configs_for(c, doc);
  assert_string_equal(lsp_config_path(third), py);
  assert_false(rule_on(third, "OOM501"));
  assert_true(rule_on(third, "OOM502"));
  lsp_configs_free(c);

  /* --isolated: no file at all; --config: that file for every document */
  setup.isolated = true;
  c = lsp_configs_new(&setup);
  assert_true(lsp_configs_set_overrides(c, &none));
  assert_null(lsp_config_path(lsp_configs_for(c, doc)));
  lsp_configs_free(c);
  char *named = join(tmp, "named.toml");
  setup.isolated = false;
  setup.config_path = named;
  c = lsp_configs_new(&setup);
  assert_true(lsp_configs_set_overrides(c, &none));
  r.count = 0;
  assert_null(lsp_config_path(lsp_configs_for(c, doc))); /* missing: reported once */
  assert_null(lsp_config_path(lsp_configs_for(c, doc)));
  assert_int_equal(r.count, 1);
  write_file(tmp, "named.toml", "select = [\"OOM6\"]\n");
  assert_string_equal(lsp_config_path(lsp_configs_for(c, bad_doc)), named);
  lsp_configs_free(c);

  remove_tree(tmp);
  free(named);
  free(bad);
  free(bad_doc);
  free(ws);
  free(doc);
  free(py);
}


/* A rules folder's stamp: the folder on every look, its files when asked
 * or once a second. */
static void test_rules_stamp(void **state) {
  (void)state;
  char tmp[] = "/tmp/oomlint-stamp-XXXXXX";
  assert_non_null(mkdtemp(tmp));
  write_file(tmp, "rules/OOM950-a.scm", "; one\n");
  write_file(tmp, "rules/.hidden.scm", "");
  write_file(tmp, "rules/notes.txt", "");
  char *dir = join(tmp, "rules"), *missing = join(tmp, "later");
  const char *dirs[] = {dir, missing};
  lsp_rules_stamp st;
  lsp_rules_stamp_take(&st, dirs, 2);
  assert_int_equal(st.dirs.len, 2);
  assert_int_equal(st.files.len, 1); /* the files the engine reads */
  assert_false(lsp_rules_stamp_changed(&st, true));
  write_file(tmp, "rules/notes.txt", "edited in place\n"); /* not a rule file */
  assert_false(lsp_rules_stamp_changed(&st, true));
  /* rewritten in place: seen when the files are looked at */
  write_file(tmp, "rules/OOM950-a.scm", "; two, longer\n");
  assert_false(lsp_rules_stamp_changed(&st, false));
  assert_true(lsp_rules_stamp_changed(&st, true));
  lsp_rules_stamp_free(&st);
  /* a file added, or a folder created, changes a folder */
  lsp_rules_stamp_take(&st, dirs, 2);
  write_file(tmp, "rules/OOM951-b.scm", "");
  assert_true(lsp_rules_stamp_changed(&st, false));
  lsp_rules_stamp_free(&st);
  lsp_rules_stamp_take(&st, dirs, 2);
  assert_int_equal(mkdir(missing, 0755), 0);
  assert_true(lsp_rules_stamp_changed(&st, false));
  lsp_rules_stamp_free(&st);
  lsp_rules_stamp_take(&st, NULL, 0); /* no folders: never out of date */
  assert_false(lsp_rules_stamp_changed(&st, true));
  lsp_rules_stamp_free(&st);
  remove_tree(tmp);
  free(dir);
  free(missing);
}


/* A rule file rewritten while the rules are built from it (the configs
 * announce each rules folder just before the build reads it: the test
 * rewrites the file there): the stamp must be the new file's, or the
 * client's notice of that write would build the rules, and report their
 * error, a second time. */
typedef struct {
  reports r;
  const char *tmp;
  int announced;
} rewrite_state;

static void report_into(void *ctx, int type, const char *message) {
  count_report(&((rewrite_state *)ctx)->r, type, message);
}

static void rewrite_on_first_build(void *ctx, const char *dir) {
  (void)dir;
  rewrite_state *w = ctx;
  if (w->announced++ == 0) write_file(w->tmp, "rules/OOM950-a.scm", "((identifier) @name @report\n");
}

static void test_rule_file_written_during_build(void **state) {
  (void)state;
  char tmp[] = "/tmp/oomlint-rewrite-XXXXXX";
  assert_non_null(mkdtemp(tmp));
  write_file(tmp, "oomlint.toml", "rules-dir = \"rules\"\n");
  write_file(tmp, "rules/OOM950-a.scm",
             "; code: OOM950\n; name: a\n; severity: warning\n; message: m\n((identifier) @name @report)\n");
  char *doc = join(tmp, "a.py");
  rewrite_state w = {.tmp = tmp};
  const char *roots[] = {tmp};
  lsp_configs_setup setup = {roots, 1, NULL, false, report_into, &w, rewrite_on_first_build};
  lsp_configs *c = lsp_configs_new(&setup);
  config_overrides none = {0};
  assert_true(lsp_configs_set_overrides(c, &none));
  assert_ptr_equal(lsp_configs_for(c, doc), lsp_configs_fallback(c));
  assert_true(w.announced >= 2); /* built again, from what is on disk now */
  assert_int_equal(w.r.count, 1);
  assert_non_null(strstr(w.r.last, "the rules could not be built"));
  /* the client's notice of that write, and later lints: nothing new */
  lsp_configs_rules_changed(c);
  assert_ptr_equal(lsp_configs_for(c, doc), lsp_configs_fallback(c));
  assert_int_equal(w.r.count, 1);
  lsp_configs_free(c);
  remove_tree(tmp);
  free(doc);
}


/* A configuration file rewritten in place (truncated, then written, as
 * editors and the tests' fs.writeFileSync do) while another thread keeps
 * linting: each version is reported once, never twice. A lookup that
 * stats the file between the truncation and the write but reads it after
 * the write used to keep the empty file's key beside the new contents, and
 * the next lookup, or the client's notice, reported them again. The window
 * is narrow: this catches it in most runs, never passes a double report. */
typedef struct {
  const char *doc, *path;
  lsp_configs *c;
  pthread_mutex_t lock;
  int seen[64]; /* how often the message of version i was reported */
  int other;    /* other messages (asserted on the test's thread) */
  char last[512];
  bool stop;
} race;

/* on the linting thread: records, and the test's thread asserts */
static void race_report(void *ctx, int type, const char *message) {
  race *x = ctx;
  const char *k = strstr(message, "unknown key `k");
  int v = k ? atoi(k + strlen("unknown key `k")) : -1;
  pthread_mutex_lock(&x->lock);
  if (type == 1 && v >= 0 && v < 64) {
    x->seen[v]++;
  } else {
    x->other++;
    snprintf(x->last, sizeof x->last, "%s", message);
  }
  pthread_mutex_unlock(&x->lock);
}

static void *race_linter(void *arg) {
  race *x = arg;
  for (;;) {
    pthread_mutex_lock(&x->lock);
    bool stop = x->stop;
    pthread_mutex_unlock(&x->lock);
    if (stop) break;
    lsp_configs_for(x->c, x->doc);
    lsp_configs_forget(x->c, x->path); /* as if the client's notice came now */
  }
  return NULL;
}

static int seen(race *x, int v) {
  pthread_mutex_lock(&x->lock);
  int n = x->seen[v];
  pthread_mutex_unlock(&x->lock);
  return n;
}

static void test_config_written_while_linting(void **state) {
  (void)state;
  char tmp[] = "/tmp/oomlint-race-XXXXXX";
  assert_non_null(mkdtemp(tmp));
  /* a pyproject.toml: its truncated state has no table, so no lookup
   * builds rules for it (slow); every written version is an error */
  char *doc = join(tmp, "a.py"), *path = join(tmp, "pyproject.toml");
  race x = {.doc = doc, .path = path};
  pthread_mutex_init(&x.lock, NULL);
  const char *roots[] = {tmp};
  lsp_configs_setup setup = {roots, 1, NULL, false, race_report, &x, NULL};
  x.c = lsp_configs_new(&setup);
  config_overrides none = {0};
  assert_true(lsp_configs_set_overrides(x.c, &none));
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, race_linter, &x), 0);
  for (int v = 0; v < 64; v++) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    char text[64];
    int n = snprintf(text, sizeof text, "[tool.oomlint]\nk%d = %d\n", v, v); /* an unknown key, named for its version */
    for (int i = 0; i < 50; i++) sched_yield(); /* a lookup may stat the empty file here */
    assert_int_equal(write(fd, text, (size_t)n), n);
    close(fd);
    while (!seen(&x, v)) sched_yield(); /* an event, not a time: the version's report */
  }
  /* the last version read again by nothing: stop, then one more look */
  pthread_mutex_lock(&x.lock);
  x.stop = true;
  pthread_mutex_unlock(&x.lock);
  assert_int_equal(pthread_join(t, NULL), 0);
  lsp_configs_forget(x.c, path);
  lsp_configs_for(x.c, doc);
  if (x.other) fail_msg("%d other messages, the last: %s", x.other, x.last);
  for (int v = 0; v < 64; v++)
    if (x.seen[v] != 1) fail_msg("version %d reported %d times", v, x.seen[v]);
  lsp_configs_free(x.c);
  pthread_mutex_destroy(&x.lock);
  remove_tree(tmp);
  free(doc);
  free(path);
}


/* Workspace folders changed: the cached files stay, the search follows. */
static void test_configs_roots(void **state) {
  (void)state;
  char tmp[] = "/tmp/oomlint-roots-XXXXXX";
  assert_non_null(mkdtemp(tmp));
  write_file(tmp, "oomlint.toml", "select = [\"OOM101\"]\n");
  write_file(tmp, "app/.keep", "");
  char *app = join(tmp, "app"), *doc = join(tmp, "app/a.py"), *top = join(tmp, "oomlint.toml");
  reports r = {0};
  lsp_configs_setup setup = {NULL, 0, NULL, false, count_report, &r, NULL};
  lsp_configs *c = lsp_configs_new(&setup);
  config_overrides none = {0};
  assert_true(lsp_configs_set_overrides(c, &none));
  lsp_config *found = lsp_configs_for(c, doc); /* no folder: searched up */
  assert_string_equal(lsp_config_path(found), top);
  const char *roots[] = {app};
  lsp_configs_set_roots(c, roots, 1);
  assert_ptr_equal(lsp_configs_for(c, doc), lsp_configs_fallback(c));
  const char *outer[] = {tmp, app};
  lsp_configs_set_roots(c, outer + 0, 1);
  assert_ptr_equal(lsp_configs_for(c, doc), found); /* the same entry: not built again */
  lsp_configs_set_roots(c, outer, 2);                /* the deepest folder bounds it */
  assert_ptr_equal(lsp_configs_for(c, doc), lsp_configs_fallback(c));
  lsp_configs_set_roots(c, NULL, 0);
  assert_ptr_equal(lsp_configs_for(c, doc), found);
  assert_int_equal(r.count, 0);
  lsp_configs_free(c);
  remove_tree(tmp);
  free(app);
  free(doc);
  free(top);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reads_messages_byte_by_byte),
    cmocka_unit_test(test_recovers_from_malformed_headers),
    cmocka_unit_test(test_wrong_content_length),
    cmocka_unit_test(test_invalid_json_and_utf8),
    cmocka_unit_test(test_huge_message_is_skipped_with_its_id),
    cmocka_unit_test(test_eof_inside_header),
    cmocka_unit_test(test_writer_frames),
    cmocka_unit_test(test_units_to_bytes_and_back),
    cmocka_unit_test(test_text_positions),
    cmocka_unit_test(test_text_positions_lone_cr),
    cmocka_unit_test(test_incremental_edits_equal_fresh),
    cmocka_unit_test(test_noqa_scan),
    cmocka_unit_test(test_uri_to_path),
    cmocka_unit_test(test_settings_parse),
    cmocka_unit_test(test_overrides_merge),
    cmocka_unit_test(test_root_for),
    cmocka_unit_test(test_configs_cache),
    cmocka_unit_test(test_configs_roots),
    cmocka_unit_test(test_rules_stamp),
    cmocka_unit_test(test_rule_file_written_during_build),
    cmocka_unit_test(test_config_written_while_linting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
