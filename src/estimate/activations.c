/* This file contains the activations estimate: forward() of the models the file calls, run by the
 * interpreter on tensors of known shape and dtype, and for each op the tensors autograd keeps
 * for backward (saved.c), each storage counted once per forward pass, grouped per layer. */
#include "estimate/activations.h"

#include <assert.h>
#include <string.h>

#include "estimate/saved.h"
#include "parse/fields.h"

#define ACT_MAX_FRAMES 64
#define NODE_IS(n, t) (strcmp(ts_node_type(n), (t)) == 0)

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


/* ---- tensors ---- */

static const shape *shape_of(const value *v) {
  if (v->kind == V_TENSOR) return v->u.tensor;
  if (v->kind == V_PARAM) return &v->u.param->sh;
  return NULL;
}


static bool is_tensor(const value *v) { return v && (v->kind == V_TENSOR || v->kind == V_PARAM); }


static bool known(const shape *sh) {
  if (!sh || sh->ndim < 0) return false;
  for (int i = 0; i < sh->ndim; i++)
    if (sh->dims[i] < 0) return false;
  return true;
}


static int64_t elems(const shape *sh) {
  if (!known(sh)) return -1;
  int64_t n = 1;
  for (int i = 0; i < sh->ndim; i++)
    if (__builtin_mul_overflow(n, sh->dims[i], &n)) return -1;
  return n;
}


static int bits_of(interp *st, const shape *sh) { return sh->bits ? sh->bits : st->default_bits; }


static uint32_t ptr_hash(const void *p, uint32_t cap) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9E3779B97F4A7C15ull;
  return (uint32_t)(x >> 32) & (cap - 1);
}


static void map_put(interp *st, const shape *sh, uint32_t info) {
  act_state *A = st->act;
  if ((A->len + 1) * 2 > A->cap) {
    uint32_t cap = A->cap ? A->cap * 2 : 256;
    const shape **keys = arena_alloc(st->a, cap * sizeof *keys);
    uint32_t *idx = arena_alloc(st->a, cap * sizeof *idx);
    memset(keys, 0, cap * sizeof *keys);
    for (uint32_t i = 0; i < A->cap; i++) {
      if (!A->keys[i]) continue;
      uint32_t h = ptr_hash(A->keys[i], cap);
      while (keys[h]) h = (h + 1) & (cap - 1);
      keys[h] = A->keys[i];
      idx[h] = A->idx[i];
    }
    A->keys = keys;
    A->idx = idx;
    A->cap = cap;
  }
  uint32_t h = ptr_hash(sh, A->cap);
  while (A->keys[h] && A->keys[h] != sh) h = (h + 1) & (A->cap - 1);
  if (!A->keys[h]) A->len++;
  A->keys[h] = sh;
  A->idx[h] = info;
}


static tinfo *map_get(act_state *A, const shape *sh) {
  if (!A->cap) return NULL;
  uint32_t h = ptr_hash(sh, A->cap);
  while (A->keys[h]) {
    if (A->keys[h] == sh) return &A->infos.items[A->idx[h]];
    h = (h + 1) & (A->cap - 1);
  }
  return NULL;
}


static uint32_t new_storage(interp *st, int64_t bytes) {
  act_state *A = st->act;
  storage_t s = {bytes, A->cur, -1, false, false};
  avec_push(st->a, &A->storages, s);
  return A->storages.len - 1;
}


/* The information of tensor V; a tensor made outside the ops followed here
 * (data, constants) is a storage of its own that needs no gradient. */
static tinfo info_of(interp *st, const value *v) {
  tinfo t = {UINT32_MAX, false, true, false};
  if (v->kind == V_PARAM) {
    t.grad = v->u.param->trainable;
    return t;
  }
  const shape *sh = v->u.tensor;
  tinfo *f = map_get(st->act, sh);
  if (f) return *f;
  int64_t n = elems(sh);
  t.storage = new_storage(st, n < 0 ? -1 : saved_elems_bytes(n, bits_of(st, sh)));
  avec_push(st->a, &st->act->infos, t);
  map_put(st, sh, st->act->infos.len - 1);
  return t;
}


/* A new tensor value of SH (copied), sharing STORAGE (UINT32_MAX: a new one). */
static value *make(interp *st, const shape *sh, uint32_t storage, bool grad, bool contig, TSNode dim0) {
  value *t = v_new(st, V_TENSOR);
  shape *c = shape_new(st, sh->ndim < 0 ? 0 : sh->ndim);
  *c = *sh;
  t->u.tensor = c;
  t->dim0 = dim0;
  if (storage == UINT32_MAX) {
    int64_t n = elems(c);
    storage = new_storage(st, n < 0 ? -1 : saved_elems_bytes(n, bits_of(st, c)));
  }
  tinfo ti = {storage, grad, contig, false};
  avec_push(st->a, &st->act->infos, ti);
  map_put(st, c, st->act->infos.len - 1);
  return t;
}


static void describe(interp *st, buf *b, const char *role, const shape *sh) {
  buf_printf(b, "%s%s ", b->len ? " + " : "", role);
  for (int i = 0; i < sh->ndim; i++) buf_printf(b, "%s%lld", i ? "x" : "", (long long)sh->dims[i]);
  if (!sh->ndim) buf_puts(b, "scalar");
  int bits = bits_of(st, sh);
  buf_printf(b, " %s", bits == 16 ? "16-bit" : bits == 64 ? "int64" : bits == 8 ? "bool" : "fp32");
}


/* ---- recording ---- */

static int32_t pass_for(interp *st, value **ins, int nin) {
  act_state *A = st->act;
  if (A->nframes) return A->cur;
  /* a loss computed on a model's output belongs to that model's pass */
  for (int i = 0; i < nin; i++) {
    if (!ins[i] || ins[i]->kind != V_TENSOR) continue;
    tinfo t = info_of(st, ins[i]);
    if (t.grad && A->storages.items[t.storage].born >= 0) return A->storages.items[t.storage].born;
  }
  return -1;
}


static row_t *row_at(interp *st, int32_t pass, uint32_t line, const char *label) {
  act_state *A = st->act;
  for (uint32_t i = A->rows.len; i-- > 0;) {
    row_t *r = &A->rows.items[i];
    if (r->pass == pass && r->line == line && !strcmp(r->label, label)) return r;
  }
  row_t r = {pass, line, label, NULL, 0, 0};
  avec_push(st->a, &A->rows, r);
  return &A->rows.items[A->rows.len - 1];
}


static int64_t sat_add(int64_t a, int64_t b) {
  int64_t s;
  return __builtin_add_overflow(a, b, &s) ? INT64_MAX : s;
}


static void add_bytes(interp *st, int32_t pass, row_t *row, int64_t bytes, bool input) {
  act_state *A = st->act;
  if (A->ckpt) {
    A->ckpt_bytes = sat_add(A->ckpt_bytes, bytes);
    return;
  }
  pass_t *p = &A->passes.items[pass];
  p->total = sat_add(p->total, bytes);
  if (p->total == INT64_MAX && !p->why) p->why = "more bytes than can be counted";
  if (input) p->input_saved = sat_add(p->input_saved, bytes);
  row->bytes = sat_add(row->bytes, bytes);
}


static void keep_value(interp *st, int32_t pass, row_t *row, value *v, const char *role, buf *what) {
  if (v->kind != V_TENSOR) return; /* parameters stay resident anyway */
  tinfo t = info_of(st, v);
  storage_t *s = &st->act->storages.items[t.storage];
  if (what && !row->what) describe(st, what, role, v->u.tensor);
  if (s->bytes < 0) {
    pass_t *p = &st->act->passes.items[pass];
    if (!p->why) p->why = "a kept tensor whose size is not known or too large to count";
    return;
  }
  if ((s->kept == pass && !st->act->ckpt) || s->resident) return;
  if (!st->act->ckpt) s->kept = pass;
  add_bytes(st, pass, row, s->bytes, s->input);
}


/* Record op K on INS giving OUT under ROW's LINE and LABEL. */
static void record(interp *st, op_kind k, uint32_t line, const char *label, value **ins, int nin, value *out,
                   saved_in *si) {
  act_state *A = st->act;
  if (A->no_grad || k == OP_NONE) return;
  bool grad = false;
  for (int i = 0; i < nin; i++)
    if (ins[i] && is_tensor(ins[i]) && info_of(st, ins[i]).grad) grad = true;
  if (!grad) return;
  int32_t pass = pass_for(st, ins, nin);
  if (pass < 0 || A->passes.items[pass].sealed) return;
  si->nin = nin > SAVED_MAX_IN ? SAVED_MAX_IN : nin;
  for (int i = 0; i < si->nin; i++) {
    const shape *sh = ins[i] ? shape_of(ins[i]) : NULL;
    si->in_elems[i] = sh ? elems(sh) : 0;
    si->in_bits[i] = sh ? bits_of(st, sh) : 32;
    si->in_grad[i] = sh && info_of(st, ins[i]).grad;
    si->in_param[i] = ins[i] && ins[i]->kind == V_PARAM;
  }
  si->autocast_bits = A->autocast_bits;
  if (out && out->kind == V_TENSOR) {
    si->out_elems = elems(out->u.tensor);
    si->out_bits = bits_of(st, out->u.tensor);
  }
  saved_out so;
  saved_rule(k, si, &so);
  row_t *row = row_at(st, pass, line, label);
  row->times++;
  buf what = {0};
  static const char *const roles[] = {"input", "input 2", "input 3", "input 4"};
  static const char *const weights[] = {"input", "16-bit weight copy"};
  static const char *const pair[] = {"left", "right"};
  static const char *const qkv[] = {"query", "key", "value"};
  static const char *const states[] = {"input", "h0", "c0"};
  static const char *const target[] = {"input", "target"};
  for (int i = 0; i < si->nin; i++) {
    if (!(so.inputs >> i & 1) || !ins[i]) continue;
    const char *role = roles[i];
    if (k == OP_EMBEDDING || k == OP_GATHER) role = "indices";
    else if (k == OP_MASKED_FILL) role = "mask";
    else if ((k == OP_LINEAR || k == OP_CONV) && i < 2) role = weights[i];
    else if ((k == OP_MATMUL || k == OP_MUL || k == OP_DIV) && i < 2) role = pair[i];
    else if (k == OP_SDPA && i < 3) role = qkv[i];
    else if (k == OP_RNN && i < 3) role = states[i];
    else if ((k == OP_CROSS_ENTROPY || k == OP_NLL_LOSS || k == OP_PAIR_LOSS) && i < 2) role = target[i];
    keep_value(st, pass, row, ins[i], role, &what);
  }
  if (so.output && out) keep_value(st, pass, row, out, "output", &what);
  if (so.extra_bytes < 0 && !A->passes.items[pass].why) A->passes.items[pass].why = "a kept tensor too large to count";
  if (so.extra_bytes > 0) {
    add_bytes(st, pass, row, so.extra_bytes, false);
    if (!row->what) buf_printf(&what, "%s%s", what.len ? " + " : "",
                               k == OP_DROPOUT ? "bool mask" : k == OP_MAX_POOL ? "int64 indices" :
                               k == OP_CROSS_ENTROPY ? (si->autocast_bits ? "16-bit log-probabilities + fp32 copy" : "log-probabilities") : k == OP_RMS_NORM ? "normalized copy" : k == OP_RNN ? "cuDNN reserve space" : "fp32 statistics");
  }
  if (!row->what && what.len) row->what = st_strdup(st, what.data, what.len);
  buf_free(&what);
}


/* ---- shapes ---- */

static shape *shape_copy(interp *st, const shape *sh) {
  shape *c = shape_new(st, sh->ndim);
  *c = *sh;
  return c;
}


static int64_t int_or(const value *v, int i, int64_t dflt) {
  if (!v || v->kind == V_NONE) return dflt;
  int64_t x;
  if (v_as_int(v, &x)) return x;
  if ((v->kind == V_TUPLE || v->kind == V_LIST) && v->u.seq->items.len) {
    uint32_t n = v->u.seq->items.len;
    value *e = v->u.seq->items.items[(uint32_t)i < n ? (uint32_t)i : n - 1];
    if (v_as_int(e, &x)) return x;
  }
  return -1;
}


