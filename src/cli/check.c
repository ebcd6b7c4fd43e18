/* This file contains `oomlint check`: collect the files, lint them (on -j
 * threads, one worker each, sharing the immutable linter), emit the
 * diagnostics in path order, print the summary, and choose the exit status. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/caching.h"
#include "cli/cli.h"
#include "cli/files.h"
#include "cli/fixing.h"
#include "cli/notebook.h"
#include "notebook/notebook.h"
#include "fix/fix.h"
#include "util/alloc.h"

/* The files of one run and what linting each gave; workers fill slots in any
 * order, the emitting thread takes them in path order. */
typedef struct {
  const cli *c;
  oom_linter *linter;  /* compiled between the passes, or by the first worker that needs it */
  bool compiled;       /* under MU */
  char *compile_error; /* under MU */
  bool probe;          /* only ask the cache (the first pass); else lint what is not done */
  const file_list *files;
  const cli_cache *cache;
  buf *fresh;          /* per file: its new cache entry, if any */
  oom_document **docs; /* NULL with a message in WHY: unreadable */
  char (*why)[256];
  bool *done;
  bool *later;         /* the first pass left it for the second, to be read, not linted */
  size_t next;
  size_t taken;        /* the emitting thread has taken the files before this one */
  bool inline_run;     /* no thread started: this thread lints all before emitting */
  oom_project *project; /* the modules the files import, read once for all threads */
  pthread_mutex_t mu;
  pthread_cond_t ready, room;
} lint_pool;

/* How far the second pass may run ahead of the emitting thread: reading
 * cached files outpaces printing them, and the documents would otherwise
 * pile up in memory until printed. */
#define POOL_AHEAD 256


static oom_document *lint_plain(const cli *c, oom_worker *w, const char *path, const char *shown, char *why,
                                size_t whylen) {
  size_t len = 0;
  char *text = files_read(path, &len, why, whylen);
  if (!text) return NULL;
  oom_document *doc = cli_document(shown, text, len, why, whylen);
  if (!doc) return NULL;
  oom_document_lint(doc, w);
  config_filter_document(&c->cfg, doc);
  return doc;
}


/* One file of the run, through the cache when there is one. Per-file
 * ignores act after the cache as after a lint: entries hold what the
 * linter said. */
static oom_document *lint_file(const cli *c, const cli_cache *cache, oom_worker *w, const file_list *files, size_t i,
                               buf *fresh, char *why, size_t whylen) {
  if (!cache->store) return lint_plain(c, w, files->paths[i], files->paths[i], why, whylen);
  oom_document *doc = cli_cache_lint(cache, w, files, i, fresh, why, whylen);
  if (doc) config_filter_document(&c->cfg, doc);
  return doc;
}


/* Compile the rules if no one has: the rare second pass that finds a file
 * the first pass vouched for changed after all (rewritten keeping its time).
 * Other threads meanwhile only read what compiling leaves alone (codes,
 * names, severities, docs), and lint only after this returns true. */
static bool pool_compile(lint_pool *p, char *why, size_t whylen) {
  pthread_mutex_lock(&p->mu);
  if (!p->compiled && !p->compile_error) {
    if (oom_linter_compile(p->linter, &p->compile_error)) p->compiled = true;
  }
  bool ok = p->compiled;
  if (!ok) snprintf(why, whylen, "%s", p->compile_error);
  pthread_mutex_unlock(&p->mu);
  return ok;
}


