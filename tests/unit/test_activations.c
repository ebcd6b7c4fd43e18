/* Unit tests of the activations estimate: forward() run on tensors of known shape, each storage
 * kept for backward counted once, autocast, no_grad, checkpointing, in-place ops, unknown shapes,
 * and the whole step; every figure derived by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
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
  char *src;
} run;


static void run_source(run *x, const char *src) {
  memset(x, 0, sizeof *x);
  x->src = strdup(src);
  const char *why = NULL;
  x->parser = parse_parser_new(&why);
  assert_non_null(x->parser);
  x->tree = parse_source(x->parser, x->src, strlen(x->src), NULL);
  assert_non_null(x->tree);
  facts_build(&x->f, ts_tree_root_node(x->tree), x->src, strlen(x->src));
  estimate_run(&x->f, &x->r);
}


static void run_free(run *x) {
  estimate_free(&x->r);
  facts_free(&x->f);
  ts_tree_delete(x->tree);
  ts_parser_delete(x->parser);
  free(x->src);
}


static const estimate_model *first(const run *x) {
  if (!x->r.nmodels) fail_msg("no model found");
  return &x->r.models[0];
}


/* MNIST's example network, fed BATCH images of 1 x 28 x 28 and trained with nll_loss */
static const char MNIST[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "import torch.nn.functional as F\n"
  "class Net(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.conv1 = nn.Conv2d(1, 32, 3, 1)\n"
  "        self.conv2 = nn.Conv2d(32, 64, 3, 1)\n"
  "        self.dropout1 = nn.Dropout(0.25)\n"
  "        self.dropout2 = nn.Dropout(0.5)\n"
  "        self.fc1 = nn.Linear(9216, 128)\n"
  "        self.fc2 = nn.Linear(128, 10)\n"
  "    def forward(self, x):\n"
  "        x = F.relu(self.conv1(x))\n"
  "        x = F.relu(self.conv2(x))\n"
  "        x = F.max_pool2d(x, 2)\n"
  "        x = self.dropout1(x)\n"
  "        x = torch.flatten(x, 1)\n"
  "        x = F.relu(self.fc1(x))\n"
  "        x = self.dropout2(x)\n"
  "        return F.log_softmax(self.fc2(x), dim=1)\n"
  "model = Net()\n"
  "optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)\n"
  "data = torch.randn(%d, 1, 28, 28)\n"
  "target = torch.randint(0, 10, (%d,))\n"
  "loss = F.nll_loss(model(data), target)\n"
  "loss.backward()\n";


static int64_t mnist_at(int batch) {
  char src[sizeof MNIST + 64];
  snprintf(src, sizeof src, MNIST, batch, batch);
  run x;
  run_source(&x, src);
  int64_t a = first(&x)->activations_bytes;
  if (a < 0) fail_msg("not known: %s", first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, batch);
  run_free(&x);
  return a;
}


static void test_mnist_net(void **state) {
  (void)state;
  /* at batch 64 (PyTorch 2.11 on an H200 measures the same 22,920,196):
   *   conv1's input 64x1x28x28 fp32            200,704
   *   relu's output 64x32x26x26 (= conv2's input) 5,537,792
   *   relu's output 64x64x24x24 (= max_pool's input) 9,437,184
   *   max_pool's int64 indices 64x64x12x12       4,718,592
   *   dropout1's bool mask 64x9216                 589,824
   *   fc1's input 64x9216 fp32                   2,359,296
   *   relu's output 64x128 (= fc2's input after dropout? no: dropout2's output) 32,768
   *   dropout2's mask 64x128                         8,192
   *   fc2's input (dropout2's output) 64x128 fp32   32,768
   *   log_softmax's output 64x10 (= nll_loss's input) 2,560
   *   nll_loss's target 64 int64 + total_weight      512 + 4 */
  assert_int_equal(mnist_at(64), 200704 + 5537792 + 9437184 + 4718592 + 589824 + 2359296 + 32768 + 8192 + 32768 + 2560 +
                                     512 + 4);
  /* everything but total_weight grows with the batch */
  assert_int_equal(mnist_at(128) - 4, 2 * (mnist_at(64) - 4));
  assert_int_equal(mnist_at(1000) - 4, (mnist_at(64) - 4) / 64 * 1000);
}


static void test_whole_step(void **state) {
  (void)state;
  char src[sizeof MNIST + 64];
  snprintf(src, sizeof src, MNIST, 64, 64);
  run x;
  run_source(&x, src);
  const estimate_model *m = first(&x);
  /* 1,199,882 fp32 parameters: weights 4,799,528, gradients as much, Adadelta's two
   * states 9,599,056; the input batch (200,704) is kept by conv1 already. Backward
   * starts with weights, state, the activations and nll_loss's input gradient
   * 64x10x4 = 2,560; the gradients (freed by zero_grad() in PyTorch 2.x) come as the
   * activations go, and at the end weights, gradients, state and input are 19,398,816 */
  assert_int_equal(m->weights_bytes, 4799528);
  assert_int_equal(m->activations_input, 200704);
  assert_int_equal(m->transient_bytes, 2560);
  assert_false(m->grads_resident);
  int64_t fixed = 4799528 + 9599056;
  assert_int_equal(m->peak_bytes, fixed + 22920196 + 2560);
  assert_int_equal(m->batch_size, 64);
  /* the largest batch under a budget: per sample (22,920,196 + 2,560) / 64 = 358,168 */
  int64_t per = m->activations_bytes + m->transient_bytes;
  int64_t budget = fixed + per * 10;
  int64_t fit = estimate_max_batch(m, budget);
  assert_true(fit >= 639 && fit <= 640);
  /* the end of backward must fit too: weights, gradients and state alone over it */
  assert_int_equal(estimate_max_batch(m, 4799528 * 2 + 9599056), 0);
  assert_int_equal(estimate_max_batch(m, fixed / 2), 0);
  run_free(&x);
  /* zero_grad(set_to_none=False) keeps the gradients through the forward */
  char kept[sizeof MNIST + 128];
  snprintf(kept, sizeof kept, MNIST, 64, 64);
  strcat(kept, "optimizer.zero_grad(set_to_none=False)\n");
  run_source(&x, kept);
  assert_true(first(&x)->grads_resident);
  assert_int_equal(first(&x)->peak_bytes, fixed + 4799528 + 22920196 + 2560);
  run_free(&x);
}


static void test_inplace_and_sequential(void **state) {
  (void)state;
  run x;
  /* conv -> ReLU(inplace) -> conv: relu keeps its output, which is conv1's output and
   * conv2's input: 8 x 16 x 30 x 30 x 4 = 460,800 once; conv1 keeps the input
   * 8 x 3 x 32 x 32 x 4 = 98,304; the mean keeps nothing */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(inplace=True), nn.Conv2d(16, 16, 1))\n"
                 "x = torch.randn(8, 3, 32, 32)\n"
                 "model(x).mean().backward()\n");
  assert_int_equal(first(&x)->activations_bytes, 98304 + 460800);
  assert_int_equal(first(&x)->nacts, 3);
  run_free(&x);
}


