/* Unit tests of the graph model (src/facts/graph.c, contexts.c): which values
 * carry an autograd graph at a given node, scalar losses, division, storage
 * that outlives an iteration, evaluation contexts, training steps across
 * functions, and the dataset / float64 questions. Each test parses a small
 * source and asks about the node spanning a piece of a unique line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "facts/facts.h"
#include "parse/parse.h"

typedef struct {
  const char *src;
  TSParser *parser;
  TSTree *tree;
  facts f;
} model;


static void build(model *m, const char *src) {
  memset(m, 0, sizeof *m);
  const char *why = NULL;
  m->src = src;
  m->parser = parse_parser_new(&why);
  assert_non_null(m->parser);
  m->tree = parse_source(m->parser, src, strlen(src), NULL);
  assert_non_null(m->tree);
  facts_build(&m->f, ts_tree_root_node(m->tree), src, strlen(src));
}


static void release(model *m) {
  facts_free(&m->f);
  ts_tree_delete(m->tree);
  ts_parser_delete(m->parser);
}


/* The node spanning the last PART inside LINE, a piece of the source found once. */
static TSNode node(const model *m, const char *line, const char *part) {
  const char *l = strstr(m->src, line);
  if (!l) fail_msg("`%s` is not in the source", line);
  if (strstr(l + 1, line)) fail_msg("`%s` occurs twice", line);
  const char *p = NULL;
  for (const char *q = strstr(l, part); q && q + strlen(part) <= l + strlen(line); q = strstr(q + 1, part)) p = q;
  if (!p) fail_msg("`%s` is not in `%s`", part, line);
  uint32_t s = (uint32_t)(p - m->src);
  TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(m->tree), s, s + (uint32_t)strlen(part));
  assert_false(ts_node_is_null(n));
  return n;
}


/* The byte offset of NEEDLE, found once in the source. */
static uint32_t at_byte(const model *m, const char *needle) {
  const char *p = strstr(m->src, needle);
  if (!p) fail_msg("`%s` is not in the source", needle);
  if (strstr(p + 1, needle)) fail_msg("`%s` occurs twice", needle);
  return (uint32_t)(p - m->src);
}


static bool graph(const model *m, const char *line, const char *part) {
  return facts_value_of(&m->f, node(m, line, part)).graph;
}


static const char TRAIN[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "class Net(nn.Module):\n"
  "    def forward(self, x):\n"
  "        return x\n"
  "\n"
  "def train(model, loader, opt, crit):\n"
  "    total = 0.0\n"
  "    outs = []\n"
  "    for x, y in loader:\n"
  "        y = y.to('cuda')\n"
  "        out = model(x)\n"
  "        loss = crit(out, y)\n"
  "        loss.backward()\n"
  "        opt.step()\n"
  "        total += loss\n"
  "        running = total_item + loss.item()\n"
  "        outs.append(out)\n"
  "        labels.append(y)\n"
  "        kept.append(out.detach())\n"
  "        moved.append(out.cpu())\n"
  "        correct += (out.argmax(1) == y).sum()\n"
  "        loss = loss.item()\n"
  "        after.append(loss)\n"
  "    return total\n";


/* A parameter's output becomes a graph because .backward() reaches it. */
static void test_backward_evidence(void **state) {
  (void)state;
  model m;
  build(&m, TRAIN);
  assert_true(graph(&m, "total += loss", "loss"));
  assert_true(graph(&m, "outs.append(out)", "out"));
  assert_true(graph(&m, "moved.append(out.cpu())", "out.cpu()"));
  assert_false(graph(&m, "labels.append(y)", "y"));
  assert_false(graph(&m, "kept.append(out.detach())", "out.detach()"));
  assert_false(graph(&m, "running = total_item + loss.item()", "loss.item()"));
  assert_false(graph(&m, "correct += (out.argmax(1) == y).sum()", "(out.argmax(1) == y).sum()"));
  /* reassignment kills: `loss = loss.item()` is clean afterwards */
  assert_false(graph(&m, "after.append(loss)", "loss"));
  /* the accumulator carries the graph once it has added one */
  assert_true(graph(&m, "    return total", "total"));
  assert_true(facts_is_model(&m.f, node(&m, "out = model(x)", "model")));
  assert_true(facts_is_model(&m.f, node(&m, "loss = crit(out, y)", "crit")));
  release(&m);
}


static void test_scalar_loss(void **state) {
  (void)state;
  model m;
  build(&m, TRAIN);
  assert_true(facts_value_of(&m.f, node(&m, "total += loss", "loss")).scalar);
  assert_false(facts_value_of(&m.f, node(&m, "outs.append(out)", "out")).scalar);
  release(&m);
}


static void test_no_grad_and_known_models(void **state) {
  (void)state;
  model m;
  build(&m,
        "import torch\n"
        "from torch import nn\n"
        "net = nn.Linear(4, 2).cuda()\n"
        "crit = nn.CrossEntropyLoss()\n"
        "def evaluate(xs):\n"
        "    outs = []\n"
        "    for x in xs:\n"
        "        with torch.no_grad():\n"
        "            a = net(x)\n"
        "        b = net(x)\n"
        "        outs.append(a)\n"
        "        outs.append(b)\n"
        "        l = crit(b, x)\n"
        "        hist.append(l / 4)\n"
        "    return outs\n");
  assert_false(graph(&m, "outs.append(a)", "a"));
  assert_true(graph(&m, "outs.append(b)", "b"));
  assert_true(facts_value_of(&m.f, node(&m, "hist.append(l / 4)", "l / 4")).scalar);
  assert_true(facts_value_of(&m.f, node(&m, "hist.append(l / 4)", "l / 4")).divided);
  assert_true(facts_is_model(&m.f, node(&m, "b = net(x)", "net")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "b = net(x)", "net(x)")));
  release(&m);
}


