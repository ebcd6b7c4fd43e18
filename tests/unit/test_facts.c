/* Unit tests of the semantic model (src/facts): name resolution through
 * imports and aliases, per-iteration loops, periodic blocks, no-grad regions,
 * except clauses, the sole- and first-backward questions, models known by
 * use, model calls, "a backward follows" and no-grad from callers. Each test parses a small
 * Python source and asks the facts about nodes found by a unique substring. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "facts/facts.h"
#include "parse/parse.h"
#include "util/buf.h"

typedef struct {
  const char *src;
  TSParser *parser;
  TSTree *tree;
  facts f;
  buf tmp;
} model;


static void model_build(model *m, const char *src) {
  memset(m, 0, sizeof *m);
  const char *why = NULL;
  m->src = src;
  m->parser = parse_parser_new(&why);
  assert_non_null(m->parser);
  m->tree = parse_source(m->parser, src, strlen(src), NULL);
  assert_non_null(m->tree);
  facts_build(&m->f, ts_tree_root_node(m->tree), src, strlen(src));
}


static void model_free(model *m) {
  facts_free(&m->f);
  buf_free(&m->tmp);
  ts_tree_delete(m->tree);
  ts_parser_delete(m->parser);
}


/* Byte offset of NEEDLE in the source; it must occur exactly once. */
static uint32_t at(const model *m, const char *needle) {
  const char *p = strstr(m->src, needle);
  if (!p) fail_msg("`%s` not in the source", needle);
  if (strstr(p + 1, needle)) fail_msg("`%s` occurs more than once in the source", needle);
  return (uint32_t)(p - m->src);
}


/* The smallest node spanning NEEDLE. */
static TSNode node_of(const model *m, const char *needle) {
  uint32_t s = at(m, needle);
  TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(m->tree), s, s + (uint32_t)strlen(needle));
  assert_false(ts_node_is_null(n));
  return n;
}


/* The qualified name NEEDLE resolves to, or NULL. */
static const char *qualname(model *m, const char *needle) {
  if (!facts_qualname(&m->f, node_of(m, needle), &m->tmp)) return NULL;
  return buf_str(&m->tmp);
}


static void assert_qualname(model *m, const char *needle, const char *want) {
  const char *got = qualname(m, needle);
  if (!got) fail_msg("`%s` did not resolve; expected %s", needle, want);
  assert_string_equal(got, want);
}


static void assert_unresolved(model *m, const char *needle) {
  const char *got = qualname(m, needle);
  if (got) fail_msg("`%s` resolved to %s; expected no qualified name", needle, got);
}


static bool in_loop(model *m, const char *needle) {
  return facts_iteration_loop_at(&m->f, at(m, needle)) >= 0;
}


static bool no_grad(model *m, const char *needle) {
  return facts_in_no_grad(&m->f, at(m, needle));
}


/* ---- qualified names ---- */

static void test_qualname_import_as(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch as T\n"
                  "T.cuda.empty_cache()\n");
  assert_qualname(&m, "T.cuda.empty_cache", "torch.cuda.empty_cache");
  /* a call node resolves through its callee */
  assert_qualname(&m, "T.cuda.empty_cache()", "torch.cuda.empty_cache");
  /* a prefix of the chain resolves too */
  assert_qualname(&m, "T.cuda", "torch.cuda");
  model_free(&m);
}


static void test_qualname_from_import(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch.cuda import amp\n"
                  "with amp.autocast():\n"
                  "    pass\n");
  assert_qualname(&m, "amp.autocast", "torch.cuda.amp.autocast");
  model_free(&m);
}


static void test_qualname_from_import_nn(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch import nn\n"
                  "net = nn.DataParallel(net0)\n");
  assert_qualname(&m, "nn.DataParallel", "torch.nn.DataParallel");
  model_free(&m);
}


static void test_qualname_from_import_as(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch.utils.data import DataLoader as DL\n"
                  "dl = DL(ds)\n");
  assert_qualname(&m, "DL(ds)", "torch.utils.data.DataLoader");
  model_free(&m);
}


