/* This file contains `oomlint check`: collect the files, lint them (on -j
 * threads, one worker each, sharing the immutable linter), emit the
 * diagnostics in path order, print the summary, and choose the exit status. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/files.h"
#include "cli/fixing.h"
#include "fix/fix.h"
#include "util/alloc.h"

/* The files of one run and what linting each gave; workers fill slots in any
 * order, the emitting thread takes them in path order. */
typedef struct {
  const cli *c;
  const oom_linter *linter;
  const file_list *files;
  oom_document **docs; /* NULL with a message in WHY: unreadable */
  char (*why)[256];
  bool *done;
  size_t next;
  pthread_mutex_t mu;
  pthread_cond_t ready;
} lint_pool;


static oom_document *lint_plain(const cli *c, oom_worker *w, const char *path, const char *shown, char *why,
                                size_t whylen) {
  size_t len = 0;
  char *text = files_read(path, &len, why, whylen);
  if (!text) return NULL;
  oom_document *doc = oom_document_new(shown, text, len);
  free(text);
  oom_document_lint(doc, w);
  config_filter_document(&c->cfg, doc);
  return doc;
}


static void *pool_thread(void *arg) {
  lint_pool *p = arg;
  oom_worker *w = oom_worker_new(p->linter);
  for (;;) {
    pthread_mutex_lock(&p->mu);
    size_t i = p->next++;
    pthread_mutex_unlock(&p->mu);
    if (i >= p->files->len) break;
    oom_document *doc = NULL;
    if (w) doc = lint_plain(p->c, w, p->files->paths[i], p->files->paths[i], p->why[i], sizeof p->why[i]);
    else snprintf(p->why[i], sizeof p->why[i], "the Python grammar does not load into this tree-sitter runtime");
    pthread_mutex_lock(&p->mu);
    p->docs[i] = doc;
    p->done[i] = true;
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->mu);
  }
  oom_worker_free(w);
  return NULL;
}


static int thread_count(const cli *c, size_t nfiles) {
  long n = c->threads > 0 ? c->threads : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if ((size_t)n > nfiles) n = (long)nfiles;
  return (int)n;
}