static void test_autocast_mlp(void **state) {
  (void)state;
  run x;
  /* under bf16 autocast, batch 32:
   *   fc1 keeps the 16-bit copy of its input 32x512x2 = 32,768; not its weight's copy,
   *     since its input (the data) needs no gradient
   *   relu keeps its 16-bit output 32x1024x2 = 65,536 (fc2's input too)
   *   fc2 keeps the 16-bit copy of its weight 10x1024x2 = 20,480
   *   cross_entropy: the 16-bit log-probabilities 32x10x2 = 640, nll_loss's fp32 copy
   *     1,280, the int64 target 256 and total_weight 4 */
  run_source(&x, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 10))\n"
                 "x = torch.randn(32, 512)\ny = torch.randint(0, 10, (32,))\n"
                 "with torch.autocast('cuda', dtype=torch.bfloat16):\n"
                 "    loss = F.cross_entropy(model(x), y)\n"
                 "loss.backward()\n");
  assert_int_equal(first(&x)->activations_bytes, 32768 + 65536 + 20480 + 640 + 1280 + 256 + 4);
  assert_int_equal(first(&x)->act_bits, 16);
  run_free(&x);
}


static void test_no_grad_keeps_nothing(void **state) {
  (void)state;
  run x;
  /* the training call keeps Linear's input 4x8x4 = 128 bytes; the evaluation under
   * no_grad with a larger batch keeps nothing and does not replace it */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.Linear(8, 8)\n"
                 "model(torch.randn(4, 8)).sum().backward()\n"
                 "with torch.no_grad():\n"
                 "    model(torch.randn(400, 8))\n");
  assert_int_equal(first(&x)->activations_bytes, 128);
  assert_int_equal(first(&x)->micro_batch, 4);
  run_free(&x);
  /* nor does a function decorated with @torch.no_grad() */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.Linear(8, 8)\n"
                 "@torch.no_grad()\n"
                 "def evaluate():\n"
                 "    return model(torch.randn(400, 8))\n"
                 "model(torch.randn(4, 8)).sum().backward()\n"
                 "evaluate()\n");
  assert_int_equal(first(&x)->activations_bytes, 128);
  run_free(&x);
}


static void test_checkpoint(void **state) {
  (void)state;
  run x;
  /* without checkpointing: pre keeps the batch 16x64x4 = 4,096, fc1 its input h 4,096,
   * GELU its input 16x256x4 = 16,384 and fc2 its input 16,384; checkpointed, the segment
   * keeps only its input h (4,096), and its 36,864 are rebuilt during backward */
  const char *src = "import torch\nimport torch.nn as nn\nfrom torch.utils.checkpoint import checkpoint\n"
                    "class Block(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.fc1 = nn.Linear(64, 256)\n"
                    "        self.act = nn.GELU()\n"
                    "        self.fc2 = nn.Linear(256, 64)\n"
                    "    def forward(self, x):\n"
                    "        return self.fc2(self.act(self.fc1(x)))\n"
                    "class Net(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.pre = nn.Linear(64, 64)\n"
                    "        self.block = Block()\n"
                    "    def forward(self, x):\n"
                    "        h = self.pre(x)\n"
                    "        return %s\n"
                    "model = Net()\n"
                    "model(torch.randn(16, 64)).sum().backward()\n";
  char text[2048];
  snprintf(text, sizeof text, src, "self.block(h)");
  run_source(&x, text);
  assert_int_equal(first(&x)->activations_bytes, 4096 + 4096 + 16384 + 16384);
  assert_false(first(&x)->checkpointed);
  run_free(&x);
  snprintf(text, sizeof text, src, "checkpoint(self.block, h, use_reentrant=False)");
  run_source(&x, text);
  assert_int_equal(first(&x)->activations_bytes, 4096 + 4096);
  assert_true(first(&x)->checkpointed);
  assert_int_equal(first(&x)->recompute_bytes, 4096 + 16384 + 16384);
  /* backward's start: the weights, the kept 8,192 and the rebuilt 36,864 (the batch
   * is kept by pre already); its end: weights, gradients (37,248 x 4 = 148,992) and
   * the batch, the larger here */
  const estimate_model *m = first(&x);
  assert_int_equal(m->gradients_bytes, 148992);
  assert_int_equal(estimate_step_at(m, 16), m->weights_bytes + 148992 + 4096);
  assert_int_equal(estimate_step_at(m, 160), m->weights_bytes + 10 * (8192 + 36864));
  run_free(&x);
}