static void test_qualname_assignment_alias(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "acc = torch.cuda\n"
                  "acc.empty_cache()\n");
  assert_qualname(&m, "acc.empty_cache", "torch.cuda.empty_cache");
  model_free(&m);
}


static void test_qualname_alias_of_alias(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "dev = torch.cuda\n"
                  "mem = dev.memory\n"
                  "mem.empty_cache()\n");
  assert_qualname(&m, "mem.empty_cache", "torch.cuda.memory.empty_cache");
  model_free(&m);
}


static void test_qualname_dotted_import_as(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch.utils.checkpoint as cp\n"
                  "y = cp.checkpoint(block, x)\n");
  assert_qualname(&m, "cp.checkpoint", "torch.utils.checkpoint.checkpoint");
  assert_qualname(&m, "cp.checkpoint(block, x)", "torch.utils.checkpoint.checkpoint");
  model_free(&m);
}


static void test_qualname_dotted_import_binds_first_name(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch.utils.checkpoint\n"
                  "y = torch.utils.checkpoint.checkpoint_sequential(fns, 2, x)\n");
  assert_qualname(&m, "torch.utils.checkpoint.checkpoint_sequential",
                  "torch.utils.checkpoint.checkpoint_sequential");
  model_free(&m);
}


static void test_qualname_unbound(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "gpu.empty_cache()\n"
                  "local_thing = compute()\n"
                  "local_thing.run()\n");
  assert_unresolved(&m, "gpu.empty_cache");
  /* bound, but by an ordinary assignment: not an imported name */
  assert_unresolved(&m, "local_thing.run");
  /* a call of an unimported function */
  assert_unresolved(&m, "compute()");
  model_free(&m);
}


static void test_qualname_rebound_later(void **state) {
  (void)state;
  model m;
  model_build(&m, "import numpy as xp\n"
                  "a = xp.zeros(3)\n"
                  "import cupy as xp\n"
                  "b = xp.ones(3)\n"
                  "xp = make_backend()\n"
                  "c = xp.full(3)\n");
  assert_qualname(&m, "xp.zeros", "numpy.zeros");
  assert_qualname(&m, "xp.ones", "cupy.ones");
  assert_unresolved(&m, "xp.full");
  model_free(&m);
}


static void test_qualname_use_before_import_in_function(void **state) {
  (void)state;
  model m;
  model_build(&m, "def free():\n"
                  "    T.cuda.empty_cache()\n"
                  "\n"
                  "import torch as T\n");
  assert_qualname(&m, "T.cuda.empty_cache", "torch.cuda.empty_cache");
  model_free(&m);
}


static void test_qualname_alias_cycle_terminates(void **state) {
  (void)state;
  model m;
  model_build(&m, "a = b\n"
                  "b = a\n"
                  "a.attr\n");
  assert_unresolved(&m, "a.attr");
  model_free(&m);
}


/* ---- per-iteration loops ---- */

/* Classes known not to be modules: every base object, ABC, typing's or a
 * plain class of the file (declared before or after), at a fixed point; a
 * class defining `forward` with no base, a base not known or deriving
 * nn.Module, or a cycle of bases is not plain. */
static void test_plain_classes_by_their_bases(void **state) {
  (void)state;
  model m;
  model_build(&m,
              "import abc\n"
              "from abc import ABC\n"
              "from typing import Generic, Protocol, TypeVar\n"
              "import torch.nn as nn\n"
              "from lib import Thing\n"
              "T = TypeVar('T')\n"
              "class Late(Early):\n    def forward(self, x):\n        return x\n"
              "class Early(ABC):\n    def forward(self, x):\n        return x\n"
              "class Typed(Generic[T], Protocol, object):\n    pass\n"
              "class Meta(metaclass=abc.ABCMeta):\n    def forward(self, x):\n        return x\n"
              "class Empty:\n    pass\n"
              "class Bare:\n    def forward(self, x):\n        return x\n"
              "class Ext(Thing):\n    def forward(self, x):\n        return x\n"
              "class Net(nn.Module):\n    pass\n"
              "class Head(Net, Early):\n    pass\n"
              "class A(B):\n    pass\n"
              "class B(A):\n    pass\n");
  static const struct {
    const char *name;
    bool plain;
  } want[] = {{"Late", true}, {"Early", true}, {"Typed", true}, {"Meta", true}, {"Empty", true}, {"Bare", false},
              {"Ext", false}, {"Net", false}, {"Head", false}, {"A", false}, {"B", false}};
  assert_int_equal(m.f.classes.len, sizeof want / sizeof *want);
  for (size_t i = 0; i < m.f.classes.len; i++) {
    const facts_class *k = &m.f.classes.items[i];
    assert_int_equal(k->name_len, strlen(want[i].name));
    assert_memory_equal(k->name, want[i].name, k->name_len);
    assert_int_equal(k->plain, want[i].plain);
  }
  model_free(&m);
}


