/* This file contains the rules that need the memory estimate rather than a query: OOM601 (a model
 * over the GPU budget) and OOM301 (a literal batch size over the limits), and their options. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "estimate/estimate.h"
#include "util/lines.h"

#define MAX_ADVICE 3


void oom_options_set_gpu_memory(oom_options *self, uint64_t bytes) { self->gpu_memory = bytes; }
uint64_t oom_options_gpu_memory(const oom_options *self) { return self->gpu_memory; }
void oom_options_set_max_batch_size(oom_options *self, uint64_t size) { self->max_batch_size = size; }
uint64_t oom_options_max_batch_size(const oom_options *self) { return self->max_batch_size; }
void oom_options_add_assume(oom_options *self, const char *name_value) { vec_push(&self->assume, oom_xstrdup(name_value)); }
size_t oom_options_assume_count(const oom_options *self) { return self->assume.len; }
const char *oom_options_assume(const oom_options *self, size_t index) {
  return index < self->assume.len ? self->assume.items[index] : NULL;
}


bool oom_parse_bytes(const char *text, uint64_t *out) {
  const char *p = text;
  while (*p == ' ') p++;
  if (!isdigit((unsigned char)*p) && *p != '.') return false;
  char *end;
  double v = strtod(p, &end);
  if (end == p || !isfinite(v) || v < 0) return false;
  p = end;
  while (*p == ' ') p++;
  static const struct { const char *unit; double scale; } units[] = {
    {"", 1}, {"b", 1}, {"k", 1e3}, {"kb", 1e3}, {"ki", 1024.0}, {"kib", 1024.0},
    {"m", 1e6}, {"mb", 1e6}, {"mi", 1048576.0}, {"mib", 1048576.0},
    {"g", 1e9}, {"gb", 1e9}, {"gi", 1073741824.0}, {"gib", 1073741824.0},
    {"t", 1e12}, {"tb", 1e12}, {"ti", 1099511627776.0}, {"tib", 1099511627776.0}};
  char unit[8];
  size_t n = 0;
  while (n < sizeof unit - 1 && p[n]) {
    unit[n] = (char)tolower((unsigned char)p[n]);
    n++;
  }
  if (p[n]) return false;
  while (n && unit[n - 1] == ' ') n--;
  unit[n] = '\0';
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (!strcmp(unit, units[i].unit)) {
      double bytes = v * units[i].scale;
      if (bytes >= 9.2e18) return false;
      *out = (uint64_t)llround(bytes);
      return true;
    }
  return false;
}


static bool rule_on(const oom_linter *linter, const oom_rule *r) {
  return r && r->builtin && oom_linter_rule_enabled(linter, r);
}


/* the first line of a range: a diagnostic points at where a model is built */
static uint32_t first_line_end(const oom_document *doc, uint32_t start, uint32_t end) {
  uint32_t e = start;
  while (e < end && e < doc->length && !lines_breaks_at(doc->text, doc->length, e)) e++;
  return e > start ? e : end;
}


static oom_fix *display_fix(oom_document *doc, const char *title) {
  oom_fix *fix = arena_calloc(&doc->arena, sizeof *fix);
  fix->applicability = OOM_FIX_DISPLAY;
  fix->title = arena_strndup(&doc->arena, title, strlen(title));
  return fix;
}