/* Functions of the file: a step that returns its loss, called from a loop. */
static void test_summaries(void **state) {
  (void)state;
  model m;
  build(&m,
        "import torch\n"
        "def step(model, batch, opt):\n"
        "    loss = model(batch).mean()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
        "    return loss\n"
        "def fit(model, loader, opt):\n"
        "    losses = []\n"
        "    for epoch in range(3):\n"
        "        for batch in range(10):\n"
        "            l = step(model, batch, opt)\n"
        "            losses.append(l)\n"
        "        print(epoch)\n");
  assert_true(graph(&m, "losses.append(l)", "l"));
  assert_true(facts_value_of(&m.f, node(&m, "losses.append(l)", "l")).scalar);
  /* the inner loop calls a training step: it runs once per batch */
  assert_true(facts_iteration_loop_at(&m.f, at_byte(&m, "losses.append(l)")) >= 0);
  /* the epoch loop holds it and trains nothing itself */
  assert_int_equal(facts_iteration_loop_at(&m.f, at_byte(&m, "print(epoch)")), -1);
  assert_true(facts_outlives_iteration(&m.f, node(&m, "losses.append(l)", "losses")));
  release(&m);
}


static void test_outlives_iteration(void **state) {
  (void)state;
  model m;
  build(&m,
        "import torch\n"
        "history = []\n"
        "class T:\n"
        "    def run(self, loader, model, acc):\n"
        "        total = 0\n"
        "        for x in loader:\n"
        "            fresh = []\n"
        "            fresh.append(x)\n"
        "            loss = model(x)\n"
        "            loss = loss + 1\n"
        "            total += loss\n"
        "            acc += loss\n"
        "            history.append(loss)\n"
        "            self.outputs.append(loss)\n"
        "            never += loss\n");
  assert_false(facts_outlives_iteration(&m.f, node(&m, "fresh.append(x)", "fresh")));
  assert_false(facts_outlives_iteration(&m.f, node(&m, "loss = loss + 1", "loss + 1")));
  assert_true(facts_outlives_iteration(&m.f, node(&m, "total += loss", "total")));
  assert_true(facts_outlives_iteration(&m.f, node(&m, "acc += loss", "acc")));
  assert_true(facts_outlives_iteration(&m.f, node(&m, "history.append(loss)", "history")));
  assert_true(facts_outlives_iteration(&m.f, node(&m, "self.outputs.append(loss)", "self.outputs")));
  assert_false(facts_outlives_iteration(&m.f, node(&m, "never += loss", "never")));
  release(&m);
}


