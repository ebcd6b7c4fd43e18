/* This file contains how a configuration becomes linter options, under the
 * settings that beat it: the command line's flags, and in the language
 * server an editor's settings above those. */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "util/alloc.h"


static void add_all(oom_options *o, const config_strings *l, void (*add)(oom_options *, const char *)) {
  for (size_t i = 0; i < l->len; i++) add(o, l->items[i]);
}


void config_apply(const config *self, const config_overrides *over, oom_options *o) {
  /* a given select replaces the file's selection and its ignores, which
   * were written against that selection; the other lists add up */
  if (over->select.len) {
    add_all(o, &over->select, oom_options_select);
  } else {
    if (self->has_select) add_all(o, &self->select, oom_options_select);
    add_all(o, &self->ignore, oom_options_ignore);
  }
  add_all(o, &self->extend_select, oom_options_extend_select);
  add_all(o, &over->extend_select, oom_options_extend_select);
  add_all(o, &over->ignore, oom_options_ignore);
  /* deprecation rules only speak about APIs the target torch has replaced */
  if (self->torch_version && config_version_older(self->torch_version, 2, 4)) {
    oom_options_ignore(o, "OOM402");
    oom_options_ignore(o, "OOM603");
    oom_options_ignore(o, "OOM604");
  }
  if (self->rules_dir) oom_options_add_rules_dir(o, self->rules_dir);
  add_all(o, &over->rules_dirs, oom_options_add_rules_dir);
  if (over->has_gpu_memory) oom_options_set_gpu_memory(o, over->gpu_memory);
  else if (self->has_gpu_memory) oom_options_set_gpu_memory(o, self->gpu_memory);
  if (over->has_max_batch_size) oom_options_set_max_batch_size(o, over->max_batch_size);
  else if (self->has_max_batch_size) oom_options_set_max_batch_size(o, self->max_batch_size);
  /* the first assumption of a name wins: the flags' before the file's */
  add_all(o, &over->assume, oom_options_add_assume);
  add_all(o, &self->assume, oom_options_add_assume);
}


static void copy_all(config_strings *out, const config_strings *l) {
  for (size_t i = 0; i < l->len; i++) vec_push(out, oom_xstrdup(l->items[i]));
}


void config_overrides_merge(const config_overrides *base, const config_overrides *top, config_overrides *out) {
  memset(out, 0, sizeof *out);
  /* the same precedence as config_apply's: TOP's select takes BASE's
   * selection and ignores away */
  if (top->select.len) {
    copy_all(&out->select, &top->select);
  } else {
    copy_all(&out->select, &base->select);
    copy_all(&out->ignore, &base->ignore);
  }
  copy_all(&out->ignore, &top->ignore);
  copy_all(&out->extend_select, &base->extend_select);
  copy_all(&out->extend_select, &top->extend_select);
  copy_all(&out->rules_dirs, &base->rules_dirs);
  copy_all(&out->rules_dirs, &top->rules_dirs);
  copy_all(&out->assume, &top->assume);
  copy_all(&out->assume, &base->assume);
  const config_overrides *gpu = top->has_gpu_memory ? top : base;
  out->has_gpu_memory = gpu->has_gpu_memory;
  out->gpu_memory = gpu->gpu_memory;
  const config_overrides *mbs = top->has_max_batch_size ? top : base;
  out->has_max_batch_size = mbs->has_max_batch_size;
  out->max_batch_size = mbs->max_batch_size;
}


void config_overrides_free(config_overrides *self) {
  config_strings *lists[] = {&self->select, &self->ignore, &self->extend_select, &self->rules_dirs, &self->assume};
  for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
    for (size_t i = 0; i < lists[k]->len; i++) free(lists[k]->items[i]);
    vec_free(lists[k]);
  }
  memset(self, 0, sizeof *self);
}


static bool same_list(const config_strings *a, const config_strings *b) {
  if (a->len != b->len) return false;
  for (size_t i = 0; i < a->len; i++)
    if (strcmp(a->items[i], b->items[i])) return false;
  return true;
}


bool config_overrides_equal(const config_overrides *a, const config_overrides *b) {
  return same_list(&a->select, &b->select) && same_list(&a->ignore, &b->ignore) &&
         same_list(&a->extend_select, &b->extend_select) && same_list(&a->rules_dirs, &b->rules_dirs) &&
         same_list(&a->assume, &b->assume) &&
         a->has_gpu_memory == b->has_gpu_memory && (!a->has_gpu_memory || a->gpu_memory == b->gpu_memory) &&
         a->has_max_batch_size == b->has_max_batch_size &&
         (!a->has_max_batch_size || a->max_batch_size == b->max_batch_size);
}
