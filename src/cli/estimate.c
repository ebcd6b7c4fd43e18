/* This file contains `oomlint estimate PATH`: the memory estimate as a table a person can check
 * by hand, or as JSON; exit status 1 when a model is over the budget. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/estimate_step.h"
#include "cli/files.h"
#include "estimate/estimate.h"
#include "facts/facts.h"
#include "notebook/notebook.h"
#include "parse/parse.h"
#include "project/project.h"
#include "util/buf.h"
#include "util/utf8.h"


static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}


bool cli_gpu_memory_auto(uint64_t *bytes, char *why, size_t why_size) {
  /* the first GPU, in MiB, one bare number a line */
  FILE *p = popen("nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 2>/dev/null", "r");
  if (!p) {
    snprintf(why, why_size, "%s", "nvidia-smi cannot be run");
    return false;
  }
  char line[128] = "";
  bool got = fgets(line, sizeof line, p) != NULL;
  /* the other GPUs' lines: read to the end, so that it exits cleanly */
  char rest[128];
  while (fgets(rest, sizeof rest, p)) {}
  int status = pclose(p);
  char *end = NULL;
  unsigned long long mib = got ? strtoull(line, &end, 10) : 0;
  while (end && (*end == ' ' || *end == '\n' || *end == '\r')) end++;
  if (status != 0 || !got || !mib || !end || *end) {
    snprintf(why, why_size, "%s",
             status != 0 && !got ? "nvidia-smi is not on PATH or finds no GPU" : "nvidia-smi reported no memory size");
    return false;
  }
  *bytes = (uint64_t)mib << 20;
  return true;
}


#define SCRIPT_READ_MAX (4u << 20) /* a config, not a corpus: larger files are not read */


/* Where the script finds PATH: relative to where it runs, its own folder
 * first (`python train.py` there), then the working folder. */
static bool script_path(const char *script, const char *path, buf *out, struct stat *st) {
  if (path[0] != '/' && script) {
    const char *slash = strrchr(script, '/');
    if (slash) {
      buf_clear(out);
      buf_printf(out, "%.*s/%s", (int)(slash - script), script, path);
      if (stat(buf_str(out), st) == 0) return true;
    }
  }
  buf_clear(out);
  buf_puts(out, path);
  return stat(path, st) == 0;
}


