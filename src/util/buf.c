/* This file contains the growable string declared in buf.h. */
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"


static void buf__grow(buf *self, size_t extra) {
  if (self->len + extra + 1 <= self->cap) return;
  size_t cap = self->cap ? self->cap * 2 : 64;
  while (cap < self->len + extra + 1) cap *= 2;
  self->data = oom_xrealloc(self->data, cap);
  self->cap = cap;
}


void buf_append(buf *self, const char *s, size_t n) {
  buf__grow(self, n);
  if (n) memcpy(self->data + self->len, s, n);
  self->len += n;
  self->data[self->len] = '\0';
}


void buf_puts(buf *self, const char *s) {
  buf_append(self, s, strlen(s));
}


void buf_putc(buf *self, char c) {
  buf_append(self, &c, 1);
}


void buf_printf(buf *self, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    buf__grow(self, (size_t)n);
    vsnprintf(self->data + self->len, (size_t)n + 1, fmt, ap2);
    self->len += (size_t)n;
  }
  va_end(ap2);
}


void buf_clear(buf *self) {
  self->len = 0;
  if (self->data) self->data[0] = '\0';
}


const char *buf_str(const buf *self) {
  return self->data ? self->data : "";
}


void buf_free(buf *self) {
  free(self->data);
  self->data = NULL;
  self->len = self->cap = 0;
}
