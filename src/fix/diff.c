/* This file contains unified diffs of a file before and after fixing: a
 * linear-space Myers line diff (bisection at the middle snake, iterated with
 * an explicit stack) and hunks of three lines of context, in the format
 * `patch` and `git apply` read. */
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "util/alloc.h"

#define CONTEXT 3
/* A bisection that finds no middle snake within this many steps gives up and
 * shows its range as one replacement (still a correct diff): it bounds the
 * time on files that share nearly nothing. */
#define MAX_D 8192

typedef struct {
  const char *p;
  size_t n;      /* with its newline, if it has one */
  uint64_t hash; /* compared first: most lines differ in it */
} line;

typedef VEC(line) line_vec;
typedef VEC(char) op_vec; /* '=' keep, '-' delete, '+' insert */

typedef struct {
  long a0, a1, b0, b1; /* [a0, a1) of the old lines against [b0, b1) of the new */
} range;


static void split_lines(const char *s, size_t len, line_vec *out) {
  size_t at = 0;
  while (at < len) {
    const char *nl = memchr(s + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - s) + 1 : len;
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = at; i < end; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    line l = {s + at, end - at, h};
    vec_push(out, l);
    at = end;
  }
}


static bool same_line(const line *a, const line *b) {
  return a->hash == b->hash && a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}


/* Myers' middle snake of A[0..N) -> B[0..M) (both non-empty), searched from
 * both ends at once, as in diff-match-patch's bisect. Sets (*X, *Y) to a
 * point on a shortest edit path that splits the problem in two; false when
 * none was found within MAX_D steps. V1 and V2 hold 2 * ((N + M + 1) / 2) + 2. */
static bool bisect(const line *a, long n, const line *b, long m, long *v1, long *v2, long *x, long *y) {
  long max_d = (n + m + 1) / 2, off = max_d, vlen = 2 * max_d + 2;
  for (long i = 0; i < vlen; i++) v1[i] = v2[i] = -1;
  v1[off + 1] = v2[off + 1] = 0;
  long delta = n - m;
  bool front = delta % 2 != 0; /* which direction detects the overlap */
  long k1start = 0, k1end = 0, k2start = 0, k2end = 0;
  for (long d = 0; d < max_d && d < MAX_D; d++) {
    for (long k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      long i1 = off + k1;
      long x1 = (k1 == -d || (k1 != d && v1[i1 - 1] < v1[i1 + 1])) ? v1[i1 + 1] : v1[i1 - 1] + 1;
      long y1 = x1 - k1;
      while (x1 < n && y1 < m && same_line(&a[x1], &b[y1])) x1++, y1++;
      v1[i1] = x1;
      if (x1 > n) k1end += 2;        /* ran off the right */
      else if (y1 > m) k1start += 2; /* ran off the bottom */
      else if (front) {
        long i2 = off + delta - k1;
        if (i2 >= 0 && i2 < vlen && v2[i2] != -1 && x1 >= n - v2[i2]) {
          *x = x1, *y = y1;
          return true;
        }
      }
    }
    for (long k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      long i2 = off + k2;
      long x2 = (k2 == -d || (k2 != d && v2[i2 - 1] < v2[i2 + 1])) ? v2[i2 + 1] : v2[i2 - 1] + 1;
      long y2 = x2 - k2;
      while (x2 < n && y2 < m && same_line(&a[n - x2 - 1], &b[m - y2 - 1])) x2++, y2++;
      v2[i2] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        long i1 = off + delta - k2;
        if (i1 >= 0 && i1 < vlen && v1[i1] != -1) {
          long x1 = v1[i1], y1 = off + x1 - i1;
          if (x1 >= n - x2) {
            *x = x1, *y = y1;
            return true;
          }
        }
      }
    }
  }
  return false;
}


/* Mark the old lines to delete (DEL) and the new lines to insert (INS) on a
 * shortest edit script: subproblems wait on a stack, not in recursion. */
