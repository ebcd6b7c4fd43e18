/* This file contains the per-op rules of what autograd keeps for backward (PyTorch 2.x on a GPU):
 * the formulas of derivatives.yaml, reduced to which tensors each backward reads. */
#include "estimate/saved.h"

#include <assert.h>
#include <string.h>


int64_t saved_elems_bytes(int64_t n, int bits) {
  int64_t b;
  if (n < 0 || __builtin_mul_overflow(n, (int64_t)(bits > 0 ? bits : 32), &b) || b > INT64_MAX - 7) return -1;
  return (b + 7) / 8;
}


static void keep(const saved_in *in, saved_out *out, int i) {
  if (i < in->nin) out->inputs |= (uint8_t)(1u << i);
}


void saved_rule(op_kind k, const saved_in *in, saved_out *out) {
  assert(in->nin >= 0 && in->nin <= SAVED_MAX_IN);
  memset(out, 0, sizeof *out);
  switch (k) {
  case OP_NONE: break;
  case OP_LINEAR:
    /* weight.grad needs the input; input.grad needs the weight (a parameter,
     * not counted, unless autocast made a 16-bit copy of it). addmm/mm keep each
     * only when the other needs a gradient (autograd's codegen saves a tensor
     * used by one formula only when that output is computed): a frozen weight
     * (requires_grad=False) keeps no input */
    if (in->nin < 2 || in->in_grad[1]) keep(in, out, 0);
    if (in->nin > 1 && in->in_grad[0]) keep(in, out, 1);
    break;
  case OP_CONV:
    /* convolution_backward reads both whatever needs a gradient */
    keep(in, out, 0);
    keep(in, out, 1);
    break;
  case OP_BATCH_NORM:
    /* cudnn_batch_norm keeps input, weight, running stats and save_mean /
     * save_var (fp32, one per channel); in eval mode only the input */
    keep(in, out, 0);
    if (in->training) out->extra_bytes = 2 * saved_elems_bytes(in->rows, 32);
    break;
  case OP_LAYER_NORM:
  case OP_GROUP_NORM:
    /* native_layer_norm / native_group_norm: input, mean and rstd in fp32 */
    keep(in, out, 0);
    out->extra_bytes = 2 * saved_elems_bytes(in->rows, 32);
    break;
  case OP_RMS_NORM:
    /* the composite x * rsqrt(mean(x^2) + eps) * weight keeps x (pow), the
     * rsqrt per row, and x * rsqrt for weight's gradient */
    keep(in, out, 0);
    out->extra_bytes = saved_elems_bytes(in->rows, 32) + saved_elems_bytes(in->out_elems, in->out_bits);
    break;
  case OP_SAVE_OUTPUT: out->output = true; break;
  case OP_SAVE_INPUT: keep(in, out, 0); break;
  case OP_DROPOUT:
    /* native_dropout keeps a bool mask; p == 0 and eval mode are identity */
    if (in->training && in->p > 0) out->extra_bytes = saved_elems_bytes(in->out_elems, 8);
    break;
  case OP_MAX_POOL:
    keep(in, out, 0);
    out->extra_bytes = saved_elems_bytes(in->out_elems, 64);
    break;
  case OP_MUL:
  case OP_MATMUL:
    if (in->nin > 1 && in->in_grad[1]) keep(in, out, 0);
    if (in->nin > 1 && in->in_grad[0]) keep(in, out, 1);
    break;
  case OP_DIV:
    if (in->nin > 1 && in->in_grad[0]) keep(in, out, 1);
    if (in->nin > 1 && in->in_grad[1]) {
      keep(in, out, 0);
      keep(in, out, 1);
    }
    break;
  case OP_EMBEDDING:
  case OP_GATHER: keep(in, out, 0); break; /* the indices come first */
  case OP_GATHER_DIM:
    /* gather's formula, gather_backward(grad, self, dim, index, sparse_grad), is
     * given self itself, so autograd keeps it beside the index */
    keep(in, out, 0);
    keep(in, out, 1);
    break;
  case OP_MASKED_FILL: keep(in, out, 1); break;
  case OP_CROSS_ENTROPY:
    /* log_softmax keeps its result in the input's dtype and nll_loss the same
     * tensor, the target and total_weight (an fp32 scalar); under autocast
     * nll_loss runs in fp32 on a copy of a 16-bit result, and keeps the copy */
    out->extra_bytes = saved_elems_bytes(in->in_elems[0], in->in_bits[0]) + 4;
    if (in->autocast_bits && in->in_bits[0] != 32) out->extra_bytes += saved_elems_bytes(in->in_elems[0], 32);
    keep(in, out, 1);
    break;
  case OP_NLL_LOSS:
    keep(in, out, 0);
    keep(in, out, 1);
    out->extra_bytes = 4;
    break;
  case OP_PAIR_LOSS:
    keep(in, out, 0);
    keep(in, out, 1);
    break;
  case OP_RNN:
    /* _cudnn_rnn keeps input, hx, cx (the weights are parameters), its output
     * and the reserve space: the caller's rows = directions x T x B x hidden x
     * (g x layers - 1) elements, g = 6 LSTM, 7 GRU, 2 RNN, plus 256 bytes
     * (measured with PyTorch 2.11 on an H200 over 11 shapes) */
    keep(in, out, 0);
    keep(in, out, 1);
    keep(in, out, 2);
    out->output = true;
    out->extra_bytes = saved_elems_bytes(in->rows, in->out_bits) + 256;
    break;
  case OP_SDPA:
    /* _scaled_dot_product_flash/efficient_attention keep query, key, value,
     * the output and the logsumexp (fp32, one per query row) */
    keep(in, out, 0);
    keep(in, out, 1);
    keep(in, out, 2);
    out->output = true;
    out->extra_bytes = saved_elems_bytes(in->rows, 32) + 16; /* + the philox seed and offset, int64 each */
    break;
  }
}


int64_t saved_bytes(const saved_in *in, const saved_out *out) {
  int64_t total = out->extra_bytes;
  if (total < 0) return -1;
  for (int i = 0; i < in->nin; i++) {
    if (!(out->inputs >> i & 1) || in->in_param[i]) continue;
    int64_t b = saved_elems_bytes(in->in_elems[i], in->in_bits[i]);
    if (b < 0 || __builtin_add_overflow(total, b, &total)) return -1;
  }
  if (out->output) {
    int64_t b = saved_elems_bytes(in->out_elems, in->out_bits);
    if (b < 0 || __builtin_add_overflow(total, b, &total)) return -1;
  }
  return total;
}
