/* This file contains the ops of the activations estimate: torch.nn layers and the functional ops
 * behind them (linear, conv, pools, norms, embeddings, losses, matmul, RNNs, attention), each
 * giving its output shape and recording what autograd keeps. */
#include "estimate/act.h"

#include <assert.h>
#include <string.h>

#include "parse/fields.h"

/* ---- shapes ---- */

static shape *shape_copy(interp *st, const shape *sh) {
  shape *c = shape_new(st, sh->ndim);
  *c = *sh;
  return c;
}


int64_t act_int_or(const value *v, int i, int64_t dflt) {
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


bool act_flag_of(const value *v, bool dflt) {
  bool b;
  if (v && v_truth(v, &b)) return b;
  return dflt;
}


double act_num_of(const value *v, double dflt) {
  double d;
  if (v && v_as_num(v, &d)) return d;
  return dflt;
}


uint32_t act_line_of(interp *st, TSNode n) { return ts_node_is_null(n) ? 0 : st_line(st, n); }


const char *act_call_label(interp *st, TSNode n) {
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
 * list (act_linear, act_conv, act_matmul, attention), 32 for the fp32 list (norms, softmax, losses). */
value *act_cast(interp *st, value *x, int bits) {
  if (!bits || x->kind != V_TENSOR || act_bits_of(st, x->u.tensor) == bits || act_bits_of(st, x->u.tensor) == 64)
    return x;
  tinfo t = act_info_of(st, x);
  shape c = *x->u.tensor;
  c.bits = bits;
  return act_make(st, &c, UINT32_MAX, t.grad, true, x->dim0);
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
  value *copy = act_make(st, &c, UINT32_MAX, w->u.param->trainable, true, (TSNode){0});
  param_cast pc = {w->u.param, pass, bits, copy};
  avec_push(st->a, &A->casts, pc);
  return copy;
}


value *act_unary(interp *st, op_kind k, uint32_t line, const char *label, value *x, bool inplace, double p,
                    int bits) {
  /* dropout with p == 0 (or in eval mode) returns its input itself */
  if (k == OP_DROPOUT && p <= 0) return x;
  x = act_cast(st, x, bits);
  tinfo t = act_info_of(st, x);
  value *out = inplace ? act_make(st, x->u.tensor, t.storage, t.grad, t.contig, x->dim0)
                       : act_make(st, x->u.tensor, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  si.p = p;
  si.training = true;
  value *ins[1] = {x};
  act_record(st, k, line, label, ins, 1, out, &si);
  return out;
}


/* The output length of a convolution or pool over L. */
static int64_t conv_len(int64_t L, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  if (L < 0 || k < 1 || s < 1 || p < 0 || d < 1) return -1;
  int64_t span = L + 2 * p - d * (k - 1) - 1;
  if (span < 0) return -1;
  return (ceil_mode ? (span + s - 1) / s : span / s) + 1;
}


int act_spatial_dims(const char *name) {
  size_t n = strlen(name);
  if (n >= 2 && name[n - 1] == 'd' && name[n - 2] >= '1' && name[n - 2] <= '3') return name[n - 2] - '0';
  return 2;
}


/* pools (kernel, stride, padding, dilation) over the last ND dims of X */
value *act_pool(interp *st, op_kind k, uint32_t line, const char *label, value *x, int nd, value *kv, value *sv,
                   value *pv, value *dv, bool ceil_mode) {
  const shape *in = x->u.tensor;
  if (in->ndim < nd) return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  shape *o = shape_copy(st, in);
  for (int i = 0; i < nd; i++) {
    int64_t kk = act_int_or(kv, i, -1);
    int64_t s = sv && sv->kind != V_NONE ? act_int_or(sv, i, -1) : kk;
    int64_t L = conv_len(in->dims[in->ndim - nd + i], kk, s, act_int_or(pv, i, 0), act_int_or(dv, i, 1), ceil_mode);
    if (L < 0) return v_unknown(st, "line %u: %s: its kernel, stride or padding is not known", line, label);
    o->dims[in->ndim - nd + i] = L;
  }
  tinfo t = act_info_of(st, x);
  value *out = act_make(st, o, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[1] = {x};
  act_record(st, k, line, label, ins, 1, out, &si);
  return out;
}


value *act_adaptive_pool(interp *st, bool max, uint32_t line, const char *label, value *x, int nd, value *osz) {
  const shape *in = x->u.tensor;
  if (in->ndim < nd) return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  shape *o = shape_copy(st, in);
  bool ones = true;
  for (int i = 0; i < nd; i++) {
    int64_t L = act_int_or(osz, i, -1);
    if (osz && osz->kind == V_TUPLE && i < (int)osz->u.seq->items.len && osz->u.seq->items.items[i]->kind == V_NONE)
      L = in->dims[in->ndim - nd + i];
    if (L < 0) return v_unknown(st, "line %u: %s: its output size is not known", line, label);
    o->dims[in->ndim - nd + i] = L;
    if (L != 1) ones = false;
  }
  tinfo t = act_info_of(st, x);
  value *out = act_make(st, o, UINT32_MAX, t.grad, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[1] = {x};
  /* an average to 1x1 is a mean, which keeps nothing */
  act_record(st, max ? OP_MAX_POOL : ones ? OP_NONE : OP_SAVE_INPUT, line, label, ins, 1, out, &si);
  return out;
}


value *act_conv(interp *st, uint32_t line, const char *label, value *x, value *w, int nd, bool transposed,
                   value *sv, value *pv, value *dv, value *opv, int64_t out_channels) {
  const shape *in = x->u.tensor;
  const shape *ws = act_shape_of(w);
  if (in->ndim != nd + 2 && in->ndim != nd + 1)
    return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  if (!ws || ws->ndim != nd + 2) return v_unknown(st, "line %u: %s: its weight's shape is not known", line, label);
  shape *o = shape_copy(st, in);
  int c = in->ndim - nd - 1;
  o->dims[c] = out_channels;
  bool same = pv && pv->kind == V_STR && v_is_str(pv, "same");
  bool valid = pv && pv->kind == V_STR && v_is_str(pv, "valid");
  for (int i = 0; i < nd; i++) {
    int64_t L = in->dims[c + 1 + i], k = ws->dims[2 + i], s = act_int_or(sv, i, 1),
            p = valid ? 0 : act_int_or(pv, i, 0), d = act_int_or(dv, i, 1);
    int64_t out;
    if (same) out = L;
    else if (transposed)
      out = (L < 0 || s < 1 || p < 0) ? -1 : (L - 1) * s - 2 * p + d * (k - 1) + act_int_or(opv, i, 0) + 1;
    else out = conv_len(L, k, s, p, d, false);
    if (out < 0) return v_unknown(st, "line %u: %s: its output size is not known", line, label);
    o->dims[c + 1 + i] = out;
  }
  value *xc = act_cast(st, x, st->act->autocast_bits);
  o->bits = act_bits_of(st, xc->u.tensor);
  w = cast_weight(st, w);
  value *out = act_make(st, o, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {xc, w};
  act_record(st, OP_CONV, line, label, ins, 2, out, &si);
  return out;
}


value *act_linear(interp *st, uint32_t line, const char *label, value *x, value *w, int64_t out_features) {
  const shape *in = x->u.tensor;
  if (in->ndim < 1) return v_unknown(st, "line %u: %s of a scalar", line, label);
  value *xc = act_cast(st, x, st->act->autocast_bits);
  shape *o = shape_copy(st, xc->u.tensor);
  o->dims[o->ndim - 1] = out_features;
  w = cast_weight(st, w);
  value *out = act_make(st, o, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {xc, w};
  act_record(st, OP_LINEAR, line, label, ins, 2, out, &si);
  return out;
}


value *act_norm(interp *st, op_kind k, uint32_t line, const char *label, value *x, int64_t rows, value **params,
                   int np) {
  /* layer and group norm run in fp32 under autocast; batch norm in the input's dtype */
  if (k != OP_BATCH_NORM && st->act->autocast_bits) x = act_cast(st, x, 32);
  tinfo t = act_info_of(st, x);
  value *out = act_make(st, x->u.tensor, UINT32_MAX, true, true, x->dim0);
  (void)t;
  saved_in si;
  memset(&si, 0, sizeof si);
  si.rows = rows;
  si.training = true;
  value *ins[3] = {x, np > 0 ? params[0] : NULL, np > 1 ? params[1] : NULL};
  act_record(st, k, line, label, ins, 1 + (np > 2 ? 2 : np), out, &si);
  return out;
}


value *act_embedding(interp *st, uint32_t line, const char *label, value *idx, value *w) {
  const shape *is = idx->u.tensor, *ws = act_shape_of(w);
  if (!ws || ws->ndim != 2 || is->ndim + 1 > EST_MAX_DIMS)
    return v_unknown(st, "line %u: %s: its weight's shape is not known", line, label);
  shape *o = shape_new(st, is->ndim + 1);
  for (int i = 0; i < is->ndim; i++) o->dims[i] = is->dims[i];
  o->dims[is->ndim] = ws->dims[1];
  o->bits = ws->bits ? ws->bits : w->kind == V_PARAM ? w->u.param->bits : 32;
  value *out = act_make(st, o, UINT32_MAX, true, true, idx->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {idx, w};
  act_record(st, OP_EMBEDDING, line, label, ins, 2, out, &si);
  return out;
}


static value *scalar_out(interp *st, bool grad) {
  shape s;
  memset(&s, 0, sizeof s);
  s.ndim = 0;
  s.bits = 32;
  return act_make(st, &s, UINT32_MAX, grad, true, (TSNode){0});
}


value *act_loss(interp *st, op_kind k, uint32_t line, const char *label, value *x, value *target) {
  if (st->act->autocast_bits && k != OP_CROSS_ENTROPY) x = act_cast(st, x, 32);
  /* mse_loss(target_values, predictions) (a DQN's): the gradient flows through the target */
  bool tgrad = target && act_info_of(st, target).grad;
  value *out = scalar_out(st, act_info_of(st, x).grad || tgrad);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {x, target};
  act_record(st, k, line, label, ins, target ? 2 : 1, out, &si);
  /* backward starts with the gradient of the loss's input, in fp32 for the
   * losses autocast runs in fp32 (nll_loss's of 12,288 x 50,304 logits: 2.47 GB) */
  int32_t pass = act_pass_of(st, x);
  if (pass < 0 && tgrad) pass = act_pass_of(st, target);
  int64_t g = saved_elems_bytes(act_elems(x->u.tensor), st->act->autocast_bits ? 32 : act_bits_of(st, x->u.tensor));
  if (pass >= 0 && g > st->act->passes.items[pass].transient) st->act->passes.items[pass].transient = g;
  return out;
}


value *act_broadcast(interp *st, const shape *a, const shape *b, shape *out) {
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


value *act_matmul(interp *st, uint32_t line, const char *label, value *l, value *r) {
  int ab = st->act->autocast_bits;
  if (ab) {
    l = l->kind == V_PARAM ? cast_weight(st, l) : act_cast(st, l, ab);
    r = r->kind == V_PARAM ? cast_weight(st, r) : act_cast(st, r, ab);
  }
  const shape *a = act_shape_of(l), *b = act_shape_of(r);
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
  value *bad = act_broadcast(st, &ba, &bb, &o);
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
  bool grad = act_info_of(st, l).grad || act_info_of(st, r).grad;
  value *out = act_make(st, &o, UINT32_MAX, grad, true, l->kind == V_TENSOR ? l->dim0 : r->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  value *ins[2] = {l, r};
  act_record(st, OP_MATMUL, line, label, ins, 2, out, &si);
  return out;
}


/* ---- the frames: which module runs ---- */

uint32_t act_frame_line(interp *st) {
  act_state *A = st->act;
  return A->nframes ? act_line_of(st, A->frames[A->nframes - 1]->site) : 0;
}


const char *act_frame_label(interp *st, const char *op) {
  act_state *A = st->act;
  buf b = {0};
  const obj *m = A->nframes ? A->frames[A->nframes - 1] : NULL;
  buf_printf(&b, "%s%s%s", m && m->type ? m->type : "", m ? ".forward: " : "", op);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


value *act_first_tensor(args *a) {
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


value *act_one(interp *st, obj *m, value *x, TSNode node) {
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
  int64_t H = act_int_or(ctor_arg(m, 1, "hidden_size"), 0, -1), L = act_int_or(ctor_arg(m, 2, "num_layers"), 0, 1);
  if (hv) H = act_int_or(hv, 0, H);
  bool batch_first = act_flag_of(ctor_arg(m, 4 + shift, "batch_first"), false);
  int64_t dirs = act_flag_of(ctor_arg(m, 6 + shift, "bidirectional"), false) ? 2 : 1;
  if (lstm && act_int_or(ctor_arg(m, 7, "proj_size"), 0, 0) > 0)
    return v_unknown(st, "line %u: %s: what an LSTM with proj_size keeps is not modelled", line, label);
  const shape *in = x->u.tensor;
  if (H < 1 || L < 1 || (in->ndim != 3 && in->ndim != 2))
    return v_unknown(st, "line %u: %s: its sizes or its input's shape are not known", line, label);
  int64_t T = in->ndim == 2 ? in->dims[0] : batch_first ? in->dims[1] : in->dims[0];
  int64_t B = in->ndim == 2 ? 1 : batch_first ? in->dims[0] : in->dims[1];
  int ab = st->act->autocast_bits;
  value *xc = act_cast(st, x, ab);
  int bits = act_bits_of(st, xc->u.tensor);
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
  if (!h0 || h0->kind != V_TENSOR) h0 = act_make(st, &hs, UINT32_MAX, false, true, (TSNode){0});
  else h0 = act_cast(st, h0, ab);
  if (lstm && (!c0 || c0->kind != V_TENSOR)) c0 = act_make(st, &hs, UINT32_MAX, false, true, (TSNode){0});
  else if (lstm) c0 = act_cast(st, c0, ab);
  shape os = *in;
  os.dims[os.ndim - 1] = dirs * H;
  os.bits = bits;
  value *out = act_make(st, &os, UINT32_MAX, true, true, x->dim0);
  saved_in si;
  memset(&si, 0, sizeof si);
  int g = lstm ? 6 : gru ? 7 : 2;
  si.rows = dirs * T * B * H * (g * L - 1);
  /* a weight (a parameter, not counted) makes the op need gradients */
  value *ins[4] = {xc, h0, lstm ? c0 : NULL, param_attr(m, "weight_ih_l0")};
  act_record(st, OP_RNN, line, label, ins, 4, out, &si);
  value *hn = act_make(st, &hs, UINT32_MAX, true, true, (TSNode){0});
  value *state = hn;
  if (lstm) {
    value *cn = act_make(st, &hs, UINT32_MAX, true, true, x->dim0);
    value *pair[2] = {hn, cn};
    state = act_tuple_of(st, pair, 2);
  }
  value *both[2] = {out, state};
  return act_tuple_of(st, both, 2);
}


static const char *sub_label(interp *st, const char *label, const char *part) {
  buf b = {0};
  buf_printf(&b, "%s: %s", label, part);
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


static value *view_as_shape(interp *st, value *x, int n, const int64_t *dims, bool contig) {
  tinfo t = act_info_of(st, x);
  shape o = *x->u.tensor;
  o.ndim = n;
  for (int i = 0; i < n; i++) o.dims[i] = dims[i];
  return act_make(st, &o, t.storage, t.grad, contig, x->dim0);
}


value *act_fresh(interp *st, int n, const int64_t *dims, int bits, bool grad) {
  shape o;
  memset(&o, 0, sizeof o);
  o.ndim = n;
  for (int i = 0; i < n; i++) o.dims[i] = dims[i];
  o.bits = bits;
  return act_make(st, &o, UINT32_MAX, grad, true, (TSNode){0});
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
  int64_t E = act_int_or(dict_get_str(m->attrs, "embed_dim", 9), 0, -1),
          H = act_int_or(dict_get_str(m->attrs, "num_heads", 9), 0, -1);
  if (!w || !outp || E < 1 || H < 1 || in->ndim != 3 || in->dims[2] != E)
    return v_unknown(st, "line %u: %s: only self-attention with a packed projection is modelled", line, label);
  int64_t L = batch_first ? in->dims[1] : in->dims[0], B = batch_first ? in->dims[0] : in->dims[1], hd = E / H;
  int64_t lbe[3] = {L, B, E};
  value *xt = batch_first ? view_as_shape(st, x, 3, lbe, false) : x;
  value *proj = act_linear(st, line, sub_label(st, label, "in_proj"), xt, w, 3 * E);
  if (proj->kind != V_TENSOR) return proj;
  int bits = act_bits_of(st, proj->u.tensor);
  /* unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous(): a copy */
  int64_t packed[4] = {3, L, B, E};
  value *pc = act_fresh(st, 4, packed, bits, true);
  int64_t qs[3] = {B * H, L, hd};
  value *q = view_as_shape(st, pc, 3, qs, false), *k = view_as_shape(st, pc, 3, qs, false),
        *v = view_as_shape(st, pc, 3, qs, false);
  value *att = NULL, *o;
  if (need_weights) {
    value *qsc = act_binary(st, "*", q, v_float(st, 1.0)); /* q * sqrt(1 / head_dim) */
    int64_t kts[3] = {B * H, hd, L};
    value *kt = view_as_shape(st, k, 3, kts, false);
    value *scores = act_matmul(st, line, sub_label(st, label, "q @ k^T"), qsc, kt);
    if (scores->kind != V_TENSOR) return scores;
    att = act_unary(st, OP_SAVE_OUTPUT, line, sub_label(st, label, "softmax"), scores, false, 0,
                    st->act->autocast_bits ? 32 : 0);
    att = act_unary(st, OP_DROPOUT, line, sub_label(st, label, "attention dropout"), att, false, p, 0);
    o = act_matmul(st, line, sub_label(st, label, "attention @ v"), att, v);
    if (o->kind != V_TENSOR) return o;
  } else {
    int64_t hs4[4] = {B, H, L, hd};
    value *q4 = view_as_shape(st, q, 4, hs4, false), *k4 = view_as_shape(st, k, 4, hs4, false),
          *v4 = view_as_shape(st, v, 4, hs4, false);
    o = act_fresh(st, 4, hs4, bits, true);
    saved_in si;
    memset(&si, 0, sizeof si);
    si.rows = B * H * L;
    value *ins[3] = {q4, k4, v4};
    act_record(st, OP_SDPA, line, sub_label(st, label, "scaled_dot_product_attention"), ins, 3, o, &si);
  }
  /* permute / transpose back and .contiguous(): a copy, which out_proj keeps;
   * 16-bit attention (cuDNN on Hopper) writes its output in the query's (L, B, H, D)
   * layout, where the copy is the output itself */
  int64_t flat[2] = {L * B, E};
  value *oc = !need_weights && bits == 16 ? view_as_shape(st, o, 2, flat, true)
                                          : act_fresh(st, 2, flat, act_bits_of(st, o->u.tensor), true);
  value *ow = param_attr(outp, "weight");
  if (!ow) return v_unknown(st, "line %u: %s: out_proj is not known", line, label);
  value *y = act_linear(st, line, sub_label(st, label, "out_proj"), oc, ow, E);
  if (y->kind != V_TENSOR) return y;
  int64_t back[3] = {batch_first ? B : L, batch_first ? L : B, E};
  value *out = view_as_shape(st, y, 3, back, !batch_first);
  value *pair[2] = {out, att ? att : st->none};
  return act_tuple_of(st, pair, 2);
}


/* nn.TransformerEncoderLayer in training: self-attention without weights, dropout,
 * residuals, two norms and the feed-forward block. */
static value *encoder_layer(interp *st, obj *m, value *x, uint32_t line, const char *label) {
  double p = act_num_of(ctor_arg(m, 3, "dropout"), 0.1);
  bool bf = act_flag_of(ctor_arg(m, 6, "batch_first"), false), nf = act_flag_of(ctor_arg(m, 7, "norm_first"), false);
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
  int64_t D = act_int_or(dict_get_str(l1->u.obj->attrs, "out_features", 12), 0, -1);
  int64_t E = act_int_or(dict_get_str(l2->u.obj->attrs, "out_features", 12), 0, -1);
  const shape *in = x->u.tensor;
  int64_t rows = act_elems(in) / (E > 0 ? E : 1);
  value *h = x;
  for (int block = 0; block < 2; block++) {
    obj *nrm = (block ? n2 : n1)->u.obj;
    value *nw = param_attr(nrm, "weight");
    value *ps[2] = {nw, param_attr(nrm, "bias")};
    value *src = h;
    if (nf) src = act_norm(st, OP_LAYER_NORM, line, sub_label(st, label, block ? "norm2" : "norm1"), h, rows, ps, 2);
    value *y;
    if (!block) {
      y = mha(st, sa->u.obj, src, bf, p, false, line, label);
      if (y->kind != V_TUPLE) return y;
      y = y->u.seq->items.items[0];
      y = act_unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout1"), y, false, p, 0);
    } else {
      value *w1 = param_attr(l1->u.obj, "weight"), *w2 = param_attr(l2->u.obj, "weight");
      if (!w1 || !w2 || D < 1 || E < 1)
        return v_unknown(st, "line %u: %s: its feed-forward sizes are not known", line, label);
      y = act_linear(st, line, sub_label(st, label, "linear1"), src, w1, D);
      y = act_unary(st, gelu ? OP_SAVE_INPUT : OP_SAVE_OUTPUT, line, sub_label(st, label, gelu ? "gelu" : "relu"), y,
                    false, 0, 0);
      y = act_unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout"), y, false, p, 0);
      y = act_linear(st, line, sub_label(st, label, "linear2"), y, w2, E);
      y = act_unary(st, OP_DROPOUT, line, sub_label(st, label, "dropout2"), y, false, p, 0);
    }
    h = act_binary(st, "+", h, y);
    if (!h || h->kind != V_TENSOR) return v_unknown(st, "line %u: %s: a residual of shapes not known", line, label);
    if (!nf) h = act_norm(st, OP_LAYER_NORM, line, sub_label(st, label, block ? "norm2" : "norm1"), h, rows, ps, 2);
  }
  return h;
}


/* Upsampling (nearest, bilinear ...) to SIZE or by SCALE over the spatial dims:
 * its backward needs only sizes, so nothing is kept. */
value *act_resize(interp *st, uint32_t line, const char *label, value *x, value *size, value *scale) {
  const shape *in = x->u.tensor;
  int nd = in->ndim - 2;
  if (nd < 1) return v_unknown(st, "line %u: %s of a tensor of %d dimensions", line, label, in->ndim);
  shape o = *in;
  seq *scales = scale && (scale->kind == V_TUPLE || scale->kind == V_LIST) ? scale->u.seq : NULL;
  for (int i = 0; i < nd; i++) {
    int64_t L = act_int_or(size, i, -1);
    if (L < 0 && scale) {
      value *f = scales ? (scales->items.len ? scales->items.items[(uint32_t)i < scales->items.len ? (uint32_t)i : 0] : NULL)
                        : scale;
      double k = act_num_of(f, -1);
      if (k > 0) L = (int64_t)((double)in->dims[2 + i] * k);
    }
    if (L < 0) return v_unknown(st, "line %u: %s: its output size is not known", line, label);
    o.dims[2 + i] = L;
  }
  return act_make(st, &o, UINT32_MAX, act_info_of(st, x).grad, true, x->dim0);
}


/* F.pad / nn.ZeroPad2d ...: PAD is (left, right, top, bottom, ...) from the last dim
 * back, or one number for every side; nothing kept */
value *act_pad(interp *st, uint32_t line, const char *label, value *x, value *pad, bool keeps_input) {
  const shape *in = x->u.tensor;
  shape o = *in;
  int64_t n;
  if (pad && v_as_int(pad, &n)) {
    int nd = in->ndim - 2 < 1 ? 1 : in->ndim - 2;
    for (int i = 0; i < nd; i++) o.dims[in->ndim - 1 - i] += 2 * n;
  } else {
    seq *p = pad ? v_iterate(st, pad) : NULL;
    if (!p || p->items.len % 2 || (int)p->items.len / 2 > in->ndim)
      return v_unknown(st, "line %u: %s: its padding is not known", line, label);
    for (uint32_t i = 0; i < p->items.len; i++) {
      int64_t v;
      if (!v_as_int(p->items.items[i], &v)) return v_unknown(st, "line %u: %s: its padding is not known", line, label);
      o.dims[in->ndim - 1 - (int)(i / 2)] += v;
    }
  }
  for (int i = 0; i < o.ndim; i++)
    if (o.dims[i] < 0) return v_unknown(st, "line %u: %s: a negative size", line, label);
  value *out = act_make(st, &o, UINT32_MAX, act_info_of(st, x).grad, true, x->dim0);
  if (keeps_input) {
    saved_in si;
    memset(&si, 0, sizeof si);
    act_record(st, OP_SAVE_INPUT, line, label, &x, 1, out, &si);
  }
  return out;
}


/* The forward of a torch.nn layer: its output, with what it keeps recorded. */
value *act_layer_forward(interp *st, obj *m, args *a) {
  value *x = a->pos.len ? a->pos.items[0] : arg_get(a, 0, "input");
  uint32_t line = act_line_of(st, m->site);
  const char *label = m->label ? m->label : m->type ? m->type : "layer";
  const char *name = m->qual ? strrchr(m->qual, '.') + 1 : "";
  if (!x || x->kind != V_TENSOR || !act_known(x->u.tensor))
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
    return act_linear(st, line, label, x, w, of);
  }
  if (named_prefix(m, "Conv")) {
    value *w = param_attr(m, "weight");
    const shape *ws = w ? act_shape_of(w) : NULL;
    bool tr = named_prefix(m, "ConvTranspose");
    if (!ws || ws->ndim < 3) return v_unknown(st, "line %u: %s: its weight is not known", line, label);
    int64_t groups = act_int_or(ctor_arg(m, tr ? 6 : 6, "groups"), 0, 1);
    int64_t oc = tr ? ws->dims[1] * (groups > 0 ? groups : 1) : ws->dims[0];
    return act_conv(st, line, label, x, w, ws->ndim - 2, tr, ctor_arg(m, 3, "stride"), ctor_arg(m, 4, "padding"),
                ctor_arg(m, tr ? 8 : 5, "dilation"), tr ? ctor_arg(m, 5, "output_padding") : NULL, oc);
  }
  if (named_prefix(m, "BatchNorm") || named(m, "SyncBatchNorm")) {
    int64_t c = in->ndim >= 2 ? in->dims[1] : -1;
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return act_norm(st, OP_BATCH_NORM, line, label, x, c, ps, 2);
  }
  if (named(m, "LayerNorm") || named(m, "RMSNorm")) {
    value *w = param_attr(m, "weight");
    const shape *ws = w ? act_shape_of(w) : NULL;
    int64_t inner = ws ? act_elems(ws) : act_int_or(ctor_arg(m, 0, "normalized_shape"), 0, -1);
    if (ws && ws->ndim > 1) inner = act_elems(ws);
    int64_t n = act_elems(in);
    if (inner <= 0) return v_unknown(st, "line %u: %s: its normalized shape is not known", line, label);
    value *ps[2] = {w, param_attr(m, "bias")};
    return act_norm(st, named(m, "RMSNorm") ? OP_RMS_NORM : OP_LAYER_NORM, line, label, x, n / inner, ps, 2);
  }
  if (named(m, "GroupNorm")) {
    int64_t g = act_int_or(ctor_arg(m, 0, "num_groups"), 0, -1);
    if (g < 1 || in->ndim < 1) return v_unknown(st, "line %u: %s: its groups are not known", line, label);
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return act_norm(st, OP_GROUP_NORM, line, label, x, in->dims[0] * g, ps, 2);
  }
  if (named_prefix(m, "InstanceNorm")) {
    value *ps[2] = {param_attr(m, "weight"), param_attr(m, "bias")};
    return act_norm(st, OP_GROUP_NORM, line, label, x, in->ndim >= 2 ? in->dims[0] * in->dims[1] : -1, ps, 2);
  }
  if (named(m, "LSTM") || named(m, "GRU") || named(m, "RNN")) return rnn(st, m, a, x, line, label);
  if (named(m, "MultiheadAttention")) {
    value *k = a->pos.len > 1 ? a->pos.items[1] : arg_get(a, 1, "key"),
          *v = a->pos.len > 2 ? a->pos.items[2] : arg_get(a, 2, "value");
    if (k != x || v != x) return v_unknown(st, "line %u: %s: what cross-attention keeps is not modelled", line, label);
    return mha(st, m, x, act_flag_of(ctor_arg(m, 8, "batch_first"), false), act_num_of(ctor_arg(m, 2, "dropout"), 0.0),
               act_flag_of(arg_get(a, 4, "need_weights"), true), line, label);
  }
  if (named(m, "TransformerEncoderLayer")) return encoder_layer(st, m, x, line, label);
  if (named(m, "TransformerEncoder")) {
    value *ls = dict_get_str(m->attrs, "layers", 6);
    if (!ls || ls->kind != V_OBJECT || !ls->u.obj->items)
      return v_unknown(st, "line %u: %s: its layers are not known", line, label);
    value *h = x;
    for (uint32_t i = 0; i < ls->u.obj->items->items.len && h->kind == V_TENSOR; i++) {
      value *layer = ls->u.obj->items->items.items[i];
      if (layer->kind != V_OBJECT) return v_unknown(st, "line %u: %s: a layer that is not known", line, label);
      h = act_one(st, layer->u.obj, h, a->node);
    }
    value *nv = dict_get_str(m->attrs, "norm", 4);
    if (h->kind == V_TENSOR && nv && nv->kind == V_OBJECT) h = act_one(st, nv->u.obj, h, a->node);
    return h;
  }
  if (named(m, "Embedding"))
    return act_embedding(st, line, label, x, param_attr(m, "weight") ? param_attr(m, "weight") : st->unknown);
  if (named(m, "ReLU") || named(m, "ReLU6") || named(m, "Hardtanh"))
    return act_unary(st, OP_SAVE_OUTPUT, line, label, x,
                     act_flag_of(ctor_arg(m, named(m, "Hardtanh") ? 2 : 0, "inplace"), false), 0, 0);
  if (named(m, "Tanh") || named(m, "Sigmoid") || named(m, "Softmax") || named(m, "LogSoftmax"))
    return act_unary(st, OP_SAVE_OUTPUT, line, label, x, false, 0,
                     named_prefix(m, "Soft") || named(m, "LogSoftmax") ? (ab ? 32 : 0) : 0);
  if (named(m, "LeakyReLU") || named(m, "ELU"))
    return act_unary(st, act_flag_of(ctor_arg(m, 1, "inplace"), false) ? OP_SAVE_OUTPUT : OP_SAVE_INPUT, line, label, x,
                 act_flag_of(ctor_arg(m, 1, "inplace"), false), 0, 0);
  if (named(m, "GELU") || named(m, "SiLU") || named(m, "Mish") || named(m, "Hardswish") || named(m, "Softplus") ||
      named(m, "PReLU") || named(m, "SELU") || named(m, "CELU") || named(m, "Hardsigmoid") || named(m, "LogSigmoid"))
    return act_unary(st, OP_SAVE_INPUT, line, label, x, false, 0, 0);
  if (named_prefix(m, "Dropout") || named(m, "AlphaDropout")) {
    double p = act_num_of(ctor_arg(m, 0, "p"), 0.5);
    return act_unary(st, OP_DROPOUT, line, label, x, act_flag_of(ctor_arg(m, 1, "inplace"), false), p, 0);
  }
  if (named_prefix(m, "MaxPool"))
    return act_pool(st, OP_MAX_POOL, line, label, x, act_spatial_dims(name), ctor_arg(m, 0, "kernel_size"),
                    ctor_arg(m, 1, "stride"), ctor_arg(m, 2, "padding"), ctor_arg(m, 3, "dilation"),
                    act_flag_of(ctor_arg(m, 5, "ceil_mode"), false));
  if (named_prefix(m, "AvgPool"))
    return act_pool(st, OP_SAVE_INPUT, line, label, x, act_spatial_dims(name), ctor_arg(m, 0, "kernel_size"),
                    ctor_arg(m, 1, "stride"), ctor_arg(m, 2, "padding"), NULL,
                    act_flag_of(ctor_arg(m, 3, "ceil_mode"), false));
  if (named_prefix(m, "AdaptiveAvgPool") || named_prefix(m, "AdaptiveMaxPool"))
    return act_adaptive_pool(st, named_prefix(m, "AdaptiveMax"), line, label, x, act_spatial_dims(name),
                             ctor_arg(m, 0, "output_size"));
  if (named_prefix(m, "Upsampl"))
    return act_resize(st, line, label, x, ctor_arg(m, 0, "size"), ctor_arg(m, 1, "scale_factor"));
  if (named(m, "PixelShuffle") || named(m, "PixelUnshuffle")) {
    bool up = named(m, "PixelShuffle");
    int64_t r = act_int_or(ctor_arg(m, 0, up ? "upscale_factor" : "downscale_factor"), 0, -1);
    if (r < 1 || in->ndim < 3) return v_unknown(st, "line %u: %s: its factor is not known", line, label);
    shape o = *in;
    int c = in->ndim - 3;
    o.dims[c] = up ? in->dims[c] / (r * r) : in->dims[c] * r * r;
    o.dims[c + 1] = up ? in->dims[c + 1] * r : in->dims[c + 1] / r;
    o.dims[c + 2] = up ? in->dims[c + 2] * r : in->dims[c + 2] / r;
    return act_make(st, &o, UINT32_MAX, act_info_of(st, x).grad, true, x->dim0);
  }
  /* reflection_pad*d and replication_pad*d backward take the input itself (PyTorch's
   * derivatives.yaml); constant and zero padding keep nothing */
  if (strstr(name, "Pad"))
    return act_pad(st, line, label, x, ctor_arg(m, 0, "padding"),
                   !strncmp(name, "Reflection", 10) || !strncmp(name, "Replication", 11));
  if (named(m, "Flatten")) {
    args b;
    memset(&b, 0, sizeof b);
    b.node = a->node;
    avec_push(st->a, &b.pos, v_int(st, act_int_or(ctor_arg(m, 0, "start_dim"), 0, 1)));
    avec_push(st->a, &b.pos, v_int(st, act_int_or(ctor_arg(m, 1, "end_dim"), 0, -1)));
    return act_tensor_method(st, x, "flatten", &b);
  }
  if (named(m, "CrossEntropyLoss") || named(m, "NLLLoss") || named(m, "MSELoss") || named(m, "L1Loss") ||
      named(m, "SmoothL1Loss") || named(m, "HuberLoss") || named(m, "BCELoss") || named(m, "BCEWithLogitsLoss")) {
    value *t = a->pos.len > 1 ? a->pos.items[1] : arg_get(a, 1, "target");
    op_kind k = named(m, "CrossEntropyLoss") ? OP_CROSS_ENTROPY : named(m, "NLLLoss") ? OP_NLL_LOSS : OP_PAIR_LOSS;
    return act_loss(st, k, line, label, x, t && act_is_tensor(t) ? t : NULL);
  }
  return v_unknown(st, "line %u: what %s keeps for backward is not modelled", line, label);
}
