/* This file contains the fixture runner. `fixture_runner DIR` lints every
 * `*.py` under a rule folder (tests/fixtures/OOMnnn) with all rules on and
 * checks the inline expectations (and every `*.ipynb`, a notebook whose
 * code cells are linted as one module, the markers in its cells): every `# expect: OOMnnn[, ...]` comment must
 * be met by that diagnostic starting on that line, and every diagnostic of the
 * folder's code, of OOM000, or of a code some expectation in the file names,
 * must be expected. Files in `project_*` folders are small projects: each of
 * their files is linted with the others importable. A first line `# oomlint-options: --gpu-memory 24GiB
 * --max-batch-size 256` lints that file with those options (the budget
 * rules OOM601/OOM301 are silent without). `fixture_runner --registry DIR`
 * checks that every rule has a doc with Ruff's headings and a fixture folder
 * with both flagging (`flags_*.py`) and clean (`ok_*.py`) files, and every
 * folder has a rule. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/files.h"
#include "notebook/notebook.h"
#include "oomlint/oomlint.h"
#include "util/alloc.h"

#define MAX_EXPECT 4096

typedef struct {
  unsigned row;
  char code[8];
  int met;
} expectation;


static int str_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* The *.py files of DIR, sorted; returns the count. */
static size_t list_py(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t n = 0, cap = 16;
  char **names = malloc(cap * sizeof *names);
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if ((len < 4 || strcmp(e->d_name + len - 3, ".py") != 0) && !notebook_path(e->d_name)) continue;
    if (n == cap) {
      char **grown = realloc(names, (cap *= 2) * sizeof *names);
      if (!grown) break; /* out of memory: lint what was listed */
      names = grown;
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, str_cmp);
  *out = names;
  return n;
}


/* Append to *NAMES (of *N, room for *CAP) the *.py files under DIR/SUB,
 * each as "SUB/..."; folders below are walked with an explicit stack. */
static void add_project(const char *dir, const char *sub, char ***names, size_t *n, size_t *cap) {
  char *stack[64];
  size_t depth = 0;
  stack[depth++] = strdup(sub);
  while (depth) {
    char *rel = stack[--depth];
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", dir, rel);
    DIR *d = opendir(full);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char child[4096];
      snprintf(child, sizeof child, "%s/%s", rel, e->d_name);
      char cfull[8192];
      snprintf(cfull, sizeof cfull, "%s/%s", dir, child);
      struct stat st;
      if (stat(cfull, &st) != 0) continue;
      size_t len = strlen(e->d_name);
      if (S_ISDIR(st.st_mode) && depth < 64) {
        stack[depth++] = strdup(child);
      } else if (S_ISREG(st.st_mode) && len >= 4 && !strcmp(e->d_name + len - 3, ".py")) {
        if (*n == *cap) *names = oom_xrealloc(*names, (*cap *= 2) * sizeof **names);
        (*names)[(*n)++] = strdup(child);
      }
    }
    if (d) closedir(d);
    free(rel);
  }
}


/* The fixtures of DIR: its *.py files, and every *.py of its `project_*`
 * folders (small projects whose files import each other), sorted. */
static size_t list_fixtures(const char *dir, char ***out) {
  char **names = NULL;
  size_t n = list_py(dir, &names), cap = n + 16;
  /* list_py sized NAMES for its own (or left it NULL): room for more */
  names = oom_xrealloc(names, cap * sizeof *names);
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (!strncmp(e->d_name, "project_", 8)) add_project(dir, e->d_name, &names, &n, &cap);
  if (d) closedir(d);
  qsort(names, n, sizeof *names, str_cmp);
  *out = names;
  return n;
}


