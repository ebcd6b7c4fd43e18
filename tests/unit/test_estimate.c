/* Unit tests of the memory estimate: exact counts of every layer type (counted by hand in the
 * comments), constants, repetition, tying, freezing, bytes, pretrained, unknowns, OOM601/OOM301. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/estimate.h"
#include "facts/facts.h"
#include "oomlint/oomlint.h"
#include "parse/parse.h"

typedef struct {
  TSParser *parser;
  TSTree *tree;
  facts f;
  estimate_result r;
} run;


static void run_source(run *x, const char *src) {
  memset(x, 0, sizeof *x);
  const char *why = NULL;
  x->parser = parse_parser_new(&why);
  assert_non_null(x->parser);
  x->tree = parse_source(x->parser, src, strlen(src), NULL);
  assert_non_null(x->tree);
  facts_build(&x->f, ts_tree_root_node(x->tree), src, strlen(src));
  estimate_run(&x->f, &x->r);
}


/* Files the script reads, by name: "name\0text" pairs ended by NULL. */
static char *read_table(void *ctx, const char *path, size_t *length) {
  const char *const *files = ctx;
  for (size_t i = 0; files && files[i]; i += 2)
    if (!strcmp(files[i], path)) {
      *length = strlen(files[i + 1]);
      return strdup(files[i + 1]);
    }
  return NULL;
}


/* Run SRC as `python script.py ARGV...` with FILES beside it and ASSUME. */
static void run_script(run *x, const char *src, const char *const *argv, int argc, const char *const *files,
                       const char *const *assume, int nassume) {
  memset(x, 0, sizeof *x);
  const char *why = NULL;
  x->parser = parse_parser_new(&why);
  assert_non_null(x->parser);
  x->tree = parse_source(x->parser, src, strlen(src), NULL);
  assert_non_null(x->tree);
  facts_build(&x->f, ts_tree_root_node(x->tree), src, strlen(src));
  estimate_input in = {"script.py", argv, argc, assume, nassume, read_table, (void *)files, NULL};
  estimate_run_with(&x->f, &in, &x->r);
}


static void run_free(run *x) {
  estimate_free(&x->r);
  facts_free(&x->f);
  ts_tree_delete(x->tree);
  ts_parser_delete(x->parser);
}


static const estimate_model *model_named(const run *x, const char *name) {
  for (uint32_t i = 0; i < x->r.nmodels; i++)
    if (!strcmp(x->r.models[i].name, name)) return &x->r.models[i];
  fail_msg("no model named `%s` (found %u models)", name, x->r.nmodels);
  return NULL;
}


static bool unknown_mentions(const estimate_model *m, const char *needle) {
  for (uint32_t i = 0; i < m->nunknown; i++)
    if (strstr(m->unknown[i], needle)) return true;
  return false;
}


/* The parameters of each `name = <expr>` line of BODY, after the imports. */
static int64_t count_of(const char *expr) {
  char src[2048];
  snprintf(src, sizeof src,
           "import torch\n"
           "import torch.nn as nn\n"
           "m = %s\n",
           expr);
  run x;
  run_source(&x, src);
  int64_t n = x.r.nmodels ? x.r.models[0].parameters : -1;
  if (x.r.nmodels && x.r.models[0].nunknown)
    fail_msg("`%s`: not counted: %s", expr, x.r.models[0].unknown[0]);
  run_free(&x);
  return n;
}


/* ---- layers, one by one ---- */

static void test_linear_and_bilinear(void **state) {
  (void)state;
  /* weight out x in, bias out: 20 * 30 + 30 */
  assert_int_equal(count_of("nn.Linear(20, 30)"), 630);
  assert_int_equal(count_of("nn.Linear(20, 30, bias=False)"), 600);
  assert_int_equal(count_of("nn.Linear(in_features=20, out_features=30, bias=True)"), 630);
  /* weight out x in1 x in2 + bias: 7 * 5 * 6 + 7 */
  assert_int_equal(count_of("nn.Bilinear(5, 6, 7)"), 217);
}


static void test_convolutions(void **state) {
  (void)state;
  /* out * in/groups * k + out: 8 * 4 * 3 + 8 */
  assert_int_equal(count_of("nn.Conv1d(4, 8, 3)"), 104);
  /* 16 * 3 * 5 * 5 + 16 */
  assert_int_equal(count_of("nn.Conv2d(3, 16, 5)"), 1216);
  /* 32 * (16 / 4) * 3 * 5, no bias */
  assert_int_equal(count_of("nn.Conv2d(16, 32, (3, 5), groups=4, bias=False)"), 1920);
  /* depthwise: 64 * 1 * 3 * 3 + 64 */
  assert_int_equal(count_of("nn.Conv2d(64, 64, kernel_size=3, padding=1, groups=64)"), 640);
  /* 4 * 2 * 3 * 3 * 3 + 4 */
  assert_int_equal(count_of("nn.Conv3d(2, 4, 3)"), 220);
  /* transposed: in * out/groups * k + out: 8 * 4 * 5 + 4 */
  assert_int_equal(count_of("nn.ConvTranspose1d(8, 4, 5)"), 164);
  /* 16 * (8 / 2) * 4 * 4 + 8 */
  assert_int_equal(count_of("nn.ConvTranspose2d(16, 8, 4, stride=2, groups=2)"), 1032);
  /* 4 * 2 * 2 * 2 * 2, no bias (positional bias after output_padding, groups) */
  assert_int_equal(count_of("nn.ConvTranspose3d(4, 2, 2, 1, 0, 0, 1, False)"), 64);
}


static void test_embeddings_and_norms(void **state) {
  (void)state;
  /* num x dim */
  assert_int_equal(count_of("nn.Embedding(1000, 64, padding_idx=0)"), 64000);
  assert_int_equal(count_of("nn.EmbeddingBag(500, 32, mode='sum')"), 16000);
  /* weight and bias of the normalized shape */
  assert_int_equal(count_of("nn.LayerNorm(64)"), 128);
  assert_int_equal(count_of("nn.Sequential(nn.LayerNorm(64, elementwise_affine=False), nn.Linear(1, 1))"), 2);
  /* weight only over 10 x 64 */
  assert_int_equal(count_of("nn.LayerNorm([10, 64], bias=False)"), 640);
  assert_int_equal(count_of("nn.RMSNorm(64)"), 64);
  /* affine weight and bias per feature; running stats are buffers */
  assert_int_equal(count_of("nn.BatchNorm1d(10)"), 20);
  assert_int_equal(count_of("nn.Sequential(nn.BatchNorm2d(64, affine=False), nn.Linear(1, 1))"), 2);
  assert_int_equal(count_of("nn.BatchNorm3d(8)"), 16);
  assert_int_equal(count_of("nn.SyncBatchNorm(8)"), 16);
  /* per channel, not per group */
  assert_int_equal(count_of("nn.GroupNorm(4, 32)"), 64);
  /* instance norm is not affine by default */
  assert_int_equal(count_of("nn.Sequential(nn.InstanceNorm2d(16), nn.Linear(1, 1))"), 2);
  assert_int_equal(count_of("nn.InstanceNorm1d(16, affine=True)"), 32);
  assert_int_equal(count_of("nn.PReLU()"), 1);
  assert_int_equal(count_of("nn.PReLU(8)"), 8);
}


static void test_recurrent(void **state) {
  (void)state;
  /* RNN: h*in + h*h + 2h = 200 + 400 + 40 */
  assert_int_equal(count_of("nn.RNN(10, 20)"), 640);
  /* 2 layers, 2 directions: layer 0 2 * 640; layer 1 takes 2h = 40 inputs:
   * 2 * (20*40 + 400 + 40) = 2480; total 3760 */
  assert_int_equal(count_of("nn.RNN(10, 20, num_layers=2, bidirectional=True)"), 3760);
  /* nonlinearity is RNN's 4th positional argument: bias stays True */
  assert_int_equal(count_of("nn.RNN(10, 20, 1, 'relu')"), 640);
  /* LSTM: 4h(in + h) + 8h = 4 * 20 * 30 + 160 */
  assert_int_equal(count_of("nn.LSTM(10, 20)"), 2560);
  /* no bias: layer 0 4*20*10 + 4*20*20 = 2400; layer 1 4*20*20 * 2 = 3200 */
  assert_int_equal(count_of("nn.LSTM(10, 20, num_layers=2, bias=False)"), 5600);
  /* projection to 5: w_ih 80*10, w_hh 80*5, biases 160, w_hr 5*20 */
  assert_int_equal(count_of("nn.LSTM(10, 20, proj_size=5)"), 1460);
  /* GRU: 3 gates: 3 * 640 */
  assert_int_equal(count_of("nn.GRU(10, 20)"), 1920);
  /* 2 directions of 48*8 + 48*16 + 96 = 1248 */
  assert_int_equal(count_of("nn.GRU(8, 16, batch_first=True, bidirectional=True)"), 2496);
  assert_int_equal(count_of("nn.RNNCell(10, 20)"), 640);
  assert_int_equal(count_of("nn.LSTMCell(10, 20)"), 2560);
  assert_int_equal(count_of("nn.GRUCell(10, 20, bias=False)"), 1800);
}