static char *read_for_script(void *ctx, const char *path, size_t *length) {
  buf b = {0};
  struct stat st;
  char why[256];
  char *text = NULL;
  /* regular files of a config's size only: never a corpus, a FIFO or /dev/zero */
  if (script_path(ctx, path, &b, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= SCRIPT_READ_MAX)
    text = files_read(buf_str(&b), length, why, sizeof why);
  buf_free(&b);
  return text;
}


static bool exists_for_script(void *ctx, const char *path) {
  buf b = {0};
  struct stat st;
  bool there = script_path(ctx, path, &b, &st);
  buf_free(&b);
  return there;
}


/* A notebook's code cell holding the module's 1-based LINE (0: not a
 * notebook), and the line in it. */
static uint32_t cell_of(const notebook *nb, uint32_t line, uint32_t *in_cell) {
  *in_cell = line;
  if (!nb || !nb->ncells || !line) return 0;
  size_t k = 0;
  while (k + 1 < nb->ncells && nb->cells[k + 1].first_row < line) k++;
  *in_cell = line > nb->cells[k].first_row ? line - nb->cells[k].first_row : 1;
  return (uint32_t)k + 1;
}


/* "train.py:12", or "nb.ipynb:cell 3:4" */
static void place(char *out, size_t n, const char *file, const notebook *nb, uint32_t line) {
  uint32_t row, cell = cell_of(nb, line, &row);
  if (cell) snprintf(out, n, "%s:cell %u:%u", file, cell, row);
  else snprintf(out, n, "%s:%u", file, line);
}


static void print_model(FILE *out, const char *path, const notebook *nb, const estimate_model *m, int64_t budget) {
  char n1[32], n2[32], b1[32], b2[32];
  const char *file = base_name(path);
  char built[300];
  /* a model built inside another module of the project is placed there */
  if (m->file) snprintf(built, sizeof built, "%s:%u", m->file, m->line);
  else place(built, sizeof built, file, nb, m->line);
  fprintf(out, "\nmodel `%s`: %s, built at %s\n", m->name, m->klass, built);
  int width = 20;
  for (uint32_t i = 0; i < m->nparts; i++) {
    int w = (int)strlen(m->parts[i].layer);
    if (w > width) width = w;
  }
  if (width > 64) width = 64;
  for (uint32_t i = 0; i < m->nparts; i++) {
    const estimate_part *p = &m->parts[i];
    char where[64];
    if (p->file) snprintf(where, sizeof where, "%s:%u", p->file, p->line);
    else place(where, sizeof where, file, nb, p->line);
    char rep[24];
    snprintf(rep, sizeof rep, "x%" PRId64, p->repeat);
    fprintf(out, "  %-24s %-*s  %6s  = %15s\n", where, width, p->layer, rep, estimate_count(p->parameters, n1, sizeof n1));
  }
  if (!m->nparts) fprintf(out, "  (no parameters found)\n");
  fprintf(out, "  %-24s %-*s  %6s  = %15s", "", width, "parameters", "", estimate_count(m->parameters, n1, sizeof n1));
  if (m->trainable != m->parameters) fprintf(out, "  (trainable %s)", estimate_count(m->trainable, n2, sizeof n2));
  fputc('\n', out);
  double per = m->parameters ? (double)m->weight_bits_total / (double)m->parameters / 8.0 : 0;
  fprintf(out, "  weights           %12s  %s, %.3g bytes per parameter\n", estimate_bytes(m->weights_bytes, b1, sizeof b1),
          m->dtype, per);
  fprintf(out, "  gradients         %12s  %s\n", estimate_bytes(m->gradients_bytes, b1, sizeof b1),
          m->gradients_bytes ? "trainable parameters, in the weights' dtype" : "none");
  if (m->optimizer) {
    if (m->optimizer_state_bytes_per_param >= 0)
      fprintf(out, "  optimizer state   %12s  %s, %d bytes per trainable parameter\n",
              estimate_bytes(m->optimizer_bytes, b1, sizeof b1), m->optimizer, m->optimizer_state_bytes_per_param);
    else
      fprintf(out, "  optimizer state   %12s  %s (not known)\n", "?", m->optimizer);
  } else {
    fprintf(out, "  optimizer state   %12s  no optimizer found in this file\n", estimate_bytes(0, b1, sizeof b1));
  }
  if (m->input_bytes >= 0) fprintf(out, "  input batch       %12s\n", estimate_bytes(m->input_bytes, b1, sizeof b1));
  else fprintf(out, "  input batch       %12s  shape not known\n", "?");
  estimate_print_activations(out, file, m); /* estimate_step.c */
  fprintf(out, "  total             %12s  %s\n", estimate_bytes(m->total_bytes, b1, sizeof b1),
          m->nunknown ? "a lower bound: see below" : "weights + gradients + optimizer state + input batch");
  estimate_print_step(out, m, budget); /* estimate_step.c */
  /* the whole step when activations are known */
  int64_t need = m->peak_bytes >= 0 ? m->peak_bytes : m->total_bytes;
  if (budget > 0) {
    if (need > budget)
      fprintf(out, "  budget            %12s  over by %s\n", estimate_bytes(budget, b1, sizeof b1),
              estimate_bytes(need - budget, b2, sizeof b2));
    else
      fprintf(out, "  budget            %12s  fits, %s %s\n", estimate_bytes(budget, b1, sizeof b1),
              estimate_bytes(budget - need, b2, sizeof b2), m->peak_bytes >= 0 ? "to spare" : "left for activations");
  } else {
    fprintf(out, "  budget            %12s  none given (--gpu-memory)\n", "-");
  }
  if (m->nnotes) {
    fprintf(out, "  notes:\n");
    for (uint32_t i = 0; i < m->nnotes; i++) fprintf(out, "    - %s\n", m->notes[i]);
  }
  if (m->nunknown) {
    fprintf(out, "  not counted:\n");
    for (uint32_t i = 0; i < m->nunknown; i++) fprintf(out, "    - %s\n", m->unknown[i]);
  }
  if (budget > 0 && m->total_bytes > budget) {
    /* weights and state alone are over: the changes to them */
    estimate_change changes[4];
    arena a = {0};
    uint32_t n = estimate_advice(m, budget, changes, 4, &a);
    fprintf(out, "  changes that fit the budget, cheapest first:%s\n", n ? "" : " none alone; shard it across GPUs");
    for (uint32_t i = 0; i < n; i++)
      fprintf(out, "    - %s: saves %s (total %s)\n", changes[i].change, estimate_bytes(changes[i].saving, b1, sizeof b1),
              estimate_bytes(changes[i].after, b2, sizeof b2));
    arena_free(&a);
  }
}


static json_t *jstr(const char *s) {
  buf b = {0};
  utf8_sanitize(s, strlen(s), &b);
  json_t *j = json_stringn(buf_str(&b), b.len);
  buf_free(&b);
  return j;
}


static json_t *model_json(const estimate_model *m, int64_t budget) {
  json_t *o = json_object();
  json_object_set_new(o, "name", jstr(m->name));
  json_object_set_new(o, "class", jstr(m->klass));
  json_object_set_new(o, "line", json_integer(m->line));
  if (m->file) json_object_set_new(o, "file", jstr(m->file));
  json_object_set_new(o, "parameters", json_integer(m->parameters));
  json_object_set_new(o, "trainable_parameters", json_integer(m->trainable));
  json_object_set_new(o, "dtype", jstr(m->dtype));
  json_object_set_new(o, "optimizer", m->optimizer ? jstr(m->optimizer) : json_null());
  json_object_set_new(o, "weights_bytes", json_integer(m->weights_bytes));
  json_object_set_new(o, "gradients_bytes", json_integer(m->gradients_bytes));
  json_object_set_new(o, "optimizer_state_bytes", json_integer(m->optimizer_bytes));
  json_object_set_new(o, "input_batch_bytes", m->input_bytes >= 0 ? json_integer(m->input_bytes) : json_null());
  json_object_set_new(o, "total_bytes", json_integer(m->total_bytes));
  json_t *parts = json_array();
  for (uint32_t i = 0; i < m->nparts; i++) {
    const estimate_part *p = &m->parts[i];
    json_t *part = json_pack("{s:I, s:o, s:I, s:I}", "line", (json_int_t)p->line, "layer", jstr(p->layer), "repeat",
                             (json_int_t)p->repeat, "parameters", (json_int_t)p->parameters);
    if (p->file) json_object_set_new(part, "file", jstr(p->file));
    json_array_append_new(parts, part);
  }
  json_object_set_new(o, "parts", parts);
  estimate_step_json(o, m, budget);
  json_t *unknown = json_array();
  for (uint32_t i = 0; i < m->nunknown; i++) json_array_append_new(unknown, jstr(m->unknown[i]));
  json_object_set_new(o, "unknown", unknown);
  return o;
}


/* Estimate one file: 0 fits (or no budget), 1 over the budget, 2 unreadable. */
static int estimate_one(const char *path, int64_t budget, bool json, json_t *array, TSParser *parser, const cli *c,
                        oom_project *project) {
  char why[256];
  size_t len = 0;
  char *text = files_read(!strcmp(path, "-") ? NULL : path, &len, why, sizeof why);
  if (!text) {
    fprintf(stderr, "oomlint: %s: %s\n", path, why);
    return EXIT_USAGE;
  }
  /* a notebook: its code cells' module, places given by cell */
  notebook nbook, *nb = NULL;
  if (notebook_path(path)) {
    bool ok = notebook_read(text, len, &nbook, why, sizeof why);
    free(text);
    if (!ok) {
      fprintf(stderr, "oomlint: %s: %s\n", path, why);
      return EXIT_USAGE;
    }
    nb = &nbook;
    text = nbook.module;
    len = nbook.module_len;
    nbook.module = NULL;
  }
  TSTree *tree = len <= 0x7fffffffu ? parse_source(parser, text, len, NULL) : NULL;
  if (!tree) {
    fprintf(stderr, "oomlint: %s: cannot parse this file\n", path);
    free(text);
    if (nb) notebook_free(nb);
    return EXIT_USAGE;
  }
  /* the modules the script imports are read through the project index */
  bool file = strcmp(path, "-") != 0;
  project_view view;
  if (file) project_view_init(&view, project, path, ts_tree_root_node(tree), text, len);
  facts f;
  facts_build_with(&f, ts_tree_root_node(tree), text, len, NULL, file ? &view.imports : NULL);
  /* --assume and the configuration's `assume`, the flags' first */
  size_t nassume = oom_options_assume_count(c->options);
  const char **assume = calloc(nassume + 1, sizeof *assume);
  for (size_t i = 0; assume && i < nassume; i++) assume[i] = oom_options_assume(c->options, i);
  estimate_input in = {file ? path : NULL, (const char *const *)c->script_argv, c->script_argc, assume,
                       assume ? (int)nassume : 0, read_for_script, file ? (void *)path : NULL, exists_for_script};
  estimate_result r;
  estimate_run_with(&f, &in, &r);
  int status = EXIT_CLEAN;
  for (uint32_t i = 0; i < r.nmodels; i++) {
    /* the whole step when activations are known (step.c) */
    int64_t need = r.models[i].peak_bytes >= 0 ? r.models[i].peak_bytes : r.models[i].total_bytes;
    if (budget > 0 && need > budget) status = EXIT_FOUND;
  }
  if (json) {
    json_t *o = json_object();
    json_object_set_new(o, "file", jstr(path));
    json_t *models = json_array();
    for (uint32_t i = 0; i < r.nmodels; i++) {
      json_t *mj = model_json(&r.models[i], budget);
      if (nb && !r.models[i].file) { /* lines in their cells, as the lint's JSON gives them */
        uint32_t row, cell = cell_of(nb, r.models[i].line, &row);
        json_object_set_new(mj, "cell", json_integer(cell));
        json_object_set_new(mj, "line", json_integer(row));
        size_t k;
        json_t *part;
        json_array_foreach(json_object_get(mj, "parts"), k, part) {
          cell = cell_of(nb, (uint32_t)json_integer_value(json_object_get(part, "line")), &row);
          json_object_set_new(part, "cell", json_integer(cell));
          json_object_set_new(part, "line", json_integer(row));
        }
      }
      json_array_append_new(models, mj);
    }
    json_object_set_new(o, "models", models);
    json_object_set_new(o, "budget_bytes", budget > 0 ? json_integer(budget) : json_null());
    json_array_append_new(array, o);
  } else {
    printf("%s: %u model%s\n", path, r.nmodels, r.nmodels == 1 ? "" : "s");
    for (uint32_t i = 0; i < r.nmodels; i++) print_model(stdout, path, nb, &r.models[i], budget);
    if (r.nunknown) {
      printf("\n%s:\n", r.nmodels ? "about the file" : "no model is built in this file");
      for (uint32_t i = 0; i < r.nunknown; i++) printf("  - %s\n", r.unknown[i]);
    }
  }
  estimate_free(&r);
  free(assume);
  facts_free(&f);
  if (file) project_view_free(&view);
  ts_tree_delete(tree);
  free(text);
  if (nb) notebook_free(nb);
  return status;
}


int cli_estimate(const oom_linter *linter, int argc, char **argv, const cli *c) {
  (void)linter;
  if (argc < 1) return cli_usage_error("%s", "estimate needs a file: oomlint estimate PATH [--gpu-memory 80GiB]");
  bool json = !strcmp(c->format_name, "json");
  if (!json && strcmp(c->format_name, "text") != 0 && strcmp(c->format_name, "full") != 0)
    return cli_usage_error("estimate prints text or json, not `%s`", c->format_name);
  const char *why = NULL;
  TSParser *parser = parse_parser_new(&why);
  if (!parser) {
    fprintf(stderr, "oomlint: the Python grammar does not load into this tree-sitter runtime\n");
    return EXIT_USAGE;
  }
  int64_t budget = (int64_t)oom_options_gpu_memory(c->options);
  json_t *array = json_array();
  int status = EXIT_CLEAN;
  oom_project *project = oom_project_new();
  for (int i = 0; i < argc; i++) {
    if (i && !json) putchar('\n');
    int s = estimate_one(argv[i], budget, json, array, parser, c, project);
    if (s > status) status = s;
  }
  if (json && json_array_size(array)) {
    json_t *top = argc == 1 ? json_array_get(array, 0) : array;
    char *s = json_dumps(top, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (s) {
      puts(s);
      free(s);
    }
  }
  json_decref(array);
  oom_project_free(project);
  ts_parser_delete(parser);
  return status;
}