/* The value of argument POS / KW of a call, or of the constructor of M */
static value *ctor_arg(const obj *m, int pos, const char *kw) { return m->ctor ? arg_get(m->ctor, pos, kw) : NULL; }


static bool flag_of(const value *v, bool dflt) {
  bool b;
  if (v && v_truth(v, &b)) return b;
  return dflt;
}


static double num_of(const value *v, double dflt) {
  double d;
  if (v && v_as_num(v, &d)) return d;
  return dflt;
}


static uint32_t line_of(interp *st, TSNode n) { return ts_node_is_null(n) ? 0 : st_line(st, n); }


static const char *call_label(interp *st, TSNode n) {
  if (ts_node_is_null(n)) return "op";
  uint32_t len;
  const char *s = st_text(st, n, &len);
  if (len > 48) {
    /* the function and an ellipsis */
    const char *paren = memchr(s, '(', len);
    uint32_t keep = paren ? (uint32_t)(paren - s) + 1 : 40;
    if (keep > 44) keep = 44;
    buf b = {0};
    buf_printf(&b, "%.*s...)", (int)keep, s);
    const char *r = st_strdup(st, b.data, b.len);
    buf_free(&b);
    return r;
  }
  return st_strdup(st, s, len);
}


/* The dtype an op's inputs are cast to under autocast: 16 for the lower-precision
 * list (linear, conv, matmul, attention), 32 for the fp32 list (norms, softmax, losses). */
static value *cast(interp *st, value *x, int bits) {
  if (!bits || x->kind != V_TENSOR || bits_of(st, x->u.tensor) == bits || bits_of(st, x->u.tensor) == 64) return x;
  tinfo t = info_of(st, x);
  shape c = *x->u.tensor;
  c.bits = bits;
  return make(st, &c, UINT32_MAX, t.grad, true, x->dim0);
}


/* Autocast casts a weight once per region (its cache) and the op keeps the copy. */
static value *cast_weight(interp *st, value *w) {
  act_state *A = st->act;
  int bits = A->autocast_bits;
  if (!bits || !w || w->kind != V_PARAM || w->u.param->bits == bits || w->u.param->sh.ndim < 0) return w;
  int32_t pass = A->nframes ? A->cur : -1;
  for (uint32_t i = 0; i < A->casts.len; i++)
    if (A->casts.items[i].p == w->u.param && A->casts.items[i].pass == pass && A->casts.items[i].bits == bits)
      return A->casts.items[i].copy;
  shape c = w->u.param->sh;
  c.bits = bits;
  value *copy = make(st, &c, UINT32_MAX, w->u.param->trainable, true, (TSNode){0});
  param_cast pc = {w->u.param, pass, bits, copy};
  avec_push(st->a, &A->casts, pc);
  return copy;
}