static void test_attention_and_transformers(void **state) {
  (void)state;
  /* in_proj 3 * 64 * 64 + 3 * 64, out_proj 64 * 64 + 64 */
  assert_int_equal(count_of("nn.MultiheadAttention(64, 8)"), 16640);
  /* separate projections: q 64*64, k 64*32, v 64*16, in_proj_bias 192, out 4160 */
  assert_int_equal(count_of("nn.MultiheadAttention(64, 8, kdim=32, vdim=16)"), 11520);
  /* no biases; bias_k and bias_v of 64 each */
  assert_int_equal(count_of("nn.MultiheadAttention(64, 4, bias=False, add_bias_kv=True)"), 16512);
  /* attention 16640 + linear1 64*256+256 + linear2 256*64+64 + 2 norms of 128 */
  assert_int_equal(count_of("nn.TransformerEncoderLayer(64, 8, dim_feedforward=256)"), 49984);
  /* two attentions 33280 + 16640 + 16448 + 3 norms 384 */
  assert_int_equal(count_of("nn.TransformerDecoderLayer(d_model=64, nhead=8, dim_feedforward=256)"), 66752);
  /* the defaults: d_model 512, 6 + 6 layers of 2048: PyTorch's 44,140,544 */
  assert_int_equal(count_of("nn.Transformer()"), 44140544);
  /* 2 encoder layers + norm 128, 2 decoder layers + norm 128 */
  assert_int_equal(count_of("nn.Transformer(d_model=64, nhead=8, num_encoder_layers=2, num_decoder_layers=2, "
                            "dim_feedforward=256)"),
                   233728);
}


static void test_encoder_copies_its_layer(void **state) {
  (void)state;
  run x;
  /* TransformerEncoder deep-copies the layer 3 times; the prototype itself
   * is not part of the model: 3 * 49984 */
  run_source(&x, "import torch.nn as nn\n"
                 "layer = nn.TransformerEncoderLayer(64, 8, 256)\n"
                 "encoder = nn.TransformerEncoder(layer, num_layers=3)\n");
  assert_int_equal(x.r.nmodels, 1);
  const estimate_model *m = model_named(&x, "encoder");
  assert_int_equal(m->parameters, 149952);
  assert_int_equal(m->nparts, 1);
  assert_int_equal(m->parts[0].repeat, 3);
  run_free(&x);
}


static void test_parameters(void **state) {
  (void)state;
  run x;
  /* class token 1*1*64, positions 1*17*64, a scale of 1: 64 + 1088 + 1 */
  run_source(&x, "import torch\n"
                 "from torch import nn\n"
                 "class Tokens(nn.Module):\n"
                 "    def __init__(self, n=16, d=64):\n"
                 "        super().__init__()\n"
                 "        self.cls = nn.Parameter(torch.zeros(1, 1, d))\n"
                 "        self.pos = nn.Parameter(torch.randn(1, n + 1, d) * 0.02)\n"
                 "        self.scale = nn.Parameter(torch.ones(()))\n"
                 "        self.table = nn.Parameter(torch.load('table.pt'))\n"
                 "        self.register_buffer('mask', torch.ones(n, n))\n"
                 "        self.plain = torch.empty(d, d)\n"
                 "t = Tokens()\n");
  const estimate_model *m = model_named(&x, "t");
  /* buffers and plain tensors are not parameters; a tensor loaded from a
   * file has no shape here: that part is not counted, and said so */
  assert_int_equal(m->parameters, 64 + 1088 + 1);
  assert_true(unknown_mentions(m, "nn.Parameter"));
  run_free(&x);
  run_source(&x, "import torch\n"
                 "from torch import nn\n"
                 "class Tokens(nn.Module):\n"
                 "    def __init__(self, n=16, d=64):\n"
                 "        super().__init__()\n"
                 "        self.cls = nn.Parameter(torch.zeros(1, 1, d))\n"
                 "        self.pos = nn.Parameter(torch.empty(size=(1, n + 1, d)))\n"
                 "        self.scale = nn.Parameter(torch.ones(1), requires_grad=False)\n"
                 "t = Tokens()\n");
  m = model_named(&x, "t");
  assert_int_equal(m->parameters, 64 + 1088 + 1);
  assert_int_equal(m->trainable, 64 + 1088);
  assert_int_equal(m->nunknown, 0);
  run_free(&x);
}


/* ---- constants, configs, repetition ---- */

static void test_constants_configs_and_repetition(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "from dataclasses import dataclass, field\n"
                 "D = 32\n"
                 "@dataclass\n"
                 "class Cfg:\n"
                 "    d: int = D\n"
                 "    n: int = 3\n"
                 "    mult: int = field(default=4)\n"
                 "class Block(nn.Module):\n"
                 "    def __init__(self, cfg, bias=True):\n"
                 "        super().__init__()\n"
                 "        self.up = nn.Linear(cfg.d, cfg.mult * cfg.d, bias=bias)\n"
                 "        self.down = nn.Linear(cfg.mult * cfg.d, cfg.d // 2 * 2)\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self, cfg):\n"
                 "        super().__init__()\n"
                 "        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n)])\n"
                 "        self.seq = nn.Sequential(*[nn.Linear(cfg.d, cfg.d) for i in range(2)])\n"
                 "        layers = []\n"
                 "        for k in (1, 2):\n"
                 "            layers.append(nn.Linear(cfg.d * k, cfg.d))\n"
                 "        self.loop = nn.Sequential(*layers)\n"
                 "        self.head = nn.Linear(cfg.d, 10, bias=False)\n"
                 "model = Net(Cfg(n=5))\n");
  const estimate_model *m = model_named(&x, "model");
  /* 5 blocks of up 32*128+128 = 4224 and down 128*32+32 = 4128: 41760;
   * seq 2 * (32*32+32) = 2112; loop 1056 + 64*32+32 = 3136; head 320 */
  assert_int_equal(m->parameters, 41760 + 2112 + 3136 + 320);
  assert_int_equal(m->nunknown, 0);
  assert_string_equal(m->klass, "Net");
  /* the parts table: one row per constructor call and size, with repeats */
  bool found = false;
  for (uint32_t i = 0; i < m->nparts; i++)
    if (!strcmp(m->parts[i].layer, "nn.Linear(32, 128, bias=True)")) {
      assert_int_equal(m->parts[i].repeat, 5);
      assert_int_equal(m->parts[i].parameters, 5 * 4224);
      assert_int_equal(m->parts[i].line, 12);
      found = true;
    }
  assert_true(found);
  run_free(&x);
}


static void test_keywords_defaults_and_helpers(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "from functools import partial\n"
                 "WIDTHS = [8, 16, 32]\n"
                 "def conv(cin, cout, k=3, **kw):\n"
                 "    return nn.Conv2d(cin, cout, k, padding=k // 2, **kw)\n"
                 "class Config:\n"
                 "    def __init__(self, **kwargs):\n"
                 "        self.classes = 10\n"
                 "        for key, value in kwargs.items():\n"
                 "            setattr(self, key, value)\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self, cfg, norm=partial(nn.GroupNorm, 4)):\n"
                 "        super().__init__()\n"
                 "        stages = []\n"
                 "        cin = 3\n"
                 "        for cout in WIDTHS:\n"
                 "            stages += [conv(cin, cout, bias=False), norm(cout)]\n"
                 "            cin = cout\n"
                 "        self.body = nn.Sequential(*stages)\n"
                 "        self.fc = nn.Linear(WIDTHS[-1], cfg.classes)\n"
                 "net = Net(Config(classes=100))\n");
  const estimate_model *m = model_named(&x, "net");
  /* convs without bias: 8*3*9 + 16*8*9 + 32*16*9 = 216 + 1152 + 4608;
   * group norms 2 * (8 + 16 + 32) = 112; fc 32*100 + 100 = 3300 */
  assert_int_equal(m->parameters, 216 + 1152 + 4608 + 112 + 3300);
  assert_int_equal(m->nunknown, 0);
  run_free(&x);
}