static void test_loop_over_loader_name(void **state) {
  (void)state;
  model m;
  model_build(&m, "for x in train_loader:\n"
                  "    y = x * 2\n"
                  "z = 1\n");
  assert_true(in_loop(&m, "y = x * 2"));
  assert_false(in_loop(&m, "z = 1"));
  model_free(&m);
}


static void test_loop_over_enumerate_tqdm(void **state) {
  (void)state;
  model m;
  model_build(&m, "for i, b in enumerate(tqdm(loader)):\n"
                  "    out = b + i\n");
  assert_true(in_loop(&m, "out = b + i"));
  model_free(&m);
}


static void test_loop_over_dataloader_variable(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch.utils.data import DataLoader\n"
                  "dl = DataLoader(ds, batch_size=8)\n"
                  "for b in dl:\n"
                  "    out = b\n");
  assert_true(in_loop(&m, "out = b"));
  model_free(&m);
}


static void test_loop_while_with_backward(void **state) {
  (void)state;
  model m;
  model_build(&m, "while True:\n"
                  "    loss = compute()\n"
                  "    loss.backward()\n"
                  "while waiting:\n"
                  "    poll()\n");
  assert_true(in_loop(&m, "loss = compute()"));
  assert_false(in_loop(&m, "poll()"));
  model_free(&m);
}


static void test_loop_range_with_optimizer_step(void **state) {
  (void)state;
  model m;
  model_build(&m, "for it in range(1000):\n"
                  "    optimizer.zero_grad()\n"
                  "    optimizer.step()\n"
                  "for k in range(3):\n"
                  "    lr_scheduler.step()\n");
  assert_true(in_loop(&m, "optimizer.zero_grad()"));
  /* a scheduler is not an optimizer */
  assert_false(in_loop(&m, "lr_scheduler.step()"));
  model_free(&m);
}


static void test_loop_calling_a_model(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch import nn\n"
                  "class Net(nn.Module):\n"
                  "    def forward(self, x):\n"
                  "        return x\n"
                  "\n"
                  "model = Net().to(dev)\n"
                  "helper = Helper()\n"
                  "for sample in samples:\n"
                  "    pred = model(sample)\n"
                  "for item in items:\n"
                  "    res = helper(item)\n");
  assert_true(in_loop(&m, "pred = model(sample)"));
  /* Helper is not an nn.Module: calling it is no evidence */
  assert_false(in_loop(&m, "res = helper(item)"));
  model_free(&m);
}


static void test_loop_epoch_loop_is_not_per_batch(void **state) {
  (void)state;
  model m;
  model_build(&m, "for epoch in range(10):\n"
                  "    model.train()\n"
                  "    for batch in train_loader:\n"
                  "        loss = model(batch)\n"
                  "        loss.backward()\n"
                  "        optimizer.step()\n"
                  "    after_epoch(epoch)\n");
  assert_true(in_loop(&m, "loss = model(batch)"));
  assert_false(in_loop(&m, "after_epoch(epoch)"));
  assert_false(in_loop(&m, "model.train()"));
  model_free(&m);
}


