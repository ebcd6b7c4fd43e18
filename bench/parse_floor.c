/* Benchmark floor (not a test): tree-sitter parse-only, or parse plus a full
 * cursor walk, over files named one per line on stdin; prints bytes and seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Read the whole file: the floor pays for the same I/O the linter pays for. */
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

/* Visit every node once, as a linter's walk must at least do. */
static size_t walk(TSTree *tree) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  size_t nodes = 1;
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&c) || ts_tree_cursor_goto_next_sibling(&c)) {
      nodes++;
      continue;
    }
    for (;;) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        nodes++;
        break;
      }
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return nodes;
}

int main(int argc, char **argv) {
  int do_walk = argc > 1 && strcmp(argv[1], "walk") == 0;
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  char line[4096];
  size_t bytes = 0, files = 0, nodes = 0;
  double t0 = now();
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    size_t len;
    char *src = slurp(line, &len);
    if (!src) continue;
    TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
    if (do_walk) nodes += walk(t);
    ts_tree_delete(t);
    free(src);
    bytes += len;
    files++;
  }
  double s = now() - t0;
  printf("%s files=%zu bytes=%zu nodes=%zu seconds=%.3f mbps=%.2f\n", do_walk ? "walk" : "parse", files, bytes, nodes, s,
         (double)bytes / 1e6 / s);
  ts_parser_delete(p);
  return 0;
}