static void test_weight_tying(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "class LM(nn.Module):\n"
                 "    def __init__(self, vocab=100, d=16):\n"
                 "        super().__init__()\n"
                 "        self.emb = nn.Embedding(vocab, d)\n"
                 "        self.out = nn.Linear(d, vocab, bias=False)\n"
                 "        self.out.weight = self.emb.weight\n"
                 "lm = LM()\n");
  const estimate_model *m = model_named(&x, "lm");
  /* one 100 x 16 matrix, counted once */
  assert_int_equal(m->parameters, 1600);
  assert_int_equal(m->nnotes >= 1, 1);
  bool tie = false;
  for (uint32_t i = 0; i < m->nnotes; i++) tie |= strstr(m->notes[i], "counted once") != NULL;
  assert_true(tie);
  run_free(&x);
}


static void test_shared_module_counted_once(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "shared = nn.Linear(10, 10)\n"
                 "model = nn.Sequential(shared, nn.ReLU(), shared)\n");
  /* the same layer twice: 110 once; `shared` is held by the model */
  assert_int_equal(x.r.nmodels, 1);
  assert_int_equal(model_named(&x, "model")->parameters, 110);
  run_free(&x);
}


static void test_freezing(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.enc = nn.Linear(100, 100)\n"
                 "        self.mid = nn.Linear(100, 100)\n"
                 "        self.head = nn.Linear(100, 10)\n"
                 "net = Net()\n"
                 "for p in net.enc.parameters():\n"
                 "    p.requires_grad = False\n"
                 "net.mid.requires_grad_(False)\n"
                 "opt = torch.optim.Adam(filter(lambda p: p.requires_grad, net.parameters()), lr=1e-3)\n");
  const estimate_model *m = model_named(&x, "net");
  /* 10100 + 10100 + 1010; only the head (1010) trains */
  assert_int_equal(m->parameters, 21210);
  assert_int_equal(m->trainable, 1010);
  assert_int_equal(m->weights_bytes, 21210 * 4);
  assert_int_equal(m->gradients_bytes, 1010 * 4);
  assert_int_equal(m->optimizer_bytes, 1010 * 8);
  assert_string_equal(m->optimizer, "Adam");
  run_free(&x);
}


static void test_lora_on_known_layers(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "from peft import LoraConfig, get_peft_model\n"
                 "class Attn(nn.Module):\n"
                 "    def __init__(self, d=64):\n"
                 "        super().__init__()\n"
                 "        self.q_proj = nn.Linear(d, d)\n"
                 "        self.v_proj = nn.Linear(d, d)\n"
                 "        self.o_proj = nn.Linear(d, d)\n"
                 "base = Attn()\n"
                 "model = get_peft_model(base, LoraConfig(r=4, target_modules=['q_proj', 'v_proj']))\n"
                 "opt = torch.optim.AdamW(model.parameters())\n");
  const estimate_model *m = model_named(&x, "base");
  /* base 3 * (64*64 + 64) = 12480, frozen; adapters r(in + out) = 4 * 128
   * on q and v: 1024 trainable */
  assert_int_equal(m->parameters, 12480 + 1024);
  assert_int_equal(m->trainable, 1024);
  assert_int_equal(m->optimizer_bytes, 1024 * 8);
  run_free(&x);
}


/* ---- bytes ---- */

static const estimate_model *with_optimizer(run *x, const char *opt) {
  char src[1024];
  snprintf(src, sizeof src,
           "import torch\n"
           "import torch.nn as nn\n"
           "import bitsandbytes as bnb\n"
           "model = nn.Linear(1000, 1000)\n"
           "opt = %s\n",
           opt);
  run_source(x, src);
  return model_named(x, "model");
}


static void test_optimizer_state(void **state) {
  (void)state;
  /* 1000 * 1000 + 1000 = 1,001,000 float32 parameters */
  static const struct { const char *opt; int64_t bytes; } cases[] = {
    {"torch.optim.SGD(model.parameters(), lr=0.1)", 0},
    {"torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)", 4004000},
    {"torch.optim.Adam(model.parameters())", 8008000},
    {"torch.optim.AdamW(model.parameters(), amsgrad=True)", 12012000},
    {"torch.optim.Adagrad(model.parameters())", 4004000},
    {"torch.optim.RMSprop(model.parameters())", 4004000},
    {"torch.optim.RMSprop(model.parameters(), momentum=0.9)", 8008000},
    {"bnb.optim.AdamW8bit(model.parameters())", 2002000},
    {"bnb.optim.PagedAdamW8bit(model.parameters())", 2002000},
    {"bnb.optim.Adam(model.parameters(), optim_bits=8)", 2002000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    run x;
    const estimate_model *m = with_optimizer(&x, cases[i].opt);
    if (m->optimizer_bytes != cases[i].bytes)
      fail_msg("%s: %lld bytes, expected %lld", cases[i].opt, (long long)m->optimizer_bytes, (long long)cases[i].bytes);
    assert_int_equal(m->weights_bytes, 4004000);
    assert_int_equal(m->gradients_bytes, 4004000);
    assert_int_equal(m->total_bytes, 8008000 + cases[i].bytes);
    run_free(&x);
  }
}


static void test_dtypes(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "half = nn.Linear(1000, 1000).half()\n"
                 "bf = nn.Linear(1000, 1000).to('cuda', dtype=torch.bfloat16)\n"
                 "full = nn.Linear(1000, 1000).to(torch.bfloat16).float()\n"
                 "opt = torch.optim.Adam(list(half.parameters()) + list(bf.parameters()))\n"
                 "loss = half(torch.randn(2, 1000)).sum()\n"
                 "loss.backward()\n");
  const estimate_model *h = model_named(&x, "half");
  /* 2 bytes per weight and gradient; Adam's two moments in float16 */
  assert_string_equal(h->dtype, "float16");
  assert_int_equal(h->weights_bytes, 2002000);
  assert_int_equal(h->gradients_bytes, 2002000);
  assert_int_equal(h->optimizer_bytes, 4004000);
  assert_string_equal(model_named(&x, "bf")->dtype, "bfloat16");
  assert_int_equal(model_named(&x, "bf")->weights_bytes, 2002000);
  assert_string_equal(model_named(&x, "full")->dtype, "float32");
  assert_int_equal(model_named(&x, "full")->weights_bytes, 4004000);
  run_free(&x);
}


static void test_input_batches(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "from torch.utils.data import DataLoader, TensorDataset\n"
                 "images = torch.randn(1000, 3, 32, 32)\n"
                 "labels = torch.randint(0, 10, (1000,))\n"
                 "loader = DataLoader(TensorDataset(images, labels), batch_size=64, shuffle=True)\n"
                 "model = nn.Sequential(nn.Flatten(), nn.Linear(3072, 10))\n"
                 "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                 "for epoch in range(3):\n"
                 "    for x, y in loader:\n"
                 "        loss = nn.functional.cross_entropy(model(x), y)\n"
                 "        loss.backward()\n"
                 "        opt.step()\n");
  const estimate_model *m = model_named(&x, "model");
  /* model(x) gets 64 images of 3*32*32 float32: 64 * 12288 bytes */
  assert_int_equal(m->input_bytes, 64 * 12288);
  assert_int_equal(m->parameters, 30730);
  /* the loader's batch: images and int64 labels */
  bool found = false;
  for (uint32_t i = 0; i < x.r.nbatches; i++)
    if (!strcmp(x.r.batches[i].where, "DataLoader batch_size")) {
      assert_int_equal(x.r.batches[i].size, 64);
      assert_true(x.r.batches[i].literal);
      assert_int_equal(x.r.batches[i].input_bytes, 64 * (12288 + 8));
      found = true;
    }
  assert_true(found);
  run_free(&x);

  run_source(&x, "import torch\n"
                 "from torch import nn\n"
                 "B = 16\n"
                 "net = nn.Conv2d(3, 8, 3)\n"
                 "out = net(torch.randn(B, 3, 224, 224, dtype=torch.float16))\n");
  /* 16 * 3 * 224 * 224 * 2 bytes */
  assert_int_equal(model_named(&x, "net")->input_bytes, 16 * 3 * 224 * 224 * 2);
  run_free(&x);
}


/* ---- pretrained checkpoints ---- */

