/* This file contains the editor's settings (select, ignore, extendSelect,
 * rulesDir, gpuMemory), read from initializationOptions or
 * didChangeConfiguration into the overrides that beat configuration files. */
#include <stdlib.h>
#include <string.h>

#include "estimate/estimate.h"
#include "lsp/settings.h"
#include "util/alloc.h"
#include "util/buf.h"


/* The value of the first of NAMES that SETTINGS has. */
static const json_t *get(const json_t *settings, const char *const *names) {
  for (; *names; names++) {
    const json_t *v = json_object_get(settings, *names);
    if (v) return v;
  }
  return NULL;
}


/* Each string of VALUE ("OOM1,OOM5" or ["OOM1", "OOM5"]) into OUT;
 * malformed selectors go into PROBLEMS instead. */
static void each(const json_t *value, config_strings *out, bool selectors, buf *problems) {
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
      vec_push(out, oom_xstrdup(tok));
    }
    free(copy);
  }
  json_decref(wrapped);
}


void lsp_settings_parse(const json_t *settings, const char *root, config_overrides *out, buf *problems) {
  memset(out, 0, sizeof *out);
  if (json_is_object(json_object_get(settings, "oomlint"))) settings = json_object_get(settings, "oomlint");
  if (!json_is_object(settings)) return;
  static const char *const SELECT[] = {"select", NULL};
  static const char *const IGNORE[] = {"ignore", NULL};
  static const char *const EXTEND[] = {"extendSelect", "extend-select", "extend_select", NULL};
  static const char *const RULES_DIR[] = {"rulesDir", "rules-dir", "rules_dir", NULL};
  static const char *const GPU_MEMORY[] = {"gpuMemory", "gpu-memory", "gpu_memory", NULL};
  static const char *const ASSUME[] = {"assume", NULL};
  config_strings assume = {0};
  each(get(settings, ASSUME), &assume, false, problems);
  for (size_t i = 0; i < assume.len; i++) {
    /* sizes only the data knows, for OOM601's estimate: "vocab_size=33278" */
    if (estimate_assume_valid(assume.items[i])) {
      vec_push(&out->assume, assume.items[i]);
      continue;
    }
    buf_printf(problems, "%sassume entries must be \"NAME=INTEGER\", not \"%s\"", problems->len ? "; " : "",
               assume.items[i]);
    free(assume.items[i]);
  }
  vec_free(&assume);
  each(get(settings, SELECT), &out->select, true, problems);
  each(get(settings, IGNORE), &out->ignore, true, problems);
  each(get(settings, EXTEND), &out->extend_select, true, problems);
  config_strings dirs = {0};
  each(get(settings, RULES_DIR), &dirs, false, problems);
  for (size_t i = 0; i < dirs.len; i++) {
    /* relative to the workspace, not to wherever the editor started us */
    if (dirs.items[i][0] != '/' && root) {
      buf b = {0};
      buf_printf(&b, "%s/%s", root, dirs.items[i]);
      vec_push(&out->rules_dirs, oom_xstrdup(buf_str(&b)));
      buf_free(&b);
      free(dirs.items[i]);
    } else {
      vec_push(&out->rules_dirs, dirs.items[i]);
    }
  }
  vec_free(&dirs);
  const json_t *gpu = get(settings, GPU_MEMORY);
  out->has_gpu_memory = json_is_string(gpu) && oom_parse_bytes(json_string_value(gpu), &out->gpu_memory);
  /* "" is what an editor sends for a setting left empty */
  bool empty = json_is_string(gpu) && !*json_string_value(gpu);
  if (gpu && !json_is_null(gpu) && !out->has_gpu_memory && !empty)
    buf_printf(problems, "%sgpuMemory must be a size such as \"24GiB\"", problems->len ? "; " : "");
}