static void *pool_thread(void *arg) {
  lint_pool *p = arg;
  oom_worker *w = p->probe ? NULL : oom_worker_new(p->linter);
  if (w) oom_worker_use_project(w, p->project);
  for (;;) {
    pthread_mutex_lock(&p->mu);
    size_t i = p->next++;
    /* the first pass keeps every answer for the compile decision: no limit */
    while (!p->probe && !p->inline_run && i < p->files->len && i >= p->taken + POOL_AHEAD)
      pthread_cond_wait(&p->room, &p->mu);
    bool done = i < p->files->len && p->done[i], compiled = p->compiled;
    pthread_mutex_unlock(&p->mu);
    if (i >= p->files->len) break;
    if (done) continue; /* the first pass found it in the cache */
    oom_document *doc = NULL;
    bool later = false;
    char *why = p->why[i];
    size_t whylen = sizeof p->why[i];
    if (p->probe) {
      doc = cli_cache_probe(p->cache, p->files, i, &p->fresh[i], &later);
      if (doc) config_filter_document(&p->c->cfg, doc);
    } else if (!w) {
      snprintf(why, whylen, "the Python grammar does not load into this tree-sitter runtime");
    } else if (!compiled && p->cache->store) {
      /* vouched for by the first pass: read it, without linting */
      doc = cli_cache_lint(p->cache, NULL, p->files, i, &p->fresh[i], why, whylen);
      if (doc) config_filter_document(&p->c->cfg, doc);
      else if (!why[0] && pool_compile(p, why, whylen))
        doc = lint_file(p->c, p->cache, w, p->files, i, &p->fresh[i], why, whylen);
    } else {
      doc = lint_file(p->c, p->cache, w, p->files, i, &p->fresh[i], why, whylen);
    }
    pthread_mutex_lock(&p->mu);
    p->docs[i] = doc;
    p->done[i] = !p->probe || doc;
    p->later[i] = later;
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->mu);
  }
  oom_worker_free(w);
  return NULL;
}


/* Run the pool's pass on up to NTHREADS threads (at least this one) and
 * return the threads started; the caller joins them. */
static int pool_start(lint_pool *p, pthread_t *threads, int nthreads) {
  p->next = 0;
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&threads[t], NULL, pool_thread, p) != 0) {
      nthreads = t; /* the threads that did start take every file */
      break;
    }
  if (nthreads == 0) {
    p->inline_run = true;
    pool_thread(p);
  }
  return nthreads;
}


static int thread_count(const cli *c, size_t nfiles) {
  long n = c->threads > 0 ? c->threads : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if ((size_t)n > nfiles) n = (long)nfiles;
  return (int)n;
}


