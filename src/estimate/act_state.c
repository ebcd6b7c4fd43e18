/* This file contains the storages of the activations estimate: what tensor each value is (its
 * storage, gradient, layout), and the recording of what an op keeps for backward into its pass. */
#include "estimate/act.h"

#include <assert.h>
#include <string.h>

#include "parse/fields.h"

/* ---- tensors ---- */

const shape *act_shape_of(const value *v) {
  if (v->kind == V_TENSOR) return v->u.tensor;
  if (v->kind == V_PARAM) return &v->u.param->sh;
  return NULL;
}


bool act_is_tensor(const value *v) { return v && (v->kind == V_TENSOR || v->kind == V_PARAM); }


bool act_known(const shape *sh) {
  if (!sh || sh->ndim < 0 || sh->bits == EST_BITS_UNKNOWN) return false;
  for (int i = 0; i < sh->ndim; i++)
    if (sh->dims[i] < 0) return false;
  return true;
}


int64_t act_elems(const shape *sh) {
  if (!act_known(sh)) return -1;
  int64_t n = 1;
  for (int i = 0; i < sh->ndim; i++)
    if (__builtin_mul_overflow(n, sh->dims[i], &n)) return -1;
  return n;
}


int act_bits_of(interp *st, const shape *sh) { return sh->bits ? sh->bits : st->default_bits; }


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


