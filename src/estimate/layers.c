/* This file contains the torch.nn layers the estimate counts, each with PyTorch's signature and
 * parameter shapes; a layer whose arguments are not known is kept uncounted, with the reason. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"

#define MAX_SIG 14

typedef struct layer_def layer_def;

typedef struct {
  interp *st;
  obj *m;          /* the layer being built */
  obj *owner;      /* whose part its parameters count in */
  const args *a;
  const layer_def *def;
  value *v[MAX_SIG];
  bool failed;
} ctx;

struct layer_def {
  const char *name;
  const char *params[MAX_SIG];
  void (*build)(ctx *c);
  int variant;
};


/* ---- reading arguments ---- */

static int sig_index(const ctx *c, const char *name) {
  for (int i = 0; i < MAX_SIG && c->def->params[i]; i++)
    if (!strcmp(c->def->params[i], name)) return i;
  return -1;
}


static void fail(ctx *c, const char *pname, const value *v) {
  if (c->failed) return;
  c->failed = true;
  interp *st = c->st;
  buf b = {0};
  const char *line = st_at(st, c->a->node);
  const char *why = v && v->kind == V_UNKNOWN && v->why ? v->why : NULL;
  if (!v) buf_printf(&b, "%s: %s: `%s` is not given", line, c->m->label, pname);
  else if (why) buf_printf(&b, "%s: %s: `%s` is not known (%s)", line, c->m->label, pname, why);
  else if (v->kind == V_INT) buf_printf(&b, "%s: %s: `%s` is %lld, not a size", line, c->m->label, pname, (long long)v->u.i);
  else buf_printf(&b, "%s: %s: `%s` is %s, not a number", line, c->m->label, pname, v->kind == V_NONE ? "None" : v_kind_name(v));
  avec_push(st->a, &c->m->unknowns, st_strdup(st, b.data, b.len));
  buf_free(&b);
}


static value *arg(ctx *c, const char *name) {
  int i = sig_index(c, name);
  return i >= 0 ? c->v[i] : NULL;
}


static bool need_int(ctx *c, const char *name, int64_t *out) {
  value *v = arg(c, name);
  if (v && v_as_int(v, out) && *out >= 0) return true;
  fail(c, name, v);
  return false;
}


static bool opt_int(ctx *c, const char *name, int64_t dflt, int64_t *out) {
  value *v = arg(c, name);
  if (!v || v->kind == V_NONE) {
    *out = dflt;
    return true;
  }
  if (v_as_int(v, out) && *out >= 0) return true;
  fail(c, name, v);
  return false;
}


static bool opt_bool(ctx *c, const char *name, bool dflt, bool *out) {
  value *v = arg(c, name);
  if (!v) {
    *out = dflt;
    return true;
  }
  if (v_truth(v, out)) return true;
  fail(c, name, v);
  return false;
}


/* an int or a tuple of NDIM ints (kernel sizes, normalized shapes) */
static bool int_tuple(ctx *c, const char *name, int ndim, int64_t *dims, int *got) {
  value *v = arg(c, name);
  int64_t i;
  if (v && v_as_int(v, &i)) {
    int n = ndim > 0 ? ndim : 1;
    for (int k = 0; k < n; k++) dims[k] = i;
    *got = n;
    return true;
  }
  if (v && (v->kind == V_TUPLE || v->kind == V_LIST) && v->u.seq->items.len <= EST_MAX_DIMS &&
      (ndim <= 0 || (int)v->u.seq->items.len == ndim)) {
    int n = (int)v->u.seq->items.len;
    for (int k = 0; k < n; k++)
      if (!v_as_int(v->u.seq->items.items[k], &dims[k]) || dims[k] < 0) {
        fail(c, name, v->u.seq->items.items[k]);
        return false;
      }
    *got = n;
    return true;
  }
  fail(c, name, v);
  return false;
}


/* ---- making parameters ---- */

static void add_param(ctx *c, obj *m, const char *name, int ndim, const int64_t *dims, bool trainable) {
  interp *st = c->st;
  shape sh = {0};
  sh.ndim = ndim;
  sh.bits = st->default_bits;
  int64_t count = 1;
  for (int i = 0; i < ndim; i++) {
    sh.dims[i] = dims[i];
    if (__builtin_mul_overflow(count, dims[i], &count)) count = INT64_MAX / 2;
  }
  param *p = param_new(st, &sh, count, c->owner, c->owner->site, c->owner->label);
  p->trainable = trainable;
  value *pv = v_new(st, V_PARAM);
  pv->u.param = p;
  dict_set_str(st, m->attrs, name, pv);
}