int cli_check(const oom_linter *linter, int argc, char **argv, const cli *c) {
  file_list files = {0};
  bool use_stdin = c->stdin_filename != NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-")) use_stdin = true;
    else files_collect(&files, argv[i], &c->cfg, stderr);
  }
  if (argc == 0 && !use_stdin) files_collect(&files, ".", &c->cfg, stderr);
  files_sort(&files);
  int io_errors = files.errors;
  oom_worker *worker = oom_worker_new(linter);
  if (!worker) {
    fprintf(stderr, "oomlint: the Python grammar does not load into this tree-sitter runtime\n");
    files_free(&files);
    return EXIT_USAGE;
  }
  bool color = c->color == 1 || (c->color == -1 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
  /* --diff prints diffs and --fix on stdin the fixed source, not diagnostics */
  bool fixing = c->fix || c->diff;
  bool quiet_fix = c->diff || (c->fix && use_stdin && files.len == 0);
  oom_applicability level = cli_fix_level(c);
  fix_totals fixes = {0, 0, {0}};
  size_t fixable = 0, hidden = 0;
  emitter *em = c->statistics || quiet_fix ? NULL : emit_begin(stdout, c->format, color);
  if (em) emit_set_fix_level(em, level);
  if (em) emit_set_linter(em, linter);
  size_t total = 0, nfiles = 0, by_sev[3] = {0};
  size_t nrules = oom_linter_rule_count(linter);
  size_t *per_rule = oom_xcalloc(nrules, sizeof *per_rule);
  /* fixing writes files and sums totals in order: it stays on this thread */
  int nthreads = fixing ? 0 : thread_count(c, files.len);
  lint_pool pool = {c, linter, &files, NULL, NULL, NULL, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
  pthread_t *threads = NULL;
  if (nthreads > 0) {
    pool.docs = oom_xcalloc(files.len, sizeof *pool.docs);
    pool.why = oom_xcalloc(files.len, sizeof *pool.why);
    pool.done = oom_xcalloc(files.len, sizeof *pool.done);
    threads = oom_xcalloc((size_t)nthreads, sizeof *threads);
    for (int t = 0; t < nthreads; t++)
      if (pthread_create(&threads[t], NULL, pool_thread, &pool) != 0) {
        nthreads = t; /* the threads that did start take every file */
        break;
      }
    if (nthreads == 0) pool_thread(&pool);
  }
  for (size_t i = 0; i < files.len + (use_stdin ? 1 : 0); i++) {
    const char *path = i < files.len ? files.paths[i] : NULL;
    const char *shown = path ? path : (c->stdin_filename ? c->stdin_filename : "-");
    char why[256];
    oom_document *doc;
    if (path && pool.docs) {
      pthread_mutex_lock(&pool.mu);
      while (!pool.done[i]) pthread_cond_wait(&pool.ready, &pool.mu);
      doc = pool.docs[i];
      snprintf(why, sizeof why, "%s", pool.why[i]);
      pthread_mutex_unlock(&pool.mu);
    } else if (fixing) {
      size_t len = 0;
      char *text = files_read(path, &len, why, sizeof why);
      doc = NULL;
      if (text) {
        bool write_error = false;
        doc = cli_fix_file(c, worker, path, shown, text, len, &fixes, &write_error);
        io_errors += write_error;
        free(text);
        config_filter_document(&c->cfg, doc);
      }
    } else {
      doc = lint_plain(c, worker, path, shown, why, sizeof why);
    }
    if (!doc) {
      fprintf(stderr, "oomlint: %s: %s\n", shown, why);
      io_errors++;
      continue;
    }
    nfiles++;
    size_t n = oom_document_diagnostic_count(doc);
    for (size_t k = 0; k < n; k++) {
      const oom_diagnostic *d = oom_document_diagnostic(doc, k);
      by_sev[oom_diagnostic_severity(d)]++;
      if (fix_applicable(d, level)) fixable++;
      else if (fix_applicable(d, OOM_FIX_UNSAFE)) hidden++;
      for (size_t r = 0; r < nrules; r++)
        if (oom_linter_rule(linter, r) == oom_diagnostic_rule(d)) per_rule[r]++;
    }
    total += n;
    if (em) emit_document(em, doc);
    oom_document_free(doc);
  }
  for (int t = 0; t < nthreads; t++) pthread_join(threads[t], NULL);
  free(threads);
  free(pool.docs);
  free(pool.why);
  free(pool.done);
  if (em) emit_end(em);
  if (c->statistics) {
    for (size_t r = 0; r < nrules; r++)
      if (per_rule[r]) {
        const oom_rule *rule = oom_linter_rule(linter, r);
        printf("%5zu\t%s\t%s\n", per_rule[r], oom_rule_code(rule), oom_rule_name(rule));
      }
  }
  bool text_format = c->format == EMIT_FULL || c->format == EMIT_CONCISE;
  if (c->diff && !c->quiet) {
    if (fixes.fixed)
      fprintf(stderr, "Would fix %zu problem%s.\n", fixes.fixed, fixes.fixed == 1 ? "" : "s");
    else
      fprintf(stderr, "No problems would be fixed.\n");
  } else if (!c->quiet && text_format && !quiet_fix) {
    FILE *out = stdout;
    if (c->show_fixes && fixes.fixed) {
      fprintf(out, "Fixed %zu problem%s:\n%s\n", fixes.fixed, fixes.fixed == 1 ? "" : "s", buf_str(&fixes.shown));
    }
    if (total + fixes.fixed == 0) {
      fprintf(out, "All checks passed (%zu file%s).\n", nfiles, nfiles == 1 ? "" : "s");
    } else if (fixes.fixed) {
      fprintf(out, "Found %zu problem%s (%zu fixed, %zu remaining).\n", total + fixes.fixed,
              total + fixes.fixed == 1 ? "" : "s", fixes.fixed, total);
    } else {
      fprintf(out, "Found %zu problem%s in %zu file%s (%zu error%s, %zu warning%s, %zu info).\n", total,
              total == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s", by_sev[OOM_SEVERITY_ERROR],
              by_sev[OOM_SEVERITY_ERROR] == 1 ? "" : "s", by_sev[OOM_SEVERITY_WARNING],
              by_sev[OOM_SEVERITY_WARNING] == 1 ? "" : "s", by_sev[OOM_SEVERITY_INFO]);
    }
    /* Ruff's hint lines: what --fix would do, and what --unsafe-fixes adds */
    char more[128] = "";
    if (hidden)
      snprintf(more, sizeof more, " (%zu hidden fix%s can be enabled with the `--unsafe-fixes` option)", hidden,
               hidden == 1 ? "" : "es");
    if (fixable) fprintf(out, "[*] %zu fixable with the `--fix` option%s.\n", fixable, more);
    else if (hidden) fprintf(out, "No fixes available%s.\n", more);
  }
  buf_free(&fixes.shown);
  free(per_rule);
  oom_worker_free(worker);
  files_free(&files);
  if (io_errors) return EXIT_USAGE;
  if (c->diff) return fixes.fixed && !c->exit_zero ? EXIT_FOUND : EXIT_CLEAN;
  if (total && !c->exit_zero) return EXIT_FOUND;
  return EXIT_CLEAN;
}