static void test_pretrained(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import timm\n"
                 "import torchvision\n"
                 "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, GPT2LMHeadModel\n"
                 "gpt = GPT2LMHeadModel.from_pretrained('gpt2')\n"
                 "llama = AutoModelForCausalLM.from_pretrained('meta-llama/Llama-2-7b-hf', torch_dtype=torch.bfloat16)\n"
                 "q = AutoModelForCausalLM.from_pretrained('meta-llama/Llama-2-7b-hf',\n"
                 "    quantization_config=BitsAndBytesConfig(load_in_4bit=True))\n"
                 "r50 = torchvision.models.resnet50(weights=None)\n"
                 "vit = timm.create_model('vit_base_patch16_224', pretrained=True)\n"
                 "bert = AutoModelForCausalLM.from_pretrained('bert-base-uncased')\n"
                 "mystery = AutoModelForCausalLM.from_pretrained('./my-checkpoint')\n");
  assert_int_equal(model_named(&x, "gpt")->parameters, 124439808);
  const estimate_model *l = model_named(&x, "llama");
  assert_int_equal(l->parameters, 6738415616LL);
  /* bf16: 2 bytes per parameter */
  assert_int_equal(l->weights_bytes, 2 * 6738415616LL);
  /* 4-bit: half a byte per parameter */
  assert_int_equal(model_named(&x, "q")->weights_bytes, 6738415616LL / 2);
  assert_string_equal(model_named(&x, "q")->dtype, "4-bit");
  assert_int_equal(model_named(&x, "r50")->parameters, 25557032);
  assert_int_equal(model_named(&x, "vit")->parameters, 86567656);
  assert_int_equal(model_named(&x, "bert")->parameters, 109482240);
  /* not in the table: not guessed */
  const estimate_model *u = model_named(&x, "mystery");
  assert_int_equal(u->parameters, 0);
  assert_true(unknown_mentions(u, "not in oomlint's table"));
  run_free(&x);
}


static void test_pretrained_table(void **state) {
  (void)state;
  const char *src;
  size_t n;
  static const char *const names[] = {
    "gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "meta-llama/Llama-2-7b-hf", "meta-llama/Llama-2-13b-hf",
    "meta-llama/Llama-2-70b-hf", "meta-llama/Meta-Llama-3-8B", "meta-llama/Meta-Llama-3-70B",
    "meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-70B", "mistralai/Mistral-7B-v0.1", "Qwen/Qwen2.5-0.5B",
    "Qwen/Qwen2.5-1.5B", "Qwen/Qwen2.5-3B", "Qwen/Qwen2.5-7B", "Qwen/Qwen2.5-14B", "Qwen/Qwen2.5-32B",
    "Qwen/Qwen2.5-72B", "microsoft/phi-2", "microsoft/Phi-3-mini-4k-instruct", "google/gemma-2b", "google/gemma-7b",
    "bert-base-uncased", "bert-large-uncased", "roberta-base", "roberta-large", "t5-small", "t5-base", "t5-large",
    "google/vit-base-patch16-224", "google/vit-large-patch16-224", "openai/clip-vit-base-patch32",
    "openai/clip-vit-large-patch14", "openai/whisper-tiny", "openai/whisper-base", "openai/whisper-small",
    "openai/whisper-medium", "openai/whisper-large", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152",
    "vit_b_16", "efficientnet_b0", "vit_base_patch16_224", NULL};
  for (size_t i = 0; names[i]; i++)
    if (estimate_pretrained(names[i], strlen(names[i]), &src, &n) <= 0) fail_msg("`%s` is not in the table", names[i]);
  /* the whole name, the last component, any case, and timm's weight tags */
  assert_int_equal(estimate_pretrained("QWEN/qwen2.5-7b", 15, &src, &n), 7615616512LL);
  assert_int_equal(estimate_pretrained("resnet50.a1_in1k", 16, &src, &n), 25557032);
  assert_true(n > 0 && strncmp(src, "torchvision 0.26 builder", 24) == 0);
  /* the source ends before the per-class column: 2,048 features and a bias */
  assert_null(memchr(src, '\t', n));
  int64_t per = 0;
  assert_int_equal(estimate_pretrained_row("resnet50", 8, &src, &n, &per), 25557032);
  assert_int_equal(per, 2049);
  assert_int_equal(estimate_pretrained_row("gpt2", 4, &src, &n, &per), 124439808);
  assert_int_equal(per, -1);
  assert_int_equal(estimate_pretrained("no-such-model", 13, &src, &n), -1);
}


/* ---- what is not derived ---- */

static void test_unknown_is_not_guessed(void **state) {
  (void)state;
  run x;
  run_source(&x, "import argparse\n"
                 "import torch.nn as nn\n"
                 "parser = argparse.ArgumentParser()\n"
                 "parser.add_argument('--hidden', type=int, default=512)\n"
                 "args = parser.parse_args()\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self, hidden):\n"
                 "        super().__init__()\n"
                 "        self.known = nn.Linear(10, 10)\n"
                 "        self.hidden = nn.Linear(10, hidden)\n"
                 "        if args.deep:\n"
                 "            self.extra = nn.Linear(hidden, hidden)\n"
                 "net = Net(args.hidden)\n");
  const estimate_model *m = model_named(&x, "net");
  /* the argparse default is the script's size; `args.deep` is no argument
   * of its parser, so the layer under it is not counted: 110 + 5,632 */
  assert_int_equal(m->parameters, 110 + 10 * 512 + 512);
  assert_true(unknown_mentions(m, "may or may not run"));
  run_free(&x);
}


static void test_defined_but_not_built(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "from dataclasses import dataclass\n"
                 "@dataclass\n"
                 "class Config:\n"
                 "    d: int = 8\n"
                 "class Block(nn.Module):\n"
                 "    def __init__(self, d):\n"
                 "        super().__init__()\n"
                 "        self.fc = nn.Linear(d, d)\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self, config: Config, depth=2):\n"
                 "        super().__init__()\n"
                 "        self.blocks = nn.ModuleList(Block(config.d) for _ in range(depth))\n"
                 "class Other(nn.Module):\n"
                 "    def __init__(self, size):\n"
                 "        super().__init__()\n"
                 "        self.fc = nn.Linear(size, size)\n");
  /* Net is built from its annotation and defaults: 2 * (64 + 8) */
  assert_int_equal(x.r.nmodels, 1);
  const estimate_model *m = model_named(&x, "Net");
  assert_int_equal(m->parameters, 144);
  assert_true(unknown_mentions(m, "not built in this file"));
  /* Other needs an argument nothing gives */
  bool said = false;
  for (uint32_t i = 0; i < x.r.nunknown; i++) said |= strstr(x.r.unknown[i], "Other") != NULL;
  assert_true(said);
  run_free(&x);
}


static void test_bad_input_is_bounded(void **state) {
  (void)state;
  /* endless loops, endless recursion and deep nesting end, with partial results */
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "def f(n):\n"
                 "    return f(n + 1)\n"
                 "f(0)\n"
                 "i = 0\n"
                 "while True:\n"
                 "    i += 1\n"
                 "model = nn.Linear(2, 2)\n");
  run_free(&x);
  size_t depth = 5000;
  char *src = malloc(depth * 2 + 64);
  char *p = src;
  p += sprintf(p, "x = ");
  for (size_t i = 0; i < depth; i++) *p++ = '(';
  *p++ = '1';
  for (size_t i = 0; i < depth; i++) *p++ = ')';
  strcpy(p, "\n");
  run_source(&x, src);
  assert_int_equal(x.r.nmodels, 0);
  run_free(&x);
  free(src);
}


/* ---- advice, formats, options ---- */

static void test_advice(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "model = nn.Linear(8192, 8192)\n"
                 "opt = torch.optim.AdamW(model.parameters())\n");
  const estimate_model *m = model_named(&x, "model");
  /* 67,117,056 parameters x 16 bytes = 1,073,872,896 */
  assert_int_equal(m->total_bytes, 1073872896);
  arena a = {0};
  estimate_change c[4];
  /* 700 MiB: bf16 (8 bytes each, 512 MiB) fits first */
  uint32_t n = estimate_advice(m, 700LL << 20, c, 4, &a);
  assert_true(n >= 1);
  assert_non_null(strstr(c[0].change, "bf16"));
  assert_int_equal(c[0].after, 67117056LL * 8);
  assert_int_equal(c[0].saving, 67117056LL * 8);
  for (uint32_t i = 0; i < n; i++) assert_true(c[i].after <= (700LL << 20));
  /* 100 MiB: only sharding fits, across 11 GPUs */
  n = estimate_advice(m, 100LL << 20, c, 4, &a);
  assert_true(n >= 1);
  assert_non_null(strstr(c[0].change, "11 GPUs"));
  arena_free(&a);
  run_free(&x);
}


