/* Benchmark harness (not a test): lints files named one per line on stdin in
 * one process with the library, timing each file for the percentile table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oomlint/oomlint.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)(n > 0 ? n : 1));
  *len = b && n > 0 ? fread(b, 1, (size_t)n, f) : 0;
  fclose(f);
  return b;
}

int main(void) {
  double t0 = now();
  oom_options *o = oom_options_new();
  char *err = NULL;
  oom_linter *l = oom_linter_new(o, &err);
  if (!l) {
    fprintf(stderr, "lint_times: %s\n", err ? err : "no linter");
    return 2;
  }
  oom_worker *w = oom_worker_new(l);
  double setup = now() - t0;
  size_t cap = 1024, n = 0, bytes = 0, diags = 0;
  double *times = malloc(cap * sizeof *times);
  char line[4096];
  double t1 = now();
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    size_t len;
    char *src = slurp(line, &len);
    if (!src) continue;
    double s = now();
    oom_document *d = oom_document_new(line, src, len);
    oom_document_lint(d, w);
    diags += oom_document_diagnostic_count(d);
    oom_document_free(d);
    if (n == cap) {
      double *grown = realloc(times, (cap *= 2) * sizeof *times);
      if (!grown) {
        fprintf(stderr, "lint_times: out of memory\n");
        free(times);
        return 1;
      }
      times = grown;
    }
    times[n++] = now() - s;
    bytes += len;
    free(src);
  }
  double total = now() - t1;
  qsort(times, n, sizeof *times, cmp);
#define PCT(p) (n ? times[(size_t)((double)(n - 1) * (p))] * 1e3 : 0)
  printf("setup_ms=%.1f files=%zu bytes=%zu diagnostics=%zu seconds=%.3f mbps=%.2f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f "
         "max_ms=%.3f\n",
         setup * 1e3, n, bytes, diags, total, (double)bytes / 1e6 / total, PCT(0.5), PCT(0.9), PCT(0.99), PCT(1.0));
  free(times);
  oom_worker_free(w);
  oom_linter_free(l);
  oom_options_free(o);
  return 0;
}