static void test_loop_over_files_is_not_per_batch(void **state) {
  (void)state;
  model m;
  model_build(&m, "for f in files:\n"
                  "    text = open(f).read()\n");
  assert_false(in_loop(&m, "text = open(f).read()"));
  model_free(&m);
}


static void test_loop_nested_def_is_not_in_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    def cleanup():\n"
                  "        release_memory()\n"
                  "    class Holder:\n"
                  "        cached = make_cache()\n"
                  "    cleanup()\n");
  assert_false(in_loop(&m, "release_memory()"));
  assert_false(in_loop(&m, "cached = make_cache()"));
  assert_true(in_loop(&m, "cleanup()\n"));
  model_free(&m);
}


static void test_loop_in_function(void **state) {
  (void)state;
  model m;
  model_build(&m, "def train(loader):\n"
                  "    for xb, yb in loader:\n"
                  "        step_once(xb, yb)\n"
                  "    return done()\n");
  assert_true(in_loop(&m, "step_once(xb, yb)"));
  assert_false(in_loop(&m, "return done()"));
  model_free(&m);
}


/* ---- periodic blocks ---- */

static void test_periodic(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    step += 1\n"
                  "    if step % 100 == 0:\n"
                  "        log_now()\n"
                  "    else:\n"
                  "        skip_log()\n"
                  "    if step > 100:\n"
                  "        warm()\n"
                  "    every_time()\n");
  int loop = facts_iteration_loop_at(&m.f, at(&m, "log_now()"));
  assert_true(loop >= 0);
  assert_true(facts_periodic_at(&m.f, at(&m, "log_now()"), loop));
  assert_false(facts_periodic_at(&m.f, at(&m, "skip_log()"), loop));
  assert_false(facts_periodic_at(&m.f, at(&m, "warm()"), loop));
  assert_false(facts_periodic_at(&m.f, at(&m, "every_time()"), loop));
  assert_false(facts_periodic_at(&m.f, at(&m, "log_now()"), -1));
  model_free(&m);
}


static void test_periodic_outside_the_loop_does_not_count(void **state) {
  (void)state;
  model m;
  model_build(&m, "if rank % 2 == 0:\n"
                  "    for batch in train_loader:\n"
                  "        work()\n");
  int loop = facts_iteration_loop_at(&m.f, at(&m, "work()"));
  assert_true(loop >= 0);
  assert_false(facts_periodic_at(&m.f, at(&m, "work()"), loop));
  model_free(&m);
}


/* ---- no-grad regions ---- */

static void test_no_grad_with(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "with torch.no_grad():\n"
                  "    a = 1\n"
                  "b = 2\n"
                  "with open(p) as fh, torch.no_grad():\n"
                  "    c = 3\n"
                  "with torch.enable_grad():\n"
                  "    d = 4\n");
  assert_true(no_grad(&m, "a = 1"));
  assert_false(no_grad(&m, "b = 2"));
  assert_true(no_grad(&m, "c = 3"));
  assert_false(no_grad(&m, "d = 4"));
  model_free(&m);
}


static void test_no_grad_inference_mode_alias(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch as T\n"
                  "from torch import no_grad\n"
                  "with T.inference_mode():\n"
                  "    a = 1\n"
                  "with no_grad():\n"
                  "    b = 2\n"
                  "with T.inference_mode(False):\n"
                  "    c = 3\n");
  assert_true(no_grad(&m, "a = 1"));
  assert_true(no_grad(&m, "b = 2"));
  assert_false(no_grad(&m, "c = 3"));
  model_free(&m);
}