/* Frozen models: where a `.requires_grad_(False)` reaches, and a thaw. */
static void test_frozen(void **state) {
  (void)state;
  model m;
  build(&m,
        "from torch import nn\n"
        "vgg = nn.Linear(4, 4)\n"
        "vgg.requires_grad_(False)\n"
        "d = nn.Linear(4, 1)\n"
        "class Metric(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.net = nn.Linear(4, 4)\n"
        "        self.net.eval().requires_grad_(requires_grad=False)\n"
        "    def score(self, x):\n"
        "        return self.net(x)\n"
        "def local(x):\n"
        "    s = nn.Linear(4, 4)\n"
        "    s.eval().to('cuda').requires_grad_(False)\n"
        "    a = s(x)\n"
        "    b = vgg(x)\n"
        "    return a + b\n"
        "def gan_step(x):\n"
        "    d.requires_grad_(False)\n"
        "    c = d(x)\n"
        "    d.requires_grad_(True)\n"
        "def other(x):\n"
        "    s = nn.Linear(4, 4)\n"
        "    e = s(x)\n"
        "    f = d(x)\n"
        "def infer(loader):\n"
        "    d.requires_grad_(False)\n"
        "    for x in loader:\n"
        "        g = d(x)\n"
        "    d.requires_grad_(True)\n");
  assert_true(facts_is_frozen(&m.f, node(&m, "return self.net(x)", "self.net")));
  assert_true(facts_is_frozen(&m.f, node(&m, "a = s(x)", "s")));
  assert_true(facts_is_frozen(&m.f, node(&m, "b = vgg(x)", "vgg")));
  assert_false(facts_is_frozen(&m.f, node(&m, "c = d(x)", "d")));
  assert_false(facts_is_frozen(&m.f, node(&m, "e = s(x)", "s")));
  assert_false(facts_is_frozen(&m.f, node(&m, "f = d(x)", "d")));
  /* frozen for an inference loop, thawed once it is done */
  assert_true(facts_is_frozen(&m.f, node(&m, "g = d(x)", "d")));
  /* a frozen model's output has no graph of its own */
  assert_false(graph(&m, "a = s(x)", "s(x)"));
  assert_true(graph(&m, "e = s(x)", "s(x)"));
  release(&m);
}


static void test_eval_context(void **state) {
  (void)state;
  model m;
  build(&m,
        "def loop(model, loader):\n"
        "    model.train()\n"
        "    a = 1\n"
        "    model.eval()\n"
        "    b = 2\n"
        "    model.train()\n"
        "    c = 3\n"
        "def run_validation(model):\n"
        "    d = 4\n"
        "def testing(model):\n"
        "    e = 5\n"
        "def distill(student, teacher, x):\n"
        "    teacher.eval()\n"
        "    s = student(x)\n"
        "    t = teacher(x)\n"
        "    f = teacher.forward(x)\n"
        "    self.teacher.eval()\n"
        "    g = self.teacher(x)\n"
        "    h = teacher(x) + 1\n");
  assert_false(facts_in_eval_context(&m.f, node(&m, "a = 1", "a = 1")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "b = 2", "b = 2")));
  assert_false(facts_in_eval_context(&m.f, node(&m, "c = 3", "c = 3")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "d = 4", "d = 4")));
  assert_false(facts_in_eval_context(&m.f, node(&m, "e = 5", "e = 5")));
  /* after a model's .eval(), the calls of that model, not of another */
  assert_false(facts_in_eval_context(&m.f, node(&m, "s = student(x)", "student(x)")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "t = teacher(x)", "teacher(x)")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "f = teacher.forward(x)", "teacher.forward(x)")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "g = self.teacher(x)", "self.teacher(x)")));
  assert_true(facts_in_eval_context(&m.f, node(&m, "h = teacher(x) + 1", "teacher(x)")));
  release(&m);
}


static void test_gradient_accumulation(void **state) {
  (void)state;
  model m;
  build(&m,
        "def a(model, loader, optimizer, k):\n"
        "    for i, x in enumerate(loader):\n"
        "        loss = model(x)\n"
        "        loss.backward()\n"
        "        if (i + 1) % k == 0:\n"
        "            optimizer.step()\n"
        "            optimizer.zero_grad()\n"
        "def b(model, loader, optimizer):\n"
        "    for x in loader:\n"
        "        out = model(x)\n"
        "        out.backward()\n"
        "        optimizer.step()\n");
  assert_true(facts_accumulates_gradients(&m.f, at_byte(&m, "loss.backward()")));
  assert_false(facts_accumulates_gradients(&m.f, at_byte(&m, "out.backward()")));
  release(&m);
}


/* The K facts_accumulation_steps reads for the backward call at NEEDLE, as
 * text; "" when it gives none. */
static void assert_steps(const model *m, const char *needle, const char *want) {
  TSNode k = facts_accumulation_steps(&m->f, at_byte(m, needle));
  uint32_t len = 0;
  const char *t = ts_node_is_null(k) ? "" : facts_text(&m->f, k, &len);
  if (strlen(want) != len || memcmp(t, want, len) != 0)
    fail_msg("steps at `%s`: `%.*s`, expected `%s`", needle, (int)len, t, want);
}


