/* This file contains the fix runner. `fix_runner --pairs DIR` applies every
 * fix (`--fix --unsafe-fixes`) to each DIR/NAME.in.py and checks: the result
 * equals NAME.out.py byte for byte, it has no ERROR/MISSING node, fixing it
 * again changes nothing, and no fixable diagnostic is left. `--pairs --write
 * DIR` (re)writes the .out.py files instead, for review with `git diff`.
 * `fix_runner --all DIR` fixes every DIR/OOM* / *.py fixture: no new syntax
 * errors, no fix dropped, a second run changes nothing, nothing fixable left;
 * and every *.ipynb fixture's module likewise, the fixed module written back
 * into the notebook, which must read back as that module. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/files.h"
#include "fix/fix.h"
#include "notebook/notebook.h"
#include "oomlint/oomlint.h"
#include "parse/parse.h"

typedef struct {
  oom_worker *worker;
  TSParser *parser;
  int passed, failed;
} runner;


static int str_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* The entries of DIR whose names end in SUFFIX (and start with PREFIX), sorted. */
static size_t list_dir(const char *dir, const char *prefix, const char *suffix, char ***out) {
  DIR *d = opendir(dir);
  size_t n = 0, cap = 16;
  char **names = malloc(cap * sizeof *names);
  struct dirent *e;
  size_t sl = strlen(suffix), pl = strlen(prefix);
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0 || strncmp(e->d_name, prefix, pl) != 0) continue;
    if (n == cap) {
      char **grown = realloc(names, (cap *= 2) * sizeof *names);
      if (!grown) break; /* out of memory: lint what was listed */
      names = grown;
    }
    names[n++] = strdup(e->d_name);
  }
  if (d) closedir(d);
  qsort(names, n, sizeof *names, str_cmp);
  *out = names;
  return n;
}


static size_t errors_of(runner *r, const char *text, size_t len) {
  TSTree *t = parse_source(r->parser, text, len, NULL);
  size_t n = fix_count_errors(ts_tree_root_node(t));
  ts_tree_delete(t);
  return n;
}


static size_t fixable_left(const oom_document *doc, const char **code) {
  size_t n = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (fix_applicable(d, OOM_FIX_UNSAFE)) {
      if (!n) *code = oom_diagnostic_code(d);
      n++;
    }
  }
  return n;
}


static void show_bytes(const char *label, const char *s, size_t n) {
  printf("  %s (%zu bytes):\n", label, n);
  fwrite(s, 1, n, stdout);
  if (n && s[n - 1] != '\n') printf("\n  (no newline at the end)\n");
}


/* The checks every fixed text must pass; returns the failures printed. */
static int check_fixed(runner *r, const char *path, const char *in, size_t in_len, fix_result *res, bool strict) {
  int bad = 0;
  size_t len;
  const char *out = oom_document_text(res->doc, &len);
  size_t before = errors_of(r, in, in_len), after = errors_of(r, out, len);
  if (strict ? after != 0 : after > before) {
    printf("FAIL %s: the fixed text has %zu ERROR/MISSING node(s), the input %zu\n", path, after, before);
    bad++;
  }
  for (size_t i = 0; i < res->dropped.len; i++) {
    printf("FAIL %s:%u:%u: the fix for %s was dropped (it would leave a syntax error)\n", path,
           res->dropped.items[i].row, res->dropped.items[i].column, oom_rule_code(res->dropped.items[i].rule));
    bad++;
  }
  if (!res->converged) {
    printf("FAIL %s: still changing after %d passes\n", path, FIX_MAX_PASSES);
    bad++;
  }
  const char *code = NULL;
  size_t left = fixable_left(res->doc, &code);
  if (left) {
    printf("FAIL %s: %zu fixable diagnostic(s) left after fixing, the first %s\n", path, left, code);
    bad++;
  }
  fix_result again;
  fix_document(r->worker, path, out, len, OOM_FIX_UNSAFE, NULL, &again);
  if (again.changed) {
    size_t l2;
    const char *t2 = oom_document_text(again.doc, &l2);
    printf("FAIL %s: fixing a second time changes the text again\n", path);
    show_bytes("after the second run", t2, l2);
    bad++;
  }
  fix_result_free(&again);
  return bad;
}


static int run_pairs(runner *r, const char *dir, bool write) {
  char **names;
  size_t count = list_dir(dir, "", ".in.py", &names);
  if (!count) {
    printf("FAIL %s: no *.in.py pairs\n", dir);
    r->failed++;
  }
  for (size_t f = 0; f < count; f++) {
    char in_path[4096], out_path[4096], why[256];
    snprintf(in_path, sizeof in_path, "%s/%s", dir, names[f]);
    snprintf(out_path, sizeof out_path, "%s/%.*s.out.py", dir, (int)(strlen(names[f]) - 6), names[f]);
    free(names[f]);
    size_t in_len;
    char *in = files_read(in_path, &in_len, why, sizeof why);
    if (!in) {
      printf("FAIL %s: %s\n", in_path, why);
      r->failed++;
      continue;
    }
    fix_result res;
    fix_document(r->worker, in_path, in, in_len, OOM_FIX_UNSAFE, NULL, &res);
    size_t got_len;
    const char *got = oom_document_text(res.doc, &got_len);
    int bad = 0;
    if (write) {
      FILE *fp = fopen(out_path, "wb");
      if (!fp || fwrite(got, 1, got_len, fp) != got_len || fclose(fp) != 0) {
        printf("FAIL %s: cannot write it\n", out_path);
        bad++;
      }
    } else {
      size_t want_len;
      char *want = files_read(out_path, &want_len, why, sizeof why);
      if (!want) {
        printf("FAIL %s: %s\n", out_path, why);
        bad++;
      } else if (want_len != got_len || memcmp(want, got, got_len) != 0) {
        printf("FAIL %s: the fixed text differs from %s\n", in_path, out_path);
        show_bytes("expected", want, want_len);
        show_bytes("got", got, got_len);
        bad++;
      }
      free(want);
    }
    if (!res.fixed) {
      printf("FAIL %s: no fix applied; a pair shows a fix\n", in_path);
      bad++;
    }
    bad += check_fixed(r, in_path, in, in_len, &res, true);
    fix_result_free(&res);
    free(in);
    if (bad) r->failed++;
    else r->passed++;
  }
  free(names);
  return r->failed ? 1 : 0;
}


