/* This file contains how the command line's settings are resolved: the
 * configuration file found (or named by --config) first, then the flags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/alloc.h"


int cli_settings_resolve(cli *c, const cli_flags *f, const char *start) {
  char *error = NULL;
  bool ok = true;
  if (f->config_path) ok = config_load(f->config_path, &c->cfg, &error);
  else if (!f->isolated) ok = config_discover(start, &c->cfg, &error);
  if (!ok) {
    fprintf(stderr, "oomlint: %s\n", error);
    free(error);
    return EXIT_USAGE;
  }
  config_apply(&c->cfg, &f->over, c->options);
  return EXIT_CLEAN;
}


static void print_list(const char *key, const config_strings *l) {
  printf("%s = [", key);
  for (size_t i = 0; i < l->len; i++) printf("%s\"%s\"", i ? ", " : "", l->items[i]);
  printf("]\n");
}


int cli_show_settings(const oom_linter *linter, const cli *c, const char *file) {
  const config *cfg = &c->cfg;
  printf("file = \"%s\"\n", file);
  printf("config = %s%s%s\n", cfg->path ? "\"" : "", cfg->path ? cfg->path : "(none)", cfg->path ? "\"" : "");
  printf("torch-version = %s\n", cfg->torch_version ? cfg->torch_version : "(not set)");
  uint64_t gpu = oom_options_gpu_memory(c->options), mbs = oom_options_max_batch_size(c->options);
  if (gpu) printf("gpu-memory = %llu\n", (unsigned long long)gpu);
  else printf("gpu-memory = (not set)\n");
  if (mbs) printf("max-batch-size = %llu\n", (unsigned long long)mbs);
  else printf("max-batch-size = (not set)\n");
  printf("rules-dir = %s\n", cfg->rules_dir ? cfg->rules_dir : "(not set)");
  /* the sizes the estimate takes, the flags' first */
  printf("assume = [");
  for (size_t i = 0; i < oom_options_assume_count(c->options); i++)
    printf("%s\"%s\"", i ? ", " : "", oom_options_assume(c->options, i));
  printf("]\n");
  print_list("exclude", &cfg->exclude);
  print_list("extend-exclude", &cfg->extend_exclude);
  if (cfg->has_include) print_list("include", &cfg->include);
  print_list("extend-include", &cfg->extend_include);
  /* the rules that run on FILE: selected, and not turned off for its path */
  config_strings ignored = {0};
  for (size_t i = 0; i < cfg->per_file_ignores.len; i++) {
    const config_file_ignore *fi = &cfg->per_file_ignores.items[i];
    config one = {0};
    one.dir = cfg->dir;
    vec_push(&one.exclude, fi->glob);
    if (config_excluded(&one, file)) {
      for (size_t k = 0; k < fi->codes.len; k++) vec_push(&ignored, fi->codes.items[k]);
    }
    vec_free(&one.exclude);
  }
  print_list("per-file-ignores", &ignored);
  printf("enabled = [");
  bool first = true;
  for (size_t r = 0; r < oom_linter_rule_count(linter); r++) {
    const oom_rule *rule = oom_linter_rule(linter, r);
    if (!oom_linter_rule_enabled(linter, rule)) continue;
    const char *code = oom_rule_code(rule);
    bool off = false;
    for (size_t k = 0; k < ignored.len && !off; k++)
      off = !strcmp(ignored.items[k], "ALL") || !strncmp(code, ignored.items[k], strlen(ignored.items[k]));
    if (off) continue;
    printf("%s\"%s\"", first ? "" : ", ", code);
    first = false;
  }
  printf("]\n");
  vec_free(&ignored);
  return EXIT_CLEAN;
}


void cli_flags_free(cli_flags *f) {
  config_overrides_free(&f->over);
}