static void test_attention_block(void **state) {
  (void)state;
  run x;
  /* a causal self-attention at batch 2, 128 tokens, 4 heads of 16, fp32:
   *   c_attn keeps its input 2x128x64x4 = 65,536
   *   sdpa keeps q, k, v (views of c_attn's output 2x128x192x4 = 196,608, once), its
   *     output 2x4x128x16x4 = 65,536 (laid out so that transpose(1, 2).contiguous()
   *     is c_proj's input without a copy), logsumexp 2x4x128x4 = 4,096 and 16 of philox
   *   c_proj's input: the sdpa output, counted once */
  run_source(&x, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "class Attn(nn.Module):\n"
                 "    def __init__(self, d=64, h=4):\n"
                 "        super().__init__()\n"
                 "        self.h = h\n"
                 "        self.c_attn = nn.Linear(d, 3 * d)\n"
                 "        self.c_proj = nn.Linear(d, d)\n"
                 "    def forward(self, x):\n"
                 "        B, T, C = x.size()\n"
                 "        q, k, v = self.c_attn(x).split(C, dim=2)\n"
                 "        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)\n"
                 "        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)\n"
                 "        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)\n"
                 "        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
                 "        y = y.transpose(1, 2).contiguous().view(B, T, C)\n"
                 "        return self.c_proj(y)\n"
                 "model = Attn()\n"
                 "model(torch.randn(2, 128, 64)).sum().backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->activations_bytes, 65536 + 196608 + 65536 + 4096 + 16);
  run_free(&x);
}


static void test_manual_attention(void **state) {
  (void)state;
  run x;
  /* q @ k^T keeps q and k (2x2x8x4x4 = 512 bytes each), the mask of a buffer's
   * comparison (1x1x8x8 bools = 64), softmax its output 2x2x8x8x4 = 1,024, which
   * att @ v keeps with v (512) */
  run_source(&x, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "class A(nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.w = nn.Linear(4, 4)\n"
                 "        self.register_buffer('mask', torch.tril(torch.ones(8, 8)).view(1, 1, 8, 8))\n"
                 "    def forward(self, q, k, v):\n"
                 "        att = (q @ k.transpose(-2, -1)) * 0.5\n"
                 "        att = att.masked_fill(self.mask[:, :, :8, :8] == 0, float('-inf'))\n"
                 "        att = F.softmax(att, dim=-1)\n"
                 "        return self.w(att @ v)\n"
                 "model = A()\n"
                 "q = torch.randn(2, 2, 8, 4, requires_grad=True)\n"
                 "model(q, q.clone(), q.clone()).sum().backward()\n");
  /* + w keeps its input, att @ v: 2x2x8x4x4 = 512; `* 0.5` keeps the number, a
   * wrapped CPU scalar PyTorch 2.x does not count */
  assert_int_equal(first(&x)->activations_bytes, 512 + 512 + 64 + 1024 + 512 + 512);
  run_free(&x);
}


static void test_unknown_says_why(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.Linear(8, 8)\n"
                 "x = load_batch()\n"
                 "model(x).sum().backward()\n");
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(first(&x)->act_why);
  assert_non_null(strstr(first(&x)->act_why, "line 5"));
  assert_int_equal(first(&x)->peak_bytes, -1);
  assert_int_equal(estimate_max_batch(first(&x), 1 << 30), -1);
  run_free(&x);
  /* a layer whose saved tensors are not modelled names itself */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.Sequential(nn.Linear(8, 8), nn.Bilinear(8, 8, 8))\n"
                 "model(torch.randn(2, 8)).sum().backward()\n");
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(strstr(first(&x)->act_why, "nn.Bilinear"));
  assert_int_equal(first(&x)->activations_partial, 64);
  run_free(&x);
}


static void test_loader_batch(void **state) {
  (void)state;
  run x;
  /* a loader of batch 32 over a TensorDataset of 10-feature samples: Linear keeps
   * 32x10x4 = 1,280 */
  run_source(&x, "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\n"
                 "ds = TensorDataset(torch.randn(1000, 10), torch.randn(1000, 1))\n"
                 "loader = DataLoader(ds, batch_size=32, shuffle=True)\n"
                 "model = nn.Linear(10, 1)\n"
                 "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                 "for xb, yb in loader:\n"
                 "    loss = nn.functional.mse_loss(model(xb), yb)\n"
                 "    loss.backward()\n");
  /* + mse_loss's input and target, 32x1x4 = 128 each */
  assert_int_equal(first(&x)->activations_bytes, 1280 + 128 + 128);
  assert_int_equal(first(&x)->micro_batch, 32);
  run_free(&x);
}