int cli_check(oom_linter *linter, int argc, char **argv, const cli *c) {
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
  oom_project *project = oom_project_new();
  oom_worker_use_project(worker, project);
  /* a module another file imports is parsed once, for its summary and its lint */
  for (size_t i = 0; i < files.len; i++) oom_project_expect(project, files.paths[i]);
  bool color = c->color == 1 || (c->color == -1 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
  /* --diff prints diffs and --fix on stdin the fixed source, not diagnostics */
  bool fixing = c->fix || c->diff;
  bool quiet_fix = c->diff || (c->fix && use_stdin && files.len == 0);
  oom_applicability level = cli_fix_level(c);
  fix_totals fixes = {0, 0, {0}};
  size_t fixable = 0, hidden = 0;
  size_t total = 0, nfiles = 0, by_sev[3] = {0};
  size_t nrules = oom_linter_rule_count(linter);
  size_t *per_rule = oom_xcalloc(nrules, sizeof *per_rule);
  /* fixing writes files and sums totals in order: it stays on this thread */
  int nthreads = fixing ? 0 : thread_count(c, files.len);
  cli_cache cache = {0};
  if (files.len) cli_cache_open(&cache, c, linter); /* stdin alone: nothing to cache */
  buf *fresh = oom_xcalloc(files.len + 1, sizeof *fresh);
  lint_pool pool = {.c = c, .linter = linter, .probe = true, .files = &files, .cache = &cache, .fresh = fresh,
                    .mu = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER,
                    .room = PTHREAD_COND_INITIALIZER, .project = project};
  pthread_t *threads = NULL;
  size_t missing = files.len;
  if (nthreads > 0) {
    pool.docs = oom_xcalloc(files.len, sizeof *pool.docs);
    pool.why = oom_xcalloc(files.len, sizeof *pool.why);
    pool.done = oom_xcalloc(files.len, sizeof *pool.done);
    pool.later = oom_xcalloc(files.len, sizeof *pool.later);
    threads = oom_xcalloc((size_t)nthreads, sizeof *threads);
  }
  if (nthreads > 0 && cache.store) {
    /* first pass: what the cache answers needs no compiled rules */
    int started = pool_start(&pool, threads, nthreads);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    missing = 0;
    for (size_t i = 0; i < files.len; i++) missing += !pool.done[i] && !pool.later[i];
  }
  /* compiling the rule patterns costs more than re-linting a warm tree:
   * only when something must be linted (or nothing is there to lint, so
   * that a broken rule file is still reported) */
  char *error = NULL;
  bool must_compile = missing || use_stdin || files.len == 0;
  if (must_compile && !oom_linter_compile(linter, &error)) {
    fprintf(stderr, "oomlint: %s\n", error);
    free(error);
    for (size_t i = 0; i < files.len; i++) {
      if (pool.docs) oom_document_free(pool.docs[i]);
      buf_free(&fresh[i]);
    }
    free(pool.docs);
    free(pool.why);
    free(pool.done);
    free(pool.later);
    free(threads);
    free(fresh);
    cli_cache_close(&cache, NULL, 0);
    free(per_rule);
    oom_worker_free(worker);
    oom_project_free(project);
    files_free(&files);
    return EXIT_USAGE;
  }
  emitter *em = c->statistics || quiet_fix ? NULL : emit_begin(stdout, c->format, color);
  if (em) emit_set_fix_level(em, level);
  if (em) emit_set_linter(em, linter);
  pool.probe = false;
  pool.compiled = must_compile;
  if (nthreads > 0 && files.len) nthreads = pool_start(&pool, threads, nthreads);
  else nthreads = 0;
  for (size_t i = 0; i < files.len + (use_stdin ? 1 : 0); i++) {
    const char *path = i < files.len ? files.paths[i] : NULL;
    const char *shown = path ? path : (c->stdin_filename ? c->stdin_filename : "-");
    char why[256];
    oom_document *doc;
    if (path && pool.docs) {
      pthread_mutex_lock(&pool.mu);
      while (!pool.done[i]) pthread_cond_wait(&pool.ready, &pool.mu);
      pool.taken = i + 1;
      pthread_cond_broadcast(&pool.room);
      doc = pool.docs[i];
      snprintf(why, sizeof why, "%s", pool.why[i]);
      pthread_mutex_unlock(&pool.mu);
    } else if (fixing) {
      size_t len = 0;
      char *text = files_read(path, &len, why, sizeof why);
      doc = NULL;
      if (text) {
        bool write_error = false;
        if (notebook_path(shown))
          doc = cli_fix_notebook(c, worker, path, shown, text, len, &fixes, &write_error, why, sizeof why);
        else
          doc = cli_fix_file(c, worker, path, shown, text, len, &fixes, &write_error);
        io_errors += write_error;
        free(text);
        if (doc) config_filter_document(&c->cfg, doc);
      }
    } else if (path) {
      doc = lint_file(c, &cache, worker, &files, i, &fresh[i], why, sizeof why);
    } else {
      doc = lint_plain(c, worker, path, shown, why, sizeof why); /* stdin: never cached */
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
  free(pool.later);
  free(pool.compile_error);
  cli_cache_close(&cache, fresh, files.len);
  for (size_t i = 0; i < files.len; i++) buf_free(&fresh[i]);
  free(fresh);
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
  oom_project_free(project);
  files_free(&files);
  if (io_errors) return EXIT_USAGE;
  if (c->diff) return fixes.fixed && !c->exit_zero ? EXIT_FOUND : EXIT_CLEAN;
  if (total && !c->exit_zero) return EXIT_FOUND;
  return EXIT_CLEAN;
}