static void add1(ctx *c, obj *m, const char *name, int64_t a) {
  add_param(c, m, name, 1, &a, true);
}


static void add2(ctx *c, obj *m, const char *name, int64_t a, int64_t b) {
  int64_t d[2] = {a, b};
  add_param(c, m, name, 2, d, true);
}


static void set_int(ctx *c, obj *m, const char *name, int64_t v) {
  dict_set_str(c->st, m->attrs, name, v_int(c->st, v));
}


static obj *child(ctx *c, obj *parent, const char *name, const char *type, const char *qual) {
  obj *k = obj_new(c->st, OBJ_MODULE, type);
  k->qual = qual;
  k->layer = true;
  k->site = c->owner->site;
  k->label = c->owner->label;
  dict_set_str(c->st, parent->attrs, name, v_obj(c->st, k));
  return k;
}


static void linear_into(ctx *c, obj *m, int64_t in, int64_t out, bool bias) {
  add2(c, m, "weight", out, in);
  if (bias) add1(c, m, "bias", out);
  else dict_set_str(c->st, m->attrs, "bias", c->st->none);
  set_int(c, m, "in_features", in);
  set_int(c, m, "out_features", out);
}


static void layernorm_into(ctx *c, obj *m, int64_t d, bool affine, bool bias) {
  if (affine) add1(c, m, "weight", d);
  if (affine && bias) add1(c, m, "bias", d);
}


/* ---- the layers ---- */

static void build_linear(ctx *c) {
  int64_t in, out;
  bool bias;
  if (!need_int(c, "in_features", &in) || !need_int(c, "out_features", &out) || !opt_bool(c, "bias", true, &bias)) return;
  linear_into(c, c->m, in, out, bias);
}


static void build_bilinear(ctx *c) {
  int64_t in1, in2, out;
  bool bias;
  if (!need_int(c, "in1_features", &in1) || !need_int(c, "in2_features", &in2) || !need_int(c, "out_features", &out) ||
      !opt_bool(c, "bias", true, &bias))
    return;
  int64_t d[3] = {out, in1, in2};
  add_param(c, c->m, "weight", 3, d, true);
  if (bias) add1(c, c->m, "bias", out);
}


static void build_conv(ctx *c) {
  int nd = c->def->variant % 10;
  bool transposed = c->def->variant >= 10;
  int64_t in, out, groups, k[EST_MAX_DIMS];
  int got;
  bool bias;
  if (!need_int(c, "in_channels", &in) || !need_int(c, "out_channels", &out) ||
      !int_tuple(c, "kernel_size", nd, k, &got) || !opt_int(c, "groups", 1, &groups) || !opt_bool(c, "bias", true, &bias))
    return;
  if (groups == 0 || in % groups || out % groups) {
    fail(c, "groups", v_unknown(c->st, "channels not divisible by groups"));
    return;
  }
  int64_t d[2 + EST_MAX_DIMS];
  d[0] = transposed ? in : out;
  d[1] = transposed ? out / groups : in / groups;
  for (int i = 0; i < nd; i++) d[2 + i] = k[i];
  add_param(c, c->m, "weight", 2 + nd, d, true);
  if (bias) add1(c, c->m, "bias", out);
  set_int(c, c->m, "in_channels", in);
  set_int(c, c->m, "out_channels", out);
  set_int(c, c->m, "groups", groups);
}


static void build_embedding(ctx *c) {
  int64_t num, dim;
  bool frozen = false;
  value *w = arg(c, "_weight");
  if (w && w->kind == V_TENSOR && w->u.tensor->ndim == 2 && w->u.tensor->dims[0] >= 0 && w->u.tensor->dims[1] >= 0) {
    num = w->u.tensor->dims[0];
    dim = w->u.tensor->dims[1];
  } else if (!need_int(c, "num_embeddings", &num) || !need_int(c, "embedding_dim", &dim)) {
    return;
  }
  if (!opt_bool(c, "_freeze", false, &frozen)) return;
  int64_t d[2] = {num, dim};
  add_param(c, c->m, "weight", 2, d, !frozen);
  set_int(c, c->m, "num_embeddings", num);
  set_int(c, c->m, "embedding_dim", dim);
}


