/* What PyTorch 2.x autograd keeps for the backward pass of one op: which of its inputs and
 * its output it saves, and the new tensors (masks, indices, statistics) it adds. The
 * rules follow tools/autograd/derivatives.yaml of PyTorch 2.x on a GPU; no state, so
 * unit tests check each rule by hand. Parameters are never counted (they are resident anyway). */
#ifndef OOM_ESTIMATE_SAVED_H
#define OOM_ESTIMATE_SAVED_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  OP_NONE,        /* views, reshapes, add, sub, cat, split, sum, mean: nothing kept */
  OP_LINEAR,      /* input when the weight needs a gradient; the weight (a parameter, or autocast's copy) when the input does */
  OP_CONV,        /* input */
  OP_BATCH_NORM,  /* input + save_mean + save_invstd (fp32, per channel) */
  OP_LAYER_NORM,  /* input + mean + rstd (fp32, per row) */
  OP_GROUP_NORM,  /* input + mean + rstd (fp32, per sample and group) */
  OP_RMS_NORM,    /* input + normalized product + rstd per row */
  OP_SAVE_OUTPUT, /* relu, tanh, sigmoid, softmax, log_softmax, exp, sqrt: the result */
  OP_SAVE_INPUT,  /* gelu, silu, leaky_relu, elu, mish, log, pow, avg_pool: the input */
  OP_DROPOUT,     /* a bool mask, one byte per element (native_dropout) */
  OP_MAX_POOL,    /* input + int64 indices of the output's size */
  OP_MUL,         /* each operand when the other one needs a gradient; a Python number (a wrapped CPU scalar) is not counted */
  OP_DIV,         /* divisor for the dividend's grad; both for the divisor's */
  OP_MATMUL,      /* each operand when the other one needs a gradient */
  OP_EMBEDDING,   /* the indices */
  OP_CROSS_ENTROPY, /* log_softmax's result in the input's dtype, under autocast + its fp32 copy for nll_loss; the target */
  OP_NLL_LOSS,    /* input + target */
  OP_PAIR_LOSS,   /* mse, l1, bce: input + target */
  OP_SDPA,        /* flash / memory-efficient / cuDNN: q, k, v, output + logsumexp fp32 per query row + philox seed, offset */
  OP_MASKED_FILL, /* the mask */
  OP_GATHER,      /* index_select / advanced indexing / max(dim): the int64 indices */
  OP_GATHER_DIM,  /* torch.gather: the int64 index and the input (gather_backward takes it) */
  OP_RNN          /* cuDNN RNN/LSTM/GRU: input, hx, cx, output + the reserve space of ROWS elements + 256 bytes */
} op_kind;

#define SAVED_MAX_IN 4

typedef struct {
  int nin;
  int64_t in_elems[SAVED_MAX_IN]; /* elements of each input */
  int in_bits[SAVED_MAX_IN];      /* bits per element */
  bool in_grad[SAVED_MAX_IN];     /* the input needs a gradient (parameters do) */
  bool in_param[SAVED_MAX_IN];    /* the input is a parameter: never counted */
  int64_t out_elems;
  int out_bits;
  int64_t rows;                   /* norms: rows normalized; sdpa: batch x heads x queries; batch norm: channels */
  double p;                       /* dropout probability */
  bool training;                  /* dropout and batch norm in train mode */
  int autocast_bits;              /* 16 inside an autocast region, else 0 */
} saved_in;

typedef struct {
  uint8_t inputs;      /* bit i: input i is kept */
  bool output;         /* the result is kept */
  int64_t extra_bytes; /* tensors the op makes only to keep them */
} saved_out;

/** The rule of op K applied to IN. */
void saved_rule(op_kind k, const saved_in *in, saved_out *out);

/** The bytes OUT keeps, each input and the output counted once, parameters
 *  not counted (what one op alone keeps; a run deduplicates shared storage);
 *  -1 when a size is not known or overflows. */
int64_t saved_bytes(const saved_in *in, const saved_out *out);

/** Bytes of N elements of BITS bits; -1 when N is negative or it overflows. */
int64_t saved_elems_bytes(int64_t n, int bits);

#endif