static void test_training_loop_and_accumulation(void **state) {
  (void)state;
  run x;
  /* 100 iterations of the same step count once: Linear's input 16x512x4 = 32,768,
   * cross_entropy's log-probabilities 16x10x4 = 640, the target 128 and 4; the
   * micro-batch of 16 is accumulated 8 times: a batch of 128 */
  run_source(&x, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "gradient_accumulation_steps = 8\n"
                 "model = nn.Linear(512, 10)\n"
                 "for step in range(100):\n"
                 "    x = torch.randn(16, 512)\n"
                 "    y = torch.randint(0, 10, (16,))\n"
                 "    loss = F.cross_entropy(model(x), y) / gradient_accumulation_steps\n"
                 "    loss.backward()\n");
  assert_int_equal(first(&x)->activations_bytes, 32768 + 640 + 128 + 4);
  assert_int_equal(first(&x)->micro_batch, 16);
  assert_int_equal(first(&x)->accumulation, 8);
  assert_int_equal(first(&x)->batch_size, 128);
  run_free(&x);
}


static void test_get_batch_windows(void **state) {
  (void)state;
  run x;
  /* nanoGPT's get_batch: 4 windows of 256 tokens of an array the estimate does not
   * know, stacked: 4 x 256 int64 indices (8,192 bytes) kept by the embedding; the
   * head keeps its input 4x256x32x4 = 131,072; cross_entropy the log-probabilities
   * 1024x100x4 = 409,600, the targets 8,192 and 4 */
  run_source(&x, "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "batch_size = 4\nblock_size = 256\n"
                 "def get_batch():\n"
                 "    data = np.memmap('train.bin', dtype=np.uint16, mode='r')\n"
                 "    ix = torch.randint(len(data) - block_size, (batch_size,))\n"
                 "    x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])\n"
                 "    y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])\n"
                 "    return x, y\n"
                 "emb = nn.Embedding(100, 32)\nhead = nn.Linear(32, 100)\n"
                 "model = nn.Sequential(emb, head)\n"
                 "X, Y = get_batch()\n"
                 "logits = model(X)\n"
                 "loss = F.cross_entropy(logits.view(-1, 100), Y.view(-1))\n"
                 "loss.backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, 4);
  assert_int_equal(first(&x)->activations_bytes, 8192 + 131072 + 409600 + 8192 + 4);
  run_free(&x);
}


static void test_recurrent(void **state) {
  (void)state;
  run x;
  /* a word-language-model step: embedding keeps the 35x20 int64 indices (5,600); the
   * bidirectional GRU(64, 128) keeps its input 35x20x64x4 = 179,200, h0 2x20x128x4 =
   * 20,480, its output 35x20x256x4 = 716,800 and the reserve space 2 x 35 x 20 x 128 x
   * (7 - 1) = 1,075,200 floats = 4,300,800 + 256 bytes; the decoder keeps the output
   * (counted already) */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "class LM(nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.emb = nn.Embedding(1000, 64)\n"
                 "        self.rnn = nn.GRU(64, 128, bidirectional=True)\n"
                 "        self.dec = nn.Linear(256, 1000)\n"
                 "    def forward(self, x):\n"
                 "        out, h = self.rnn(self.emb(x))\n"
                 "        return self.dec(out)\n"
                 "model = LM()\n"
                 "model(torch.randint(0, 1000, (35, 20))).sum().backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->activations_bytes, 5600 + 179200 + 20480 + 716800 + 4300800 + 256);
  run_free(&x);
}


static void test_transformer_encoder_layer(void **state) {
  (void)state;
  run x;
  /* nn.TransformerEncoderLayer(256, 8, 1024, 0.1, batch_first=True) on 16 x 128 x 256
   * fp32 (L*B*E = 524,288 elements, 2,097,152 bytes; L*B*F 8,388,608 bytes), as
   * PyTorch 2.11 keeps on an H200:
   *   in_proj: the input 2,097,152
   *   sdpa: the packed q, k, v copy 6,291,456, its output 2,097,152, logsumexp
   *     16x8x128x4 = 65,536 and 16 of philox
   *   out_proj: the output's contiguous copy 2,097,152
   *   dropout1's mask 524,288; norm1's input 2,097,152 + mean and rstd 16,384
   *   linear1: norm1's output 2,097,152; relu: its output 8,388,608; dropout's mask
   *     2,097,152; linear2: dropout's output 8,388,608; dropout2's mask 524,288
   *   norm2's input 2,097,152 + 16,384 */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "model = nn.TransformerEncoderLayer(256, 8, 1024, 0.1, batch_first=True)\n"
                 "model(torch.randn(16, 128, 256)).sum().backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->activations_bytes, 38895632);
  run_free(&x);
}


static void test_upsampling_and_padding(void **state) {
  (void)state;
  run x;
  /* upsampling, padding, cat and pixel shuffle keep nothing; the conv keeps the
   * concatenation 2x16x32x32x4 = 131,072 and the relu its output 2x8x32x32x4 = 65,536
   * (as PyTorch keeps; the final shape, 2x2x64x64, needs every size right) */
  run_source(&x, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                 "class Up(nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.up = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)\n"
                 "        self.conv = nn.Conv2d(16, 8, 3, padding=1)\n"
                 "        self.ps = nn.PixelShuffle(2)\n"
                 "        self.pad = nn.ZeroPad2d(1)\n"
                 "    def forward(self, x, skip):\n"
                 "        x = F.pad(self.up(x), [0, 0, 0, 0])\n"
                 "        x = torch.cat([skip, x], dim=1)\n"
                 "        x = self.pad(F.relu(self.conv(x)))\n"
                 "        return self.ps(F.interpolate(x, size=(32, 32)))\n"
                 "model = Up()\n"
                 "out = model(torch.randn(2, 8, 16, 16), torch.randn(2, 8, 32, 32))\n"
                 "n = out.size(3)\n"
                 "out.sum().backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->activations_bytes, 131072 + 65536);
  run_free(&x);
}


static void test_parameters_as_tensors(void **state) {
  (void)state;
  run x;
  /* a vision transformer's ends: the patch conv keeps the images 8x3x32x32x4 = 98,304;
   * expanding the class token and adding a slice of the position embedding keep
   * nothing (parameters); `* 1.0` keeps the number, a wrapped CPU scalar that 2.x's
   * hooks never see (1.13's saw its 8 bytes: 133,516); the head keeps x[:, 0], a view
   * of the whole 8x17x64x4 = 34,816 storage; cross_entropy 8x10x4 = 320, the target 64
   * and 4 */
  run_source(&x, "import torch\nimport torch.nn as nn\n"
                 "class ViT(nn.Module):\n"
                 "    def __init__(self, dim=64, n=16, classes=10):\n"
                 "        super().__init__()\n"
                 "        self.patch = nn.Conv2d(3, dim, 8, 8)\n"
                 "        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))\n"
                 "        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, dim))\n"
                 "        self.head = nn.Linear(dim, classes)\n"
                 "    def forward(self, x):\n"
                 "        x = self.patch(x).flatten(2).transpose(1, 2)\n"
                 "        cls = self.cls_token.expand(x.shape[0], -1, -1)\n"
                 "        x = torch.cat((cls, x), dim=1)\n"
                 "        x = x + self.pos_embed[:, :x.size(1)]\n"
                 "        x = x * 1.0\n"
                 "        return self.head(x[:, 0])\n"
                 "model = ViT()\n"
                 "loss = nn.functional.cross_entropy(model(torch.randn(8, 3, 32, 32)), torch.randint(0, 10, (8,)))\n"
                 "loss.backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->parameters, 3 * 64 * 64 + 64 + 64 + 17 * 64 + 64 * 10 + 10);
  assert_int_equal(first(&x)->activations_bytes, 98304 + 34816 + 320 + 64 + 4);
  run_free(&x);
}


/* A token corpus read line by line (its length only the data knows), laid out as
 * BATCH columns and cut into windows of at most BPTT rows, as word-language models do. */
static const char CORPUS[] =
  "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
  "def tokenize(path):\n"
  "    idss = []\n"
  "    for line in open(path):\n"
  "        ids = []\n"
  "        for word in line.split():\n"
  "            ids.append(vocab[word])\n"
  "        idss.append(torch.tensor(ids).type(torch.int64))\n"
  "    return torch.cat(idss)\n"
  "def batchify(data, bsz):\n"
  "    nbatch = data.size(0) // bsz\n"
  "    data = data.narrow(0, 0, nbatch * bsz)\n"
  "    return data.view(bsz, -1).t().contiguous()\n"
  "bptt = %d\n"
  "train_data = batchify(tokenize('train.txt'), %d)\n"
  "def get_batch(source, i):\n"
  "    seq_len = min(bptt, len(source) - 1 - i)\n"
  "    return source[i:i+seq_len], source[i+1:i+1+seq_len].view(-1)\n"
  "model = nn.Sequential(nn.Embedding(50, 16), nn.Linear(16, 50))\n"
  "for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):\n"
  "    data, targets = get_batch(%s, i)\n"
  "    loss = F.cross_entropy(model(data).view(-1, 50), targets)\n"
  "    loss.backward()\n";


static void test_corpus_windows(void **state) {
  (void)state;
  char src[sizeof CORPUS + 64];
  run x;
  /* windows of 35 rows of 20 columns: the embedding keeps the 35x20 int64 indices
   * (5,600), the Linear its input 35x20x16x4 = 44,800, cross_entropy the
   * log-probabilities 700x50x4 = 140,000, the 700 int64 targets 5,600 and 4 */
  snprintf(src, sizeof src, CORPUS, 35, 20, "train_data");
  run_source(&x, src);
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, 35);
  assert_int_equal(first(&x)->activations_bytes, 5600 + 44800 + 140000 + 5600 + 4);
  run_free(&x);
  /* the window's length and the columns both drive it: 10 rows of 8 columns, 80 tokens */
  snprintf(src, sizeof src, CORPUS, 10, 8, "train_data");
  run_source(&x, src);
  assert_int_equal(first(&x)->activations_bytes, 80 * 8 + 80 * 16 * 4 + 80 * 50 * 4 + 80 * 8 + 4);
  run_free(&x);
  /* the whole corpus is as long as the data: not known, and said so */
  snprintf(src, sizeof src, CORPUS, 35, 20, "train_data.t()");
  run_source(&x, src);
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(first(&x)->act_why);
  run_free(&x);
}


static void test_image_folder_and_reflection_pad(void **state) {
  (void)state;
  run x;
  /* ImageFolder's images of any size, Resize(32) then CenterCrop(32): 3x32x32, scaled by
   * a Lambda; batches of 2. The layers are registered one by one with add_module and
   * the output comes back in a namedtuple. conv1 keeps its input 2x3x32x32x4 = 24,576;
   * the reflection pad keeps its input, conv1's output 2x4x32x32x4 = 32,768 (its
   * backward takes the input itself); conv2 the padded 2x4x34x34x4 = 36,992 */
  run_source(&x, "import torch\nimport torch.nn as nn\nfrom collections import namedtuple\n"
                 "from torchvision import datasets, transforms\nfrom torch.utils.data import DataLoader\n"
                 "t = transforms.Compose([transforms.Resize(32), transforms.CenterCrop(32), transforms.ToTensor(),\n"
                 "                        transforms.Lambda(lambda x: x.mul(255))])\n"
                 "loader = DataLoader(datasets.ImageFolder('images', t), batch_size=2)\n"
                 "class Net(nn.Module):\n"
                 "    def __init__(self):\n"
                 "        super().__init__()\n"
                 "        self.body = nn.Sequential()\n"
                 "        for i, layer in enumerate([nn.Conv2d(3, 4, 3, padding=1), nn.ReflectionPad2d(1), nn.Conv2d(4, 4, 3)]):\n"
                 "            self.body.add_module(str(i), layer)\n"
                 "    def forward(self, x):\n"
                 "        Out = namedtuple('Out', ['feat', 'size'])\n"
                 "        return Out(self.body(x), 3)\n"
                 "model = Net()\n"
                 "for x, _ in loader:\n"
                 "    x = x.div_(255.0)\n"
                 "    model(x).feat.sum().backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->parameters, 3 * 4 * 9 + 4 + 4 * 4 * 9 + 4);
  assert_int_equal(first(&x)->micro_batch, 2);
  assert_int_equal(first(&x)->activations_bytes, 24576 + 32768 + 36992);
  run_free(&x);
  /* a Resize alone leaves the longer side unknown: no batch shape, and it says why */
  run_source(&x, "import torch.nn as nn\nfrom torchvision import datasets, transforms\n"
                 "from torch.utils.data import DataLoader\n"
                 "t = transforms.Compose([transforms.Resize(32), transforms.ToTensor()])\n"
                 "loader = DataLoader(datasets.ImageFolder('images', t), batch_size=2)\n"
                 "model = nn.Conv2d(3, 4, 3)\n"
                 "for x, _ in loader:\n"
                 "    model(x).sum().backward()\n");
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(first(&x)->act_why);
  run_free(&x);
}


/* a progress bar over a loader (tqdm from torch.hub) yields the loader's batches;
 * a ViT's patches cut by unfold: views, nothing kept until the projection */
static void test_progress_bar_and_patches(void **state) {
  (void)state;
  run x;
  const char *head = "import torch\nimport torch.nn as nn\nfrom torch.hub import tqdm\n"
                     "from torchvision import datasets, transforms\nfrom torch.utils.data import DataLoader\n"
                     "t = transforms.Compose([transforms.Resize((8, 8)), transforms.ToTensor()])\n"
                     "loader = DataLoader(datasets.CIFAR10('d', train=True, transform=t), batch_size=2)\n"
                     "class Net(nn.Module):\n"
                     "    def __init__(self):\n"
                     "        super().__init__()\n"
                     "        self.proj = nn.Linear(48, 5)\n"
                     "        self.tok = nn.Parameter(torch.randn(2, 1, 5))\n"
                     "    def forward(self, x):\n"
                     "        b, c, h, w = x.size()\n";
  const char *tail = "        y = torch.cat((self.tok, self.proj(p)), dim=1)\n"
                     "        return torch.tanh(y[:, 0])\n"
                     "model = Net()\n"
                     "bar = tqdm(loader, desc='train')\n"
                     "for i, data in enumerate(bar):\n"
                     "    x, y = data\n"
                     "    model(x).sum().backward()\n";
  char src[2048];
  /* 2 x 3 x 8 x 8 cut into 4 x 4 patches: unfold gives 2 x 3 x 2 x 8 x 4, then
   * 2 x 3 x 2 x 2 x 4 x 4, permuted to 2 x 2 x 2 x 3 x 4 x 4 and copied by contiguous();
   * the Linear keeps that copy, 2 x 4 x 48 x 4 = 1,536 bytes; cat keeps nothing, and
   * tanh keeps its 2 x 5 result, 40 bytes: 1,576 */
  snprintf(src, sizeof src, "%s%s%s", head,
           "        p = x.unfold(2, 4, 4).unfold(3, 4, 4).permute(0, 2, 3, 1, 4, 5).contiguous().view(b, 4, -1)\n",
           tail);
  run_source(&x, src);
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, 2);
  assert_int_equal(first(&x)->activations_bytes, 1536 + 40);
  run_free(&x);
  /* a window wider than the image: not known, and it says so */
  snprintf(src, sizeof src, "%s%s%s", head, "        p = x.unfold(2, 16, 16).view(b, 4, -1)\n", tail);
  run_source(&x, src);
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(strstr(first(&x)->act_why, "unfold"));
  run_free(&x);
}


/* a Linear whose weight is frozen keeps no input (addmm keeps mat1 only for
 * mat2's gradient), though its input needs a gradient */
static void test_frozen_linear(void **state) {
  (void)state;
  run x;
  const char *src = "import torch\nimport torch.nn as nn\n"
                    "class Net(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.a = nn.Linear(4, 8)\n"
                    "        self.b = nn.Linear(8, 3)\n"
                    "    def forward(self, x):\n"
                    "        return self.b(self.a(x) + 1)\n"
                    "model = Net()\n"
                    "%s"
                    "model(torch.randn(2, 4)).sum().backward()\n";
  char text[1024];
  /* a keeps its input, 2 x 4 x 4 = 32 bytes; + 1 keeps nothing; b keeps its
   * input 2 x 8 x 4 = 64 while its weight is trained: 96 */
  snprintf(text, sizeof text, src, "");
  run_source(&x, text);
  assert_int_equal(first(&x)->activations_bytes, 32 + 64);
  run_free(&x);
  /* ... and 32 once b is frozen */
  snprintf(text, sizeof text, src, "for p in model.b.parameters():\n    p.requires_grad = False\n");
  run_source(&x, text);
  assert_int_equal(first(&x)->activations_bytes, 32);
  run_free(&x);
}


/* a DQN on Atari frames: the observation wrappers reshape the table's uint8 frames,
 * a Stable-Baselines3 replay buffer samples batches of them, the target network runs
 * under no_grad, and the loss's gradient flows through mse_loss's target */
static const char DQN[] =
  "import gymnasium as gym\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
  "from stable_baselines3.common.buffers import ReplayBuffer\n"
  "def make_env():\n"
  "    env = gym.make(ENV)\n"
  "    env = gym.wrappers.ResizeObservation(env, (16, 16))\n"
  "    env = gym.wrappers.GrayScaleObservation(env)\n"
  "    env = gym.wrappers.FrameStack(env, 2)\n"
  "    return env\n"
  "envs = gym.vector.SyncVectorEnv([make_env])\n"
  "class Q(nn.Module):\n"
  "    def __init__(self, env):\n"
  "        super().__init__()\n"
  "        self.net = nn.Sequential(nn.Conv2d(2, 4, 4, stride=4), nn.ReLU(), nn.Flatten(),\n"
  "                                 nn.Linear(64, env.single_action_space.n))\n"
  "    def forward(self, x):\n"
  "        return self.net(x / 255.0)\n"
  "q = Q(envs)\n"
  "target = Q(envs)\n"
  "rb = ReplayBuffer(1000, envs.single_observation_space, envs.single_action_space, 'cpu')\n"
  "data = rb.sample(8)\n"
  "with torch.no_grad():\n"
  "    target_max, _ = target(data.next_observations).max(dim=1)\n"
  "    td = data.rewards.flatten() + 0.99 * target_max * (1 - data.dones.flatten())\n"
  "old = q(data.observations).gather(1, data.actions).squeeze()\n"
  "loss = F.mse_loss(td, old)\n"
  "loss.backward()\n";

static void test_replay_batch(void **state) {
  (void)state;
  run x;
  char src[2048];
  /* Pong's 210x160x3 uint8 frames resized to 16x16x3, grayed to 16x16, 2 stacked:
   * 8 observations of 2x16x16 uint8, 4,096 bytes; / 255.0 makes them fp32, which the
   * conv keeps: 8x2x16x16x4 = 16,384; the ReLU its 8x4x4x4 result, 2,048 (the Linear's
   * input, the same storage); gather keeps its input, 8x6 fp32 = 192, and the 8x1
   * int64 actions, 64; mse_loss both sides, 8 fp32 each: 32 + 32. 18,752; the target
   * network, under no_grad, nothing */
  snprintf(src, sizeof src, "ENV = 'PongNoFrameskip-v4'\n%s", DQN);
  run_source(&x, src);
  assert_true(x.r.nmodels == 2);
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->parameters, 2 * 4 * 16 + 4 + 64 * 6 + 6);
  assert_int_equal(first(&x)->micro_batch, 8);
  assert_int_equal(first(&x)->input_bytes, 8 * 2 * 16 * 16);
  assert_int_equal(first(&x)->activations_bytes, 16384 + 2048 + 192 + 64 + 32 + 32);
  assert_int_equal(x.r.models[1].activations_bytes, 0);
  run_free(&x);
  /* CartPole's 4 numbers are no image: the resize wrapper's space is not known,
   * and the batch says why */
  snprintf(src, sizeof src, "ENV = 'CartPole-v1'\n%s", DQN);
  run_source(&x, src);
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(strstr(first(&x)->act_why, "ResizeObservation"));
  run_free(&x);
}


/* A project's Dataset wrapping MNIST: its __getitem__ runs once for the DataLoader's
 * samples. Images come from `.data` (N x 28 x 28 uint8) by an index only the data knows,
 * as float32; both branches of `index % 2` take a 1 x 28 x 28 image and a scalar target,
 * so the sample is known: batches of 4. The Linear keeps its input, the cat of the two
 * flattened images: 4 x 1568 x 4 = 25,088 bytes; flatten is a view, sum keeps nothing. */
static const char PAIRS[] =
  "import random\nimport torch\nimport torch.nn as nn\n"
  "from torch.utils.data import Dataset, DataLoader\nfrom torchvision import datasets\n"
  "class Pairs(Dataset):\n"
  "    def __init__(self, train):\n"
  "        self.mnist = datasets.MNIST('data', train=train, download=True)\n"
  "        self.data = self.mnist.data.unsqueeze(1).clone()\n"
  "    def __len__(self):\n"
  "        return self.data.shape[0]\n"
  "    def __getitem__(self, index):\n"
  "        a = self.data[random.randint(0, 9)].clone().float()\n"
  "        if index %% 2 == 0:\n"
  "            b = self.data[index].clone().float()\n"
  "            target = torch.tensor(1, dtype=torch.float)\n"
  "        else:\n"
  "            b = self.data[random.randint(0, 9)].clone().float()%s\n"
  "            target = torch.tensor(0, dtype=torch.float)\n"
  "        return a, b, target\n"
  "class Net(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.fc = nn.Linear(2 * 784, 1)\n"
  "    def forward(self, a, b):\n"
  "        return self.fc(torch.cat((a.flatten(1), b.flatten(1)), 1))\n"
  "model = Net()\n"
  "loader = DataLoader(Pairs(True), batch_size=4)\n"
  "for a, b, t in loader:\n"
  "    model(a, b).sum().backward()\n";


static void test_project_dataset_pairs(void **state) {
  (void)state;
  run x;
  char src[sizeof PAIRS + 64];
  snprintf(src, sizeof src, PAIRS, "");
  run_source(&x, src);
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, 4);
  assert_int_equal(first(&x)->activations_bytes, 4 * 1568 * 4);
  run_free(&x);
  /* the branches disagree (a 1 x 14 x 28 crop in one): the second image is not
   * known, and the reason names the condition */
  snprintf(src, sizeof src, PAIRS, "[:, :14]");
  run_source(&x, src);
  assert_int_equal(first(&x)->activations_bytes, -1);
  assert_non_null(first(&x)->act_why);
  assert_non_null(strstr(first(&x)->act_why, "index % 2 == 0"));
  run_free(&x);
}


