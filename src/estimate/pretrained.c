/* This file contains the lookup in rules/pretrained.tsv, the embedded table of published
 * parameter counts: by whole name or last path component, ignoring case. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/embedded.h"
#include "estimate/estimate.h"


static bool same_ci(const char *a, size_t an, const char *b, size_t bn) {
  if (an != bn) return false;
  for (size_t i = 0; i < an; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
  return true;
}


static void basename_of(const char *s, size_t n, const char **out, size_t *len) {
  const char *slash = NULL;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '/') slash = s + i;
  *out = slash ? slash + 1 : s;
  *len = n - (size_t)(*out - s);
}


/* 0: whole name, 1: last component, 2: timm's `name.tag` without the tag */
static int64_t lookup(const char *table, size_t tlen, const char *name, size_t n, int how, const char **source,
                      size_t *source_len, int64_t *per_class) {
  const char *p = table, *end = table + tlen;
  const char *qb;
  size_t qbn;
  basename_of(name, n, &qb, &qbn);
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *t1 = memchr(p, '\t', (size_t)(le - p));
    const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(le - t1 - 1)) : NULL;
    if (*p != '#' && t1 && t2) {
      const char *eb;
      size_t ebn;
      basename_of(p, (size_t)(t1 - p), &eb, &ebn);
      bool hit = how == 0 ? same_ci(p, (size_t)(t1 - p), name, n) : same_ci(eb, ebn, qb, qbn);
      if (hit) {
        char digits[32];
        size_t dn = (size_t)(t2 - t1 - 1);
        if (dn && dn < sizeof digits) {
          memcpy(digits, t1 + 1, dn);
          digits[dn] = '\0';
          char *e;
          long long v = strtoll(digits, &e, 10);
          if (!*e && v > 0) {
            *source = t2 + 1;
            *source_len = (size_t)(le - t2 - 1);
            /* the optional fourth column: what one class of the head adds */
            const char *t3 = memchr(t2 + 1, '\t', (size_t)(le - t2 - 1));
            *per_class = -1;
            if (t3) {
              *source_len = (size_t)(t3 - t2 - 1);
              char pc[32];
              size_t pn = (size_t)(le - t3 - 1);
              while (pn && (t3[pn] == '\r' || t3[pn] == ' ')) pn--;
              if (pn && pn < sizeof pc) {
                memcpy(pc, t3 + 1, pn);
                pc[pn] = '\0';
                long long k = strtoll(pc, &e, 10);
                if ((!*e || *e == '\r') && k > 0) *per_class = k;
              }
            }
            while (*source_len && ((*source)[*source_len - 1] == '\r' || (*source)[*source_len - 1] == ' ')) (*source_len)--;
            return v;
          }
        }
      }
    }
    p = nl ? nl + 1 : end;
  }
  return -1;
}


int64_t estimate_pretrained(const char *name, size_t len, const char **source, size_t *source_len) {
  int64_t per_class;
  return estimate_pretrained_row(name, len, source, source_len, &per_class);
}


int64_t estimate_pretrained_row(const char *name, size_t len, const char **source, size_t *source_len, int64_t *per_class) {
  const oom_embedded_file *f = oom_embedded_files;
  while (f->name && strcmp(f->name, "pretrained.tsv") != 0) f++;
  if (!f->name || !len) return -1;
  for (int how = 0; how < 2; how++) {
    int64_t v = lookup(f->data, f->length, name, len, how, source, source_len, per_class);
    if (v >= 0) return v;
  }
  /* timm: "resnet50.a1_in1k" is resnet50 with a weight tag */
  const char *dot = memchr(name, '.', len);
  const char *slash = memchr(name, '/', len);
  if (dot && !slash) return lookup(f->data, f->length, name, (size_t)(dot - name), 0, source, source_len, per_class);
  return -1;
}