static void test_formats(void **state) {
  (void)state;
  char s[32];
  assert_string_equal(estimate_count(28348416, s, sizeof s), "28,348,416");
  assert_string_equal(estimate_count(999, s, sizeof s), "999");
  assert_string_equal(estimate_count(1000, s, sizeof s), "1,000");
  assert_string_equal(estimate_bytes(512, s, sizeof s), "512 B");
  assert_string_equal(estimate_bytes(1536, s, sizeof s), "1.50 KiB");
  assert_string_equal(estimate_bytes(24LL << 30, s, sizeof s), "24.00 GiB");
  uint64_t v;
  assert_true(oom_parse_bytes("24GiB", &v));
  assert_int_equal(v, 24ULL << 30);
  assert_true(oom_parse_bytes("80GB", &v));
  assert_int_equal(v, 80000000000ULL);
  assert_true(oom_parse_bytes("1.5 TiB", &v));
  assert_int_equal(v, 3ULL << 39);
  assert_true(oom_parse_bytes("512mib", &v));
  assert_int_equal(v, 512ULL << 20);
  assert_true(oom_parse_bytes("4096", &v));
  assert_int_equal(v, 4096);
  assert_false(oom_parse_bytes("lots", &v));
  assert_false(oom_parse_bytes("24 GiBs", &v));
  assert_false(oom_parse_bytes("-1GB", &v));
}


/* ---- OOM601 and OOM301 through the public API ---- */

static size_t lint_codes(const char *src, uint64_t gpu, uint64_t max_batch, const char *code, char *message,
                         size_t size) {
  oom_options *o = oom_options_new();
  if (gpu) oom_options_set_gpu_memory(o, gpu);
  if (max_batch) oom_options_set_max_batch_size(o, max_batch);
  char *err = NULL;
  oom_linter *l = oom_linter_new(o, &err);
  assert_non_null(l);
  oom_worker *w = oom_worker_new(l);
  oom_document *d = oom_document_new("t.py", src, strlen(src));
  oom_document_lint(d, w);
  size_t n = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(d); i++) {
    const oom_diagnostic *g = oom_document_diagnostic(d, i);
    if (strcmp(oom_diagnostic_code(g), code) != 0) continue;
    if (!n && message) snprintf(message, size, "%s", oom_diagnostic_message(g));
    n++;
  }
  oom_document_free(d);
  oom_worker_free(w);
  oom_linter_free(l);
  oom_options_free(o);
  return n;
}


static void test_budget_rules(void **state) {
  (void)state;
  const char *src = "import torch\n"
                    "from torch import nn\n"
                    "from torch.utils.data import DataLoader, TensorDataset\n"
                    "model = nn.Linear(8192, 8192)\n"
                    "opt = torch.optim.AdamW(model.parameters())\n"
                    "data = TensorDataset(torch.randn(100, 8192))\n"
                    "loader = DataLoader(data, batch_size=1024)\n";
  char msg[1024];
  /* 1.0 GiB of weights, gradients and state: over 512 MiB, under 2 GiB */
  assert_int_equal(lint_codes(src, 512ULL << 20, 0, "OOM601", msg, sizeof msg), 1);
  assert_non_null(strstr(msg, "67,117,056 parameters"));
  assert_int_equal(lint_codes(src, 2ULL << 30, 0, "OOM601", NULL, 0), 0);
  /* no budget: silent */
  assert_int_equal(lint_codes(src, 0, 0, "OOM601", NULL, 0), 0);
  /* the batch: 1024 * 8192 * 4 bytes = 32 MiB; over max-batch-size 256 */
  assert_int_equal(lint_codes(src, 0, 256, "OOM301", msg, sizeof msg), 1);
  assert_non_null(strstr(msg, "32.00 MiB"));
  assert_int_equal(lint_codes(src, 0, 2048, "OOM301", NULL, 0), 0);
  /* 1.0 GiB of model + 32 MiB of batch over a 1.02 GiB budget */
  assert_int_equal(lint_codes(src, 1050ULL << 20, 0, "OOM301", NULL, 0), 1);
}



/* ---- the script as it runs ---- */

#define ARGPARSE_MLP                                                                  \
  "import argparse\n"                                                                 \
  "import torch\n"                                                                    \
  "import torch.nn as nn\n"                                                           \
  "def main():\n"                                                                     \
  "    p = argparse.ArgumentParser()\n"                                               \
  "    p.add_argument('--hidden-size', type=int, default=256)\n"                      \
  "    p.add_argument('-l', '--layers', dest='depth', type=int, default=2)\n"         \
  "    p.add_argument('--act', choices=['relu', 'gelu'], default='relu')\n"           \
  "    p.add_argument('--wide', action='store_true')\n"                               \
  "    p.add_argument('--no-bias', dest='bias', action='store_false')\n"              \
  "    p.add_argument('--scale', type=float, default='2')\n"                          \
  "    g = p.add_argument_group('data')\n"                                            \
  "    g.add_argument('--inputs', type=int, default=10)\n"                            \
  "    args = p.parse_args()\n"                                                       \
  "    h = args.hidden_size * (2 if args.wide else 1)\n"                              \
  "    layers = [nn.Linear(args.inputs, h, bias=args.bias)]\n"                        \
  "    for _ in range(args.depth - 1):\n"                                             \
  "        layers.append(nn.Linear(h, h, bias=args.bias))\n"                          \
  "    opts = vars(args)\n"                                                           \
  "    model = nn.Sequential(*layers, nn.Linear(h, int(opts['scale'])))\n"            \
  "    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"                     \
  "if __name__ == '__main__':\n"                                                      \
  "    main()\n"

static void test_argparse_defaults(void **state) {
  (void)state;
  run x;
  run_script(&x, ARGPARSE_MLP, NULL, 0, NULL, NULL, 0);
  /* defaults: 10x256+256, 256x256+256, 256x2+2 (the string default '2' goes
   * through type=float, then int()) = 2,816 + 65,792 + 514 */
  assert_int_equal(model_named(&x, "model")->parameters, 2816 + 65792 + 514);
  run_free(&x);
}


static void test_argparse_command_line(void **state) {
  (void)state;
  run x;
  /* --hidden-size=64 --wide (h = 128), -l 3, --no-bias, an abbreviation of
   * --inputs, and --scale 5: 20x128, 2 x 128x128, 128x5+5 */
  const char *const argv[] = {"--hidden-size=64", "--wide", "-l", "3", "--no-bias", "--inp", "20", "--scale", "5"};
  run_script(&x, ARGPARSE_MLP, argv, 9, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "model")->parameters, 20 * 128 + 2 * 128 * 128 + 128 * 5 + 5);
  run_free(&x);
}


static void test_argparse_subparsers_and_known_args(void **state) {
  (void)state;
  const char *src = "import argparse\n"
                    "import torch.nn as nn\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('data', nargs='?', default='x')\n"
                    "sub = p.add_subparsers(dest='cmd')\n"
                    "t = sub.add_parser('train')\n"
                    "t.add_argument('--width', type=int, default=8)\n"
                    "t.set_defaults(extra=3)\n"
                    "e = sub.add_parser('eval')\n"
                    "e.add_argument('--width', type=int, default=4)\n"
                    "args, rest = p.parse_known_args()\n"
                    "model = nn.Linear(args.width, args.extra)\n"
                    "n = nn.Linear(len(rest), 1)\n";
  run x;
  const char *const argv[] = {"folder", "train", "--width", "16", "--unknown", "--more"};
  run_script(&x, src, argv, 6, NULL, NULL, 0);
  /* train's --width 16 and set_defaults(extra=3): 16x3+3; two unknown options */
  assert_int_equal(model_named(&x, "model")->parameters, 16 * 3 + 3);
  assert_int_equal(model_named(&x, "n")->parameters, 2 * 1 + 1);
  run_free(&x);
}


static void test_argparse_required_is_named(void **state) {
  (void)state;
  const char *src = "import argparse\n"
                    "import torch.nn as nn\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('--width', type=int, required=True)\n"
                    "args = p.parse_args()\n"
                    "model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, args.width))\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  const estimate_model *m = model_named(&x, "model");
  assert_int_equal(m->parameters, 20);
  assert_true(unknown_mentions(m, "needs `--width` on its command line"));
  run_free(&x);
  const char *const argv[] = {"--width", "7"};
  run_script(&x, src, argv, 2, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "model")->parameters, 20 + 35);
  run_free(&x);
}


/* nanoGPT's pattern: defaults as globals, overridden by a config file and
 * --key=value through exec(open('configurator.py').read()) */