tinfo *act_map_get(act_state *A, const shape *sh) {
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
tinfo act_info_of(interp *st, const value *v) {
  tinfo t = {UINT32_MAX, false, true, false};
  if (v->kind == V_PARAM) {
    t.grad = v->u.param->trainable;
    return t;
  }
  const shape *sh = v->u.tensor;
  tinfo *f = act_map_get(st->act, sh);
  if (f) return *f;
  int64_t n = act_elems(sh);
  t.storage = new_storage(st, n < 0 ? -1 : saved_elems_bytes(n, act_bits_of(st, sh)));
  avec_push(st->a, &st->act->infos, t);
  map_put(st, sh, st->act->infos.len - 1);
  return t;
}


/* A new tensor value of SH (copied), sharing STORAGE (UINT32_MAX: a new one). */
value *act_make(interp *st, const shape *sh, uint32_t storage, bool grad, bool contig, TSNode dim0) {
  value *t = v_new(st, V_TENSOR);
  shape *c = shape_new(st, sh->ndim < 0 ? 0 : sh->ndim);
  *c = *sh;
  t->u.tensor = c;
  t->dim0 = dim0;
  if (storage == UINT32_MAX) {
    int64_t n = act_elems(c);
    storage = new_storage(st, n < 0 ? -1 : saved_elems_bytes(n, act_bits_of(st, c)));
  }
  /* under torch.no_grad() nothing made needs a gradient (a DQN's target values) */
  tinfo ti = {storage, grad && !st->act->no_grad, contig, false};
  avec_push(st->a, &st->act->infos, ti);
  map_put(st, c, st->act->infos.len - 1);
  return t;
}


static void describe(interp *st, buf *b, const char *role, const shape *sh) {
  buf_printf(b, "%s%s ", b->len ? " + " : "", role);
  for (int i = 0; i < sh->ndim; i++) buf_printf(b, "%s%lld", i ? "x" : "", (long long)sh->dims[i]);
  if (!sh->ndim) buf_puts(b, "scalar");
  int bits = act_bits_of(st, sh);
  buf_printf(b, " %s", bits == 16 ? "16-bit" : bits == 64 ? "int64" : bits == 8 ? "8-bit" : "fp32");
}


/* ---- recording ---- */

void act_mark_resident(interp *st, value *t) {
  uint32_t s = act_info_of(st, t).storage; /* may grow the storages */
  st->act->storages.items[s].resident = true;
}


int32_t act_pass_of(interp *st, value *x) {
  act_state *A = st->act;
  if (A->nframes) return A->cur;
  if (!x || x->kind != V_TENSOR) return -1;
  tinfo t = act_info_of(st, x);
  return t.grad ? A->storages.items[t.storage].born : -1;
}


static int32_t pass_for(interp *st, value **ins, int nin) {
  act_state *A = st->act;
  if (A->nframes) return A->cur;
  /* a loss computed on a model's output belongs to that model's pass */
  for (int i = 0; i < nin; i++) {
    if (!ins[i] || ins[i]->kind != V_TENSOR) continue;
    tinfo t = act_info_of(st, ins[i]);
    if (t.grad && A->storages.items[t.storage].born >= 0) return A->storages.items[t.storage].born;
  }
  return -1;
}


row_t *act_row_at(interp *st, int32_t pass, uint32_t line, const char *label) {
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


void act_keep_value(interp *st, int32_t pass, row_t *row, value *v, const char *role, buf *what) {
  if (v->kind != V_TENSOR) return; /* parameters stay resident anyway */
  tinfo t = act_info_of(st, v);
  storage_t *s = &st->act->storages.items[t.storage];
  bool counted = (s->kept == pass && !st->act->ckpt) || s->resident;
  if (what && !row->what) {
    describe(st, what, role, v->u.tensor);
    /* a storage another op keeps too: counted once, where it was first kept */
    if (counted) buf_puts(what, s->resident ? " (a buffer)" : " (counted above)");
  }
  if (s->bytes < 0) {
    pass_t *p = &st->act->passes.items[pass];
    if (!p->why) p->why = "a kept tensor whose size is not known or too large to count";
    return;
  }
  if (counted) return;
  if (!st->act->ckpt) s->kept = pass;
  add_bytes(st, pass, row, s->bytes, s->input);
}


/* what the tensors an op makes only to keep them are */
static const char *extra_name(op_kind k, int autocast_bits) {
  switch (k) {
  case OP_DROPOUT: return "bool mask";
  case OP_MAX_POOL: return "int64 indices";
  case OP_CROSS_ENTROPY: return autocast_bits ? "16-bit log-probabilities + their fp32 copy" : "log-probabilities";
  case OP_NLL_LOSS: return "total_weight";
  case OP_RMS_NORM: return "normalized copy + rstd";
  case OP_RNN: return "cuDNN reserve space";
  case OP_SDPA: return "logsumexp + philox seed";
  default: return "fp32 mean and rstd";
  }
}


/* Record op K on INS giving OUT under ROW's LINE and LABEL. */
void act_record(interp *st, op_kind k, uint32_t line, const char *label, value **ins, int nin, value *out,
                   saved_in *si) {
  act_state *A = st->act;
  if (out && out->kind == V_TENSOR && !A->nframes) {
    /* an op on a model's output after the model returned (`q(x).gather(1, a)`):
     * its result belongs to that model's pass too, so that a loss on it does */
    tinfo to = act_info_of(st, out);
    if (to.grad && A->storages.items[to.storage].born < 0) {
      int32_t p = pass_for(st, ins, nin);
      if (p >= 0) A->storages.items[to.storage].born = p;
    }
  }
  if (A->no_grad || k == OP_NONE) return;
  bool grad = false;
  for (int i = 0; i < nin; i++)
    if (ins[i] && act_is_tensor(ins[i]) && act_info_of(st, ins[i]).grad) grad = true;
  if (!grad) return;
  int32_t pass = pass_for(st, ins, nin);
  if (pass < 0 || A->passes.items[pass].sealed) return;
  si->nin = nin > SAVED_MAX_IN ? SAVED_MAX_IN : nin;
  for (int i = 0; i < si->nin; i++) {
    const shape *sh = ins[i] ? act_shape_of(ins[i]) : NULL;
    si->in_elems[i] = sh ? act_elems(sh) : 0;
    si->in_bits[i] = sh ? act_bits_of(st, sh) : 32;
    si->in_grad[i] = sh && act_info_of(st, ins[i]).grad;
    si->in_param[i] = ins[i] && ins[i]->kind == V_PARAM;
  }
  si->autocast_bits = A->autocast_bits;
  if (out && out->kind == V_TENSOR) {
    si->out_elems = act_elems(out->u.tensor);
    si->out_bits = act_bits_of(st, out->u.tensor);
  }
  saved_out so;
  saved_rule(k, si, &so);
  row_t *row = act_row_at(st, pass, line, label);
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
    if (k == OP_EMBEDDING || k == OP_GATHER || (k == OP_GATHER_DIM && i == 0)) role = "indices";
    else if (k == OP_MASKED_FILL) role = "mask";
    else if ((k == OP_LINEAR || k == OP_CONV) && i < 2) role = weights[i];
    else if ((k == OP_MATMUL || k == OP_MUL || k == OP_DIV) && i < 2) role = pair[i];
    else if (k == OP_SDPA && i < 3) role = qkv[i];
    else if (k == OP_RNN && i < 3) role = states[i];
    else if ((k == OP_CROSS_ENTROPY || k == OP_NLL_LOSS || k == OP_PAIR_LOSS) && i < 2) role = target[i];
    act_keep_value(st, pass, row, ins[i], role, &what);
  }
  if (so.output && out) act_keep_value(st, pass, row, out, "output", &what);
  if (so.extra_bytes < 0 && !A->passes.items[pass].why) A->passes.items[pass].why = "a kept tensor too large to count";
  if (so.extra_bytes > 0) {
    add_bytes(st, pass, row, so.extra_bytes, false);
    if (!row->what) buf_printf(&what, "%s%s", what.len ? " + " : "", extra_name(k, si->autocast_bits));
  }
  if (!row->what && what.len) row->what = st_strdup(st, what.data, what.len);
  buf_free(&what);
}