static size_t parse_expectations(const char *text, size_t len, expectation *out) {
  size_t n = 0;
  unsigned row = 0;
  const char *line = text, *end = text + len;
  while (line < end) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t ll = nl ? (size_t)(nl - line) : (size_t)(end - line);
    for (size_t i = 0; i + 9 <= ll; i++) {
      if (memcmp(line + i, "# expect:", 9) != 0) continue;
      const char *p = line + i + 9;
      while (p < line + ll) {
        while (p < line + ll && (*p == ' ' || *p == ',')) p++;
        if (p + 6 > line + ll || strncmp(p, "OOM", 3) != 0) break;
        if (n < MAX_EXPECT) {
          out[n].row = row;
          memcpy(out[n].code, p, 6);
          out[n].code[6] = '\0';
          out[n].met = 0;
          n++;
        }
        p += 6;
      }
      break;
    }
    row++;
    line += ll + 1;
  }
  return n;
}


static int checked(const char *code, const char *folder, const expectation *ex, size_t n) {
  if (!strcmp(code, folder) || !strcmp(code, "OOM000")) return 1;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(ex[i].code, code)) return 1;
  return 0;
}


/* A first line `# oomlint-options: --gpu-memory 24GiB --max-batch-size 256`
 * lints that file with those options (the budget rules are silent without);
 * NULL when the file has no such line. */