static void build_layernorm(ctx *c) {
  int64_t dims[EST_MAX_DIMS];
  int nd;
  bool affine, bias = true;
  if (!int_tuple(c, "normalized_shape", 0, dims, &nd) || !opt_bool(c, "elementwise_affine", true, &affine)) return;
  if (c->def->variant == 0 && !opt_bool(c, "bias", true, &bias)) return;
  if (affine) add_param(c, c->m, "weight", nd, dims, true);
  if (affine && bias && c->def->variant == 0) add_param(c, c->m, "bias", nd, dims, true);
}


static void build_batchnorm(ctx *c) {
  int64_t n;
  bool affine;
  /* variant 1: InstanceNorm, affine off by default */
  if (!need_int(c, "num_features", &n) || !opt_bool(c, "affine", c->def->variant == 0, &affine)) return;
  if (affine) {
    add1(c, c->m, "weight", n);
    add1(c, c->m, "bias", n);
  }
  set_int(c, c->m, "num_features", n);
}


static void build_groupnorm(ctx *c) {
  int64_t g, n;
  bool affine;
  if (!need_int(c, "num_groups", &g) || !need_int(c, "num_channels", &n) || !opt_bool(c, "affine", true, &affine)) return;
  if (affine) {
    add1(c, c->m, "weight", n);
    add1(c, c->m, "bias", n);
  }
}


static void build_prelu(ctx *c) {
  int64_t n;
  if (!opt_int(c, "num_parameters", 1, &n)) return;
  add1(c, c->m, "weight", n);
}


/* RNN (variant 1 gate), GRU (3 gates), LSTM (4 gates, optional projection) */
static void build_rnn(ctx *c) {
  int gates = c->def->variant;
  int64_t in, h, layers, proj = 0;
  bool bias, bidir;
  if (!need_int(c, "input_size", &in) || !need_int(c, "hidden_size", &h) || !opt_int(c, "num_layers", 1, &layers) ||
      !opt_bool(c, "bias", true, &bias) || !opt_bool(c, "bidirectional", false, &bidir))
    return;
  if (gates == 4 && !opt_int(c, "proj_size", 0, &proj)) return;
  if (layers > 4096) {
    fail(c, "num_layers", v_unknown(c->st, "too many layers to list"));
    return;
  }
  int64_t real_h = proj > 0 ? proj : h;
  int dirs = bidir ? 2 : 1;
  for (int64_t l = 0; l < layers; l++) {
    int64_t layer_in = l == 0 ? in : real_h * dirs;
    for (int d = 0; d < dirs; d++) {
      char name[48];
      const char *sfx = d ? "_reverse" : "";
      snprintf(name, sizeof name, "weight_ih_l%" PRId64 "%s", l, sfx);
      add2(c, c->m, st_strdup(c->st, name, strlen(name)), gates * h, layer_in);
      snprintf(name, sizeof name, "weight_hh_l%" PRId64 "%s", l, sfx);
      add2(c, c->m, st_strdup(c->st, name, strlen(name)), gates * h, real_h);
      if (bias) {
        snprintf(name, sizeof name, "bias_ih_l%" PRId64 "%s", l, sfx);
        add1(c, c->m, st_strdup(c->st, name, strlen(name)), gates * h);
        snprintf(name, sizeof name, "bias_hh_l%" PRId64 "%s", l, sfx);
        add1(c, c->m, st_strdup(c->st, name, strlen(name)), gates * h);
      }
      if (proj > 0) {
        snprintf(name, sizeof name, "weight_hr_l%" PRId64 "%s", l, sfx);
        add2(c, c->m, st_strdup(c->st, name, strlen(name)), proj, h);
      }
    }
  }
  set_int(c, c->m, "input_size", in);
  set_int(c, c->m, "hidden_size", h);
  set_int(c, c->m, "num_layers", layers);
}


static void build_cell(ctx *c) {
  int gates = c->def->variant;
  int64_t in, h;
  bool bias;
  if (!need_int(c, "input_size", &in) || !need_int(c, "hidden_size", &h) || !opt_bool(c, "bias", true, &bias)) return;
  add2(c, c->m, "weight_ih", gates * h, in);
  add2(c, c->m, "weight_hh", gates * h, h);
  if (bias) {
    add1(c, c->m, "bias_ih", gates * h);
    add1(c, c->m, "bias_hh", gates * h);
  }
}