static void test_no_grad_named_wrappers(void **state) {
  (void)state;
  model m;
  /* a project's own helpers, from modules the linter does not read, are
   * taken at their name; so is `torch.no_grad` without `import torch` */
  model_build(&m, "from utils.torch_utils import smart_inference_mode\n"
                  "from .ctx import maybe_no_grad, timer, enable_grad_ctx\n"
                  "with torch.no_grad():\n"
                  "    a = 1\n"
                  "with maybe_no_grad():\n"
                  "    b = 2\n"
                  "with maybe_no_grad(False):\n"
                  "    c = 3\n"
                  "with timer('eval'), enable_grad_ctx():\n"
                  "    d = 4\n"
                  "@smart_inference_mode()\n"
                  "def run():\n"
                  "    e = 5\n"
                  "@helpers.no_grad_decorator\n"
                  "def check():\n"
                  "    f = 6\n"
                  "@timed\n"
                  "def other():\n"
                  "    g = 7\n");
  assert_true(no_grad(&m, "a = 1"));
  assert_true(no_grad(&m, "b = 2"));
  assert_false(no_grad(&m, "c = 3"));
  assert_false(no_grad(&m, "d = 4"));
  assert_true(no_grad(&m, "e = 5"));
  assert_true(no_grad(&m, "f = 6"));
  assert_false(no_grad(&m, "g = 7"));
  model_free(&m);
}


static void test_no_grad_decorators(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "@torch.no_grad()\n"
                  "def ev1():\n"
                  "    a = 1\n"
                  "\n"
                  "@torch.no_grad\n"
                  "def ev2():\n"
                  "    b = 2\n"
                  "\n"
                  "@torch.inference_mode()\n"
                  "def ev3():\n"
                  "    c = 3\n"
                  "\n"
                  "@torch.inference_mode(False)\n"
                  "def tr1():\n"
                  "    d = 4\n"
                  "\n"
                  "@functools.cache\n"
                  "def tr2():\n"
                  "    e = 5\n");
  assert_true(no_grad(&m, "a = 1"));
  assert_true(no_grad(&m, "b = 2"));
  assert_true(no_grad(&m, "c = 3"));
  assert_false(no_grad(&m, "d = 4"));
  assert_false(no_grad(&m, "e = 5"));
  model_free(&m);
}


static void test_no_grad_set_grad_enabled_statement(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "def run():\n"
                  "    before = 0\n"
                  "    torch.set_grad_enabled(False)\n"
                  "    off = 1\n"
                  "    torch.set_grad_enabled(True)\n"
                  "    on_again = 2\n"
                  "def other():\n"
                  "    torch.set_grad_enabled(False)\n"
                  "    off_to_end = 3\n"
                  "outside = 4\n"
                  "torch.set_grad_enabled(True)\n"
                  "stays_on = 5\n");
  assert_false(no_grad(&m, "before = 0"));
  assert_true(no_grad(&m, "off = 1"));
  assert_false(no_grad(&m, "on_again = 2"));
  assert_true(no_grad(&m, "off_to_end = 3"));
  /* the region ends with the block the statement is in */
  assert_false(no_grad(&m, "outside = 4"));
  assert_false(no_grad(&m, "stays_on = 5"));
  model_free(&m);
}


static void test_no_grad_set_grad_enabled_with(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "with torch.set_grad_enabled(False):\n"
                  "    a = 1\n"
                  "with torch.set_grad_enabled(True):\n"
                  "    b = 2\n"
                  "with torch.set_grad_enabled(is_train):\n"
                  "    c = 3\n");
  assert_true(no_grad(&m, "a = 1"));
  assert_false(no_grad(&m, "b = 2"));
  assert_false(no_grad(&m, "c = 3"));
  model_free(&m);
}


/* ---- except clauses ---- */