static void test_configurator_exec(void **state) {
  (void)state;
  const char *src = "import os\n"
                    "import torch.nn as nn\n"
                    "n_embd = 64\n"
                    "n_layer = 2\n"
                    "bias = True\n"
                    "exec(open('configurator.py').read())\n"
                    "vocab = None\n"
                    "if os.path.exists(os.path.join('data', 'meta.pkl')):\n"
                    "    vocab = 99\n"
                    "model_args = dict(n_embd=n_embd, bias=bias)\n"
                    "model_args['vocab'] = vocab if vocab is not None else 50\n"
                    "def block(n_embd, bias, vocab):\n"
                    "    return nn.Linear(n_embd, vocab, bias=bias)\n"
                    "model = nn.Sequential(*[block(**model_args) for _ in range(n_layer)])\n";
  const char *const files[] = {
    "configurator.py",
    "import sys\n"
    "from ast import literal_eval\n"
    "for arg in sys.argv[1:]:\n"
    "    if '=' not in arg:\n"
    "        exec(open(arg).read())\n"
    "    else:\n"
    "        key, val = arg.split('=')\n"
    "        key = key[2:]\n"
    "        if key in globals():\n"
    "            try:\n"
    "                attempt = literal_eval(val)\n"
    "            except (SyntaxError, ValueError):\n"
    "                attempt = val\n"
    "            globals()[key] = attempt\n"
    "        else:\n"
    "            raise ValueError(key)\n",
    "config/small.py", "n_layer = 3\nn_embd = 32\n",
    NULL};
  run x;
  run_script(&x, src, NULL, 0, files, NULL, 0);
  /* defaults, no meta.pkl: 2 x (64x50+50) */
  assert_int_equal(model_named(&x, "model")->parameters, 2 * (64 * 50 + 50));
  run_free(&x);
  const char *const argv[] = {"config/small.py", "--n_embd=16", "--bias=False"};
  run_script(&x, src, argv, 3, files, NULL, 0);
  /* the config file's 3 layers, then --n_embd=16 and --bias=False: 3 x 16x50 */
  assert_int_equal(model_named(&x, "model")->parameters, 3 * 16 * 50);
  run_free(&x);
}


static void test_json_config(void **state) {
  (void)state;
  const char *src = "import json\n"
                    "import argparse\n"
                    "import torch.nn as nn\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('--config', default='cfg.json')\n"
                    "args = p.parse_args()\n"
                    "with open(args.config) as f:\n"
                    "    cfg = json.load(f)\n"
                    "model = nn.Linear(cfg['model']['d'], cfg['model']['out'])\n";
  const char *const files[] = {"cfg.json", "{\"model\": {\"d\": 12, \"out\": 3}}", NULL};
  run x;
  run_script(&x, src, NULL, 0, files, NULL, 0);
  assert_int_equal(model_named(&x, "model")->parameters, 12 * 3 + 3);
  run_free(&x);
}


/* A project's Dataset of image files whose size only the data knows: the estimate asks for
 * it by name (--assume image_width / image_height) and takes it. random_split's parts give
 * the dataset's samples. With a 10 x 8 RGB image, batches of 2: the conv keeps its input,
 * 2x3x8x10x4 = 1,920 bytes. */
static void test_assume_image_size(void **state) {
  (void)state;
  const char *src = "import torch.nn as nn\nfrom PIL import Image\n"
                    "from torch.utils.data import Dataset, DataLoader, random_split\n"
                    "from torchvision import transforms\n"
                    "class Images(Dataset):\n"
                    "    def __getitem__(self, i):\n"
                    "        img = Image.open('x.png').convert('RGB')\n"
                    "        return {'image': transforms.ToTensor()(img), 'label': 1}\n"
                    "    def __len__(self):\n"
                    "        return 10\n"
                    "train, val = random_split(Images(), [8, 2])\n"
                    "loader = DataLoader(train, batch_size=2)\n"
                    "model = nn.Conv2d(3, 4, 3)\n"
                    "for batch in loader:\n"
                    "    model(batch['image']).sum().backward()\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  const estimate_model *m = model_named(&x, "model");
  assert_int_equal(m->activations_bytes, -1);
  assert_non_null(m->act_why);
  assert_non_null(strstr(m->act_why, "--assume image_"));
  run_free(&x);
  const char *const assume[] = {"image_width=10", "image_height=8"};
  run_script(&x, src, NULL, 0, NULL, assume, 2);
  m = model_named(&x, "model");
  assert_null(m->act_why);
  assert_int_equal(m->micro_batch, 2);
  assert_int_equal(m->activations_bytes, 2 * 3 * 8 * 10 * 4);
  run_free(&x);
}


static void test_assume_sizes_only_the_data_knows(void **state) {
  (void)state;
  const char *src = "import torch.nn as nn\n"
                    "words = open('corpus.txt').read().split()\n"
                    "ntokens = len(set(words))\n"
                    "model = nn.Sequential(nn.Embedding(ntokens, 8), nn.Linear(8, 8))\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  const estimate_model *m = model_named(&x, "model");
  /* the size is named with its statement and the flag that gives it */
  assert_int_equal(m->parameters, 72);
  assert_true(unknown_mentions(m, "`ntokens = len(set(words))` (line 3)"));
  assert_true(unknown_mentions(m, "--assume ntokens=N"));
  run_free(&x);
  const char *const assume[] = {"ntokens=33278"};
  run_script(&x, src, NULL, 0, NULL, assume, 1);
  m = model_named(&x, "model");
  assert_int_equal(m->parameters, 33278 * 8 + 72);
  assert_int_equal(m->nunknown, 0);
  run_free(&x);
  /* a size named at the constructor's call (num_classes) keeps that name through
   * `self.n_hidden = out` in a layer built twice: the hint names what the user can give */
  const char *gat = "import torch\nimport torch.nn as nn\n"
                    "labels = torch.load('labels.pt')\n"
                    "class Layer(nn.Module):\n"
                    "    def __init__(self, i, o):\n"
                    "        super().__init__()\n"
                    "        self.n_hidden = o\n"
                    "        self.W = nn.Parameter(torch.empty(i, self.n_hidden))\n"
                    "class Net(nn.Module):\n"
                    "    def __init__(self, hidden, num_classes):\n"
                    "        super().__init__()\n"
                    "        self.l1 = Layer(4, hidden)\n"
                    "        self.l2 = Layer(hidden, num_classes)\n"
                    "model = Net(hidden=8, num_classes=labels.max().item() + 1)\n";
  run_script(&x, gat, NULL, 0, NULL, NULL, 0);
  m = model_named(&x, "model");
  assert_int_equal(m->parameters, 4 * 8);
  assert_true(unknown_mentions(m, "--assume num_classes=N"));
  assert_false(unknown_mentions(m, "--assume n_hidden=N"));
  run_free(&x);
  const char *const classes[] = {"num_classes=3"};
  run_script(&x, gat, NULL, 0, NULL, classes, 1);
  assert_int_equal(model_named(&x, "model")->parameters, 4 * 8 + 8 * 3);
  run_free(&x);
  assert_true(estimate_assume_valid("vocab_size=3"));
  assert_false(estimate_assume_valid("vocab_size=three"));
  assert_false(estimate_assume_valid("=3"));
  assert_false(estimate_assume_valid("vocab size=3"));
}


static void test_zoo_by_name(void **state) {
  (void)state;
  const char *src = "import argparse\n"
                    "import timm\n"
                    "import torchvision.models as models\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('-a', '--arch', default='resnet18')\n"
                    "args = p.parse_args()\n"
                    "a = models.__dict__[args.arch]()\n"
                    "b = getattr(models, 'resnet50')(num_classes=10)\n"
                    "c = models.get_model('vit_b_16')\n"
                    "d = timm.create_model('vit_small_patch16_224', num_classes=100)\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "a")->parameters, 11689512);
  /* the head is 2048+1 per class: 25,557,032 - 990 x 2,049 */
  assert_int_equal(model_named(&x, "b")->parameters, 25557032 - 990 * 2049);
  assert_int_equal(model_named(&x, "c")->parameters, 86567656);
  /* ViT-S/16: 384+1 per class */
  assert_int_equal(model_named(&x, "d")->parameters, 22050664 - 900 * 385);
  run_free(&x);
  const char *const argv[] = {"--arch", "densenet121"};
  run_script(&x, src, argv, 2, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "a")->parameters, 7978856);
  run_free(&x);
}