static void mark_changes(const line *a, long n, const line *b, long m, bool *del, bool *ins) {
  long vlen = 2 * ((n + m + 1) / 2) + 2;
  long *v1 = oom_xmalloc((size_t)vlen * sizeof *v1), *v2 = oom_xmalloc((size_t)vlen * sizeof *v2);
  VEC(range) todo = {0};
  range all = {0, n, 0, m};
  vec_push(&todo, all);
  while (todo.len) {
    range r = todo.items[--todo.len];
    while (r.a0 < r.a1 && r.b0 < r.b1 && same_line(&a[r.a0], &b[r.b0])) r.a0++, r.b0++;
    while (r.a0 < r.a1 && r.b0 < r.b1 && same_line(&a[r.a1 - 1], &b[r.b1 - 1])) r.a1--, r.b1--;
    long x, y;
    if (r.a0 == r.a1 || r.b0 == r.b1 ||
        !bisect(a + r.a0, r.a1 - r.a0, b + r.b0, r.b1 - r.b0, v1, v2, &x, &y)) {
      for (long i = r.a0; i < r.a1; i++) del[i] = true;
      for (long j = r.b0; j < r.b1; j++) ins[j] = true;
      continue;
    }
    range left = {r.a0, r.a0 + x, r.b0, r.b0 + y}, right = {r.a0 + x, r.a1, r.b0 + y, r.b1};
    vec_push(&todo, right);
    vec_push(&todo, left);
  }
  vec_free(&todo);
  free(v1);
  free(v2);
}


static void put_line(buf *out, char mark, line l) {
  buf_putc(out, mark);
  buf_append(out, l.p, l.n);
  if (l.n == 0 || l.p[l.n - 1] != '\n') buf_puts(out, "\n\\ No newline at end of file\n");
}


static void put_range(buf *out, char mark, size_t start, size_t count) {
  /* an empty range names the line before it, as diff(1) does */
  if (count == 1) buf_printf(out, "%c%zu", mark, start + 1);
  else buf_printf(out, "%c%zu,%zu", mark, count ? start + 1 : start, count);
}


bool fix_diff(buf *out, const char *path, const char *old, size_t old_len, const char *new_text, size_t new_len) {
  if (old_len == new_len && memcmp(old, new_text, old_len) == 0) return false;
  line_vec a = {0}, b = {0};
  split_lines(old, old_len, &a);
  split_lines(new_text, new_len, &b);
  bool *del = oom_xcalloc(a.len + 1, sizeof *del), *ins = oom_xcalloc(b.len + 1, sizeof *ins);
  mark_changes(a.items, (long)a.len, b.items, (long)b.len, del, ins);
  /* kept lines pair up in order; within a change, deletions come first */
  op_vec ops = {0};
  for (size_t i = 0, j = 0; i < a.len || j < b.len;) {
    char op = (i < a.len && (del[i] || j == b.len)) ? '-' : (j < b.len && (ins[j] || i == a.len)) ? '+' : '=';
    vec_push(&ops, op);
    if (op != '+') i++;
    if (op != '-') j++;
  }
  free(del);
  free(ins);
  /* line numbers before each op */
  size_t *at_a = oom_xmalloc((ops.len + 1) * sizeof *at_a), *at_b = oom_xmalloc((ops.len + 1) * sizeof *at_b);
  at_a[0] = at_b[0] = 0;
  for (size_t i = 0; i < ops.len; i++) {
    at_a[i + 1] = at_a[i] + (ops.items[i] != '+');
    at_b[i + 1] = at_b[i] + (ops.items[i] != '-');
  }
  /* git's a/ b/ prefixes (`patch -p1` applies them) for relative paths; an
   * absolute path is printed as it is */
  if (path[0] == '/') buf_printf(out, "--- %s\n+++ %s\n", path, path);
  else buf_printf(out, "--- a/%s\n+++ b/%s\n", path, path);
  size_t i = 0;
  while (i < ops.len) {
    size_t c = i;
    while (c < ops.len && ops.items[c] == '=') c++;
    if (c == ops.len) break;
    /* the hunk runs until more than two contexts' worth of kept lines */
    size_t last = c;
    for (size_t e = c; e < ops.len; e++) {
      if (ops.items[e] != '=') last = e;
      else if (e - last > 2 * CONTEXT) break;
    }
    size_t start = c > i + CONTEXT ? c - CONTEXT : i;
    size_t end = last + 1 + CONTEXT < ops.len ? last + 1 + CONTEXT : ops.len;
    buf_puts(out, "@@ ");
    put_range(out, '-', at_a[start], at_a[end] - at_a[start]);
    buf_putc(out, ' ');
    put_range(out, '+', at_b[start], at_b[end] - at_b[start]);
    buf_puts(out, " @@\n");
    for (size_t k = start; k < end; k++) {
      char op = ops.items[k];
      if (op == '+') put_line(out, '+', b.items[at_b[k]]);
      else put_line(out, op == '=' ? ' ' : '-', a.items[at_a[k]]);
    }
    i = end;
  }
  free(at_a);
  free(at_b);
  vec_free(&ops);
  vec_free(&a);
  vec_free(&b);
  return true;
}