static void mha_into(ctx *c, obj *m, int64_t e, int64_t heads, bool bias, bool bias_kv, int64_t kdim, int64_t vdim) {
  if (kdim == e && vdim == e) {
    add2(c, m, "in_proj_weight", 3 * e, e);
  } else {
    add2(c, m, "q_proj_weight", e, e);
    add2(c, m, "k_proj_weight", e, kdim);
    add2(c, m, "v_proj_weight", e, vdim);
  }
  if (bias) add1(c, m, "in_proj_bias", 3 * e);
  obj *out = child(c, m, "out_proj", "nn.Linear", "torch.nn.Linear");
  linear_into(c, out, e, e, bias);
  if (bias_kv) {
    int64_t d[3] = {1, 1, e};
    add_param(c, m, "bias_k", 3, d, true);
    add_param(c, m, "bias_v", 3, d, true);
  }
  set_int(c, m, "embed_dim", e);
  set_int(c, m, "num_heads", heads);
  set_int(c, m, "head_dim", heads ? e / heads : 0);
}


static void build_mha(ctx *c) {
  int64_t e, heads, kdim, vdim;
  bool bias, bias_kv;
  if (!need_int(c, "embed_dim", &e) || !need_int(c, "num_heads", &heads) || !opt_bool(c, "bias", true, &bias) ||
      !opt_bool(c, "add_bias_kv", false, &bias_kv) || !opt_int(c, "kdim", e, &kdim) || !opt_int(c, "vdim", e, &vdim))
    return;
  if (heads == 0 || e % heads) {
    fail(c, "num_heads", v_unknown(c->st, "embed_dim is not divisible by num_heads"));
    return;
  }
  mha_into(c, c->m, e, heads, bias, bias_kv, kdim, vdim);
}


/* variant 0: encoder layer, 1: decoder layer (a second attention, a third norm) */
static void build_transformer_layer(ctx *c) {
  int64_t d, heads, ff;
  bool bias;
  if (!need_int(c, "d_model", &d) || !need_int(c, "nhead", &heads) || !opt_int(c, "dim_feedforward", 2048, &ff) ||
      !opt_bool(c, "bias", true, &bias))
    return;
  if (heads == 0 || d % heads) {
    fail(c, "nhead", v_unknown(c->st, "d_model is not divisible by nhead"));
    return;
  }
  mha_into(c, child(c, c->m, "self_attn", "nn.MultiheadAttention", "torch.nn.MultiheadAttention"), d, heads, bias,
           false, d, d);
  if (c->def->variant == 1)
    mha_into(c, child(c, c->m, "multihead_attn", "nn.MultiheadAttention", "torch.nn.MultiheadAttention"), d, heads,
             bias, false, d, d);
  linear_into(c, child(c, c->m, "linear1", "nn.Linear", "torch.nn.Linear"), d, ff, bias);
  linear_into(c, child(c, c->m, "linear2", "nn.Linear", "torch.nn.Linear"), ff, d, bias);
  int norms = c->def->variant == 1 ? 3 : 2;
  for (int i = 1; i <= norms; i++) {
    char name[16];
    snprintf(name, sizeof name, "norm%d", i);
    layernorm_into(c, child(c, c->m, st_strdup(c->st, name, strlen(name)), "nn.LayerNorm", "torch.nn.LayerNorm"), d,
                   true, bias);
  }
}


/* a ModuleList of N deep copies of a prototype layer, as TransformerEncoder makes */
static void clones_into(ctx *c, obj *m, value *proto, int64_t n) {
  interp *st = c->st;
  obj *list = obj_new(st, OBJ_MODULE, "nn.ModuleList");
  list->qual = "torch.nn.ModuleList";
  list->items = seq_new(st);
  list->site = c->a->node;
  if (proto->kind == V_OBJECT) proto->u.obj->prototype = true;
  for (int64_t i = 0; i < n; i++) avec_push(st->a, &list->items->items, deep_copy(st, proto));
  dict_set_str(st, m->attrs, "layers", v_obj(st, list));
  set_int(c, m, "num_layers", n);
}


