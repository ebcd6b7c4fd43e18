/* A growable, always NUL-terminated byte string. */
#ifndef OOM_UTIL_BUF_H
#define OOM_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
  char *data;
  size_t len, cap;
} buf;

void buf_append(buf *self, const char *s, size_t n);
void buf_puts(buf *self, const char *s);
void buf_putc(buf *self, char c);
void buf_printf(buf *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_clear(buf *self);
/** The contents; "" for an empty buffer, never NULL. */
const char *buf_str(const buf *self);
void buf_free(buf *self);

#endif