static void test_budget_names_what_spent_it(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\n"
                 "model = nn.Linear(4, 4)\n"
                 "def spin(n):\n"
                 "    t = 0\n"
                 "    for i in range(n):\n"
                 "        t = t + i\n"
                 "    return t\n"
                 "for k in range(100000):\n"
                 "    layer = nn.Linear(2, 2)\n"
                 "    spin(90000)\n");
  const estimate_model *m = model_named(&x, "model");
  assert_int_equal(m->parameters, 20);
  assert_true(unknown_mentions(m, "the budget ran out in `for k in range(100000):` (line 8)"));
  run_free(&x);
  /* a training loop that builds nothing is not followed to its end */
  run_source(&x, "import torch.nn as nn\n"
                 "model = nn.Linear(4, 4)\n"
                 "step = 0\n"
                 "while True:\n"
                 "    step += 1\n"
                 "    x = [step, step, step, step]\n"
                 "    if step > 100000000:\n"
                 "        break\n"
                 "head = nn.Linear(4, 2)\n");
  assert_int_equal(model_named(&x, "head")->parameters, 10);
  assert_int_equal(x.r.nunknown, 0);
  run_free(&x);
}


/* rules/zoo.py builds torchvision's architectures layer by layer: each
 * builder's count is the table's, counted with torchvision itself, at 1000
 * classes and at 10 (the table's per-class column) */
static void test_zoo_architectures_match_the_table(void **state) {
  (void)state;
  static const char *const names[] = {
    "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d",
    "resnext101_64x4d", "wide_resnet50_2", "wide_resnet101_2", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16",
    "vgg16_bn", "vgg19", "vgg19_bn", "alexnet", "vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14",
    "mobilenet_v2", "squeezenet1_0", "squeezenet1_1", NULL};
  for (size_t i = 0; names[i]; i++) {
    char src[256];
    snprintf(src, sizeof src, "import torchvision\nfrom torchvision import models\nm = models.%s()\nk = torchvision.models.%s(num_classes=10)\n",
             names[i], names[i]);
    const char *s;
    size_t n;
    int64_t per;
    int64_t want = estimate_pretrained_row(names[i], strlen(names[i]), &s, &n, &per);
    assert_true(want > 0 && per > 0);
    run x;
    run_source(&x, src);
    const estimate_model *m = model_named(&x, "m"), *k = model_named(&x, "k");
    if (m->parameters != want || k->parameters != want - 990 * per)
      fail_msg("%s: %lld and %lld, not %lld and %lld", names[i], (long long)m->parameters, (long long)k->parameters,
               (long long)want, (long long)(want - 990 * per));
    /* built layer by layer, not read from the table */
    assert_true(m->nparts > 3);
    run_free(&x);
  }
}


/* what fine-tuning scripts do to a model they got by name */
static void test_zoo_model_changed_by_the_script(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "import torchvision\n"
                 "model = torchvision.models.resnet18(weights='IMAGENET1K_V1')\n"
                 "model.conv1 = nn.Conv2d(1, 64, kernel_size=7, stride=2, padding=3, bias=False)\n"
                 "model.fc = nn.Linear(model.fc.in_features, 10)\n"
                 "for p in model.layer1.parameters():\n"
                 "    p.requires_grad = False\n"
                 "trunk = nn.Sequential(*list(torchvision.models.resnet18().children())[:-1])\n"
                 "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n");
  /* 11,689,512 - 9,408 + 3,136 (one input channel) - 513,000 + 5,130 (10
   * classes); layer1 is 4 x (36,864 + 128) = 147,968 frozen */
  const estimate_model *m = model_named(&x, "model");
  assert_int_equal(m->parameters, 11689512 - 9408 + 3136 - 513000 + 5130);
  assert_int_equal(m->trainable, m->parameters - 147968);
  assert_int_equal(model_named(&x, "trunk")->parameters, 11689512 - 513000);
  run_free(&x);
}


static void test_yaml_config(void **state) {
  (void)state;
  const char *src = "import yaml\n"
                    "import argparse\n"
                    "import torch.nn as nn\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('--config', default='conf/base.yaml')\n"
                    "args = p.parse_args()\n"
                    "cfg = yaml.safe_load(open(args.config))\n"
                    "m = cfg['model']\n"
                    "layers = [nn.Linear(m['width'], m['width'], bias=m['bias']) for _ in range(m['depth'])]\n"
                    "model = nn.Sequential(*layers, nn.Linear(m['width'], len(m['classes'])))\n"
                    "lr = cfg['lr'] * 2\n";
  const char *const files[] = {"conf/base.yaml",
                               "# a config\n"
                               "model:\n"
                               "  width: 0x10\n"
                               "  depth: 3\n"
                               "  bias: no\n"
                               "  classes: [cat, dog, 'yes']\n"
                               "lr: 1.0e-3\n",
                               "conf/big.yaml", "model: {width: 32, depth: 1, bias: true, classes: [a]}\nlr: 0.1\n", NULL};
  run x;
  run_script(&x, src, NULL, 0, files, NULL, 0);
  /* width 0x10 = 16, `no` is False: 3 x 16x16, then 16x3+3 (3 classes) */
  assert_int_equal(model_named(&x, "model")->parameters, 3 * 256 + 16 * 3 + 3);
  run_free(&x);
  const char *const argv[] = {"--config", "conf/big.yaml"};
  run_script(&x, src, argv, 2, files, NULL, 0);
  assert_int_equal(model_named(&x, "model")->parameters, 32 * 32 + 32 + 32 + 1);
  run_free(&x);
  /* a file that does not parse says so */
  const char *const bad[] = {"conf/base.yaml", "model: [unclosed\n", NULL};
  run_script(&x, src, NULL, 0, bad, NULL, 0);
  assert_int_equal(x.r.nmodels, 1);
  assert_true(unknown_mentions(&x.r.models[0], "YAML that does not parse"));
  run_free(&x);
}


static void test_attrs_and_dataclass_configs(void **state) {
  (void)state;
  run x;
  run_source(&x, "import attr\n"
                 "from attrs import define, field\n"
                 "from dataclasses import dataclass\n"
                 "import torch.nn as nn\n"
                 "@attr.s\n"
                 "class A:\n"
                 "    width = attr.ib(default=8)\n"
                 "    depth = attr.ib(2)\n"
                 "@define\n"
                 "class B:\n"
                 "    width: int = 4\n"
                 "    out: int = field(default=3)\n"
                 "@dataclass\n"
                 "class C(B):\n"
                 "    extra: int = 1\n"
                 "a = A(depth=3)\n"
                 "b = C(width=5)\n"
                 "m1 = nn.Sequential(*[nn.Linear(a.width, a.width) for _ in range(a.depth)])\n"
                 "args = dict(in_features=b.width, out_features=b.out + b.extra)\n"
                 "m2 = nn.Linear(**args)\n");
  assert_int_equal(model_named(&x, "m1")->parameters, 3 * (64 + 8));
  assert_int_equal(model_named(&x, "m2")->parameters, 5 * 4 + 4);
  run_free(&x);
}


/* an RL agent's sizes come from its environment's spaces (rules/envs.tsv),
 * its environment id from a tyro dataclass and the command line */
static void test_env_spaces(void **state) {
  (void)state;
  const char *src = "from dataclasses import dataclass\n"
                    "import gymnasium as gym\n"
                    "import numpy as np\n"
                    "import torch.nn as nn\n"
                    "import tyro\n"
                    "@dataclass\n"
                    "class Args:\n"
                    "    env_id: str = 'CartPole-v1'\n"
                    "    num_envs: int = 4\n"
                    "    hidden: int = 64\n"
                    "def make_env(env_id):\n"
                    "    def thunk():\n"
                    "        env = gym.make(env_id)\n"
                    "        env = gym.wrappers.RecordEpisodeStatistics(env)\n"
                    "        return env\n"
                    "    return thunk\n"
                    "class Wrap(gym.Wrapper):\n"
                    "    def __init__(self, env):\n"
                    "        super().__init__(env)\n"
                    "args = tyro.cli(Args)\n"
                    "envs = gym.vector.SyncVectorEnv([make_env(args.env_id) for i in range(args.num_envs)])\n"
                    "obs = np.array(envs.single_observation_space.shape).prod()\n"
                    "space = envs.single_action_space\n"
                    "act = space.n if isinstance(space, gym.spaces.Discrete) else np.prod(space.shape)\n"
                    "agent = nn.Sequential(nn.Linear(obs, args.hidden), nn.Linear(args.hidden, args.hidden), nn.Linear(args.hidden, act))\n"
                    "w = Wrap(gym.make('Pendulum-v1'))\n"
                    "other = nn.Linear(w.observation_space.shape[0], 1)\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  /* CartPole-v1: 4 observations, 2 actions: 4x64+64, 64x64+64, 64x2+2 */
  assert_int_equal(model_named(&x, "agent")->parameters, 320 + 4160 + 130);
  /* Pendulum-v1 through a wrapper of the file: 3 observations */
  assert_int_equal(model_named(&x, "other")->parameters, 4);
  run_free(&x);
  /* Hopper-v4 (11 observations, a box of 3 actions), --hidden 32 */
  const char *const argv[] = {"--env-id", "Hopper-v4", "--hidden=32"};
  run_script(&x, src, argv, 3, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "agent")->parameters, 11 * 32 + 32 + 32 * 32 + 32 + 32 * 3 + 3);
  run_free(&x);
  /* an id the table lacks says so */
  const char *const other[] = {"--env-id", "MyEnv-v0"};
  run_script(&x, src, other, 2, NULL, NULL, 0);
  assert_true(unknown_mentions(model_named(&x, "agent"), "MyEnv-v0"));
  run_free(&x);
}