static void build_stack(ctx *c) {
  int64_t n;
  const char *proto_name = c->def->variant == 0 ? "encoder_layer" : "decoder_layer";
  value *proto = arg(c, proto_name);
  if (!proto || proto->kind != V_OBJECT || proto->u.obj->kind != OBJ_MODULE) {
    fail(c, proto_name, proto);
    return;
  }
  if (!need_int(c, "num_layers", &n)) return;
  if (n > 4096) {
    fail(c, "num_layers", v_unknown(c->st, "too many layers to list"));
    return;
  }
  clones_into(c, c->m, proto, n);
  value *norm = arg(c, "norm");
  if (norm && norm->kind == V_OBJECT) dict_set_str(c->st, c->m->attrs, "norm", norm);
}


/* a layer built by the library itself from synthesized arguments */
static value *sub_layer(ctx *c, const char *qual, int npos, value **pos, const char **kw, value **kwv, int nkw) {
  args a;
  memset(&a, 0, sizeof a);
  a.node = c->a->node;
  for (int i = 0; i < npos; i++) avec_push(c->st->a, &a.pos, pos[i]);
  for (int i = 0; i < nkw; i++) args_add_kw(c->st, &a, kw[i], kwv[i]);
  return layer_build(c->st, qual, &a);
}


static void build_transformer(ctx *c) {
  interp *st = c->st;
  int64_t d, heads, ne, nd, ff;
  bool bias;
  if (!opt_int(c, "d_model", 512, &d) || !opt_int(c, "nhead", 8, &heads) || !opt_int(c, "num_encoder_layers", 6, &ne) ||
      !opt_int(c, "num_decoder_layers", 6, &nd) || !opt_int(c, "dim_feedforward", 2048, &ff) ||
      !opt_bool(c, "bias", true, &bias))
    return;
  value *pos[2] = {v_int(st, d), v_int(st, heads)};
  const char *kw[2] = {"dim_feedforward", "bias"};
  value *kwv[2] = {v_int(st, ff), v_bool(st, bias)};
  const char *nkw[1] = {"bias"};
  value *nkwv[1] = {v_bool(st, bias)};
  value *dpos[1] = {v_int(st, d)};
  const char *parts[2] = {"encoder", "decoder"};
  const char *given[2] = {"custom_encoder", "custom_decoder"};
  const char *layer_qual[2] = {"torch.nn.TransformerEncoderLayer", "torch.nn.TransformerDecoderLayer"};
  int64_t counts[2] = {ne, nd};
  for (int i = 0; i < 2; i++) {
    value *custom = arg(c, given[i]);
    if (custom && custom->kind == V_OBJECT) {
      dict_set_str(st, c->m->attrs, parts[i], custom);
      continue;
    }
    obj *stack = obj_new(st, OBJ_MODULE, i ? "nn.TransformerDecoder" : "nn.TransformerEncoder");
    stack->qual = i ? "torch.nn.TransformerDecoder" : "torch.nn.TransformerEncoder";
    stack->site = c->a->node;
    value *proto = sub_layer(c, layer_qual[i], 2, pos, kw, kwv, bias ? 1 : 2);
    if (!proto || counts[i] > 4096) {
      fail(c, i ? "num_decoder_layers" : "num_encoder_layers", NULL);
      return;
    }
    ctx sc = *c;
    sc.m = stack;
    clones_into(&sc, stack, proto, counts[i]);
    value *norm = sub_layer(c, "torch.nn.LayerNorm", 1, dpos, nkw, nkwv, bias ? 0 : 1);
    if (norm) dict_set_str(st, stack->attrs, "norm", norm);
    dict_set_str(st, c->m->attrs, parts[i], v_obj(st, stack));
  }
}