static value *unary(interp *st, op_kind k, uint32_t line, const char *label, value *x, bool inplace, double p,
                    int bits) {
  /* dropout with p == 0 (or in eval mode) returns its input itself */
  if (k == OP_DROPOUT && p <= 0) return x;
  x = cast(st, x, bits);
  tinfo t = info_of(st, x);
  value *out = inplace ? make(st, x->u.tensor, t.storage, t.grad, t.contig, x->dim0)
                       : make(st, x->u.tensor, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  si.p = p;
  si.training = true;
  value *ins[1] = {x};
  record(st, k, line, label, ins, 1, out, &si);
  return out;
}


/* The output length of a convolution or pool over L. */
static int64_t conv_len(int64_t L, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  if (L < 0 || k < 1 || s < 1 || p < 0 || d < 1) return -1;
  int64_t span = L + 2 * p - d * (k - 1) - 1;
  if (span < 0) return -1;
  return (ceil_mode ? (span + s - 1) / s : span / s) + 1;
}


static int spatial_dims(const char *name) {
  size_t n = strlen(name);
  if (n >= 2 && name[n - 1] == 'd' && name[n - 2] >= '1' && name[n - 2] <= '3') return name[n - 2] - '0';
  return 2;
}


/* pools (kernel, stride, padding, dilation) over the last ND dims of X */
static value *pool(interp *st, op_kind k, uint32_t line, const char *label, value *x, int nd, value *kv, value *sv,
                   value *pv, value *dv, bool ceil_mode) {
  const shape *in = x->u.tensor;
  if (in->ndim < nd) return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  shape *o = shape_copy(st, in);
  for (int i = 0; i < nd; i++) {
    int64_t kk = int_or(kv, i, -1);
    int64_t s = sv && sv->kind != V_NONE ? int_or(sv, i, -1) : kk;
    int64_t L = conv_len(in->dims[in->ndim - nd + i], kk, s, int_or(pv, i, 0), int_or(dv, i, 1), ceil_mode);
    if (L < 0) return v_unknown(st, "line %u: %s: its kernel, stride or padding is not known", line, label);
    o->dims[in->ndim - nd + i] = L;
  }
  tinfo t = info_of(st, x);
  value *out = make(st, o, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[1] = {x};
  record(st, k, line, label, ins, 1, out, &si);
  return out;
}


static value *adaptive_pool(interp *st, bool max, uint32_t line, const char *label, value *x, int nd, value *osz) {
  const shape *in = x->u.tensor;
  if (in->ndim < nd) return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  shape *o = shape_copy(st, in);
  bool ones = true;
  for (int i = 0; i < nd; i++) {
    int64_t L = int_or(osz, i, -1);
    if (osz && osz->kind == V_TUPLE && i < (int)osz->u.seq->items.len && osz->u.seq->items.items[i]->kind == V_NONE)
      L = in->dims[in->ndim - nd + i];
    if (L < 0) return v_unknown(st, "line %u: %s: its output size is not known", line, label);
    o->dims[in->ndim - nd + i] = L;
    if (L != 1) ones = false;
  }
  tinfo t = info_of(st, x);
  value *out = make(st, o, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[1] = {x};
  /* an average to 1x1 is a mean, which keeps nothing */
  record(st, max ? OP_MAX_POOL : ones ? OP_NONE : OP_SAVE_INPUT, line, label, ins, 1, out, &si);
  return out;
}


static value *conv(interp *st, uint32_t line, const char *label, value *x, value *w, int nd, bool transposed,
                   value *sv, value *pv, value *dv, value *opv, int64_t out_channels) {
  const shape *in = x->u.tensor;
  const shape *ws = shape_of(w);
  if (in->ndim != nd + 2 && in->ndim != nd + 1)
    return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  if (!ws || ws->ndim != nd + 2) return v_unknown(st, "line %u: %s: its weight's shape is not known", line, label);
  shape *o = shape_copy(st, in);
  int c = in->ndim - nd - 1;
  o->dims[c] = out_channels;
  bool same = pv && pv->kind == V_STR && v_is_str(pv, "same");
  bool valid = pv && pv->kind == V_STR && v_is_str(pv, "valid");
  for (int i = 0; i < nd; i++) {
    int64_t L = in->dims[c + 1 + i], k = ws->dims[2 + i], s = int_or(sv, i, 1), p = valid ? 0 : int_or(pv, i, 0),
            d = int_or(dv, i, 1);
    int64_t out;
    if (same) out = L;
    else if (transposed) out = (L < 0 || s < 1 || p < 0) ? -1 : (L - 1) * s - 2 * p + d * (k - 1) + int_or(opv, i, 0) + 1;
    else out = conv_len(L, k, s, p, d, false);
    if (out < 0) return v_unknown(st, "line %u: %s: its output size is not known", line, label);
    o->dims[c + 1 + i] = out;
  }
  value *xc = cast(st, x, st->act->autocast_bits);
  o->bits = bits_of(st, xc->u.tensor);
  w = cast_weight(st, w);
  value *out = make(st, o, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {xc, w};
  record(st, OP_CONV, line, label, ins, 2, out, &si);
  return out;
}


static value *linear(interp *st, uint32_t line, const char *label, value *x, value *w, int64_t out_features) {
  const shape *in = x->u.tensor;
  if (in->ndim < 1) return v_unknown(st, "line %u: %s of a scalar", line, label);
  value *xc = cast(st, x, st->act->autocast_bits);
  shape *o = shape_copy(st, xc->u.tensor);
  o->dims[o->ndim - 1] = out_features;
  w = cast_weight(st, w);
  value *out = make(st, o, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {xc, w};
  record(st, OP_LINEAR, line, label, ins, 2, out, &si);
  return out;
}


static value *norm(interp *st, op_kind k, uint32_t line, const char *label, value *x, int64_t rows, value **params,
                   int np) {
  /* layer and group norm run in fp32 under autocast; batch norm in the input's dtype */
  if (k != OP_BATCH_NORM && st->act->autocast_bits) x = cast(st, x, 32);
  tinfo t = info_of(st, x);
  value *out = make(st, x->u.tensor, UINT32_MAX, true, true, x->dim0);
  (void)t;
  saved_in si;
  memset(&si, 0, sizeof si);
  si.rows = rows;
  si.training = true;
  value *ins[3] = {x, np > 0 ? params[0] : NULL, np > 1 ? params[1] : NULL};
  record(st, k, line, label, ins, 1 + (np > 2 ? 2 : np), out, &si);
  return out;
}


static value *embedding(interp *st, uint32_t line, const char *label, value *idx, value *w) {
  const shape *is = idx->u.tensor, *ws = shape_of(w);
  if (!ws || ws->ndim != 2 || is->ndim + 1 > EST_MAX_DIMS)
    return v_unknown(st, "line %u: %s: its weight's shape is not known", line, label);
  shape *o = shape_new(st, is->ndim + 1);
  for (int i = 0; i < is->ndim; i++) o->dims[i] = is->dims[i];
  o->dims[is->ndim] = ws->dims[1];
  o->bits = ws->bits ? ws->bits : w->kind == V_PARAM ? w->u.param->bits : 32;
  value *out = make(st, o, UINT32_MAX, true, true, idx->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {idx, w};
  record(st, OP_EMBEDDING, line, label, ins, 2, out, &si);
  return out;
}


static value *scalar_out(interp *st, bool grad) {
  shape s;
  memset(&s, 0, sizeof s);
  s.ndim = 0;
  s.bits = 32;
  return make(st, &s, UINT32_MAX, grad, true, (TSNode){0});
}


static value *loss(interp *st, op_kind k, uint32_t line, const char *label, value *x, value *target) {
  if (st->act->autocast_bits && k != OP_CROSS_ENTROPY) x = cast(st, x, 32);
  value *out = scalar_out(st, info_of(st, x).grad);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {x, target};
  record(st, k, line, label, ins, target ? 2 : 1, out, &si);
  return out;
}


static value *broadcast(interp *st, const shape *a, const shape *b, shape *out) {
  const shape *big = a->ndim >= b->ndim ? a : b, *small = big == a ? b : a;
  *out = *big;
  for (int i = 0; i < small->ndim; i++) {
    int bi = big->ndim - 1 - i, si = small->ndim - 1 - i;
    int64_t x = big->dims[bi], y = small->dims[si];
    if (x == y || y == 1) out->dims[bi] = x;
    else if (x == 1) out->dims[bi] = y;
    else if (x < 0 || y < 0) out->dims[bi] = -1;
    else return v_unknown(st, "tensors whose shapes do not broadcast");
  }
  int ba = a->bits ? a->bits : st->default_bits, bb = b->bits ? b->bits : st->default_bits;
  /* integer and float mix: the float; two floats: the wider */
  out->bits = ba == 64 ? bb : bb == 64 ? ba : (ba > bb ? ba : bb);
  return NULL;
}


static value *matmul(interp *st, uint32_t line, const char *label, value *l, value *r) {
  int ab = st->act->autocast_bits;
  if (ab) {
    l = l->kind == V_PARAM ? cast_weight(st, l) : cast(st, l, ab);
    r = r->kind == V_PARAM ? cast_weight(st, r) : cast(st, r, ab);
  }
  const shape *a = shape_of(l), *b = shape_of(r);
  if (a->ndim < 1 || b->ndim < 1) return v_unknown(st, "line %u: a matmul of a scalar", line);
  shape as = *a, bs = *b;
  /* 1-d operands are promoted and the added dimension removed after */
  bool a1 = as.ndim == 1, b1 = bs.ndim == 1;
  if (a1) {
    as.ndim = 2;
    as.dims[1] = as.dims[0];
    as.dims[0] = 1;
  }
  if (b1) {
    bs.ndim = 2;
    bs.dims[1] = 1;
  }
  if (as.dims[as.ndim - 1] >= 0 && bs.dims[bs.ndim - 2] >= 0 && as.dims[as.ndim - 1] != bs.dims[bs.ndim - 2])
    return v_unknown(st, "line %u: a matmul of shapes that do not match", line);
  shape ba = as, bb = bs, o;
  ba.ndim -= 2;
  bb.ndim -= 2;
  value *bad = broadcast(st, &ba, &bb, &o);
  if (bad) return bad;
  if (o.ndim + 2 > EST_MAX_DIMS) return v_unknown(st, "a matmul of too many dimensions");
  o.dims[o.ndim] = as.dims[as.ndim - 2];
  o.dims[o.ndim + 1] = bs.dims[bs.ndim - 1];
  o.ndim += 2;
  if (b1) o.ndim--;
  if (a1) {
    o.dims[o.ndim - 2 + (b1 ? 1 : 0)] = o.dims[o.ndim - 1 + (b1 ? 1 : 0)];
    o.ndim--;
  }
  bool grad = info_of(st, l).grad || info_of(st, r).grad;
  value *out = make(st, &o, UINT32_MAX, grad, true, l->kind == V_TENSOR ? l->dim0 : r->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {l, r};
  record(st, OP_MATMUL, line, label, ins, 2, out, &si);
  return out;
}


/* ---- the frames: which module runs ---- */

static uint32_t frame_line(interp *st) {
  act_state *A = st->act;
  return A->nframes ? line_of(st, A->frames[A->nframes - 1]->site) : 0;
}


static const char *frame_label(interp *st, const char *op) {
  act_state *A = st->act;
  buf b = {0};
  const obj *m = A->nframes ? A->frames[A->nframes - 1] : NULL;
  buf_printf(&b, "%s%s%s", m && m->type ? m->type : "", m ? ".forward: " : "", op);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


/* ---- entry points ---- */

void act_begin(interp *st) {
  act_state *A = arena_alloc(st->a, sizeof *A);
  memset(A, 0, sizeof *A);
  A->cur = -1;
  st->act = A;
}


void act_register_buffer(interp *st, obj *m, args *a) {
  value *name = arg_get(a, 0, "name"), *t = arg_get(a, 1, "tensor");
  if (!name || name->kind != V_STR || !t) return;
  if (!st_may_mutate(st, m->birth)) {
    st_blocked(st, a->node, "a buffer is registered");
    return;
  }
  dict_set(st, m->attrs, name, t);
  if (t->kind == V_TENSOR) {
    uint32_t s = info_of(st, t).storage; /* may grow the storages */
    st->act->storages.items[s].resident = true;
  }
}


void act_factory(interp *st, value *t, args *a) {
  if (!st->act || t->kind != V_TENSOR || !flag_of(arg_get(a, -1, "requires_grad"), false)) return;
  info_of(st, t);
  map_get(st->act, t->u.tensor)->grad = true;
}


void act_keep_ctor(interp *st, obj *m, const args *a) {
  args *c = arena_alloc(st->a, sizeof *c);
  *c = *a;
  m->ctor = c;
}


static value *first_tensor(args *a) {
  for (uint32_t i = 0; i < a->pos.len; i++)
    if (a->pos.items[i]->kind == V_TENSOR) return a->pos.items[i];
  for (uint32_t i = 0; i < a->kwvals.len; i++)
    if (a->kwvals.items[i]->kind == V_TENSOR) return a->kwvals.items[i];
  return NULL;
}


static value *param_attr(obj *m, const char *name) {
  value *v = dict_get_str(m->attrs, name, strlen(name));
  return v && v->kind == V_PARAM ? v : NULL;
}


static value *run_module(interp *st, obj *m, args *a);
static value *tuple_of(interp *st, value **items, uint32_t n);


static value *one(interp *st, obj *m, value *x, TSNode node) {
  args b;
  memset(&b, 0, sizeof b);
  b.node = node;
  avec_push(st->a, &b.pos, x);
  return act_module_call(st, m, &b);
}


static bool named(const obj *m, const char *name) {
  const char *q = m->qual ? strrchr(m->qual, '.') : NULL;
  return q && !strcmp(q + 1, name);
}


static bool named_prefix(const obj *m, const char *prefix) {
  const char *q = m->qual ? strrchr(m->qual, '.') : NULL;
  return q && !strncmp(q + 1, prefix, strlen(prefix));
}


/* nn.RNN / LSTM / GRU over a whole sequence, as cuDNN runs it. */
static value *rnn(interp *st, obj *m, args *a, value *x, uint32_t line, const char *label) {
  bool lstm = named(m, "LSTM"), gru = named(m, "GRU");
  int shift = lstm || gru ? 0 : 1; /* nn.RNN has nonlinearity before bias */
  value *hv = dict_get_str(m->attrs, "hidden_size", 11);
  int64_t H = int_or(ctor_arg(m, 1, "hidden_size"), 0, -1), L = int_or(ctor_arg(m, 2, "num_layers"), 0, 1);
  if (hv) H = int_or(hv, 0, H);
  bool batch_first = flag_of(ctor_arg(m, 4 + shift, "batch_first"), false);
  int64_t dirs = flag_of(ctor_arg(m, 6 + shift, "bidirectional"), false) ? 2 : 1;
  if (lstm && int_or(ctor_arg(m, 7, "proj_size"), 0, 0) > 0)
    return v_unknown(st, "line %u: %s: what an LSTM with proj_size keeps is not modelled", line, label);
  const shape *in = x->u.tensor;
  if (H < 1 || L < 1 || (in->ndim != 3 && in->ndim != 2))
    return v_unknown(st, "line %u: %s: its sizes or its input's shape are not known", line, label);
  int64_t T = in->ndim == 2 ? in->dims[0] : batch_first ? in->dims[1] : in->dims[0];
  int64_t B = in->ndim == 2 ? 1 : batch_first ? in->dims[0] : in->dims[1];
  int ab = st->act->autocast_bits;
  value *xc = cast(st, x, ab);
  int bits = bits_of(st, xc->u.tensor);
  /* initial states: the given ones, else zeros made for the call */
  value *h0 = a->pos.len > 1 ? a->pos.items[1] : arg_get(a, 1, "hx");
  value *c0 = NULL;
  if (h0 && lstm && h0->kind == V_TUPLE && h0->u.seq->items.len == 2) {
    c0 = h0->u.seq->items.items[1];
    h0 = h0->u.seq->items.items[0];
  }
  /* (directions x layers, B, H), or (directions x layers, H) unbatched */
  shape hs;
  memset(&hs, 0, sizeof hs);
  hs.ndim = in->ndim;
  hs.dims[0] = dirs * L;
  hs.dims[1] = in->ndim == 2 ? H : B;
  hs.dims[2] = H;
  hs.bits = bits;
  if (!h0 || h0->kind != V_TENSOR) h0 = make(st, &hs, UINT32_MAX, false, true, (TSNode){0});
  else h0 = cast(st, h0, ab);
  if (lstm && (!c0 || c0->kind != V_TENSOR)) c0 = make(st, &hs, UINT32_MAX, false, true, (TSNode){0});
  else if (lstm) c0 = cast(st, c0, ab);
  shape os = *in;
  os.dims[os.ndim - 1] = dirs * H;
  os.bits = bits;
  value *out = make(st, &os, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  int g = lstm ? 6 : gru ? 7 : 2;
  si.rows = dirs * T * B * H * (g * L - 1);
  /* a weight (a parameter, not counted) makes the op need gradients */
  value *ins[4] = {xc, h0, lstm ? c0 : NULL, param_attr(m, "weight_ih_l0")};
  record(st, OP_RNN, line, label, ins, 4, out, &si);
  value *hn = make(st, &hs, UINT32_MAX, true, true, (TSNode){0});
  value *state = hn;
  if (lstm) {
    value *cn = make(st, &hs, UINT32_MAX, true, true, x->dim0);
    value *pair[2] = {hn, cn};
    state = tuple_of(st, pair, 2);
  }
  value *both[2] = {out, state};
  return tuple_of(st, both, 2);
}


static const char *sub_label(interp *st, const char *label, const char *part) {
  buf b = {0};
  buf_printf(&b, "%s: %s", label, part);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


static value *view_as_shape(interp *st, value *x, int n, const int64_t *dims, bool contig) {
  tinfo t = info_of(st, x);
  shape o = *x->u.tensor;
  o.ndim = n;
  for (int i = 0; i < n; i++) o.dims[i] = dims[i];
  return make(st, &o, t.storage, t.grad, contig, x->dim0);
}


static value *fresh(interp *st, int n, const int64_t *dims, int bits, bool grad) {
  shape o;
  memset(&o, 0, sizeof o);
  o.ndim = n;
  for (int i = 0; i < n; i++) o.dims[i] = dims[i];
  o.bits = bits;
  return make(st, &o, UINT32_MAX, grad, true, (TSNode){0});
}


/* F.multi_head_attention_forward of PyTorch 2.x in training, self-attention on X of
 * (L, B, E) or (B, L, E): the packed in-projection, bmm-softmax-bmm when the weights
 * are returned, scaled_dot_product_attention when not, and the out-projection. */
static value *mha(interp *st, obj *m, value *x, bool batch_first, double p, bool need_weights, uint32_t line,
                  const char *label) {
  const shape *in = x->u.tensor;
  value *w = param_attr(m, "in_proj_weight");
  value *ov = dict_get_str(m->attrs, "out_proj", 8);
  obj *outp = ov && ov->kind == V_OBJECT ? ov->u.obj : NULL;
  int64_t E = int_or(dict_get_str(m->attrs, "embed_dim", 9), 0, -1), H = int_or(dict_get_str(m->attrs, "num_heads", 9), 0, -1);
  if (!w || !outp || E < 1 || H < 1 || in->ndim != 3 || in->dims[2] != E)
    return v_unknown(st, "line %u: %s: only self-attention with a packed projection is modelled", line, label);
  int64_t L = batch_first ? in->dims[1] : in->dims[0], B = batch_first ? in->dims[0] : in->dims[1], hd = E / H;
  int64_t lbe[3] = {L, B, E};
  value *xt = batch_first ? view_as_shape(st, x, 3, lbe, false) : x;
  value *proj = linear(st, line, sub_label(st, label, "in_proj"), xt, w, 3 * E);
  if (proj->kind != V_TENSOR) return proj;
  int bits = bits_of(st, proj->u.tensor);
  /* unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous(): a copy */
  int64_t packed[4] = {3, L, B, E};
  value *pc = fresh(st, 4, packed, bits, true);
  int64_t qs[3] = {B * H, L, hd};
  value *q = view_as_shape(st, pc, 3, qs, false), *k = view_as_shape(st, pc, 3, qs, false), *v = view_as_shape(st, pc, 3, qs, false);
  value *att = NULL, *o;
  if (need_weights) {
    value *qsc = act_binary(st, "*", q, v_float(st, 1.0)); /* q * sqrt(1 / head_dim) */
    int64_t kts[3] = {B * H, hd, L};
    value *kt = view_as_shape(st, k, 3, kts, false);
    value *scores = matmul(st, line, sub_label(st, label, "q @ k^T"), qsc, kt);
    if (scores->kind != V_TENSOR) return scores;
    att = unary(st, OP_SAVE_OUTPUT, line, sub_label(st, label, "softmax"), scores, false, 0, st->act->autocast_bits ? 32 : 0);
    att = unary(st, OP_DROPOUT, line, sub_label(st, label, "attention dropout"), att, false, p, 0);
    o = matmul(st, line, sub_label(st, label, "attention @ v"), att, v);
    if (o->kind != V_TENSOR) return o;
  } else {
    int64_t hs4[4] = {B, H, L, hd};
    value *q4 = view_as_shape(st, q, 4, hs4, false), *k4 = view_as_shape(st, k, 4, hs4, false), *v4 = view_as_shape(st, v, 4, hs4, false);
    o = fresh(st, 4, hs4, bits, true);
    saved_in si;
    memset(&si, 0, sizeof si);
    si.rows = B * H * L;
    value *ins[3] = {q4, k4, v4};
    record(st, OP_SDPA, line, sub_label(st, label, "scaled_dot_product_attention"), ins, 3, o, &si);
  }
  /* permute / transpose back and .contiguous(): a copy, which out_proj keeps;
   * 16-bit attention (cuDNN on Hopper) writes its output in the query's (L, B, H, D)
   * layout, where the copy is the output itself */
  int64_t flat[2] = {L * B, E};
  value *oc = !need_weights && bits == 16 ? view_as_shape(st, o, 2, flat, true) : fresh(st, 2, flat, bits_of(st, o->u.tensor), true);
  value *ow = param_attr(outp, "weight");
  if (!ow) return v_unknown(st, "line %u: %s: out_proj is not known", line, label);
  value *y = linear(st, line, sub_label(st, label, "out_proj"), oc, ow, E);
  if (y->kind != V_TENSOR) return y;
  int64_t back[3] = {batch_first ? B : L, batch_first ? L : B, E};
  value *out = view_as_shape(st, y, 3, back, !batch_first);
  value *pair[2] = {out, att ? att : st->none};
  return tuple_of(st, pair, 2);
}


/* nn.TransformerEncoderLayer in training: self-attention without weights, dropout,
 * residuals, two norms and the feed-forward block. */
static value *encoder_layer(interp *st, obj *m, value *x, uint32_t line, const char *label) {
  double p = num_of(ctor_arg(m, 3, "dropout"), 0.1);
  bool bf = flag_of(ctor_arg(m, 6, "batch_first"), false), nf = flag_of(ctor_arg(m, 7, "norm_first"), false);
  value *actv = ctor_arg(m, 4, "activation");
  bool gelu = actv && ((actv->kind == V_STR && v_is_str(actv, "gelu")) ||
                       (actv->kind == V_EXTERN && strstr(actv->u.ext, "gelu")) ||
                       (actv->kind == V_OBJECT && actv->u.obj->qual && strstr(actv->u.obj->qual, "GELU")));
  if (actv && !gelu && !(actv->kind == V_STR && v_is_str(actv, "relu")) &&
      !(actv->kind == V_EXTERN && strstr(actv->u.ext, "relu")))
    return v_unknown(st, "line %u: %s: its activation is not known", line, label);
  value *sa = dict_get_str(m->attrs, "self_attn", 9), *l1 = dict_get_str(m->attrs, "linear1", 7),
        *l2 = dict_get_str(m->attrs, "linear2", 7), *n1 = dict_get_str(m->attrs, "norm1", 5),
        *n2 = dict_get_str(m->attrs, "norm2", 5);
  if (!sa || !l1 || !l2 || !n1 || !n2 || sa->kind != V_OBJECT || l1->kind != V_OBJECT || l2->kind != V_OBJECT ||
      n1->kind != V_OBJECT || n2->kind != V_OBJECT)
    return v_unknown(st, "line %u: %s: its sublayers are not known", line, label);
  int64_t D = int_or(dict_get_str(l1->u.obj->attrs, "out_features", 12), 0, -1);
  int64_t E = int_or(dict_get_str(l2->u.obj->attrs, "out_features", 12), 0, -1);
  const shape *in = x->u.tensor;
  int64_t rows = elems(in) / (E > 0 ? E : 1);
  value *h = x;
  for (int block = 0; block < 2; block++) {
    obj *nrm = (block ? n2 : n1)->u.obj;
    value *nw = param_attr(nrm, "weight");
    value *ps[2] = {nw, param_attr(nrm, "bias")};
    value *src = h;
    if (nf) src = norm(st, OP_LAYER_NORM, line, sub_label(st, label, block ? "norm2" : "norm1"), h, rows, ps, 2);
    value *y;
    if (!block) {
      y = mha(st, sa->u.obj, src, bf, p, false, line, label);
      if (y->kind != V_TUPLE) return y;
      y = y->u.seq->items.items[0];
      y = unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout1"), y, false, p, 0);
    } else {
      value *w1 = param_attr(l1->u.obj, "weight"), *w2 = param_attr(l2->u.obj, "weight");
      if (!w1 || !w2 || D < 1 || E < 1) return v_unknown(st, "line %u: %s: its feed-forward sizes are not known", line, label);
      y = linear(st, line, sub_label(st, label, "linear1"), src, w1, D);
      y = unary(st, gelu ? OP_SAVE_INPUT : OP_SAVE_OUTPUT, line, sub_label(st, label, gelu ? "gelu" : "relu"), y, false, 0, 0);
      y = unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout"), y, false, p, 0);
      y = linear(st, line, sub_label(st, label, "linear2"), y, w2, E);
      y = unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout2"), y, false, p, 0);
    }
    h = act_binary(st, "+", h, y);
    if (!h || h->kind != V_TENSOR) return v_unknown(st, "line %u: %s: a residual of shapes not known", line, label);
    if (!nf) h = norm(st, OP_LAYER_NORM, line, sub_label(st, label, block ? "norm2" : "norm1"), h, rows, ps, 2);
  }
  return h;
}


/* The forward of a torch.nn layer: its output, with what it keeps recorded. */
static value *layer_forward(interp *st, obj *m, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : arg_get(a, 0, "input");
  uint32_t line = line_of(st, m->site);
  const char *label = m->label ? m->label : m->type ? m->type : "layer";
  const char *name = m->qual ? strrchr(m->qual, '.') + 1 : "";
  if (!x || x->kind != V_TENSOR || !known(x->u.tensor))
    return v_unknown(st, "line %u: the input of %s is not known%s%s", line, label, x && x->why ? ": " : "",
                     x && x->why ? x->why : "");
  const shape *in = x->u.tensor;
  int ab = st->act->autocast_bits;
  if (named(m, "Identity")) return x;
  if (named(m, "Linear")) {
    value *w = param_attr(m, "weight");
    int64_t of;
    value *ofv = dict_get_str(m->attrs, "out_features", 12);
    if (!w || !ofv || !v_as_int(ofv, &of)) return v_unknown(st, "line %u: %s: its size is not known", line, label);
    return linear(st, line, label, x, w, of);
  }
  if (named_prefix(m, "Conv")) {
    value *w = param_attr(m, "weight");
    const shape *ws = w ? shape_of(w) : NULL;
    bool tr = named_prefix(m, "ConvTranspose");
    if (!ws || ws->ndim < 3) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    int64_t groups = int_or(ctor_arg(m, tr ? 6 : 6, "groups"), 0, 1);
    int64_t oc = tr ? ws->dims[1] * (groups > 0 ? groups : 1) : ws->dims[0];
    return conv(st, line, label, x, w, ws->ndim - 2, tr, ctor_arg(m, 3, "stride"), ctor_arg(m, 4, "padding"),
                ctor_arg(m, tr ? 8 : 5, "dilation"), tr ? ctor_arg(m, 5, "output_padding") : NULL, oc);
  }
  if (named_prefix(m, "BatchNorm") || named(m, "SyncBatchNorm")) {
    int64_t c = in->ndim >= 2 ? in->dims[1] : -1;
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return norm(st, OP_BATCH_NORM, line, label, x, c, ps, 2);
  }
  if (named(m, "LayerNorm") || named(m, "RMSNorm")) {
    value *w = param_attr(m, "weight");
    const shape *ws = w ? shape_of(w) : NULL;
    int64_t inner = ws ? elems(ws) : int_or(ctor_arg(m, 0, "normalized_shape"), 0, -1);
    if (ws && ws->ndim > 1) inner = elems(ws);
    int64_t n = elems(in);
    if (inner <= 0) return v_unknown(st, "line %u: %s: its normalized shape is not known", line, label);
    value *ps[2] = {w, param_attr(m, "bias")};
    return norm(st, named(m, "RMSNorm") ? OP_RMS_NORM : OP_LAYER_NORM, line, label, x, n / inner, ps, 2);
  }
  if (named(m, "GroupNorm")) {
    int64_t g = int_or(ctor_arg(m, 0, "num_groups"), 0, -1);
    if (g < 1 || in->ndim < 1) return v_unknown(st, "line %u: %s: its groups are not known", line, label);
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return norm(st, OP_GROUP_NORM, line, label, x, in->dims[0] * g, ps, 2);
  }
  if (named_prefix(m, "InstanceNorm")) {
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return norm(st, OP_GROUP_NORM, line, label, x, in->ndim >= 2 ? in->dims[0] * in->dims[1] : -1, ps, 2);
  }
  if (named(m, "LSTM") || named(m, "GRU") || named(m, "RNN")) return rnn(st, m, a, x, line, label);
  if (named(m, "MultiheadAttention")) {
    value *k = a->pos.len > 1 ? a->pos.items[1] : arg_get(a, 1, "key"), *v = a->pos.len > 2 ? a->pos.items[2] : arg_get(a, 2, "value");
    if (k != x || v != x) return v_unknown(st, "line %u: %s: what cross-attention keeps is not modelled", line, label);
    return mha(st, m, x, flag_of(ctor_arg(m, 8, "batch_first"), false), num_of(ctor_arg(m, 2, "dropout"), 0.0),
               flag_of(arg_get(a, 4, "need_weights"), true), line, label);
  }
  if (named(m, "TransformerEncoderLayer")) return encoder_layer(st, m, x, line, label);
  if (named(m, "TransformerEncoder")) {
    value *ls = dict_get_str(m->attrs, "layers", 6);
    if (!ls || ls->kind != V_OBJECT || !ls->u.obj->items) return v_unknown(st, "line %u: %s: its layers are not known", line, label);
    value *h = x;
    for (uint32_t i = 0; i < ls->u.obj->items->items.len && h->kind == V_TENSOR; i++) {
      value *layer = ls->u.obj->items->items.items[i];
      if (layer->kind != V_OBJECT) return v_unknown(st, "line %u: %s: a layer that is not known", line, label);
      h = one(st, layer->u.obj, h, a->node);
    }
    value *nv = dict_get_str(m->attrs, "norm", 4);
    if (h->kind == V_TENSOR && nv && nv->kind == V_OBJECT) h = one(st, nv->u.obj, h, a->node);
    return h;
  }
  if (named(m, "Embedding")) return embedding(st, line, label, x, param_attr(m, "weight") ? param_attr(m, "weight") : st->unknown);
  if (named(m, "ReLU") || named(m, "ReLU6") || named(m, "Hardtanh"))
    return unary(st, OP_SAVE_OUTPUT, line, label, x, flag_of(ctor_arg(m, named(m, "Hardtanh") ? 2 : 0, "inplace"), false), 0, 0);
  if (named(m, "Tanh") || named(m, "Sigmoid") || named(m, "Softmax") || named(m, "LogSoftmax"))
    return unary(st, OP_SAVE_OUTPUT, line, label, x, false, 0, named_prefix(m, "Soft") || named(m, "LogSoftmax") ? (ab ? 32 : 0) : 0);
  if (named(m, "LeakyReLU") || named(m, "ELU"))
    return unary(st, flag_of(ctor_arg(m, 1, "inplace"), false) ? OP_SAVE_OUTPUT : OP_SAVE_INPUT, line, label, x,
                 flag_of(ctor_arg(m, 1, "inplace"), false), 0, 0);
  if (named(m, "GELU") || named(m, "SiLU") || named(m, "Mish") || named(m, "Hardswish") || named(m, "Softplus") ||
      named(m, "PReLU") || named(m, "SELU") || named(m, "CELU") || named(m, "Hardsigmoid") || named(m, "LogSigmoid"))
    return unary(st, OP_SAVE_INPUT, line, label, x, false, 0, 0);
  if (named_prefix(m, "Dropout") || named(m, "AlphaDropout")) {
    double p = num_of(ctor_arg(m, 0, "p"), 0.5);
    return unary(st, OP_DROPOUT, line, label, x, flag_of(ctor_arg(m, 1, "inplace"), false), p, 0);
  }
  if (named_prefix(m, "MaxPool"))
    return pool(st, OP_MAX_POOL, line, label, x, spatial_dims(name), ctor_arg(m, 0, "kernel_size"), ctor_arg(m, 1, "stride"),
                ctor_arg(m, 2, "padding"), ctor_arg(m, 3, "dilation"), flag_of(ctor_arg(m, 5, "ceil_mode"), false));
  if (named_prefix(m, "AvgPool"))
    return pool(st, OP_SAVE_INPUT, line, label, x, spatial_dims(name), ctor_arg(m, 0, "kernel_size"), ctor_arg(m, 1, "stride"),
                ctor_arg(m, 2, "padding"), NULL, flag_of(ctor_arg(m, 3, "ceil_mode"), false));
  if (named_prefix(m, "AdaptiveAvgPool") || named_prefix(m, "AdaptiveMaxPool"))
    return adaptive_pool(st, named_prefix(m, "AdaptiveMax"), line, label, x, spatial_dims(name), ctor_arg(m, 0, "output_size"));
  if (named(m, "Flatten")) {
    args b;
    memset(&b, 0, sizeof b);
    b.node = a->node;
    avec_push(st->a, &b.pos, v_int(st, int_or(ctor_arg(m, 0, "start_dim"), 0, 1)));
    avec_push(st->a, &b.pos, v_int(st, int_or(ctor_arg(m, 1, "end_dim"), 0, -1)));
    return act_tensor_method(st, x, "flatten", &b);
  }
  if (named(m, "CrossEntropyLoss") || named(m, "NLLLoss") || named(m, "MSELoss") || named(m, "L1Loss") ||
      named(m, "SmoothL1Loss") || named(m, "HuberLoss") || named(m, "BCELoss") || named(m, "BCEWithLogitsLoss")) {
    value *t = a->pos.len > 1 ? a->pos.items[1] : arg_get(a, 1, "target");
    op_kind k = named(m, "CrossEntropyLoss") ? OP_CROSS_ENTROPY : named(m, "NLLLoss") ? OP_NLL_LOSS : OP_PAIR_LOSS;
    return loss(st, k, line, label, x, t && is_tensor(t) ? t : NULL);
  }
  return v_unknown(st, "line %u: what %s keeps for backward is not modelled", line, label);
}


static value *run_module(interp *st, obj *m, args *a) {
  if (m->klass) {
    klass *found = NULL;
    value *fn = class_attr(st, m->klass, "forward", 7, &found);
    if (fn && fn->kind == V_FUNCTION) {
      value *b = v_new(st, V_FUNCTION);
      *b = *fn;
      b->u.fn.self = v_obj(st, m);
      b->u.fn.owner = found;
      return call_value(st, b, a);
    }
  }
  if (m->qual && (!strcmp(m->qual, "torch.nn.Sequential") || !strcmp(m->qual, "torch.nn.modules.container.Sequential")) &&
      m->items) {
    value *x = a->pos.len ? a->pos.items[0] : NULL;
    if (!x) return v_unknown(st, "a Sequential called without an input");
    for (uint32_t i = 0; i < m->items->items.len && x->kind != V_UNKNOWN; i++) {
      value *c = m->items->items.items[i];
      if (c->kind != V_OBJECT || c->u.obj->kind != OBJ_MODULE) return v_unknown(st, "a Sequential of something not a module");
      x = one(st, c->u.obj, x, a->node);
    }
    return x;
  }
  if (m->layer || (m->qual && !strncmp(m->qual, "torch.nn.", 9))) return layer_forward(st, m, a);
  return v_unknown(st, "line %u: the forward of `%s` is not known", line_of(st, m->site), m->type ? m->type : "a module");
}


static void root_unknown(interp *st, obj *m, const char *why) {
  act_state *A = st->act;
  for (uint32_t i = 0; i < A->whys.len; i++)
    if (A->whys.items[i].root == m) return;
  root_why w = {m, why};
  avec_push(st->a, &A->whys, w);
}


value *act_module_call(interp *st, obj *m, args *a) {
  act_state *A = st->act;
  if (!A->nframes && !m->klass && m->qual && layer_is_free(m->qual)) {
    /* a loss or activation module called on a model's output: part of that model's pass */
    return layer_forward(st, m, a);
  }
  if (!A->nframes) {
    module_record_input(st, m, a);
    value *x = first_tensor(a);
    if (!x || !known(x->u.tensor)) {
      value *u = a->pos.len ? a->pos.items[0] : NULL;
      if (u && u->kind == V_UNKNOWN && !ts_node_is_null(a->node)) {
        buf b = {0};
        buf_printf(&b, "line %u: the input of `%s` is not known: %s", line_of(st, a->node), call_label(st, a->node),
                   u->why ? u->why : "a value that is not known");
        root_unknown(st, m, st_strdup(st, b.data, b.len));
        buf_free(&b);
      }
      return v_unknown(st, "the output of a model");
    }
    /* a training loop calls the model again with the same shapes: the same pass */
    for (uint32_t i = A->passes.len; i-- > 0;) {
      pass_t *q = &A->passes.items[i];
      if (q->root == m && q->out && ts_node_eq(q->site, a->node) && q->bits == A->autocast_bits &&
          q->no_grad == (A->no_grad != 0) && !memcmp(&q->in, x->u.tensor, sizeof q->in)) {
        q->sealed = true;
        return q->out;
      }
    }
    pass_t p;
    memset(&p, 0, sizeof p);
    p.root = m;
    p.site = a->node;
    p.in = *x->u.tensor;
    p.no_grad = A->no_grad != 0;
    p.micro = x->u.tensor->ndim ? x->u.tensor->dims[0] : -1;
    p.bits = A->autocast_bits;
    p.recompute = 0;
    avec_push(st->a, &A->passes, p);
    A->cur = (int32_t)A->passes.len - 1;
    /* the inputs are the batch: counted in its own line of the whole step */
    for (uint32_t i = 0; i < a->pos.len; i++)
      if (a->pos.items[i]->kind == V_TENSOR) {
        uint32_t s = info_of(st, a->pos.items[i]).storage; /* may grow the storages */
        A->storages.items[s].input = true;
      }
  }
  if (A->nframes >= ACT_MAX_FRAMES) return v_unknown(st, "modules nested too deeply to follow");
  A->frames[A->nframes++] = m;
  int32_t pass = A->cur;
  value *out = run_module(st, m, a);
  A->nframes--;
  if (!A->nframes) {
    A->cur = -1;
    if (pass >= 0) A->passes.items[pass].out = out;
    /* (logits, loss): the first item says whether forward() was followed */
    value *first = out;
    if ((out->kind == V_TUPLE || out->kind == V_LIST) && out->u.seq->items.len) first = out->u.seq->items.items[0];
    if (first->kind == V_UNKNOWN && pass >= 0 && !A->passes.items[pass].why)
      A->passes.items[pass].why = first->why ? first->why : "the output of its forward() is not known";
  }
  return out;
}


/* ---- contexts ---- */

static value *context(interp *st, const char *qual, args *a) {
  obj *o = obj_new(st, OBJ_EXTERN, "context");
  o->qual = qual;
  o->args = seq_new(st);
  for (uint32_t i = 0; i < a->pos.len; i++) avec_push(st->a, &o->args->items, a->pos.items[i]);
  value *dt = arg_get(a, -1, "dtype");
  if (dt) dict_set_str(st, o->attrs, "dtype", dt);
  value *en = arg_get(a, -1, "enabled");
  if (en) dict_set_str(st, o->attrs, "enabled", en);
  return v_obj(st, o);
}


int act_with_enter(interp *st, value *ctx) {
  act_state *A = st->act;
  if (!A) return 0;
  int token = A->no_grad | A->autocast_bits << 8;
  if (ctx->kind != V_OBJECT || ctx->u.obj->kind != OBJ_EXTERN || strcmp(ctx->u.obj->type, "context") != 0)
    return token;
  const char *q = ctx->u.obj->qual;
  const char *last = strrchr(q, '.') + 1;
  if (!strcmp(last, "no_grad") || !strcmp(last, "inference_mode")) A->no_grad = 1;
  else if (!strcmp(last, "enable_grad")) A->no_grad = 0;
  else if (!strcmp(last, "autocast")) {
    value *en = dict_get_str(ctx->u.obj->attrs, "enabled", 7);
    bool on = flag_of(en, true);
    value *dt = dict_get_str(ctx->u.obj->attrs, "dtype", 5);
    int bits = 16;
    const char *dn;
    /* torch.autocast("cpu") defaults to bfloat16, "cuda" to float16: both 16 bits */
    if (dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &bits, &dn);
    A->autocast_bits = on ? bits : 0;
    if (A->autocast_bits == 32) A->autocast_bits = 0;
  }
  return token;
}


void act_with_exit(interp *st, int token) {
  if (!st->act) return;
  st->act->no_grad = token & 0xff;
  st->act->autocast_bits = token >> 8;
}


/* ---- functional ops ---- */

static const char *after(const char *qual, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(qual, prefix, n) ? NULL : qual + n;
}


static bool any_tensor(args *a) {
  for (uint32_t i = 0; i < a->pos.len; i++) {
    value *v = a->pos.items[i];
    if (is_tensor(v)) return true;
    if ((v->kind == V_LIST || v->kind == V_TUPLE) && v->u.seq->items.len && is_tensor(v->u.seq->items.items[0])) return true;
  }
  return false;
}


static value *checkpoint(interp *st, args *a) {
  act_state *A = st->act;
  if (!a->pos.len) return NULL;
  args b;
  memset(&b, 0, sizeof b);
  b.node = a->node;
  for (uint32_t i = 1; i < a->pos.len; i++) avec_push(st->a, &b.pos, a->pos.items[i]);
  for (uint32_t i = 0; i < a->kwnames.len; i++) {
    str k = a->kwnames.items[i];
    if ((k.n == 13 && !memcmp(k.s, "use_reentrant", 13)) || (k.n == 18 && !memcmp(k.s, "preserve_rng_state", 18))) continue;
    avec_push(st->a, &b.kwnames, k);
    avec_push(st->a, &b.kwvals, a->kwvals.items[i]);
  }
  int32_t pass = A->nframes ? A->cur : -1;
  int64_t before = A->ckpt_bytes;
  if (!A->ckpt) A->ckpt_bytes = 0;
  A->ckpt++;
  value *out = call_value(st, a->pos.items[0], &b);
  A->ckpt--;
  int64_t seg = A->ckpt_bytes;
  if (A->ckpt) A->ckpt_bytes = before + seg;
  if (pass >= 0 && !A->ckpt) {
    pass_t *p = &A->passes.items[pass];
    p->checkpointed = true;
    if (seg > p->recompute) p->recompute = seg;
    /* the segment keeps only its inputs */
    row_t *row = row_at(st, pass, line_of(st, a->node), "torch.utils.checkpoint: inputs");
    row->times++;
    for (uint32_t i = 0; i < b.pos.len; i++) {
      value *x = b.pos.items[i];
      if (x->kind == V_TENSOR && info_of(st, x).grad) {
        buf what = {0};
        keep_value(st, pass, row, x, "input", &what);
        if (!row->what && what.len) row->what = st_strdup(st, what.data, what.len);
        buf_free(&what);
      }
    }
  }
  return out;
}


static value *cat(interp *st, args *a, bool stack) {
  value *list = arg_get(a, 0, "tensors");
  int64_t dim = int_or(arg_get(a, 1, "dim"), 0, 0);
  seq *items = list ? v_iterate(st, list) : NULL;
  if (!items || !items->items.len) return v_unknown(st, "torch.cat of tensors not known");
  const shape *s0 = shape_of(items->items.items[0]);
  if (!s0) return v_unknown(st, "torch.cat of tensors not known");
  shape o = *s0;
  if (stack && o.ndim + 1 > EST_MAX_DIMS) return v_unknown(st, "torch.stack of too many dimensions");
  int nd = o.ndim + (stack ? 1 : 0);
  if (dim < 0) dim += nd;
  if (dim < 0 || dim >= nd) return v_unknown(st, "torch.cat along a dimension out of range");
  bool grad = false;
  int64_t total = 0;
  for (uint32_t i = 0; i < items->items.len; i++) {
    const shape *s = shape_of(items->items.items[i]);
    if (!s || s->ndim != s0->ndim) return v_unknown(st, "torch.cat of tensors not known");
    if (info_of(st, items->items.items[i]).grad) grad = true;
    if (!stack) total = total < 0 || s->dims[dim] < 0 ? -1 : total + s->dims[dim];
  }
  if (stack) {
    for (int i = nd - 1; i > dim; i--) o.dims[i] = o.dims[i - 1];
    o.dims[dim] = (int64_t)items->items.len;
    o.ndim = nd;
  } else {
    o.dims[dim] = total;
  }
  return make(st, &o, UINT32_MAX, grad, true, items->items.items[0]->kind == V_TENSOR ? items->items.items[0]->dim0 : (TSNode){0});
}


value *act_torch_call(interp *st, const char *qual, args *a) {
  if (!st->act) return NULL;
  const char *n;
  if (!strcmp(qual, "torch.no_grad") || !strcmp(qual, "torch.inference_mode") || !strcmp(qual, "torch.enable_grad") ||
      !strcmp(qual, "torch.autocast") || !strcmp(qual, "torch.amp.autocast") || !strcmp(qual, "torch.cuda.amp.autocast") ||
      !strcmp(qual, "torch.cpu.amp.autocast") || !strcmp(qual, "torch.amp.autocast_mode.autocast"))
    return context(st, qual, a);
  if (!strcmp(qual, "torch.utils.checkpoint.checkpoint")) return checkpoint(st, a);
  /* progress bars yield what they wrap */
  if ((!strcmp(qual, "tqdm.tqdm") || !strcmp(qual, "tqdm.auto.tqdm") || !strcmp(qual, "tqdm.notebook.tqdm")) && a->pos.len &&
      a->pos.items[0]->kind == V_OBJECT && a->pos.items[0]->u.obj->kind == OBJ_LOADER)
    return a->pos.items[0];
  if (!any_tensor(a)) return NULL;
  if (!(n = after(qual, "torch.nn.functional.")) && !((n = after(qual, "torch.")) && !strchr(n, '.'))) return NULL;
  value *x = a->pos.len ? a->pos.items[0] : NULL;
  if (!strcmp(n, "cat") || !strcmp(n, "concat") || !strcmp(n, "stack")) return cat(st, a, !strcmp(n, "stack"));
  if (!strcmp(n, "from_numpy") && x && x->kind == V_TENSOR) return x;
  if (!x || x->kind != V_TENSOR) return NULL;
  if (!known(x->u.tensor)) return NULL;
  uint32_t line = line_of(st, a->node);
  const char *label = call_label(st, a->node);
  int ab = st->act->autocast_bits;
  /* methods that torch.* also has: torch.flatten(x, 1), torch.transpose(x, 0, 1) */
  static const char *const methods[] = {"flatten", "reshape", "transpose", "permute", "squeeze", "unsqueeze", "split",
                                        "chunk", "sum", "mean", "softmax", "log_softmax", "masked_fill", "tanh", "sigmoid",
                                        "exp", "relu", "t", "unbind", NULL};
  for (size_t i = 0; methods[i]; i++)
    if (!strcmp(n, methods[i]) && !(after(qual, "torch.nn.functional.") && (!strcmp(n, "softmax") || !strcmp(n, "log_softmax")))) {
      args b = *a;
      b.pos.items = a->pos.items + 1;
      b.pos.len = a->pos.len - 1;
      b.pos.cap = b.pos.len;
      return act_tensor_method(st, x, n, &b);
    }
  if (!strcmp(n, "relu") || !strcmp(n, "relu_") || !strcmp(n, "relu6") || !strcmp(n, "hardtanh"))
    return unary(st, OP_SAVE_OUTPUT, line, label, x, !strcmp(n, "relu_") || flag_of(arg_get(a, -1, "inplace"), false), 0, 0);
  if (!strcmp(n, "softmax") || !strcmp(n, "log_softmax"))
    return unary(st, OP_SAVE_OUTPUT, line, label, x, false, 0, ab ? 32 : 0);
  if (!strcmp(n, "gelu") || !strcmp(n, "silu") || !strcmp(n, "mish") || !strcmp(n, "hardswish") || !strcmp(n, "softplus") ||
      !strcmp(n, "elu") || !strcmp(n, "leaky_relu") || !strcmp(n, "selu") || !strcmp(n, "logsigmoid"))
    return unary(st, OP_SAVE_INPUT, line, label, x, false, 0, 0);
  if (!strcmp(n, "dropout") || !strcmp(n, "dropout1d") || !strcmp(n, "dropout2d") || !strcmp(n, "dropout3d")) {
    bool training = flag_of(arg_get(a, 2, "training"), true);
    return unary(st, OP_DROPOUT, line, label, x, flag_of(arg_get(a, 3, "inplace"), false), training ? num_of(arg_get(a, 1, "p"), 0.5) : 0, 0);
  }
  if (!strncmp(n, "max_pool", 8))
    return pool(st, OP_MAX_POOL, line, label, x, spatial_dims(n), arg_get(a, 1, "kernel_size"), arg_get(a, 2, "stride"),
                arg_get(a, 3, "padding"), arg_get(a, 4, "dilation"), flag_of(arg_get(a, 5, "ceil_mode"), false));
  if (!strncmp(n, "avg_pool", 8))
    return pool(st, OP_SAVE_INPUT, line, label, x, spatial_dims(n), arg_get(a, 1, "kernel_size"), arg_get(a, 2, "stride"),
                arg_get(a, 3, "padding"), NULL, flag_of(arg_get(a, 4, "ceil_mode"), false));
  if (!strncmp(n, "adaptive_avg_pool", 17) || !strncmp(n, "adaptive_max_pool", 17))
    return adaptive_pool(st, n[9] == 'm', line, label, x, spatial_dims(n), arg_get(a, 1, "output_size"));
  if (!strcmp(n, "linear")) {
    value *w = arg_get(a, 1, "weight");
    const shape *ws = w ? shape_of(w) : NULL;
    if (!ws || ws->ndim != 2) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    return linear(st, line, label, x, w, ws->dims[0]);
  }
  if (!strncmp(n, "conv", 4) && (n[4] == '1' || n[4] == '2' || n[4] == '3')) {
    value *w = arg_get(a, 1, "weight");
    const shape *ws = w ? shape_of(w) : NULL;
    if (!ws) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    return conv(st, line, label, x, w, n[4] - '0', false, arg_get(a, 3, "stride"), arg_get(a, 4, "padding"),
                arg_get(a, 5, "dilation"), NULL, ws->dims[0]);
  }
  if (!strcmp(n, "layer_norm") || !strcmp(n, "rms_norm")) {
    value *ns = arg_get(a, 1, "normalized_shape");
    int64_t inner = 1;
    seq *dims = ns ? v_iterate(st, ns) : NULL;
    int64_t one;
    if (ns && v_as_int(ns, &one)) inner = one;
    else if (dims) {
      for (uint32_t i = 0; i < dims->items.len; i++) {
        if (!v_as_int(dims->items.items[i], &one)) return v_unknown(st, "line %u: %s: its shape is not known", line, label);
        inner *= one;
      }
    } else {
      return v_unknown(st, "line %u: %s: its normalized shape is not known", line, label);
    }
    value *ps[2] = {arg_get(a, 2, "weight"), arg_get(a, 3, "bias")};
    return norm(st, n[0] == 'r' ? OP_RMS_NORM : OP_LAYER_NORM, line, label, x, inner > 0 ? elems(x->u.tensor) / inner : -1, ps, 2);
  }
  if (!strcmp(n, "embedding")) return embedding(st, line, label, x, arg_get(a, 1, "weight") ? arg_get(a, 1, "weight") : st->unknown);
  if (!strcmp(n, "cross_entropy") || !strcmp(n, "nll_loss") || !strcmp(n, "mse_loss") || !strcmp(n, "l1_loss") ||
      !strcmp(n, "smooth_l1_loss") || !strcmp(n, "binary_cross_entropy") || !strcmp(n, "binary_cross_entropy_with_logits")) {
    value *t = arg_get(a, 1, "target");
    op_kind k = !strcmp(n, "cross_entropy") ? OP_CROSS_ENTROPY : !strcmp(n, "nll_loss") ? OP_NLL_LOSS : OP_PAIR_LOSS;
    return loss(st, k, line, label, x, t && is_tensor(t) ? t : NULL);
  }
  if (!strcmp(n, "scaled_dot_product_attention")) {
    value *k = arg_get(a, 1, "key"), *v = arg_get(a, 2, "value");
    if (!k || !v || k->kind != V_TENSOR || v->kind != V_TENSOR || !known(k->u.tensor) || !known(v->u.tensor))
      return v_unknown(st, "line %u: %s: its key or value is not known", line, label);
    if (ab) {
      x = cast(st, x, ab);
      k = cast(st, k, ab);
      v = cast(st, v, ab);
    }
    shape o = *x->u.tensor;
    o.dims[o.ndim - 1] = v->u.tensor->dims[v->u.tensor->ndim - 1];
    bool grad = info_of(st, x).grad || info_of(st, k).grad || info_of(st, v).grad;
    value *out = make(st, &o, UINT32_MAX, grad, false, x->dim0);
    /* flash, memory-efficient and cuDNN attention write (B, S, H, D): the
     * usual y.transpose(1, 2).contiguous() copies nothing */
    if (o.ndim == 4) map_get(st->act, out->u.tensor)->bshd = true;
    saved_in si;
    memset(&si, 0, sizeof si);
    int64_t d = x->u.tensor->dims[x->u.tensor->ndim - 1];
    si.rows = d > 0 ? elems(x->u.tensor) / d : -1;
    value *ins[3] = {x, k, v};
    record(st, OP_SDPA, line, label, ins, 3, out, &si);
    return out;
  }
  if (!strcmp(n, "matmul") || !strcmp(n, "bmm") || !strcmp(n, "mm")) {
    value *r = a->pos.len > 1 ? a->pos.items[1] : NULL;
    if (!r || !is_tensor(r) || !known(shape_of(r))) return v_unknown(st, "line %u: %s: an operand is not known", line, label);
    return matmul(st, line, label, x, r);
  }
  if (!strcmp(n, "zeros_like") || !strcmp(n, "ones_like") || !strcmp(n, "randn_like") || !strcmp(n, "rand_like") ||
      !strcmp(n, "empty_like") || !strcmp(n, "tril") || !strcmp(n, "triu") || !strcmp(n, "full_like"))
    return make(st, x->u.tensor, UINT32_MAX, !strcmp(n, "tril") || !strcmp(n, "triu") ? info_of(st, x).grad : false, true, x->dim0);
  return NULL;
}


/* ---- tensor methods ---- */

static bool dims_of_args(interp *st, args *a, int first, int64_t *out, int *n) {
  *n = 0;
  if ((int)a->pos.len == first + 1) {
    value *v = a->pos.items[first];
    if (v->kind == V_LIST || v->kind == V_TUPLE) {
      seq *s = v->u.seq;
      if (s->items.len > EST_MAX_DIMS) return false;
      for (uint32_t i = 0; i < s->items.len; i++)
        if (!v_as_int(s->items.items[i], &out[(*n)++])) return false;
      return true;
    }
  }
  (void)st;
  for (uint32_t i = (uint32_t)first; i < a->pos.len; i++) {
    if (*n >= EST_MAX_DIMS || !v_as_int(a->pos.items[i], &out[(*n)++])) return false;
  }
  return true;
}


static value *view(interp *st, value *x, const int64_t *dims, int n, bool reshape) {
  const shape *in = x->u.tensor;
  int64_t total = elems(in);
  shape o = *in;
  o.ndim = n;
  int infer = -1;
  int64_t prod = 1;
  for (int i = 0; i < n; i++) {
    if (dims[i] == -1) {
      if (infer >= 0) return v_unknown(st, "a view with two -1 dimensions");
      infer = i;
      continue;
    }
    if (dims[i] < 0) return v_unknown(st, "a view of a negative size");
    o.dims[i] = dims[i];
    prod *= dims[i];
  }
  if (infer >= 0) {
    if (total < 0 || prod == 0) return v_unknown(st, "a view whose size is not known");
    o.dims[infer] = total / prod;
  } else if (total >= 0 && prod != total) {
    return v_unknown(st, "a view of %lld elements as %lld", (long long)total, (long long)prod);
  }
  tinfo t = info_of(st, x);
  /* reshape of a transposed tensor copies it */
  bool copy = reshape && !t.contig;
  return make(st, &o, copy ? UINT32_MAX : t.storage, t.grad, true, x->dim0);
}


static value *tuple_of(interp *st, value **items, uint32_t n) {
  value *t = v_list(st, V_TUPLE);
  for (uint32_t i = 0; i < n; i++) avec_push(st->a, &t->u.seq->items, items[i]);
  return t;
}


value *act_tensor_method(interp *st, value *self, const char *name, args *a) {
  if (!st->act || self->kind != V_TENSOR || !known(self->u.tensor)) return NULL;
  const shape *in = self->u.tensor;
  tinfo t = info_of(st, self);
  int nd = in->ndim;
  int64_t dims[EST_MAX_DIMS];
  int n;
  uint32_t line = line_of(st, a->node);
  if (!strcmp(name, "view") || !strcmp(name, "reshape")) {
    if (a->pos.len == 1 && a->pos.items[0]->kind == V_EXTERN) return NULL; /* view(dtype) */
    if (!dims_of_args(st, a, 0, dims, &n)) return v_unknown(st, "line %u: a view whose shape is not known", line);
    return view(st, self, dims, n, name[0] == 'r');
  }
  if (!strcmp(name, "view_as") || !strcmp(name, "reshape_as") || !strcmp(name, "expand_as")) {
    const shape *o = a->pos.len ? shape_of(a->pos.items[0]) : NULL;
    if (!o || !known(o)) return v_unknown(st, "line %u: a view like a tensor not known", line);
    return view(st, self, o->dims, o->ndim, name[0] == 'r');
  }
  if (!strcmp(name, "flatten")) {
    int64_t s = int_or(arg_get(a, 0, "start_dim"), 0, 0), e = int_or(arg_get(a, 1, "end_dim"), 0, -1);
    if (s < 0) s += nd;
    if (e < 0) e += nd;
    if (nd == 0) return self;
    if (s < 0 || e >= nd || s > e) return v_unknown(st, "line %u: a flatten out of range", line);
    n = 0;
    for (int i = 0; i < s; i++) dims[n++] = in->dims[i];
    int64_t p = 1;
    for (int64_t i = s; i <= e; i++) p *= in->dims[i];
    dims[n++] = p;
    for (int i = (int)e + 1; i < nd; i++) dims[n++] = in->dims[i];
    return view(st, self, dims, n, true);
  }
  if (!strcmp(name, "transpose") || !strcmp(name, "swapaxes") || !strcmp(name, "t") || !strcmp(name, "permute")) {
    shape o = *in;
    if (name[0] == 'p') {
      if (!dims_of_args(st, a, 0, dims, &n) || n != nd) return v_unknown(st, "line %u: a permute not known", line);
      for (int i = 0; i < nd; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + nd : dims[i];
        if (d < 0 || d >= nd) return v_unknown(st, "line %u: a permute out of range", line);
        o.dims[i] = in->dims[d];
      }
    } else {
      int64_t d0 = name[0] == 't' && name[1] == 0 ? 0 : int_or(a->pos.len ? a->pos.items[0] : NULL, 0, -99);
      int64_t d1 = name[0] == 't' && name[1] == 0 ? 1 : int_or(a->pos.len > 1 ? a->pos.items[1] : NULL, 0, -99);
      if (d0 < 0) d0 += nd;
      if (d1 < 0) d1 += nd;
      if (d0 < 0 || d1 < 0 || d0 >= nd || d1 >= nd) return v_unknown(st, "line %u: a transpose out of range", line);
      o.dims[d0] = in->dims[d1];
      o.dims[d1] = in->dims[d0];
      if (t.bshd && ((d0 == 1 && d1 == 2) || (d0 == 2 && d1 == 1))) return make(st, &o, t.storage, t.grad, true, self->dim0);
    }
    return make(st, &o, t.storage, t.grad, false, self->dim0);
  }
  if (!strcmp(name, "contiguous")) return t.contig ? self : make(st, in, UINT32_MAX, t.grad, true, self->dim0);
  if (!strcmp(name, "unsqueeze") || !strcmp(name, "squeeze")) {
    shape o = *in;
    int64_t d = int_or(a->pos.len ? a->pos.items[0] : NULL, 0, -99);
    if (name[0] == 'u') {
      if (d < 0) d += nd + 1;
      if (d < 0 || d > nd || nd + 1 > EST_MAX_DIMS) return v_unknown(st, "line %u: an unsqueeze out of range", line);
      for (int i = nd; i > d; i--) o.dims[i] = o.dims[i - 1];
      o.dims[d] = 1;
      o.ndim++;
    } else {
      o.ndim = 0;
      if (d < 0 && d != -99) d += nd;
      for (int i = 0; i < nd; i++)
        if (!(in->dims[i] == 1 && (d == -99 || d == i))) o.dims[o.ndim++] = in->dims[i];
    }
    return make(st, &o, t.storage, t.grad, t.contig, self->dim0);
  }
  if (!strcmp(name, "split") || !strcmp(name, "chunk")) {
    value *sz = arg_get(a, 0, name[0] == 's' ? "split_size" : "chunks");
    int64_t d = int_or(arg_get(a, 1, "dim"), 0, 0);
    if (d < 0) d += nd;
    int64_t s;
    if (d < 0 || d >= nd || !sz || !v_as_int(sz, &s) || s < 1) return v_unknown(st, "line %u: a %s not known", line, name);
    int64_t L = in->dims[d];
    int64_t size = name[0] == 's' ? s : (L + s - 1) / s;
    if (size < 1) return v_unknown(st, "line %u: a %s not known", line, name);
    value *parts[64];
    uint32_t np = 0;
    for (int64_t off = 0; off < L && np < 64; off += size) {
      shape o = *in;
      o.dims[d] = off + size <= L ? size : L - off;
      parts[np++] = make(st, &o, t.storage, t.grad, d == 0, self->dim0);
    }
    return tuple_of(st, parts, np);
  }
  if (!strcmp(name, "unbind")) {
    int64_t d = int_or(arg_get(a, 0, "dim"), 0, 0);
    if (d < 0) d += nd;
    if (d < 0 || d >= nd || in->dims[d] > 64) return v_unknown(st, "line %u: an unbind not known", line);
    value *parts[64];
    shape o = *in;
    for (int i = (int)d; i + 1 < nd; i++) o.dims[i] = o.dims[i + 1];
    o.ndim--;
    for (int64_t i = 0; i < in->dims[d]; i++) parts[i] = make(st, &o, t.storage, t.grad, false, self->dim0);
    return tuple_of(st, parts, (uint32_t)in->dims[d]);
  }
  if (!strcmp(name, "expand")) {
    if (!dims_of_args(st, a, 0, dims, &n) || n < nd) return v_unknown(st, "line %u: an expand not known", line);
    shape o = *in;
    o.ndim = n;
    for (int i = 0; i < n; i++) {
      int j = i - (n - nd);
      o.dims[i] = dims[i] == -1 && j >= 0 ? in->dims[j] : dims[i];
    }
    return make(st, &o, t.storage, t.grad, false, self->dim0);
  }
  if (!strcmp(name, "sum") || !strcmp(name, "mean") || !strcmp(name, "amax")) {
    value *dv = arg_get(a, 0, "dim");
    bool keep = flag_of(arg_get(a, 1, "keepdim"), false);
    int64_t d;
    if (!dv) return make(st, &(shape){.ndim = 0, .bits = in->bits}, UINT32_MAX, t.grad, true, (TSNode){0});
    if (!v_as_int(dv, &d)) return v_unknown(st, "line %u: a reduction over dimensions not known", line);
    if (d < 0) d += nd;
    if (d < 0 || d >= nd) return v_unknown(st, "line %u: a reduction out of range", line);
    shape o = *in;
    if (keep) o.dims[d] = 1;
    else {
      for (int i = (int)d; i + 1 < nd; i++) o.dims[i] = o.dims[i + 1];
      o.ndim--;
    }
    return make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
  }
  if (!strcmp(name, "softmax") || !strcmp(name, "log_softmax"))
    return unary(st, OP_SAVE_OUTPUT, line, call_label(st, a->node), self, false, 0, st->act->autocast_bits ? 32 : 0);
  if (!strcmp(name, "relu") || !strcmp(name, "relu_") || !strcmp(name, "tanh") || !strcmp(name, "sigmoid") ||
      !strcmp(name, "exp") || !strcmp(name, "sqrt") || !strcmp(name, "rsqrt"))
    return unary(st, OP_SAVE_OUTPUT, line, call_label(st, a->node), self, !strcmp(name, "relu_"), 0, 0);
  if (!strcmp(name, "pow") || !strcmp(name, "log") || !strcmp(name, "abs"))
    return unary(st, OP_SAVE_INPUT, line, call_label(st, a->node), self, false, 0, 0);
  if (!strcmp(name, "masked_fill") || !strcmp(name, "masked_fill_")) {
    value *mask = a->pos.len ? a->pos.items[0] : NULL;
    value *out = make(st, in, name[11] == '_' ? t.storage : UINT32_MAX, t.grad, true, self->dim0);
    if (mask && mask->kind == V_TENSOR) {
      saved_in si;
      memset(&si, 0, sizeof si);
      value *ins[2] = {self, mask};
      record(st, OP_MASKED_FILL, line, call_label(st, a->node), ins, 2, out, &si);
    }
    return out;
  }
  if (!strcmp(name, "matmul") && a->pos.len && is_tensor(a->pos.items[0]) && known(shape_of(a->pos.items[0])))
    return matmul(st, line, call_label(st, a->node), self, a->pos.items[0]);
  if (!strcmp(name, "detach")) return make(st, in, t.storage, false, t.contig, self->dim0);
  if (!strcmp(name, "requires_grad_")) {
    map_get(st->act, in)->grad = flag_of(arg_get(a, 0, "requires_grad"), true);
    return self;
  }
  if (!strcmp(name, "clone") || !strcmp(name, "repeat")) {
    if (name[0] == 'c') return make(st, in, UINT32_MAX, t.grad, true, self->dim0);
    if (!dims_of_args(st, a, 0, dims, &n) || n < nd) return v_unknown(st, "line %u: a repeat not known", line);
    shape o = *in;
    o.ndim = n;
    for (int i = 0; i < n; i++) {
      int j = i - (n - nd);
      o.dims[i] = dims[i] * (j >= 0 ? in->dims[j] : 1);
    }
    return make(st, &o, UINT32_MAX, t.grad, true, self->dim0);
  }
  if (!strcmp(name, "float") || !strcmp(name, "half") || !strcmp(name, "bfloat16") || !strcmp(name, "double") ||
      !strcmp(name, "long") || !strcmp(name, "to") || !strcmp(name, "type_as") || !strcmp(name, "cuda") || !strcmp(name, "cpu")) {
    int bits = name[0] == 'f' ? 32 : name[0] == 'h' || name[0] == 'b' ? 16 : name[0] == 'd' || name[0] == 'l' ? 64 : 0;
    if (!strcmp(name, "to")) {
      const char *dn;
      for (uint32_t i = 0; i < a->pos.len && !bits; i++)
        if (a->pos.items[i]->kind == V_EXTERN) torch_dtype(a->pos.items[i]->u.ext, strlen(a->pos.items[i]->u.ext), &bits, &dn);
      value *dt = arg_get(a, -1, "dtype");
      if (dt && dt->kind == V_EXTERN) torch_dtype(dt->u.ext, strlen(dt->u.ext), &bits, &dn);
    }
    if (!strcmp(name, "type_as") && a->pos.len && is_tensor(a->pos.items[0])) bits = bits_of(st, shape_of(a->pos.items[0]));
    if (!bits || bits == bits_of(st, in)) return self;
    shape o = *in;
    o.bits = bits;
    return make(st, &o, UINT32_MAX, t.grad && bits != 64, true, self->dim0);
  }
  if (!strcmp(name, "astype")) {
    /* NumPy: x.astype(np.int64) */
    value *d = a->pos.len ? a->pos.items[0] : arg_get(a, -1, "dtype");
    const char *q = d && d->kind == V_EXTERN ? strrchr(d->u.ext, '.') : NULL;
    q = q ? q + 1 : d && d->kind == V_STR ? st_strdup(st, d->u.s.s, d->u.s.n) : NULL;
    int bits = !q ? 0 : strstr(q, "64") ? 64 : strstr(q, "32") ? 32 : strstr(q, "16") ? 16 : strstr(q, "8") || !strcmp(q, "bool") ? 8 : 0;
    if (!bits) return v_unknown(st, "line %u: astype() to a dtype not known", line);
    shape o = *in;
    o.bits = bits;
    return make(st, &o, UINT32_MAX, false, true, self->dim0);
  }
  if (!strcmp(name, "backward") || !strcmp(name, "item") || !strcmp(name, "tolist")) return NULL;
  return NULL;
}


/* ---- arithmetic ---- */

value *act_binary(interp *st, const char *op, value *l, value *r) {
  if (!st->act) return NULL;
  bool lt = is_tensor(l), rt = is_tensor(r);
  if (!lt && !rt) return NULL;
  double d;
  if ((lt && !known(shape_of(l))) || (rt && !known(shape_of(r)))) return NULL;
  if ((!lt && !v_as_num(l, &d)) || (!rt && !v_as_num(r, &d))) return NULL;
  if (!strcmp(op, "@")) {
    if (!lt || !rt) return NULL;
    return matmul(st, frame_line(st), frame_label(st, "@"), l, r);
  }
  op_kind k;
  if (!strcmp(op, "==")) {
    /* comparisons: a bool tensor that needs no gradient */
    shape o;
    if (lt && rt) {
      value *bad = broadcast(st, shape_of(l), shape_of(r), &o);
      if (bad) return bad;
    } else {
      o = *shape_of(lt ? l : r);
    }
    o.bits = 8;
    return make(st, &o, UINT32_MAX, false, true, (TSNode){0});
  }
  if (!strcmp(op, "+") || !strcmp(op, "-")) k = OP_NONE;
  else if (!strcmp(op, "*")) k = OP_MUL;
  else if (!strcmp(op, "/")) k = OP_DIV;
  else if (!strcmp(op, "**")) k = OP_SAVE_INPUT;
  else return NULL;
  shape o;
  if (lt && rt) {
    value *bad = broadcast(st, shape_of(l), shape_of(r), &o);
    if (bad) return bad;
  } else {
    o = *shape_of(lt ? l : r);
  }
  bool grad = (lt && info_of(st, l).grad) || (rt && info_of(st, r).grad);
  value *out = make(st, &o, UINT32_MAX, grad, true, lt && l->kind == V_TENSOR ? l->dim0 : r->kind == V_TENSOR ? r->dim0 : (TSNode){0});
  saved_in si;
  memset(&si, 0, sizeof si);
  if (k == OP_SAVE_INPUT) {
    if (!lt) return out; /* 2 ** x keeps the result; rare in models */
    value *ins[1] = {l};
    record(st, k, frame_line(st), frame_label(st, "**"), ins, 1, out, &si);
    return out;
  }
  if (lt && rt) {
    value *ins[2] = {l, r};
    record(st, k, frame_line(st), frame_label(st, op), ins, 2, out, &si);
  } else if (k == OP_MUL || (k == OP_DIV && lt)) {
    /* a Python number becomes a 0-dim tensor of 8 bytes, which mul and div keep */
    value *num = fresh(st, 0, NULL, 64, false);
    value *ins[2] = {lt ? l : r, num};
    record(st, k, frame_line(st), frame_label(st, op), ins, 2, out, &si);
  }
  return out;
}


/* ---- subscripts ---- */

static bool slice_bounds(interp *st, scope *sc, TSNode sl, int64_t len, int64_t *count) {
  int64_t b[3] = {0, len, 1};
  bool given[3] = {false, false, false};
  TSTreeCursor c = ts_tree_cursor_new(sl);
  int part = 0;
  bool ok = true;
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(x)) {
        part++;
        continue;
      }
      if (part > 2) break;
      value *v = eval(st, sc, x);
      int64_t i;
      if (v->kind == V_NONE) continue;
      if (!v_as_int(v, &i)) {
        ok = false;
        break;
      }
      b[part] = i;
      given[part] = true;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  if (!ok || b[2] <= 0) return false;
  int64_t start = given[0] ? b[0] : 0, stop = given[1] ? b[1] : len;
  if (start < 0) start += len;
  if (stop < 0) stop += len;
  if (start < 0) start = 0;
  if (stop > len) stop = len;
  *count = stop > start ? (stop - start + b[2] - 1) / b[2] : 0;
  return true;
}


/* The length of a window `data[i:i + K]` (also `data[i + 1:i + 1 + K]`): K, or -1. */
static int64_t window(interp *st, scope *sc, TSNode sl) {
  TSNode parts[2];
  int part = 0, got = 0;
  uint32_t count = ts_node_child_count(sl);
  for (uint32_t i = 0; i < count; i++) {
    TSNode x = ts_node_child(sl, i);
    if (!ts_node_is_named(x)) {
      part++;
      continue;
    }
    if (part > 1) return -1;
    parts[part] = x;
    got |= 1 << part;
  }
  if (got != 3 || !NODE_IS(parts[1], "binary_operator")) return -1;
  TSNode l = ts_node_child_by_field_name(parts[1], "left", 4), r = ts_node_child_by_field_name(parts[1], "right", 5);
  TSNode op = ts_node_child_by_field_name(parts[1], "operator", 8);
  uint32_t n0, n1, n2;
  if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op)) return -1;
  const char *ot = st_text(st, op, &n2);
  if (n2 != 1 || ot[0] != '+') return -1;
  const char *a = st_text(st, parts[0], &n0), *b = st_text(st, l, &n1);
  TSNode size = r;
  if (n0 != n1 || memcmp(a, b, n0) != 0) {
    b = st_text(st, r, &n1);
    if (n0 != n1 || memcmp(a, b, n0) != 0) return -1;
    size = l;
  }
  int64_t k;
  return v_as_int(eval(st, sc, size), &k) && k >= 0 ? k : -1;
}


seq *act_iterate(interp *st, value *v) {
  if (!st->act || v->kind != V_TENSOR || !known(v->u.tensor) || v->u.tensor->ndim < 1 || v->u.tensor->dims[0] > 65536)
    return NULL;
  const shape *in = v->u.tensor;
  tinfo t = info_of(st, v);
  shape o = *in;
  for (int i = 0; i + 1 < in->ndim; i++) o.dims[i] = in->dims[i + 1];
  o.ndim--;
  seq *s = seq_new(st);
  value *row = make(st, &o, t.storage, t.grad, true, (TSNode){0});
  /* the rows differ only in their values, which the estimate does not follow */
  for (int64_t i = 0; i < in->dims[0]; i++) avec_push(st->a, &s->items, row);
  return s;
}


value *act_subscript(interp *st, scope *sc, value *v, const TSNode *subs, uint32_t ns) {
  if (st->act && v->kind == V_UNKNOWN && ns == 1 && NODE_IS(subs[0], "slice")) {
    /* a window of an array the estimate does not know (nanoGPT's get_batch) */
    int64_t k = window(st, sc, subs[0]);
    if (k < 0) return NULL;
    shape o;
    memset(&o, 0, sizeof o);
    o.ndim = 1;
    o.dims[0] = k;
    return make(st, &o, UINT32_MAX, false, true, (TSNode){0});
  }
  if (!st->act || v->kind != V_TENSOR || !known(v->u.tensor)) return NULL;
  const shape *in = v->u.tensor;
  tinfo t = info_of(st, v);
  shape o;
  memset(&o, 0, sizeof o);
  o.bits = in->bits;
  int d = 0;
  bool gather = false, contig = t.contig;
  value *index = NULL;
  /* the dimensions an ellipsis stands for */
  int used = 0;
  for (uint32_t i = 0; i < ns; i++)
    if (!NODE_IS(subs[i], "ellipsis") && !NODE_IS(subs[i], "none")) used++;
  for (uint32_t i = 0; i < ns; i++) {
    TSNode s = subs[i];
    if (o.ndim >= EST_MAX_DIMS) return v_unknown(st, "an index of too many dimensions");
    if (NODE_IS(s, "ellipsis")) {
      for (int k = 0; k < in->ndim - used && o.ndim < EST_MAX_DIMS; k++) o.dims[o.ndim++] = in->dims[d++];
      continue;
    }
    if (NODE_IS(s, "none")) {
      o.dims[o.ndim++] = 1;
      continue;
    }
    if (d >= in->ndim) return v_unknown(st, "an index of more dimensions than the tensor has");
    if (NODE_IS(s, "slice")) {
      int64_t count;
      if (!slice_bounds(st, sc, s, in->dims[d], &count)) return v_unknown(st, "a slice whose bounds are not known");
      if (count != in->dims[d] && d > 0) contig = false;
      o.dims[o.ndim++] = count;
      d++;
      continue;
    }
    value *k = eval(st, sc, s);
    int64_t x;
    if (v_as_int(k, &x)) {
      if (d > 0) contig = false;
      d++;
      continue;
    }
    if (k->kind == V_TENSOR && known(k->u.tensor) && !gather) {
      for (int j = 0; j < k->u.tensor->ndim && o.ndim < EST_MAX_DIMS; j++) o.dims[o.ndim++] = k->u.tensor->dims[j];
      gather = true;
      index = k;
      d++;
      continue;
    }
    return v_unknown(st, "an index that is not known");
  }
  while (d < in->ndim && o.ndim < EST_MAX_DIMS) o.dims[o.ndim++] = in->dims[d++];
  if (!gather) return make(st, &o, t.storage, t.grad, contig, v->dim0);
  value *out = make(st, &o, UINT32_MAX, t.grad, true, v->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {index, v};
  record(st, OP_GATHER, frame_line(st), frame_label(st, "[index]"), ins, 2, out, &si);
  return out;
}


/* ---- results ---- */

static int64_t global_int(interp *st, const char *const *names, int64_t max) {
  for (size_t i = 0; names[i]; i++) {
    value *v = scope_get(st, st->globals, names[i], (uint32_t)strlen(names[i]));
    int64_t n;
    if (v && v_as_int(v, &n) && n >= 1 && n <= max) return n;
  }
  return 1;
}


int64_t act_world_size(interp *st) {
  static const char *const names[] = {"world_size", "WORLD_SIZE", "num_gpus", "n_gpus", "ngpus", "num_processes", NULL};
  return global_int(st, names, 1 << 20);
}


int64_t act_accumulation(interp *st) {
  static const char *const names[] = {"gradient_accumulation_steps", "grad_accum_steps", "accumulation_steps",
                                      "accum_steps", "accum_iter", "grad_accum", "gradient_accumulation", NULL};
  return global_int(st, names, 1 << 20);
}


void act_fill(interp *st, obj *m, estimate_model *out) {
  act_state *A = st->act;
  out->activations_bytes = -1;
  out->micro_batch = -1;
  out->act_why = NULL;
  int32_t best = -1;
  for (uint32_t i = 0; i < A->passes.len; i++) {
    pass_t *p = &A->passes.items[i];
    if (p->root != m) continue;
    /* a complete pass beats an incomplete one; then the largest */
    if (best < 0 || (!p->why && A->passes.items[best].why) ||
        (!p->why == !A->passes.items[best].why && p->total > A->passes.items[best].total))
      best = (int32_t)i;
  }
  if (best < 0) {
    for (uint32_t i = 0; i < A->whys.len; i++)
      if (A->whys.items[i].root == m) out->act_why = A->whys.items[i].why;
    if (!out->act_why) out->act_why = "the file never calls this model on a tensor whose shape is known";
    return;
  }
  pass_t *p = &A->passes.items[best];
  out->micro_batch = p->micro;
  out->activations_partial = p->total;
  out->activations_input = p->input_saved;
  out->recompute_bytes = p->recompute;
  out->checkpointed = p->checkpointed;
  out->act_bits = p->bits;
  if (p->why) out->act_why = p->why;
  else out->activations_bytes = p->total;
  AVEC(estimate_act) rows = {0};
  for (uint32_t i = 0; i < A->rows.len; i++) {
    row_t *r = &A->rows.items[i];
    if (r->pass != best || (!r->bytes && !r->what)) continue;
    estimate_act e = {r->line, r->label, r->what ? r->what : "", r->times, r->bytes};
    avec_push(st->a, &rows, e);
  }
  out->acts = rows.items;
  out->nacts = rows.len;
}