static void test_excepts(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "try:\n"
                  "    run()\n"
                  "except torch.cuda.OutOfMemoryError:\n"
                  "    recover()\n"
                  "    try:\n"
                  "        retry()\n"
                  "    except (ValueError, KeyError) as err:\n"
                  "        nested()\n"
                  "except:\n"
                  "    bare()\n"
                  "after()\n");
  const facts_except *ex[4];
  assert_int_equal(facts_excepts_at(&m.f, at(&m, "run()"), ex, 4), 0);
  assert_int_equal(facts_excepts_at(&m.f, at(&m, "after()"), ex, 4), 0);

  assert_int_equal(facts_excepts_at(&m.f, at(&m, "recover()"), ex, 4), 1);
  assert_false(ts_node_is_null(ex[0]->type));
  assert_true(facts_node_is(&m.f, ex[0]->type, "torch.cuda.OutOfMemoryError"));

  /* inside the try of an except clause: still in the outer except */
  assert_int_equal(facts_excepts_at(&m.f, at(&m, "retry()"), ex, 4), 1);

  assert_int_equal(facts_excepts_at(&m.f, at(&m, "nested()"), ex, 4), 2);
  /* innermost first; the type starts at the tuple (the grammar may wrap it
   * with its `as` target) */
  assert_int_equal(ts_node_start_byte(ex[0]->type), at(&m, "(ValueError, KeyError)"));
  assert_true(facts_node_is(&m.f, ex[1]->type, "torch.cuda.OutOfMemoryError"));
  /* MAX bounds the answer */
  assert_int_equal(facts_excepts_at(&m.f, at(&m, "nested()"), ex, 1), 1);
  assert_int_equal(ts_node_start_byte(ex[0]->type), at(&m, "(ValueError, KeyError)"));

  assert_int_equal(facts_excepts_at(&m.f, at(&m, "bare()"), ex, 4), 1);
  assert_true(ts_node_is_null(ex[0]->type));
  model_free(&m);
}


/* ---- the sole backward pass ---- */