static const layer_def LAYERS[] = {
  {"Linear", {"in_features", "out_features", "bias"}, build_linear, 0},
  {"Bilinear", {"in1_features", "in2_features", "out_features", "bias"}, build_bilinear, 0},
  {"Conv1d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias"}, build_conv, 1},
  {"Conv2d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias"}, build_conv, 2},
  {"Conv3d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias"}, build_conv, 3},
  {"ConvTranspose1d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias", "dilation"}, build_conv, 11},
  {"ConvTranspose2d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias", "dilation"}, build_conv, 12},
  {"ConvTranspose3d", {"in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias", "dilation"}, build_conv, 13},
  {"Embedding", {"num_embeddings", "embedding_dim", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse", "_weight", "_freeze"}, build_embedding, 0},
  {"EmbeddingBag", {"num_embeddings", "embedding_dim", "max_norm", "norm_type", "scale_grad_by_freq", "mode", "sparse", "_weight", "include_last_offset", "padding_idx"}, build_embedding, 0},
  {"LayerNorm", {"normalized_shape", "eps", "elementwise_affine", "bias"}, build_layernorm, 0},
  {"RMSNorm", {"normalized_shape", "eps", "elementwise_affine"}, build_layernorm, 1},
  {"BatchNorm1d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 0},
  {"BatchNorm2d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 0},
  {"BatchNorm3d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 0},
  {"SyncBatchNorm", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 0},
  {"InstanceNorm1d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 1},
  {"InstanceNorm2d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 1},
  {"InstanceNorm3d", {"num_features", "eps", "momentum", "affine", "track_running_stats"}, build_batchnorm, 1},
  {"GroupNorm", {"num_groups", "num_channels", "eps", "affine"}, build_groupnorm, 0},
  {"PReLU", {"num_parameters", "init"}, build_prelu, 0},
  {"RNN", {"input_size", "hidden_size", "num_layers", "nonlinearity", "bias", "batch_first", "dropout", "bidirectional"}, build_rnn, 1},
  {"GRU", {"input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional"}, build_rnn, 3},
  {"LSTM", {"input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional", "proj_size"}, build_rnn, 4},
  {"RNNCell", {"input_size", "hidden_size", "bias", "nonlinearity"}, build_cell, 1},
  {"GRUCell", {"input_size", "hidden_size", "bias"}, build_cell, 3},
  {"LSTMCell", {"input_size", "hidden_size", "bias"}, build_cell, 4},
  {"MultiheadAttention", {"embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim", "batch_first"}, build_mha, 0},
  {"TransformerEncoderLayer", {"d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps", "batch_first", "norm_first", "bias"}, build_transformer_layer, 0},
  {"TransformerDecoderLayer", {"d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps", "batch_first", "norm_first", "bias"}, build_transformer_layer, 1},
  {"TransformerEncoder", {"encoder_layer", "num_layers", "norm", "enable_nested_tensor", "mask_check"}, build_stack, 0},
  {"TransformerDecoder", {"decoder_layer", "num_layers", "norm"}, build_stack, 1},
  {"Transformer", {"d_model", "nhead", "num_encoder_layers", "num_decoder_layers", "dim_feedforward", "dropout", "activation", "custom_encoder", "custom_decoder", "layer_norm_eps", "batch_first", "norm_first", "bias"}, build_transformer, 0},
};


static const char *const FREE[] = {
  "Module", "Identity", "ReLU", "ReLU6", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid", "Softmax", "Softmax2d",
  "LogSoftmax", "Softmin", "LogSigmoid", "Softplus", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink",
  "Hardtanh", "Hardswish", "Hardsigmoid", "ELU", "CELU", "SELU", "GLU", "LeakyReLU", "RReLU", "Threshold",
  "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "MaxPool1d",
  "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
  "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
  "FractionalMaxPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Flatten", "Unflatten", "Upsample",
  "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Fold",
  "Unfold", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
  "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
  "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d", "LocalResponseNorm", "CrossMapLRN2d",
  "CosineSimilarity", "PairwiseDistance", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
  "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CTCLoss", "PoissonNLLLoss", "GaussianNLLLoss",
  "MarginRankingLoss", "HingeEmbeddingLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
  "MultiMarginLoss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
  "CosineEmbeddingLoss", NULL};


/* torch.nn.modules.linear.Linear and torch.nn.Linear -> "Linear"; NULL when
 * QUAL is not a torch.nn class */
static const char *nn_class(const char *qual) {
  if (strncmp(qual, "torch.nn.", 9) != 0) return NULL;
  const char *last = strrchr(qual, '.') + 1;
  if (*last < 'A' || *last > 'Z') return NULL;
  /* torch.nn.X or torch.nn.modules.<file>.X */
  const char *rest = qual + 9;
  if (rest != last && strncmp(rest, "modules.", 8) != 0) return NULL;
  return last;
}


bool layer_is_free(const char *qual) {
  const char *name = nn_class(qual);
  if (!name) return false;
  for (size_t i = 0; FREE[i]; i++)
    if (!strcmp(FREE[i], name)) return true;
  return false;
}


const char *layer_short(interp *st, const char *qual) {
  const char *name = nn_class(qual);
  if (name) {
    buf b = {0};
    buf_printf(&b, "nn.%s", name);
    const char *s = st_strdup(st, b.data, b.len);
    buf_free(&b);
    return s;
  }
  const char *dot = strrchr(qual, '.');
  return dot ? dot + 1 : qual;
}


const char *layer_label(interp *st, const char *shortname, const args *a) {
  buf b = {0};
  buf_printf(&b, "%s(", shortname);
  for (uint32_t i = 0; i < a->pos.len; i++) {
    if (i) buf_puts(&b, ", ");
    v_render(a->pos.items[i], &b);
  }
  for (uint32_t i = 0; i < a->kwnames.len; i++) {
    str k = a->kwnames.items[i];
    /* devices and dtypes do not change the count */
    if ((k.n == 6 && !memcmp(k.s, "device", 6)) || (k.n == 5 && !memcmp(k.s, "dtype", 5))) continue;
    if (i || a->pos.len) buf_puts(&b, ", ");
    buf_printf(&b, "%.*s=", (int)k.n, k.s);
    v_render(a->kwvals.items[i], &b);
  }
  if (a->opaque) buf_puts(&b, a->pos.len || a->kwnames.len ? ", ..." : "...");
  buf_putc(&b, ')');
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


static const layer_def *find_def(const char *name) {
  for (size_t i = 0; i < sizeof LAYERS / sizeof *LAYERS; i++)
    if (!strcmp(LAYERS[i].name, name)) return &LAYERS[i];
  return NULL;
}


static void run_def(interp *st, obj *m, const layer_def *def, args *a) {
  ctx c;
  memset(&c, 0, sizeof c);
  c.st = st;
  c.m = m;
  c.owner = m;
  c.a = a;
  c.def = def;
  for (int i = 0; i < MAX_SIG && def->params[i]; i++) c.v[i] = arg_get(a, i, def->params[i]);
  if (a->opaque) {
    /* an argument behind a star-argument may be any of them */
    for (int i = 0; i < MAX_SIG && def->params[i]; i++)
      if (!c.v[i]) c.v[i] = v_unknown(st, "it may come through *args or **kwargs");
  }
  def->build(&c);
}


value *layer_build(interp *st, const char *qual, args *a) {
  const char *name = nn_class(qual);
  if (!name) return NULL;
  st->steps += EST_LAYER_STEPS - 1;
  if (!st_step(st)) return st->unknown;
  const char *shortname = layer_short(st, qual);
  obj *m = obj_new(st, OBJ_MODULE, shortname);
  buf q = {0};
  buf_printf(&q, "torch.nn.%s", name);
  m->qual = st_strdup(st, q.data, q.len);
  buf_free(&q);
  m->site = a->node;
  m->layer = true;
  m->label = layer_label(st, shortname, a);
  act_keep_ctor(st, m, a);
  const layer_def *def = find_def(name);
  if (def) {
    run_def(st, m, def, a);
  } else if (!layer_is_free(qual)) {
    buf b = {0};
    const char *line = st_at(st, a->node);
    if (!strncmp(name, "Lazy", 4))
      buf_printf(&b, "%s: %s takes its input size from the first batch: its parameters are not counted", line,
                 m->label);
    else
      buf_printf(&b, "%s: %s: oomlint does not know this layer's parameters", line, m->label);
    avec_push(st->a, &m->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
  }
  return v_obj(st, m);
}


bool layer_init_into(interp *st, obj *m, const char *qual, args *a) {
  const char *name = nn_class(qual);
  if (!name) return false;
  /* `class MLP(nn.Sequential)` whose __init__ gives super() its layers */
  if (!strcmp(name, "Sequential") || !strcmp(name, "ModuleList")) {
    if (!m->items) m->items = seq_new(st);
    seq *given = NULL;
    if (!strcmp(name, "ModuleList") && a->pos.len) given = v_iterate(st, a->pos.items[0]);
    uint32_t n = given ? given->items.len : a->pos.len;
    for (uint32_t i = 0; i < n; i++) {
      value *l = given ? given->items.items[i] : a->pos.items[i];
      if (l->kind == V_OBJECT && l->u.obj->kind == OBJ_MODULE) avec_push(st->a, &m->items->items, l);
    }
    return true;
  }
  const layer_def *def = find_def(name);
  if (!def) return false;
  m->layer = true;
  m->qual = qual;
  m->label = layer_label(st, m->type, a);
  act_keep_ctor(st, m, a);
  if (ts_node_is_null(m->site)) m->site = a->node;
  run_def(st, m, def, a);
  return true;
}