/* A notebook fixture: its module fixed as a .py fixture is, then written
 * back into the notebook, which must read back as the fixed module. */
static int fix_notebook(runner *r, const char *path, size_t *fixed) {
  char why[256];
  size_t len;
  char *bytes = files_read(path, &len, why, sizeof why);
  notebook nb;
  if (!bytes || !notebook_read(bytes, len, &nb, why, sizeof why)) {
    printf("FAIL %s: %s\n", path, why);
    free(bytes);
    return 1;
  }
  fix_result res;
  fix_document(r->worker, path, nb.module, nb.module_len, OOM_FIX_UNSAFE, NULL, &res);
  *fixed += res.fixed;
  int bad = check_fixed(r, path, nb.module, nb.module_len, &res, false);
  size_t mlen;
  const char *module = oom_document_text(res.doc, &mlen);
  if (!bad && res.changed) {
    char **sources = calloc(nb.ncells + 1, sizeof *sources);
    size_t *lens = calloc(nb.ncells + 1, sizeof *lens);
    buf out = {0};
    notebook again;
    if (!notebook_split(&nb, module, mlen, sources, lens, why, sizeof why) ||
        !notebook_write(&nb, bytes, len, sources, lens, &out, why, sizeof why)) {
      printf("FAIL %s: the fixes cannot be written back: %s\n", path, why);
      bad = 1;
    } else if (!notebook_read(out.data, out.len, &again, why, sizeof why)) {
      printf("FAIL %s: the fixed notebook does not read: %s\n", path, why);
      bad = 1;
    } else {
      if (again.module_len != mlen || memcmp(again.module, module, mlen)) {
        printf("FAIL %s: the fixed notebook reads back as another module\n", path);
        bad = 1;
      }
      notebook_free(&again);
    }
    for (size_t k = 0; k < nb.ncells && sources[0]; k++) free(sources[k]);
    free(sources);
    free(lens);
    buf_free(&out);
  }
  fix_result_free(&res);
  notebook_free(&nb);
  free(bytes);
  return bad;
}


static int run_all(runner *r, const char *dir) {
  char **folders;
  size_t nfolders = list_dir(dir, "OOM", "", &folders);
  size_t files = 0, fixed = 0;
  for (size_t k = 0; k < nfolders; k++) {
    char folder[4096];
    snprintf(folder, sizeof folder, "%s/%s", dir, folders[k]);
    free(folders[k]);
    char **names;
    size_t count = list_dir(folder, "", ".py", &names);
    for (size_t f = 0; f < count; f++) {
      char path[8192], why[256];
      snprintf(path, sizeof path, "%s/%s", folder, names[f]);
      free(names[f]);
      size_t len;
      char *text = files_read(path, &len, why, sizeof why);
      if (!text) {
        printf("FAIL %s: %s\n", path, why);
        r->failed++;
        continue;
      }
      fix_result res;
      fix_document(r->worker, path, text, len, OOM_FIX_UNSAFE, NULL, &res);
      files++;
      fixed += res.fixed;
      int bad = check_fixed(r, path, text, len, &res, false);
      fix_result_free(&res);
      free(text);
      if (bad) r->failed++;
      else r->passed++;
    }
    free(names);
    count = list_dir(folder, "", ".ipynb", &names);
    for (size_t f = 0; f < count; f++) {
      char path[8192];
      snprintf(path, sizeof path, "%s/%s", folder, names[f]);
      free(names[f]);
      files++;
      int bad = fix_notebook(r, path, &fixed);
      if (bad) r->failed++;
      else r->passed++;
    }
    free(names);
  }
  free(folders);
  printf("%zu fixtures, %zu fixes applied\n", files, fixed);
  if (!files) {
    printf("FAIL %s: no fixtures\n", dir);
    r->failed++;
  }
  return r->failed ? 1 : 0;
}


int main(int argc, char **argv) {
  bool pairs = argc >= 3 && !strcmp(argv[1], "--pairs");
  bool write = pairs && argc == 4 && !strcmp(argv[2], "--write");
  bool all = argc == 3 && !strcmp(argv[1], "--all");
  if (!(pairs && (argc == 3 || write)) && !all) {
    fprintf(stderr, "usage: fix_runner --pairs [--write] DIR | --all FIXTURES_DIR\n");
    return 2;
  }
  char *err = NULL;
  oom_linter *linter = oom_linter_new(NULL, &err);
  if (!linter) {
    fprintf(stderr, "cannot build the linter: %s\n", err);
    free(err);
    return 1;
  }
  runner r = {oom_worker_new(linter), parse_parser_new(NULL), 0, 0};
  if (!r.worker || !r.parser) {
    fprintf(stderr, "the Python grammar does not load\n");
    return 1;
  }
  int status = pairs ? run_pairs(&r, argv[argc - 1], write) : run_all(&r, argv[2]);
  printf("%d passed, %d failed\n", r.passed, r.failed);
  ts_parser_delete(r.parser);
  oom_worker_free(r.worker);
  oom_linter_free(linter);
  return status;
}