static void report_model(const oom_linter *linter, oom_document *doc, const oom_rule *rule, const estimate_model *m,
                         arena *a) {
  int64_t budget = (int64_t)linter->gpu_memory;
  /* the whole step when forward() was followed (activations.c), else what is known */
  int64_t need = m->peak_bytes >= 0 ? m->peak_bytes : m->total_bytes;
  if (need <= budget || !m->built) return;
  char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], count[32];
  buf msg = {0};
  buf_printf(&msg, "`%s` (%s, %s parameters) needs about %s to train: weights %s (%s)", m->name, m->klass,
             estimate_count(m->parameters, count, sizeof count), estimate_bytes(need, b1, sizeof b1),
             estimate_bytes(m->weights_bytes, b2, sizeof b2), m->dtype);
  if (m->peak_bytes >= 0) {
    /* the whole step (step.c): its peak as backward starts, or at its end */
    if (m->optimizer) buf_printf(&msg, " + %s state %s", m->optimizer, estimate_bytes(m->optimizer_bytes, b4, sizeof b4));
    buf_printf(&msg, " + activations kept for backward %s at batch %" PRId64, estimate_bytes(m->activations_bytes, b7, sizeof b7),
               m->micro_batch);
    if (m->input_bytes > m->activations_input)
      buf_printf(&msg, " + input batch %s", estimate_bytes(m->input_bytes - m->activations_input, b5, sizeof b5));
    if (m->gradients_bytes)
      buf_printf(&msg, "; gradients (%s) %s", estimate_bytes(m->gradients_bytes, b3, sizeof b3),
                 m->grads_resident ? "stay resident too" : "come as activations are freed");
  } else {
    if (m->gradients_bytes) buf_printf(&msg, " + gradients %s", estimate_bytes(m->gradients_bytes, b3, sizeof b3));
    if (m->optimizer) buf_printf(&msg, " + %s state %s", m->optimizer, estimate_bytes(m->optimizer_bytes, b4, sizeof b4));
    if (m->input_bytes > 0) buf_printf(&msg, " + input batch %s", estimate_bytes(m->input_bytes, b5, sizeof b5));
  }
  buf_printf(&msg, ", over the %s budget%s", estimate_bytes(budget, b6, sizeof b6),
             m->peak_bytes >= 0 ? "" : "; activations come on top");
  if (m->nunknown) buf_puts(&msg, " (a lower bound: `oomlint estimate` lists what is not counted)");
  estimate_change changes[MAX_ADVICE];
  uint32_t n;
  if (m->peak_bytes >= 0) {
    /* the changes to weights and state, with the activations still on top */
    estimate_change all[MAX_ADVICE * 2];
    int64_t extra = m->peak_bytes - m->total_bytes;
    uint32_t k = estimate_advice(m, budget - extra, all, MAX_ADVICE * 2, a);
    n = 0;
    for (uint32_t i = 0; i < k && n < MAX_ADVICE; i++) {
      all[i].after += extra;
      if (all[i].after <= budget) changes[n++] = all[i];
    }
  } else {
    n = estimate_advice(m, budget, changes, MAX_ADVICE, a);
  }
  buf title = {0};
  int64_t fit = m->peak_bytes >= 0 ? estimate_max_batch(m, budget) : -1;
  if (n == 0 && fit > 0 && fit < m->micro_batch) {
    int64_t want = m->batch_size > 0 ? m->batch_size : m->micro_batch, steps = (want + fit - 1) / fit;
    buf_printf(&title, "The activations of the batch do not fit: a micro-batch of %" PRId64 " does; accumulate gradients over %"
               PRId64 " of them to keep the batch of %" PRId64 " (gradient checkpointing and bf16 autocast also cut "
               "activations)", fit, steps, want);
  } else if (n == 0) {
    buf_printf(&title, "No single change brings it under %s: shard it across GPUs (FSDP / ZeRO-3) with bf16 weights and "
                       "8-bit optimizer state, or train a smaller model", b6);
  } else {
    buf_puts(&title, "Changes that fit, cheapest first: ");
    for (uint32_t i = 0; i < n; i++) {
      char s[32], t[32];
      buf_printf(&title, "%s%s saves %s (%s total)", i ? "; " : "", changes[i].change,
                 estimate_bytes(changes[i].saving, s, sizeof s), estimate_bytes(changes[i].after, t, sizeof t));
    }
    buf_puts(&title, m->peak_bytes >= 0 ? "" : ". Gradient checkpointing cuts the activations, which this estimate leaves out");
  }
  if (n > 0 && fit > 0 && fit < m->micro_batch) {
    int64_t want = m->batch_size > 0 ? m->batch_size : m->micro_batch, steps = (want + fit - 1) / fit;
    buf_printf(&title, "%sa micro-batch of %" PRId64 " fits: accumulate %" PRId64 " of them for the batch of %" PRId64,
               title.len ? ". Or " : "", fit, steps, want);
  }
  uint32_t end = first_line_end(doc, m->start, m->end);
  oom_diagnostic *d = diagnostic_new(doc, rule, arena_strndup(&doc->arena, msg.data, msg.len), m->start, end);
  d->fix = display_fix(doc, buf_str(&title));
  buf_free(&msg);
  buf_free(&title);
}


static bool hf_batch(const estimate_batch *b) {
  return strstr(b->where, "per_device") != NULL;
}


/* bytes of one batch of SIZE samples */
static int64_t batch_bytes(const estimate_batch *b, int64_t size) {
  if (b->input_bytes < 0 || b->size <= 0) return -1;
  return b->input_bytes / b->size * size;
}


