/* This file contains OOM601's advice (the cheapest changes that fit the budget, with their
 * savings) and the number formats of the estimate's tables. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "estimate/estimate.h"


const char *estimate_count(int64_t n, char *out, size_t size) {
  char digits[32];
  snprintf(digits, sizeof digits, "%" PRId64, n < 0 ? -n : n);
  size_t len = strlen(digits), k = 0;
  if (n < 0 && k + 1 < size) out[k++] = '-';
  for (size_t i = 0; i < len && k + 1 < size; i++) {
    out[k++] = digits[i];
    size_t left = len - i - 1;
    if (left && left % 3 == 0 && k + 1 < size) out[k++] = ',';
  }
  out[k] = '\0';
  return out;
}


const char *estimate_bytes(int64_t n, char *out, size_t size) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)n;
  int u = 0;
  while ((v >= 1024.0 || v <= -1024.0) && u < 5) {
    v /= 1024.0;
    u++;
  }
  if (u == 0) snprintf(out, size, "%" PRId64 " B", n);
  else snprintf(out, size, "%.2f %s", v, units[u]);
  return out;
}


typedef struct {
  int64_t w, g, o, in;
} parts;


static int64_t sum(parts p) {
  return p.w + p.g + p.o + p.in;
}


static parts as_bf16(const estimate_model *m, parts p) {
  /* weights, gradients and (torch) optimizer moments follow the weight dtype */
  if (m->weight_bits_total <= m->parameters * 16) return p;
  double f = (double)(m->parameters * 16) / (double)m->weight_bits_total;
  p.w = (int64_t)((double)p.w * f);
  p.g = (int64_t)((double)p.g * f);
  if (m->optimizer_state_bytes_per_param > 2 && strstr(m->optimizer ? m->optimizer : "", "bitsandbytes") == NULL)
    p.o = (int64_t)((double)p.o * f);
  return p;
}


static parts as_8bit(const estimate_model *m, parts p) {
  if (m->optimizer_state_bytes_per_param > 2) p.o = m->trainable * 2;
  return p;
}


static parts as_lora(parts p) {
  /* the base is frozen: no gradients, no state; the adapters (well under 1%
   * of the model) are left out */
  p.g = 0;
  p.o = 0;
  return p;
}


static void add(estimate_change *out, uint32_t *n, uint32_t max, const char *change, int64_t before, parts after,
                int64_t budget) {
  if (*n >= max || sum(after) > budget || sum(after) >= before) return;
  out[*n].change = change;
  out[*n].after = sum(after);
  out[*n].saving = before - sum(after);
  (*n)++;
}


uint32_t estimate_advice(const estimate_model *m, int64_t budget, estimate_change *out, uint32_t max, arena *a) {
  parts now = {m->weights_bytes, m->gradients_bytes, m->optimizer_bytes, m->input_bytes > 0 ? m->input_bytes : 0};
  int64_t before = sum(now);
  uint32_t n = 0;
  bool trains = m->gradients_bytes > 0;
  bool fp32 = m->weight_bits_total > m->parameters * 16;
  bool big_state = m->optimizer_state_bytes_per_param > 2;
  if (fp32) add(out, &n, max, "bf16 weights and optimizer state (`model.to(torch.bfloat16)`)", before, as_bf16(m, now), budget);
  if (big_state) add(out, &n, max, "8-bit optimizer state (`bitsandbytes.optim.AdamW8bit`)", before, as_8bit(m, now), budget);
  if (fp32 && big_state)
    add(out, &n, max, "bf16 weights and 8-bit optimizer state", before, as_8bit(m, as_bf16(m, now)), budget);
  if (trains) add(out, &n, max, "LoRA adapters on a frozen base (`peft.get_peft_model`)", before, as_lora(now), budget);
  if (trains && fp32) add(out, &n, max, "bf16 frozen base with LoRA adapters", before, as_lora(as_bf16(m, now)), budget);
  /* sharding splits weights, gradients and state; each GPU keeps its batch */
  parts best = fp32 ? as_8bit(m, as_bf16(m, now)) : as_8bit(m, now);
  for (int variant = 0; variant < 2 && n < max; variant++) {
    parts p = variant ? best : now;
    int64_t state = p.w + p.g + p.o, room = budget - p.in;
    if (room <= 0 || state <= 0 || (variant && sum(best) == sum(now))) continue;
    int64_t gpus = (state + room - 1) / room;
    if (gpus < 2) gpus = 2;
    if (gpus > 4096) continue;
    char text[128];
    snprintf(text, sizeof text, "%sFSDP / ZeRO-3 sharding across %" PRId64 " GPUs", variant ? "bf16, 8-bit state and " : "",
             gpus);
    parts shard = {p.w / gpus, p.g / gpus, p.o / gpus, p.in};
    add(out, &n, max, arena_strndup(a, text, strlen(text)), before, shard, budget);
  }
  return n;
}