static void test_accumulation_steps(void **state) {
  (void)state;
  model m;
  build(&m,
        "def a(model, loader, optimizer, k):\n"
        "    for i, x in enumerate(loader):\n"
        "        model(x).backward()\n"
        "        if (i + 1) % k == 0:\n"
        "            optimizer.step()\n"
        "def b(model, loader, optimizer, args):\n"
        "    for i, x in enumerate(loader):\n"
        "        l1 = model(x)\n"
        "        l1.backward()\n"
        "        if not (i + 1) % args.accum or i == last:\n"
        "            optimizer.step()\n"
        "def c(model, loader, optimizer, n, log):\n"
        "    for i, x in enumerate(loader):\n"
        "        l2 = model(x)\n"
        "        l2.backward()\n"
        "        if i % n == 0 and i % log == 0:\n"
        "            optimizer.step()\n"
        "def d(model, loader, optimizer, n):\n"
        "    for i, x in enumerate(loader):\n"
        "        l3 = model(x)\n"
        "        l3.backward()\n"
        "        if i % n != 0:\n"
        "            optimizer.step()\n"
        "def e(model, loader, optimizer, scaler, n, m):\n"
        "    for i, x in enumerate(loader):\n"
        "        l4 = model(x)\n"
        "        l4.backward()\n"
        "        if i % n == n - 1:\n"
        "            scaler.step(optimizer)\n"
        "        if i % m == 0:\n"
        "            optimizer.step()\n"
        "def f(model, loader, optimizer, scaler, n):\n"
        "    for i, x in enumerate(loader):\n"
        "        l5 = model(x)\n"
        "        l5.backward()\n"
        "        if i % n == n - 1:\n"
        "            scaler.step(optimizer)\n"
        "        if 0 == (i % n):\n"
        "            optimizer.step()\n"
        "def g(model, loader, optimizer, n, epoch):\n"
        "    for i, x in enumerate(loader):\n"
        "        l6 = model(x)\n"
        "        l6.backward()\n"
        "        if i % n == 0:\n"
        "            if epoch % 2 == 0:\n"
        "                optimizer.step()\n"
        "def h(model, loader, optimizer, n):\n"
        "    for i, x in enumerate(loader):\n"
        "        l7 = model(x)\n"
        "        l7.backward()\n"
        "        optimizer.step()\n"
        "        if i % n == 0:\n"
        "            log(i)\n");
  assert_steps(&m, "model(x).backward()", "k");
  assert_steps(&m, "l1.backward()", "args.accum"); /* `not X % K`, other terms without `%` */
  assert_steps(&m, "l2.backward()", "");           /* two `%`: which one counts? */
  assert_true(facts_accumulates_gradients(&m.f, at_byte(&m, "l3.backward()")));
  assert_steps(&m, "l3.backward()", "");           /* `!=`: not once in K */
  assert_steps(&m, "l4.backward()", "");           /* two steps, two different K */
  assert_steps(&m, "l5.backward()", "n");          /* two steps, the same K */
  assert_steps(&m, "l6.backward()", "");           /* nested tests */
  assert_steps(&m, "l7.backward()", "");           /* steps every batch: no accumulation */
  release(&m);
}


static void test_datasets_and_float64(void **state) {
  (void)state;
  model m;
  build(&m,
        "import numpy as np\n"
        "import pandas as pd\n"
        "import torch\n"
        "raw = np.load('x.npy')\n"
        "frame = pd.read_csv('d.csv')\n"
        "X = torch.from_numpy(raw).cuda()\n"
        "w = torch.ones(3).cuda()\n"
        "noise = np.random.randn(10, 3)\n"
        "grid = np.zeros((4, 4), dtype=np.float32)\n"
        "vals = np.array([0.5, 1.5])\n"
        "ints = np.array([1, 2])\n"
        "t = torch.from_numpy(noise).float()\n");
  assert_true(facts_is_dataset(&m.f, node(&m, "X = torch.from_numpy(raw).cuda()", "torch.from_numpy(raw)")));
  assert_false(facts_is_dataset(&m.f, node(&m, "w = torch.ones(3).cuda()", "torch.ones(3)")));
  assert_true(facts_is_numpy_float64(&m.f, node(&m, "t = torch.from_numpy(noise)", "noise")));
  assert_false(facts_is_numpy_float64(&m.f, node(&m, "grid = np.zeros((4, 4), dtype=np.float32)", "np.zeros")));
  assert_true(facts_is_numpy_float64(&m.f, node(&m, "vals = np.array([0.5, 1.5])", "np.array([0.5, 1.5])")));
  assert_false(facts_is_numpy_float64(&m.f, node(&m, "ints = np.array([1, 2])", "np.array([1, 2])")));
  assert_true(facts_cast_after(&m.f, node(&m, "t = torch.from_numpy(noise).float()", "torch.from_numpy(noise)")));
  release(&m);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_backward_evidence),
    cmocka_unit_test(test_scalar_loss),
    cmocka_unit_test(test_no_grad_and_known_models),
    cmocka_unit_test(test_summaries),
    cmocka_unit_test(test_outlives_iteration),
    cmocka_unit_test(test_eval_context),
    cmocka_unit_test(test_frozen),
    cmocka_unit_test(test_gradient_accumulation),
    cmocka_unit_test(test_accumulation_steps),
    cmocka_unit_test(test_datasets_and_float64),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
