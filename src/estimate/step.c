/* This file contains the whole training step of a model: weights, gradients and optimizer state
 * (per GPU when sharded), activations kept for backward, the input batch, and the batch that fits. */
#include <assert.h>

#include "estimate/estimate.h"


/* per GPU: divided by the world size when sharded */
static int64_t shard(const estimate_model *m, int64_t bytes) {
  int64_t ws = m->world_size > 1 ? m->world_size : 1;
  return (bytes + ws - 1) / ws;
}


/* bytes that do not depend on the batch, at backward's start */
static int64_t fixed_bytes(const estimate_model *m) {
  return shard(m, m->weights_bytes) + shard(m, m->optimizer_bytes) + (m->grads_resident ? shard(m, m->gradients_bytes) : 0);
}


/* bytes that grow with the batch: activations, the input not among them, the
 * recomputed segment, the loss's input gradient */
static int64_t batch_bytes(const estimate_model *m) {
  assert(m->activations_bytes >= 0);
  int64_t input = m->input_bytes > 0 ? m->input_bytes - m->activations_input : 0;
  return m->activations_bytes + (input > 0 ? input : 0) + m->recompute_bytes + m->transient_bytes;
}


/* backward's end: the activations are freed, every gradient is made */
static int64_t end_bytes(const estimate_model *m) {
  int64_t input = m->input_bytes > 0 ? m->input_bytes : 0;
  return shard(m, m->weights_bytes) + shard(m, m->optimizer_bytes) + shard(m, m->gradients_bytes) + input;
}


void estimate_step(estimate_model *m) {
  if (m->accumulation < 1) m->accumulation = 1;
  m->batch_size = m->micro_batch > 0 ? m->micro_batch * m->accumulation : -1;
  if (m->activations_bytes < 0) {
    m->peak_bytes = -1;
    return;
  }
  int64_t start = fixed_bytes(m) + batch_bytes(m), end = end_bytes(m);
  m->peak_bytes = start > end ? start : end;
}


int64_t estimate_step_at(const estimate_model *m, int64_t batch) {
  if (m->activations_bytes < 0 || m->micro_batch <= 0 || batch < 0) return -1;
  int64_t start = fixed_bytes(m) + (int64_t)((double)batch_bytes(m) * (double)batch / (double)m->micro_batch);
  int64_t end = end_bytes(m);
  return start > end ? start : end;
}


int64_t estimate_max_batch(const estimate_model *m, int64_t budget) {
  if (m->activations_bytes < 0 || m->micro_batch <= 0) return -1;
  int64_t per = batch_bytes(m);
  int64_t left = budget - fixed_bytes(m);
  if (left <= 0 || end_bytes(m) > budget) return 0;
  if (per <= 0) return -1;
  /* per-sample bytes, rounded so that the batch named does fit */
  int64_t b = (int64_t)((double)left * (double)m->micro_batch / (double)per);
  while (b > 0 && (double)per * (double)b / (double)m->micro_batch > (double)left) b--;
  return b;
}