static void test_sole_backward_single(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    loss = criterion(batch)\n"
                  "    loss.backward(retain_graph=True)\n"
                  "    optimizer.step()\n");
  assert_true(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_in_batch_loop_of_epoch_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "for epoch in range(3):\n"
                  "    for batch in train_loader:\n"
                  "        loss = criterion(batch)\n"
                  "        loss.backward()\n");
  assert_true(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_two_backwards(void **state) {
  (void)state;
  model m;
  model_build(&m, "for real in dataloader:\n"
                  "    d_loss = disc(real)\n"
                  "    d_loss.backward(retain_graph=True)\n"
                  "    g_loss = gen_loss(real)\n"
                  "    g_loss.backward()\n");
  assert_false(facts_sole_backward(&m.f, at(&m, "d_loss.backward(")));
  assert_false(facts_sole_backward(&m.f, at(&m, "g_loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_autograd_grad_counts(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "for batch in train_loader:\n"
                  "    loss = f(batch)\n"
                  "    loss.backward(retain_graph=True)\n"
                  "    g = torch.autograd.grad(loss, params)\n");
  assert_false(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_inner_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    loss = f(batch)\n"
                  "    for k in range(3):\n"
                  "        loss.backward(retain_graph=True)\n");
  assert_false(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_second_in_inner_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    loss = f(batch)\n"
                  "    loss.backward(retain_graph=True)\n"
                  "    for head in heads:\n"
                  "        head.backward()\n");
  assert_false(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_sole_backward_outside_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "loss = f(x)\n"
                  "loss.backward()\n");
  assert_false(facts_sole_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_first_backward_of_two(void **state) {
  (void)state;
  model m;
  model_build(&m, "for real in dataloader:\n"
                  "    d_loss = disc(real)\n"
                  "    d_loss.backward(retain_graph=True)\n"
                  "    g_loss = gen_loss(real)\n"
                  "    g_loss.backward()\n");
  assert_true(facts_first_backward(&m.f, at(&m, "d_loss.backward(")));
  assert_false(facts_first_backward(&m.f, at(&m, "g_loss.backward(")));
  model_free(&m);
}


static void test_first_backward_not_in_inner_loop(void **state) {
  (void)state;
  model m;
  model_build(&m, "for batch in train_loader:\n"
                  "    for k in range(5):\n"
                  "        critic(batch).backward()\n"
                  "    loss = f(batch)\n"
                  "    loss.backward()\n");
  assert_false(facts_first_backward(&m.f, at(&m, "critic(batch).backward(")));
  assert_true(facts_first_backward(&m.f, at(&m, "loss.backward(")));
  model_free(&m);
}


static void test_qualname_shadowed_module_on_the_right(void **state) {
  (void)state;
  model m;
  model_build(&m, "import model\n"
                  "model = model.RNNModel(10)\n"
                  "y = model.forward\n");
  assert_qualname(&m, "model.RNNModel", "model.RNNModel");
  assert_unresolved(&m, "model.forward");
  model_free(&m);
}


static void test_qualname_through_self_alias(void **state) {
  (void)state;
  model m;
  model_build(&m, "from torch.utils.checkpoint import checkpoint\n"
                  "class Block:\n"
                  "    def __init__(self, on):\n"
                  "        self.ckpt_fn = checkpoint\n"
                  "        self.maybe = checkpoint if on else None\n"
                  "        self.layer = make_layer()\n"
                  "    def forward(self, x):\n"
                  "        return self.ckpt_fn(self.layer, x) + self.layer(x) + self.maybe(x)\n");
  assert_qualname(&m, "self.ckpt_fn(", "torch.utils.checkpoint.checkpoint");
  assert_unresolved(&m, "self.maybe(");
  assert_unresolved(&m, "self.layer(x)");
  model_free(&m);
}


static bool is_module_name(const model *m, const char *name) {
  for (size_t i = 0; i < m->f.module_names.len; i++)
    if (!strcmp(m->f.module_names.items[i], name)) return true;
  return false;
}


static void test_models_known_by_use(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "from lib import load, Accelerator\n"
                  "net = load('a')\n"
                  "opt = torch.optim.Adam(net.parameters())\n"
                  "acc = Accelerator()\n"
                  "enc = load('b')\n"
                  "enc, opt, train_loader = acc.prepare(enc, opt, train_loader)\n"
                  "def run(scorer, trainer, optimizer):\n"
                  "    scorer.eval()\n"
                  "    trainer.train()\n"
                  "    optimizer.zero_grad()\n"
                  "    print(optimizer.state_dict())\n"
                  "    self.parameters()\n");
  assert_true(is_module_name(&m, "net"));
  assert_true(is_module_name(&m, "enc"));
  assert_true(is_module_name(&m, "scorer"));
  assert_false(is_module_name(&m, "opt"));
  assert_false(is_module_name(&m, "train_loader"));
  assert_false(is_module_name(&m, "trainer"));
  assert_false(is_module_name(&m, "optimizer"));
  assert_false(is_module_name(&m, "self"));
  model_free(&m);
}


static void test_model_calls_methods_and_losses(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch.nn as nn\n"
                  "net = nn.Linear(2, 2)\n"
                  "ce = nn.CrossEntropyLoss()\n"
                  "def evaluate(x, y, score):\n"
                  "    a = net.predict(x)\n"
                  "    b = net.forward(x)\n"
                  "    c = net.init_hidden(x)\n"
                  "    d = ce(a, y)\n"
                  "    e = net(x)\n");
  assert_true(facts_is_model_call(&m.f, node_of(&m, "net.predict")));
  assert_true(facts_is_model_call(&m.f, node_of(&m, "net.forward")));
  assert_false(facts_is_model_call(&m.f, node_of(&m, "net.init_hidden")));
  assert_false(facts_is_model_call(&m.f, node_of(&m, "ce(a")));
  assert_true(facts_is_model_call(&m.f, ts_node_named_child(node_of(&m, "net(x)"), 0)));
  model_free(&m);
}


static void test_backward_follows(void **state) {
  (void)state;
  model m;
  model_build(&m, "def fit(model, opt, loader, vx):\n"
                  "    for x, y in loader:\n"
                  "        model.train()\n"
                  "        loss = (model(x) - y).pow(2).mean()\n"
                  "        loss.backward()\n"
                  "        opt.step()\n"
                  "        model.eval()\n"
                  "        print(model(vx).sum().item())\n"
                  "def attack(model, loader):\n"
                  "    model.eval()\n"
                  "    for x, y in loader:\n"
                  "        adv(model, x).backward()\n"
                  "        print(model(x + 1).argmax())\n");
  assert_true(facts_backward_follows(&m.f, at(&m, "model(x) - y")));
  assert_false(facts_backward_follows(&m.f, at(&m, "model(vx)")));
  assert_true(facts_backward_follows(&m.f, at(&m, "model(x + 1)")));
  model_free(&m);
}


static void test_no_grad_from_callers_and_exit_stack(void **state) {
  (void)state;
  model m;
  model_build(&m, "import torch\n"
                  "from contextlib import ExitStack\n"
                  "def helper(x):\n"
                  "    return x * 2\n"
                  "def other(x):\n"
                  "    return x * 3\n"
                  "def main(x):\n"
                  "    with torch.no_grad():\n"
                  "        helper(x)\n"
                  "        other(x)\n"
                  "    other(x)\n"
                  "    with ExitStack() as stack:\n"
                  "        stack.enter_context(torch.no_grad())\n"
                  "        y = x + 4\n"
                  "    z = x + 5\n");
  assert_true(facts_in_no_grad(&m.f, at(&m, "x * 2")));
  assert_false(facts_in_no_grad(&m.f, at(&m, "x * 3")));
  assert_true(facts_in_no_grad(&m.f, at(&m, "x + 4")));
  assert_false(facts_in_no_grad(&m.f, at(&m, "x + 5")));
  model_free(&m);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_qualname_import_as),
    cmocka_unit_test(test_qualname_from_import),
    cmocka_unit_test(test_qualname_from_import_nn),
    cmocka_unit_test(test_qualname_from_import_as),
    cmocka_unit_test(test_qualname_assignment_alias),
    cmocka_unit_test(test_qualname_alias_of_alias),
    cmocka_unit_test(test_qualname_dotted_import_as),
    cmocka_unit_test(test_qualname_dotted_import_binds_first_name),
    cmocka_unit_test(test_qualname_unbound),
    cmocka_unit_test(test_qualname_rebound_later),
    cmocka_unit_test(test_qualname_use_before_import_in_function),
    cmocka_unit_test(test_qualname_alias_cycle_terminates),
    cmocka_unit_test(test_plain_classes_by_their_bases),
    cmocka_unit_test(test_loop_over_loader_name),
    cmocka_unit_test(test_loop_over_enumerate_tqdm),
    cmocka_unit_test(test_loop_over_dataloader_variable),
    cmocka_unit_test(test_loop_while_with_backward),
    cmocka_unit_test(test_loop_range_with_optimizer_step),
    cmocka_unit_test(test_loop_calling_a_model),
    cmocka_unit_test(test_loop_epoch_loop_is_not_per_batch),
    cmocka_unit_test(test_loop_over_files_is_not_per_batch),
    cmocka_unit_test(test_loop_nested_def_is_not_in_loop),
    cmocka_unit_test(test_loop_in_function),
    cmocka_unit_test(test_periodic),
    cmocka_unit_test(test_periodic_outside_the_loop_does_not_count),
    cmocka_unit_test(test_no_grad_with),
    cmocka_unit_test(test_no_grad_inference_mode_alias),
    cmocka_unit_test(test_no_grad_named_wrappers),
    cmocka_unit_test(test_no_grad_decorators),
    cmocka_unit_test(test_no_grad_set_grad_enabled_statement),
    cmocka_unit_test(test_no_grad_set_grad_enabled_with),
    cmocka_unit_test(test_excepts),
    cmocka_unit_test(test_sole_backward_single),
    cmocka_unit_test(test_sole_backward_in_batch_loop_of_epoch_loop),
    cmocka_unit_test(test_sole_backward_two_backwards),
    cmocka_unit_test(test_sole_backward_autograd_grad_counts),
    cmocka_unit_test(test_sole_backward_inner_loop),
    cmocka_unit_test(test_sole_backward_second_in_inner_loop),
    cmocka_unit_test(test_sole_backward_outside_loop),
    cmocka_unit_test(test_first_backward_of_two),
    cmocka_unit_test(test_first_backward_not_in_inner_loop),
    cmocka_unit_test(test_qualname_shadowed_module_on_the_right),
    cmocka_unit_test(test_qualname_through_self_alias),
    cmocka_unit_test(test_models_known_by_use),
    cmocka_unit_test(test_model_calls_methods_and_losses),
    cmocka_unit_test(test_backward_follows),
    cmocka_unit_test(test_no_grad_from_callers_and_exit_stack),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