/* A project's Dataset of image files (PIL): the Y band of a YCbCr conversion, cropped to
 * 12 x 12 and resized to 6 x 6 by a Compose it was given, and the 12 x 12 crop as the
 * target, batches of 2. The conv keeps its input 2x1x6x6x4 = 288 bytes, pixel_shuffle
 * keeps nothing, mse_loss its input and target, 2x1x12x12x4 = 1,152 bytes each. */
static void test_project_dataset_images(void **state) {
  (void)state;
  run x;
  run_source(&x, "import torch.nn as nn\nimport torch.nn.functional as F\nfrom PIL import Image\n"
                 "from torch.utils.data import Dataset, DataLoader\n"
                 "from torchvision.transforms import Compose, CenterCrop, Resize, ToTensor\n"
                 "class Folder(Dataset):\n"
                 "    def __init__(self, files, transform=None, target_transform=None):\n"
                 "        self.files = files\n"
                 "        self.transform = transform\n"
                 "        self.target_transform = target_transform\n"
                 "    def __getitem__(self, i):\n"
                 "        y, _, _ = Image.open(self.files[i]).convert('YCbCr').split()\n"
                 "        target = y.copy()\n"
                 "        if self.transform:\n"
                 "            y = self.transform(y)\n"
                 "        if self.target_transform:\n"
                 "            target = self.target_transform(target)\n"
                 "        return y, target\n"
                 "    def __len__(self):\n"
                 "        return len(self.files)\n"
                 "data = Folder(['a.jpg'], Compose([CenterCrop(12), Resize(12 // 2), ToTensor()]),\n"
                 "              Compose([CenterCrop(12), ToTensor()]))\n"
                 "loader = DataLoader(dataset=data, batch_size=2)\n"
                 "model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.PixelShuffle(2))\n"
                 "for x, y in loader:\n"
                 "    F.mse_loss(model(x), y).backward()\n");
  assert_null(first(&x)->act_why);
  assert_int_equal(first(&x)->micro_batch, 2);
  assert_int_equal(first(&x)->activations_bytes, 288 + 1152 + 1152);
  run_free(&x);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mnist_net),
    cmocka_unit_test(test_whole_step),
    cmocka_unit_test(test_inplace_and_sequential),
    cmocka_unit_test(test_autocast_mlp),
    cmocka_unit_test(test_no_grad_keeps_nothing),
    cmocka_unit_test(test_checkpoint),
    cmocka_unit_test(test_attention_block),
    cmocka_unit_test(test_manual_attention),
    cmocka_unit_test(test_unknown_says_why),
    cmocka_unit_test(test_loader_batch),
    cmocka_unit_test(test_training_loop_and_accumulation),
    cmocka_unit_test(test_get_batch_windows),
    cmocka_unit_test(test_recurrent),
    cmocka_unit_test(test_transformer_encoder_layer),
    cmocka_unit_test(test_upsampling_and_padding),
    cmocka_unit_test(test_parameters_as_tensors),
    cmocka_unit_test(test_corpus_windows),
    cmocka_unit_test(test_image_folder_and_reflection_pad),
    cmocka_unit_test(test_progress_bar_and_patches),
    cmocka_unit_test(test_frozen_linear),
    cmocka_unit_test(test_replay_batch),
    cmocka_unit_test(test_project_dataset_pairs),
    cmocka_unit_test(test_project_dataset_images),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
