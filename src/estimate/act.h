/* The activations estimate's shared state and helpers, internal to activations.c (passes, entry
 * points), act_state.c (storages and what each op keeps), act_ops.c (layers and functional ops)
 * and act_tensor.c (torch.* calls, tensor methods, arithmetic, subscripts). */
#ifndef OOM_ESTIMATE_ACT_H
#define OOM_ESTIMATE_ACT_H

#include <string.h>

#include "estimate/activations.h"
#include "estimate/saved.h"
#include "util/buf.h"

#define ACT_MAX_FRAMES 64
#include "parse/node.h"

/* what a tensor value is: its storage, whether it needs a gradient, whether it is laid out contiguously */
typedef struct {
  uint32_t storage;
  bool grad;
  bool contig;
  bool bshd;  /* (B, H, S, D) laid out as (B, S, H, D): attention kernels' outputs */
} tinfo;

typedef struct {
  int64_t bytes;
  int32_t born;  /* the pass that made it, -1 outside any */
  int32_t kept;  /* the pass that keeps it, -1 none */
  bool input;    /* an input batch (counted in the input's line too) */
  bool resident; /* a buffer: resident with the model, never counted */
} storage_t;

typedef struct {
  int32_t pass;
  uint32_t line;
  const char *label;
  const char *what;  /* the tensors the first call keeps */
  int64_t bytes;
  int64_t times;
} row_t;

typedef struct {
  obj *root;
  int64_t total;
  int64_t micro;     /* the leading dimension of the first input, -1 */
  int64_t input_saved; /* bytes of input batches among the kept */
  int64_t recompute; /* the largest checkpointed segment, recomputed in backward */
  int64_t transient; /* the loss's input gradient, made as backward starts */
  const char *why;   /* the first thing that could not be followed */
  int bits;          /* autocast bits when the pass ran, 0 none */
  bool checkpointed;
  bool no_grad;
  bool sealed;       /* a later loop iteration reuses it: its loss is counted already */
  TSNode site;       /* the call that ran it */
  shape in;          /* its first input's shape */
  value *out;        /* its output: a loop's next call with the same input reuses it */
} pass_t;

typedef struct {
  obj *root;
  const char *why;
} root_why;

typedef struct {
  const param *p;
  int32_t pass;
  int bits;
  value *copy;
} param_cast;

struct act_state {
  const shape **keys;  /* shape -> infos, open addressing */
  uint32_t *idx;
  uint32_t cap, len;
  AVEC(tinfo) infos;
  AVEC(storage_t) storages;
  AVEC(row_t) rows;
  AVEC(pass_t) passes;
  AVEC(root_why) whys;
  AVEC(param_cast) casts; /* autocast's cache of 16-bit weight copies */
  obj *frames[ACT_MAX_FRAMES];
  int nframes;
  int32_t cur;         /* the pass running, -1 */
  int no_grad;
  int autocast_bits;
  int ckpt;            /* inside torch.utils.checkpoint */
  int64_t ckpt_bytes;
  AVEC(int) tokens;    /* the state each `with` restores */
};

typedef struct act_state act_state;


/* ---- act_state.c, act_ops.c, act_tensor.c, activations.c ---- */
/** Upsampling and padding: the output's shape; reflection and replication padding keep their input (act_ops.c). */
value *act_resize(interp *st, uint32_t line, const char *label, value *x, value *size, value *scale);
value *act_pad(interp *st, uint32_t line, const char *label, value *x, value *pad, bool keeps_input);
/** Tensor T's storage stays with the model (a buffer, a parameter): never counted. */
void act_mark_resident(interp *st, value *t);
/** The pass tensor X belongs to: the one running, or the one that made it; -1. */
int32_t act_pass_of(interp *st, value *x);
void act_record(interp *st, op_kind k, uint32_t line, const char *label, value **ins, int nin, value *out,
                saved_in *si);
void act_keep_value(interp *st, int32_t pass, row_t *row, value *v, const char *role, buf *what);
int act_bits_of(interp *st, const shape *sh);
bool act_is_tensor(const value *v);
tinfo *act_map_get(act_state *A, const shape *sh);
value *act_make(interp *st, const shape *sh, uint32_t storage, bool grad, bool contig, TSNode dim0);
tinfo act_info_of(interp *st, const value *v);
bool act_known(const shape *sh);
int64_t act_elems(const shape *sh);
const shape *act_shape_of(const value *v);
row_t *act_row_at(interp *st, int32_t pass, uint32_t line, const char *label);
const char *act_frame_label(interp *st, const char *op);
value *act_embedding(interp *st, uint32_t line, const char *label, value *idx, value *w);
int act_spatial_dims(const char *name);
value *act_linear(interp *st, uint32_t line, const char *label, value *x, value *w, int64_t out_features);
value *act_layer_forward(interp *st, obj *m, args *a);
value *act_cast(interp *st, value *x, int bits);
value *act_broadcast(interp *st, const shape *a, const shape *b, shape *out);
value *act_unary(interp *st, op_kind k, uint32_t line, const char *label, value *x, bool inplace, double p, int bits);
value *act_fresh(interp *st, int n, const int64_t *dims, int bits, bool grad);
double act_num_of(const value *v, double dflt);
bool act_flag_of(const value *v, bool dflt);
value *act_conv(interp *st, uint32_t line, const char *label, value *x, value *w, int nd, bool transposed,
                value *sv, value *pv, value *dv, value *opv, int64_t out_channels);
const char *act_call_label(interp *st, TSNode n);
value *act_pool(interp *st, op_kind k, uint32_t line, const char *label, value *x, int nd, value *kv, value *sv,
                value *pv, value *dv, bool ceil_mode);
value *act_matmul(interp *st, uint32_t line, const char *label, value *l, value *r);
value *act_one(interp *st, obj *m, value *x, TSNode node);
value *act_loss(interp *st, op_kind k, uint32_t line, const char *label, value *x, value *target);
value *act_norm(interp *st, op_kind k, uint32_t line, const char *label, value *x, int64_t rows, value **params,
                int np);
value *act_adaptive_pool(interp *st, bool max, uint32_t line, const char *label, value *x, int nd, value *osz);
int64_t act_int_or(const value *v, int i, int64_t dflt);
uint32_t act_line_of(interp *st, TSNode n);
uint32_t act_frame_line(interp *st);
value *act_first_tensor(args *a);
value *act_context(interp *st, const char *qual, args *a);
value *act_checkpoint(interp *st, args *a);
value *act_tuple_of(interp *st, value **items, uint32_t n);

#endif