static oom_linter *file_linter(const char *text, size_t len) {
  static const char key[] = "# oomlint-options:";
  if (len < sizeof key - 1 || memcmp(text, key, sizeof key - 1) != 0) return NULL;
  const char *nl = memchr(text, '\n', len);
  size_t n = nl ? (size_t)(nl - text) : len;
  char line[512];
  if (n >= sizeof line) n = sizeof line - 1;
  memcpy(line, text, n);
  line[n] = '\0';
  oom_options *o = oom_options_new();
  char *save = NULL;
  for (char *tok = strtok_r(line + sizeof key - 1, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
    char *arg = strtok_r(NULL, " \t\r", &save);
    uint64_t v = 0;
    if (!arg) break;
    if (!strcmp(tok, "--gpu-memory") && oom_parse_bytes(arg, &v)) oom_options_set_gpu_memory(o, v);
    else if (!strcmp(tok, "--max-batch-size") && oom_parse_bytes(arg, &v)) oom_options_set_max_batch_size(o, v);
  }
  char *err = NULL;
  oom_linter *l = oom_linter_new(o, &err);
  free(err);
  oom_options_free(o);
  return l;
}


static int run_folder(const char *dir) {
  const char *folder = strrchr(dir, '/');
  folder = folder ? folder + 1 : dir;
  char *err = NULL;
  oom_linter *linter = oom_linter_new(NULL, &err);
  if (!linter) {
    fprintf(stderr, "cannot build the linter: %s\n", err);
    return 1;
  }
  oom_worker *w = oom_worker_new(linter);
  /* project fixtures import each other: one index for the folder */
  oom_project *project = oom_project_new();
  oom_worker_use_project(w, project);
  char **names;
  size_t count = list_fixtures(dir, &names);
  int passed = 0, failed = 0, flags = 0, oks = 0;
  static expectation ex[MAX_EXPECT];
  for (size_t f = 0; f < count; f++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[f]);
    char why[256];
    size_t len;
    char *text = files_read(path, &len, why, sizeof why);
    if (!text) {
      printf("FAIL %s: %s\n", path, why);
      failed++;
      continue;
    }
    uint32_t *cell_rows = NULL;
    size_t ncells = 0;
    if (notebook_path(path)) {
      /* a notebook: its module, whose rows the markers and diagnostics share */
      notebook nb;
      if (!notebook_read(text, len, &nb, why, sizeof why)) {
        printf("FAIL %s: %s\n", path, why);
        free(text);
        failed++;
        continue;
      }
      free(text);
      text = nb.module;
      len = nb.module_len;
      nb.module = NULL;
      cell_rows = notebook_cell_rows(&nb);
      ncells = nb.ncells;
      notebook_free(&nb);
    }
    size_t n = parse_expectations(text, len, ex);
    const char *base = strrchr(names[f], '/') ? strrchr(names[f], '/') + 1 : names[f];
    bool is_flags = !strncmp(base, "flags_", 6), is_ok = !strncmp(base, "ok_", 3);
    flags += is_flags;
    oks += is_ok;
    int bad = 0;
    size_t own = 0;
    for (size_t i = 0; i < n; i++) own += !strcmp(ex[i].code, folder);
    if (is_flags && own == 0) {
      printf("FAIL %s: a flags_ fixture must expect %s somewhere\n", path, folder);
      bad++;
    }
    if (is_ok && own > 0) {
      printf("FAIL %s: an ok_ fixture must not expect %s\n", path, folder);
      bad++;
    }
    oom_linter *opts_linter = file_linter(text, len);
    oom_worker *fw = opts_linter ? oom_worker_new(opts_linter) : w;
    if (opts_linter) oom_worker_use_project(fw, project);
    oom_document *doc = oom_document_new(path, text, len);
    free(text);
    if (ncells) oom_document_set_cells(doc, cell_rows, ncells);
    free(cell_rows);
    oom_document_lint(doc, fw);
    for (size_t k = 0; k < oom_document_diagnostic_count(doc); k++) {
      const oom_diagnostic *d = oom_document_diagnostic(doc, k);
      const char *code = oom_diagnostic_code(d);
      if (!checked(code, folder, ex, n)) continue;
      unsigned row = oom_diagnostic_start(d).row;
      size_t i;
      for (i = 0; i < n; i++)
        if (!ex[i].met && ex[i].row == row && !strcmp(ex[i].code, code)) break;
      if (i < n) {
        ex[i].met = 1;
      } else {
        printf("FAIL %s:%u: unexpected %s %s\n", path, row + 1, code, oom_diagnostic_message(d));
        bad++;
      }
    }
    for (size_t i = 0; i < n; i++)
      if (!ex[i].met) {
        printf("FAIL %s:%u: expected %s, not reported\n", path, ex[i].row + 1, ex[i].code);
        bad++;
      }
    oom_document_free(doc);
    if (opts_linter) {
      oom_worker_free(fw);
      oom_linter_free(opts_linter);
    }
    if (bad) failed++;
    else passed++;
    free(names[f]);
  }
  free(names);
  if (count && (!flags || !oks)) {
    printf("FAIL %s: needs flags_*.py (what the rule reports) and ok_*.py (what it must leave alone)\n", dir);
    failed++;
  }
  if (!count) {
    printf("FAIL %s: no fixtures\n", dir);
    failed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  oom_worker_free(w);
  oom_project_free(project);
  oom_linter_free(linter);
  return failed ? 1 : 0;
}


static int run_registry(const char *dir) {
  char *err = NULL;
  oom_linter *linter = oom_linter_new(NULL, &err);
  if (!linter) {
    fprintf(stderr, "cannot build the linter: %s\n", err);
    return 1;
  }
  static const char *const headings[] = {"## What it does", "## Why is this bad?", "## Example",
                                         "## Use instead", "## Fix safety", "## References"};
  int passed = 0, failed = 0;
  for (size_t i = 0; i < oom_linter_rule_count(linter); i++) {
    const oom_rule *r = oom_linter_rule(linter, i);
    int bad = 0;
    for (size_t h = 0; h < sizeof headings / sizeof *headings; h++)
      if (!strstr(oom_rule_doc(r), headings[h])) {
        printf("FAIL %s: its doc lacks the heading `%s`\n", oom_rule_origin(r), headings[h]);
        bad++;
      }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, oom_rule_code(r));
    char **names;
    size_t n = list_py(path, &names);
    for (size_t k = 0; k < n; k++) free(names[k]);
    if (n) free(names);
    if (!n) {
      printf("FAIL %s: no fixtures in %s\n", oom_rule_code(r), path);
      bad++;
    }
    if (bad) failed++;
    else passed++;
  }
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, "OOM", 3) != 0) continue;
    if (!oom_linter_find_rule(linter, e->d_name)) {
      printf("FAIL %s/%s: no rule has this code\n", dir, e->d_name);
      failed++;
    }
  }
  if (d) closedir(d);
  printf("%d passed, %d failed\n", passed, failed);
  oom_linter_free(linter);
  return failed ? 1 : 0;
}


int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--registry")) return run_registry(argv[2]);
  if (argc == 2) return run_folder(argv[1]);
  fprintf(stderr, "usage: fixture_runner RULE_FOLDER | --registry FIXTURES_FOLDER\n");
  return 2;
}