static void report_batch(const oom_linter *linter, oom_document *doc, const oom_rule *rule, const estimate_result *r,
                         const estimate_batch *b) {
  int64_t budget = (int64_t)linter->gpu_memory, max = (int64_t)linter->max_batch_size;
  int64_t state = b->model >= 0 ? r->models[b->model].total_bytes - (r->models[b->model].input_bytes > 0 ? r->models[b->model].input_bytes : 0) : 0;
  bool over_max = max > 0 && b->size > max;
  bool over_budget = budget > 0 && b->input_bytes >= 0 && state + b->input_bytes > budget && state < budget;
  /* with activations known, the whole step at this batch (step.c) */
  const estimate_model *m = b->model >= 0 ? &r->models[b->model] : NULL;
  int64_t step = m && budget > 0 ? estimate_step_at(m, b->size) : -1;
  int64_t fit = step >= 0 ? estimate_max_batch(m, budget) : -1;
  if (step >= 0) over_budget = step > budget && fit > 0;
  if (!over_max && !over_budget) return;
  char s1[32], s2[32], s3[32];
  buf msg = {0};
  buf_printf(&msg, "batch size %" PRId64 " (%s)", b->size, b->where);
  if (over_max) buf_printf(&msg, " is above max-batch-size %" PRId64, max);
  if (step >= 0 && over_budget) {
    buf_printf(&msg, "%s the whole training step at this batch (weights, gradients, optimizer state, activations and "
                     "input) takes %s, over the %s budget; the largest batch that fits is %" PRId64,
               over_max ? ";" : ":", estimate_bytes(step, s1, sizeof s1), estimate_bytes(budget, s3, sizeof s3), fit);
  } else if (b->input_bytes >= 0) {
    buf_printf(&msg, "%s one input batch takes %s", over_max ? ";" : ":", estimate_bytes(b->input_bytes, s1, sizeof s1));
    if (over_budget && b->model >= 0)
      buf_printf(&msg, ", which with the model's %s of weights, gradients and optimizer state is over the %s budget",
                 estimate_bytes(state, s2, sizeof s2), estimate_bytes(budget, s3, sizeof s3));
    else if (over_budget)
      buf_printf(&msg, ", over the %s budget", estimate_bytes(budget, s3, sizeof s3));
  }
  /* the smallest split that fits both limits */
  int64_t k = 2;
  for (; k < b->size; k *= 2) {
    int64_t per = b->size / k;
    bool fits_max = max <= 0 || per <= max;
    int64_t bytes = batch_bytes(b, per);
    bool fits_budget = !over_budget || (fit > 0 ? per <= fit : bytes >= 0 && state + bytes <= budget);
    if (fits_max && fits_budget) break;
  }
  if (k > b->size) k = b->size;
  int64_t per = b->size / k;
  buf title = {0};
  if (hf_batch(b))
    buf_printf(&title, "Set per_device_train_batch_size=%" PRId64 " and gradient_accumulation_steps=%" PRId64
                       " (effective batch %" PRId64 ")", per, k, per * k);
  else
    buf_printf(&title, "Use batches of %" PRId64 " and accumulate gradients over %" PRId64 " of them (effective batch %" PRId64
                       "): divide the loss by %" PRId64 " and call optimizer.step() and zero_grad() when "
                       "(step + 1) %% %" PRId64 " == 0",
               per, k, per * k, k, k);
  oom_diagnostic *d = diagnostic_new(doc, rule, arena_strndup(&doc->arena, msg.data, msg.len), b->start, b->end);
  d->fix = display_fix(doc, buf_str(&title));
  buf_free(&msg);
  buf_free(&title);
}


void budget_report(const oom_linter *linter, oom_document *doc, const facts *model) {
  const oom_rule *r601 = oom_linter_find_rule(linter, "OOM601");
  const oom_rule *r301 = oom_linter_find_rule(linter, "OOM301");
  bool models = rule_on(linter, r601) && linter->gpu_memory;
  bool batches = rule_on(linter, r301) && (linter->gpu_memory || linter->max_batch_size);
  if (!models && !batches) return;
  estimate_result r;
  estimate_input in = {0};
  in.assume = (const char *const *)linter->assume.items;
  in.nassume = (int)linter->assume.len;
  estimate_run_with(model, &in, &r);
  for (uint32_t i = 0; models && i < r.nmodels; i++)
    if (r.models[i].end > r.models[i].start) report_model(linter, doc, r601, &r.models[i], &r.arena);
  for (uint32_t i = 0; batches && i < r.nbatches; i++) {
    const estimate_batch *b = &r.batches[i];
    if (!b->literal) continue;
    bool dup = false;
    for (uint32_t k = 0; k < i; k++)
      if (r.batches[k].literal && r.batches[k].start == b->start) dup = true;
    if (dup) continue;
    /* one literal may feed a loader and a model call: take what knows most */
    for (uint32_t k = i + 1; k < r.nbatches; k++) {
      const estimate_batch *o = &r.batches[k];
      if (!o->literal || o->start != b->start) continue;
      if ((o->input_bytes >= 0) > (b->input_bytes >= 0) ||
          ((o->input_bytes >= 0) == (b->input_bytes >= 0) && o->model >= 0 && b->model < 0))
        b = o;
    }
    report_batch(linter, doc, r301, &r, b);
  }
  estimate_free(&r);
}
