/* This file contains the server's settings (select, ignore, extendSelect,
 * rulesDir, gpuMemory), read from initializationOptions or
 * didChangeConfiguration. */
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"
#include "util/alloc.h"
#include "util/buf.h"

typedef void (*add_fn)(oom_options *, const char *);


/* The value of the first of NAMES that SETTINGS has. */
static const json_t *get(const json_t *settings, const char *const *names) {
  for (; *names; names++) {
    const json_t *v = json_object_get(settings, *names);
    if (v) return v;
  }
  return NULL;
}


/* Call FN with each string of VALUE: "OOM1,OOM5" or ["OOM1", "OOM5"].
 * Returns how many were given; malformed selectors go into PROBLEMS. */
static int each(const json_t *value, oom_options *options, add_fn fn, bool selectors, buf *problems) {
  int count = 0;
  const json_t *items = value;
  json_t *wrapped = NULL;
  if (json_is_string(value)) items = wrapped = json_pack("[O]", value);
  size_t i;
  json_t *v;
  json_array_foreach(items, i, v) {
    if (!json_is_string(v)) continue;
    char *copy = oom_xstrdup(json_string_value(v));
    const char *seps = selectors ? ", " : "";
    for (char *save = NULL, *tok = selectors ? strtok_r(copy, seps, &save) : copy; tok && *tok;
         tok = selectors ? strtok_r(NULL, seps, &save) : NULL) {
      if (selectors && !oom_selector_is_valid(tok)) {
        buf_printf(problems, "%sinvalid rule selector `%s` (ALL, or OOM and up to three digits)",
                   problems->len ? "; " : "", tok);
        continue;
      }
      if (options) fn(options, tok);
      count++;
    }
    free(copy);
  }
  json_decref(wrapped);
  return count;
}


static void add_dir_relative(lsp_server *self, oom_options *options, const json_t *value) {
  size_t i;
  json_t *v;
  json_t *wrapped = json_is_string(value) ? json_pack("[O]", value) : NULL;
  json_array_foreach(wrapped ? wrapped : value, i, v) {
    const char *dir = json_string_value(v);
    if (!dir || !*dir) continue;
    /* relative to the workspace, not to wherever the editor started us */
    if (dir[0] != '/' && self->root) {
      buf b = {0};
      buf_printf(&b, "%s/%s", self->root, dir);
      oom_options_add_rules_dir(options, buf_str(&b));
      buf_free(&b);
    } else {
      oom_options_add_rules_dir(options, dir);
    }
  }
  json_decref(wrapped);
}


const oom_linter *lsp_settings_linter(lsp_server *self, const json_t *settings) {
  if (json_is_object(json_object_get(settings, "oomlint"))) settings = json_object_get(settings, "oomlint");
  if (!json_is_object(settings)) return self->base;
  static const char *const SELECT[] = {"select", NULL};
  static const char *const IGNORE[] = {"ignore", NULL};
  static const char *const EXTEND[] = {"extendSelect", "extend-select", "extend_select", NULL};
  static const char *const RULES_DIR[] = {"rulesDir", "rules-dir", "rules_dir", NULL};
  const json_t *select = get(settings, SELECT), *ignore = get(settings, IGNORE);
  static const char *const GPU_MEMORY[] = {"gpuMemory", "gpu-memory", "gpu_memory", NULL};
  const json_t *extend = get(settings, EXTEND), *dirs = get(settings, RULES_DIR);
  const json_t *gpu = get(settings, GPU_MEMORY);
  uint64_t gpu_bytes = 0;
  bool gpu_given = json_is_string(gpu) && oom_parse_bytes(json_string_value(gpu), &gpu_bytes);
  buf problems = {0};
  if (gpu && !json_is_null(gpu) && !gpu_given) buf_puts(&problems, "gpuMemory must be a size such as \"24GiB\"; ");
  /* empty settings (what an editor sends by default) keep the command line's */
  int given = each(select, NULL, NULL, true, &problems) + each(ignore, NULL, NULL, true, &problems) +
              each(extend, NULL, NULL, true, &problems) + each(dirs, NULL, NULL, false, &problems) + gpu_given;
  if (!given) {
    if (problems.len) lsp_show_message(self, 2, buf_str(&problems));
    buf_free(&problems);
    return self->base;
  }
  buf_clear(&problems);
  oom_options *options = oom_options_new();
  if (gpu_given) oom_options_set_gpu_memory(options, gpu_bytes);
  each(select, options, oom_options_select, true, &problems);
  each(extend, options, oom_options_extend_select, true, &problems);
  each(ignore, options, oom_options_ignore, true, &problems);
  add_dir_relative(self, options, dirs);
  if (problems.len) {
    buf msg = {0};
    buf_printf(&msg, "oomlint settings: %s", buf_str(&problems));
    lsp_show_message(self, 2, buf_str(&msg));
    buf_free(&msg);
  }
  buf_free(&problems);
  char *error = NULL;
  oom_linter *linter = oom_linter_new(options, &error);
  oom_options_free(options);
  if (!linter) {
    buf msg = {0};
    buf_printf(&msg, "oomlint settings not applied: %s", error ? error : "the rules could not be built");
    lsp_show_message(self, 1, buf_str(&msg));
    buf_free(&msg);
    free(error);
    return NULL;
  }
  return linter;
}