static void test_omegaconf(void **state) {
  (void)state;
  const char *src = "from omegaconf import OmegaConf\n"
                    "import torch.nn as nn\n"
                    "cfg = OmegaConf.load('conf.yaml')\n"
                    "extra = OmegaConf.create({'out': 3})\n"
                    "model = nn.Linear(cfg.model.width, extra.out)\n"
                    "sizes = dict(a=1)\n"
                    "n = nn.Linear(len(sizes.keys()), 1)\n";
  const char *const files[] = {"conf.yaml", "model:\n  width: 16\n", NULL};
  run x;
  run_script(&x, src, NULL, 0, files, NULL, 0);
  assert_int_equal(model_named(&x, "model")->parameters, 16 * 3 + 3);
  /* a dictionary's own methods stay methods */
  assert_int_equal(model_named(&x, "n")->parameters, 2);
  run_free(&x);
}


/* SAC's critics: one optimizer over the parameters of two models */
static void test_optimizer_over_two_models(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.nn as nn\n"
                 "qf1 = nn.Linear(4, 4)\n"
                 "qf2 = nn.Linear(4, 4)\n"
                 "target = nn.Linear(4, 4)\n"
                 "opt = torch.optim.Adam(list(qf1.parameters()) + list(qf2.parameters()), lr=1e-3)\n");
  /* 20 parameters each, Adam's two fp32 moments: 160 bytes */
  assert_int_equal(model_named(&x, "qf1")->optimizer_bytes, 160);
  assert_int_equal(model_named(&x, "qf2")->optimizer_bytes, 160);
  assert_null(model_named(&x, "target")->optimizer);
  run_free(&x);
}


/* the batch of a loader iterated through enumerate() and tqdm(), its size
 * from the script's command line */
static void test_loader_batch_through_enumerate(void **state) {
  (void)state;
  const char *src = "import argparse\n"
                    "import torch\n"
                    "import torch.nn as nn\n"
                    "from tqdm import tqdm\n"
                    "from torchvision import datasets, transforms\n"
                    "p = argparse.ArgumentParser()\n"
                    "p.add_argument('--batch-size', type=int, default=64)\n"
                    "args = p.parse_args()\n"
                    "ds = datasets.MNIST('data', train=True, transform=transforms.ToTensor())\n"
                    "loader = torch.utils.data.DataLoader(ds, batch_size=args.batch_size)\n"
                    "model = nn.Linear(784, 10)\n"
                    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                    "for i, (x, y) in enumerate(tqdm(loader, desc='train')):\n"
                    "    loss = model(x.view(-1, 784)).sum()\n"
                    "    loss.backward()\n";
  run x;
  run_script(&x, src, NULL, 0, NULL, NULL, 0);
  /* the loader's batch as the model is called with it: 64 x 784 float32
   * (the labels, which only the loss would read, are not the model's input) */
  assert_int_equal(model_named(&x, "model")->input_bytes, 64 * 784 * 4);
  run_free(&x);
  const char *const argv[] = {"--batch-size", "256"};
  run_script(&x, src, argv, 2, NULL, NULL, 0);
  assert_int_equal(model_named(&x, "model")->input_bytes, 256 * 784 * 4);
  run_free(&x);
}


/* DDP scripts start their workers with mp.spawn: rank 0 runs main(0, *args) */
static void test_mp_spawn_runs_the_worker(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\n"
                 "import torch.multiprocessing as mp\n"
                 "import torch.nn as nn\n"
                 "def main(rank, world_size, width):\n"
                 "    model = nn.Linear(width, width)\n"
                 "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                 "if __name__ == '__main__':\n"
                 "    mp.spawn(main, args=(torch.cuda.device_count(), 8), nprocs=2)\n");
  assert_int_equal(model_named(&x, "model")->parameters, 72);
  run_free(&x);
}


/* nested YAML aliases expand exponentially: the walk is bounded by the run's
 * budget, and the stop names the statement */
static void test_yaml_alias_bomb_is_bounded(void **state) {
  (void)state;
  static char yaml[8192];
  size_t n = (size_t)snprintf(yaml, sizeof yaml, "a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8]\n");
  for (int i = 1; i < 24; i++) {
    n += (size_t)snprintf(yaml + n, sizeof yaml - n, "a%d: &a%d [", i, i);
    for (int k = 0; k < 8; k++) n += (size_t)snprintf(yaml + n, sizeof yaml - n, "%s*a%d", k ? ", " : "", i - 1);
    n += (size_t)snprintf(yaml + n, sizeof yaml - n, "]\n");
  }
  const char *const files[] = {"bomb.yaml", yaml, NULL};
  run x;
  run_script(&x, "import torch.nn as nn\n"
                 "import yaml\n"
                 "m = nn.Linear(2, 2)\n"
                 "cfg = yaml.safe_load(open('bomb.yaml'))\n",
             NULL, 0, files, NULL, 0);
  const estimate_model *m = model_named(&x, "m");
  assert_int_equal(m->parameters, 6);
  assert_true(unknown_mentions(m, "the budget ran out in `cfg = yaml.safe_load(open('bomb.yaml'))` (line 4)"));
  run_free(&x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_linear_and_bilinear),
    cmocka_unit_test(test_convolutions),
    cmocka_unit_test(test_embeddings_and_norms),
    cmocka_unit_test(test_recurrent),
    cmocka_unit_test(test_attention_and_transformers),
    cmocka_unit_test(test_encoder_copies_its_layer),
    cmocka_unit_test(test_parameters),
    cmocka_unit_test(test_constants_configs_and_repetition),
    cmocka_unit_test(test_keywords_defaults_and_helpers),
    cmocka_unit_test(test_weight_tying),
    cmocka_unit_test(test_shared_module_counted_once),
    cmocka_unit_test(test_freezing),
    cmocka_unit_test(test_lora_on_known_layers),
    cmocka_unit_test(test_optimizer_state),
    cmocka_unit_test(test_dtypes),
    cmocka_unit_test(test_input_batches),
    cmocka_unit_test(test_pretrained),
    cmocka_unit_test(test_pretrained_table),
    cmocka_unit_test(test_unknown_is_not_guessed),
    cmocka_unit_test(test_defined_but_not_built),
    cmocka_unit_test(test_bad_input_is_bounded),
    cmocka_unit_test(test_advice),
    cmocka_unit_test(test_formats),
    cmocka_unit_test(test_budget_rules),
    cmocka_unit_test(test_argparse_defaults),
    cmocka_unit_test(test_argparse_command_line),
    cmocka_unit_test(test_argparse_subparsers_and_known_args),
    cmocka_unit_test(test_argparse_required_is_named),
    cmocka_unit_test(test_configurator_exec),
    cmocka_unit_test(test_json_config),
    cmocka_unit_test(test_yaml_config),
    cmocka_unit_test(test_yaml_alias_bomb_is_bounded),
    cmocka_unit_test(test_omegaconf),
    cmocka_unit_test(test_mp_spawn_runs_the_worker),
    cmocka_unit_test(test_loader_batch_through_enumerate),
    cmocka_unit_test(test_optimizer_over_two_models),
    cmocka_unit_test(test_attrs_and_dataclass_configs),
    cmocka_unit_test(test_assume_sizes_only_the_data_knows),
    cmocka_unit_test(test_assume_image_size),
    cmocka_unit_test(test_zoo_by_name),
    cmocka_unit_test(test_env_spaces),
    cmocka_unit_test(test_zoo_architectures_match_the_table),
    cmocka_unit_test(test_zoo_model_changed_by_the_script),
    cmocka_unit_test(test_budget_names_what_spent_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
