/* This file contains the activations table and the whole-step lines of `oomlint estimate`:
 * what autograd keeps per layer, the step's peak, and the largest batch that fits a budget. */
#include "cli/estimate_step.h"

#include <inttypes.h>
#include <string.h>


void estimate_print_activations(FILE *out, const char *file, const estimate_model *m) {
  char b1[32], b2[32];
  if (m->activations_bytes < 0) {
    if (m->activations_partial > 0)
      fprintf(out, "  activations     >= %12s  not all known: %s\n",
              estimate_bytes(m->activations_partial, b1, sizeof b1), m->act_why ? m->act_why : "?");
    else
      fprintf(out, "  activations       %12s  not known: %s\n", "?", m->act_why ? m->act_why : "?");
  } else {
    fprintf(out, "  activations       %12s  kept for backward by one forward and loss",
            estimate_bytes(m->activations_bytes, b1, sizeof b1));
    if (m->micro_batch > 0) fprintf(out, " at batch %" PRId64, m->micro_batch);
    fprintf(out, "%s%s\n", m->act_bits ? ", autocast to 16-bit" : "", m->checkpointed ? ", checkpointed" : "");
  }
  int width = 20;
  for (uint32_t i = 0; i < m->nacts; i++) {
    int w = (int)strlen(m->acts[i].layer);
    if (w > width) width = w;
  }
  if (width > 48) width = 48;
  for (uint32_t i = 0; i < m->nacts; i++) {
    const estimate_act *a = &m->acts[i];
    char where[64], rep[24];
    snprintf(where, sizeof where, "%s:%u", file, a->line);
    snprintf(rep, sizeof rep, "x%" PRId64, a->repeat);
    fprintf(out, "    %-22s %-*.*s %6s  %12s  %s\n", where, width, width, a->layer, rep,
            estimate_bytes(a->bytes, b2, sizeof b2), a->what);
  }
  if (m->recompute_bytes > 0)
    fprintf(out, "    (+ %s rebuilt for the largest checkpointed segment during backward)\n",
            estimate_bytes(m->recompute_bytes, b1, sizeof b1));
}


void estimate_print_step(FILE *out, const estimate_model *m, int64_t budget) {
  char b1[32], b2[32];
  if (m->peak_bytes < 0) {
    fprintf(out, "  whole step        %12s  activations not known\n", "?");
    return;
  }
  fprintf(out, "  whole step        %12s  as backward starts: weights + optimizer state + activations + input + the loss's "
          "gradient%s", estimate_bytes(m->peak_bytes, b1, sizeof b1),
          m->grads_resident ? " + gradients (zero_grad(set_to_none=False))" : " (gradients come as activations go)");
  if (m->world_size > 1) fprintf(out, ", per GPU of %" PRId64, m->world_size);
  fputc('\n', out);
  if (budget <= 0) return;
  int64_t fit = estimate_max_batch(m, budget);
  if (fit < 0) return;
  if (fit == 0) {
    fprintf(out, "  batch that fits   %12s  none: weights, gradients and optimizer state alone exceed %s\n", "-",
            estimate_bytes(budget, b2, sizeof b2));
    return;
  }
  int64_t want = m->batch_size > 0 ? m->batch_size : m->micro_batch;
  fprintf(out, "  batch that fits   %12" PRId64 "  the largest micro-batch in %s", fit,
          estimate_bytes(budget, b2, sizeof b2));
  if (want > fit) {
    int64_t steps = (want + fit - 1) / fit;
    int64_t micro = (want + steps - 1) / steps;
    fprintf(out, "; batch %" PRId64 " as %" PRId64 " accumulation steps of %" PRId64, want, steps, micro);
  }
  fputc('\n', out);
}


static json_t *jstr(const char *s) {
  json_t *j = json_string(s); /* NULL when S is not UTF-8 */
  return j ? j : json_string("?");
}


void estimate_step_json(json_t *o, const estimate_model *m, int64_t budget) {
  json_object_set_new(o, "activations_bytes",
                      m->activations_bytes >= 0 ? json_integer(m->activations_bytes) : json_null());
  json_t *rows = json_array();
  for (uint32_t i = 0; i < m->nacts; i++) {
    const estimate_act *a = &m->acts[i];
    json_t *r = json_object();
    json_object_set_new(r, "line", json_integer(a->line));
    json_object_set_new(r, "layer", jstr(a->layer));
    json_object_set_new(r, "keeps", jstr(a->what));
    json_object_set_new(r, "repeat", json_integer(a->repeat));
    json_object_set_new(r, "bytes", json_integer(a->bytes));
    json_array_append_new(rows, r);
  }
  json_object_set_new(o, "activations", rows);
  json_object_set_new(o, "activations_unknown", m->act_why ? jstr(m->act_why) : json_null());
  json_object_set_new(o, "autocast_bits", m->act_bits ? json_integer(m->act_bits) : json_null());
  json_object_set_new(o, "batch_size", m->batch_size > 0 ? json_integer(m->batch_size) : json_null());
  json_object_set_new(o, "micro_batch", m->micro_batch > 0 ? json_integer(m->micro_batch) : json_null());
  json_object_set_new(o, "accumulation_steps", json_integer(m->accumulation > 0 ? m->accumulation : 1));
  json_object_set_new(o, "peak_bytes", m->peak_bytes >= 0 ? json_integer(m->peak_bytes) : json_null());
  int64_t fit = budget > 0 ? estimate_max_batch(m, budget) : -1;
  json_object_set_new(o, "max_batch", fit >= 0 ? json_integer(fit) : json_null());
}
