/* Unit tests of the project index (src/project): where imports resolve
 * (packages, relative imports, the script's folder, src/ layouts,
 * sys.path literals, missing modules), what summaries say across modules
 * (model classes through bases in other files, functions returning models,
 * graphs and tuples, re-exports), cycles, modules that do not parse,
 * editor buffers in place of files, and the modules a lookup read. Each
 * test writes a small project into a temporary folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/parse.h"
#include "project/project.h"

typedef struct {
  char root[256];
} tree;


/* Write FILES (path, text, path, text, ..., NULL) under a new temporary
 * folder; folders are made as needed. */
static void tree_make(tree *t, const char *const *files) {
  snprintf(t->root, sizeof t->root, "%s/oomlint-project-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  assert_non_null(mkdtemp(t->root));
  for (size_t i = 0; files[i]; i += 2) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", t->root, files[i]);
    for (char *s = path + strlen(t->root) + 1; (s = strchr(s, '/')); s++) {
      *s = '\0';
      mkdir(path, 0755);
      *s = '/';
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(files[i + 1], 1, strlen(files[i + 1]), f);
    fclose(f);
  }
}


static void tree_remove(tree *t) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
  assert_int_equal(system(cmd), 0);
}


static char *path_in(const tree *t, const char *rel) {
  static char buf_[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf_[k], sizeof buf_[k], "%s/%s", t->root, rel);
  return buf_[k];
}


/* What the file REL of T says QUALNAME is, read through a view of P as a
 * lint does; false when not found. The view reads the file's tree for
 * sys.path lines. */
static bool ask(oom_project *p, const tree *t, const char *rel, const char *qualname, facts_symbol *out) {
  const char *why = NULL;
  TSParser *parser = parse_parser_new(&why);
  FILE *f = fopen(path_in(t, rel), "rb");
  char text[8192] = {0};
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  TSTree *tr = parse_source(parser, text, n, NULL);
  project_view v;
  project_view_init(&v, p, path_in(t, rel), ts_tree_root_node(tr), text, n);
  bool found = v.imports.lookup(&v.imports, qualname, strlen(qualname), out);
  project_view_free(&v);
  ts_tree_delete(tr);
  ts_parser_delete(parser);
  return found;
}


/* A view of P for the file REL of T, without its tree (no sys.path lines). */
static void bare_view(project_view *v, oom_project *p, const tree *t, const char *rel) {
  TSNode none = {{0, 0, 0, 0}, NULL, NULL};
  project_view_init(v, p, path_in(t, rel), none, NULL, 0);
}


/* Where QUALNAME, imported by REL, resolves: the module's path relative to
 * the tree's root and the rest of the chain, "module|rest"; "" when not. */
static const char *where(oom_project *p, const tree *t, const char *rel, const char *qualname) {
  static char out[512];
  project_view v;
  bare_view(&v, p, t, rel);
  const char *rest = NULL;
  char *found = project_resolve(&v, v.dir, qualname, &rest);
  out[0] = '\0';
  if (found) snprintf(out, sizeof out, "%s|%s", found + strlen(t->root) + 1, rest);
  free(found);
  project_view_free(&v);
  return out;
}


static void resolves_packages_relative_and_src(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "train.py", "import models\n",
    "model.py", "",
    "models/__init__.py", "",
    "models/resnet.py", "",
    "models/blocks/conv.py", "",
    "src/lib/util.py", "",
    "scripts/run.py", "",
    "scripts/helpers.py", "",
    "dalle/__init__.py", "",
    "dalle/dalle.py", "",
    "dalle/trainer.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  /* a module, a package, a submodule, an attribute chain after the module */
  assert_string_equal(where(p, &t, "train.py", "model.Net"), "model.py|Net");
  assert_string_equal(where(p, &t, "train.py", "models"), "models/__init__.py|");
  assert_string_equal(where(p, &t, "train.py", "models.resnet.ResNet.forward"), "models/resnet.py|ResNet.forward");
  assert_string_equal(where(p, &t, "train.py", "models.blocks.conv.Conv"), "models/blocks/conv.py|Conv");
  /* a src/ layout, and the root from a script in a subfolder */
  assert_string_equal(where(p, &t, "train.py", "lib.util.f"), "src/lib/util.py|f");
  assert_string_equal(where(p, &t, "scripts/run.py", "model.Net"), "model.py|Net");
  /* the script's own folder comes first */
  assert_string_equal(where(p, &t, "scripts/run.py", "helpers.h"), "scripts/helpers.py|h");
  /* ... unless a later folder covers more of the name: the package's own
   * module named like it (dalle/dalle.py) does not hide the package from
   * its __init__.py; what the own folder covers as well stays first */
  assert_string_equal(where(p, &t, "dalle/__init__.py", "dalle.trainer.Trainer"), "dalle/trainer.py|Trainer");
  assert_string_equal(where(p, &t, "dalle/__init__.py", "dalle.Model"), "dalle/dalle.py|Model");
  /* relative: the package of the importer, and one level up */
  assert_string_equal(where(p, &t, "models/resnet.py", ".blocks.conv.Conv"), "models/blocks/conv.py|Conv");
  assert_string_equal(where(p, &t, "models/blocks/conv.py", "..resnet.ResNet"), "models/resnet.py|ResNet");
  assert_string_equal(where(p, &t, "models/resnet.py", ".x"), "models/__init__.py|x");
  /* not of the project */
  assert_string_equal(where(p, &t, "train.py", "torch.nn.Linear"), "");
  assert_string_equal(where(p, &t, "train.py", "missing.thing"), "");
  assert_string_equal(where(p, &t, "train.py", "a..b"), "");
  oom_project_free(p);
  tree_remove(&t);
}


static void sys_path_literals_add_folders(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    ".git/HEAD", "",
    "tools/train.py",
    "import os, sys\n"
    "sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))\n"
    "sys.path.insert(0, '../third')\n"
    "import nets\n",
    "lib/nets.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
    "third/extra.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  assert_true(ask(p, &t, "tools/train.py", "nets.Net", &s));
  assert_true(s.flags & SYM_CLASS);
  assert_true(s.flags & SYM_MODEL);
  assert_true(ask(p, &t, "tools/train.py", "extra", &s));
  assert_true(s.flags & SYM_MODULE_FILE);
  oom_project_free(p);
  tree_remove(&t);
}


/* A folder added through a module-level name (`_ROOT = dirname(...)`) and an
 * alias of sys (`import sys as _sys`), holding a package that re-exports
 * its class with an absolute import of itself (`from var.vqvae import VQ`
 * in `var/__init__.py`): the package's own imports search the folder that
 * holds it. */
static void sys_path_names_and_package_parent(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    ".git/HEAD", "",
    "attic/var_mini/train_var.py",
    "import os as _os, sys as _sys\n"
    "_ROOT = _os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))\n"
    "_sys.path.insert(0, _os.path.join(_ROOT, 'attic'))\n"
    "from var import VQ\n",
    "attic/var/__init__.py", "from var.vqvae import VQ\n",
    "attic/var/vqvae.py", "import torch.nn as nn\nclass VQ(nn.Module):\n    pass\n",
    "other/plain.py",
    "import sys\n"
    "ROOT = 'elsewhere'\n"
    "sys.path.insert(0, ROOT)\n",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  assert_true(ask(p, &t, "attic/var_mini/train_var.py", "var.VQ", &s));
  assert_true(s.flags & SYM_CLASS);
  assert_true(s.flags & SYM_MODEL);
  /* a name bound to a folder that does not hold the package adds nothing */
  assert_false(ask(p, &t, "other/plain.py", "var.VQ", &s));
  oom_project_free(p);
  tree_remove(&t);
}


/* A script in a folder of its own importing a sibling folder's module as a
 * top-level package (`from r2r.agent import Agent` in `finetune/reverie/`,
 * run with `finetune/` on PYTHONPATH): the folders between the script's and the
 * root are searched last, two of them at most. */
static void folders_above_the_script(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    ".git/HEAD", "",
    "finetune/r2r/agent.py", "import torch.nn as nn\nclass Agent(nn.Module):\n    pass\n",
    "finetune/reverie/agent.py", "from r2r.agent import Agent\n",
    "r2r/agent.py", "class Agent:\n    pass\n",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  /* the root's own r2r comes first: the folder above is a fallback */
  assert_true(ask(p, &t, "finetune/reverie/agent.py", "r2r.agent.Agent", &s));
  assert_false(s.flags & SYM_MODEL);
  oom_project_free(p);
  tree_remove(&t);
  static const char *const nested[] = {
    ".git/HEAD", "",
    "finetune/r2r/agent.py", "import torch.nn as nn\nclass Agent(nn.Module):\n    pass\n",
    "finetune/reverie/agent.py", "from r2r.agent import Agent\n",
    "deep/a/b/c/script.py", "from helpers.util import make\n",
    "deep/helpers/util.py", "def make():\n    return 1\n",
    NULL};
  tree_make(&t, nested);
  p = oom_project_new();
  assert_true(ask(p, &t, "finetune/reverie/agent.py", "r2r.agent.Agent", &s));
  assert_true(s.flags & SYM_MODEL);
  /* three folders up is past the search */
  assert_false(ask(p, &t, "deep/a/b/c/script.py", "helpers.util.make", &s));
  oom_project_free(p);
  tree_remove(&t);
}


static void summaries_across_modules(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "setup.py", "",
    "base.py", "import torch.nn as nn\nclass Base(nn.Module):\n    pass\n",
    "mid.py", "from base import Base\nclass Mid(Base):\n    pass\n",
    "top.py", "from . import mid\nclass Top(mid.Mid):\n    def forward(self, x):\n        return x\n",
    "plain.py", "class Config:\n    pass\n",
    "factory.py",
    "from top import Top\nimport torch.nn.functional as F\n"
    "def build_model(cfg):\n    return Top().cuda()\n"
    "def compute(model, x, y):\n"
    "    out = model(x)\n"
    "    loss = F.cross_entropy(out, y)\n"
    "    return loss, loss.item(), out\n"
    "def train_step(model, opt, x):\n"
    "    loss = model(x).mean()\n"
    "    loss.backward()\n"
    "    opt.step()\n",
    "models/__init__.py", "from .zoo import Zoo as Animal\n",
    "models/zoo.py", "import torch\nclass Zoo(torch.nn.Module):\n    pass\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  /* nn.Module through bases in three other files */
  assert_true(ask(p, &t, "train.py", "top.Top", &s));
  assert_int_equal(s.flags & (SYM_CLASS | SYM_MODEL), SYM_CLASS | SYM_MODEL);
  assert_true(ask(p, &t, "train.py", "plain.Config", &s));
  assert_int_equal(s.flags & SYM_MODEL, 0);
  /* a function returning a model of another module */
  assert_true(ask(p, &t, "train.py", "factory.build_model", &s));
  assert_true(s.flags & SYM_FUNCTION);
  assert_true(s.flags & SYM_MODEL);
  /* a tuple: (graph scalar loss, a float, a graph) */
  assert_true(ask(p, &t, "train.py", "factory.compute", &s));
  assert_int_equal(s.nelems, 3);
  assert_true(s.elems[0] & TAINT_GRAPH);
  assert_int_equal(s.elems[1] & TAINT_GRAPH, 0);
  assert_true(s.elems[2] & TAINT_GRAPH);
  assert_true(ask(p, &t, "train.py", "factory.train_step", &s));
  assert_int_equal(s.flags & (SYM_TRAINS | SYM_BACKWARD | SYM_STEP), SYM_TRAINS | SYM_BACKWARD | SYM_STEP);
  assert_int_equal(s.flags & SYM_MODEL, 0);
  /* a re-export under another name in a package's __init__.py */
  assert_true(ask(p, &t, "train.py", "models.Animal", &s));
  assert_int_equal(s.flags & (SYM_CLASS | SYM_MODEL), SYM_CLASS | SYM_MODEL);
  assert_false(ask(p, &t, "train.py", "models.Nothing", &s));
  oom_project_free(p);
  tree_remove(&t);
}


static void cycles_and_broken_modules(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    /* each imports the other, and re-exports a name of the other */
    "a.py", "import torch.nn as nn\nfrom b import B\nfrom b import Loop\nclass A(nn.Module):\n    pass\n",
    "b.py", "from a import A, Loop\nclass B(A):\n    pass\n",
    "broken.py", "import torch.nn as nn\nclass Net(nn.Module:\n    def forward(self, x) return x\n",
    "binary.py", "x = 1\0\0\0",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  assert_true(ask(p, &t, "train.py", "b.B", &s));
  assert_true(s.flags & SYM_MODEL);
  assert_true(ask(p, &t, "train.py", "a.B", &s)); /* a re-export of b.B */
  assert_true(s.flags & SYM_MODEL);
  /* a name re-exported round the cycle ends after a bounded number of hops */
  assert_false(ask(p, &t, "train.py", "a.Loop", &s));
  /* a module that does not parse still yields what parses */
  (void)ask(p, &t, "train.py", "broken.Net", &s);
  /* a binary module is not read */
  assert_false(ask(p, &t, "train.py", "binary.x", &s));
  oom_project_free(p);
  tree_remove(&t);
}


/* A name its module neither defines nor imports is absent (the import
 * fails when it runs); one it defines, re-exports, or may bring through a
 * star import is not, nor a name of a module outside the project. */
static bool absent_in(oom_project *p, const tree *t, const char *rel, const char *qualname) {
  project_view v;
  bare_view(&v, p, t, rel);
  bool gone = v.imports.absent(&v.imports, qualname, strlen(qualname));
  project_view_free(&v);
  return gone;
}


static void names_a_module_lacks(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "nets/__init__.py", "",
    "nets/model.py", "import torch.nn as nn\nfrom nets.layers import Block\nclass Net(nn.Module):\n    pass\n"
                     "SCALE = 2\n",
    "nets/layers.py", "import torch.nn as nn\nclass Block(nn.Module):\n    pass\n",
    "nets/star.py", "from nets.layers import *\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  assert_true(absent_in(p, &t, "train.py", "nets.model.PairwiseDistance"));
  assert_false(absent_in(p, &t, "train.py", "nets.model.Net"));
  assert_false(absent_in(p, &t, "train.py", "nets.model.SCALE"));
  assert_false(absent_in(p, &t, "train.py", "nets.model.Block")); /* re-exported */
  assert_false(absent_in(p, &t, "train.py", "nets.star.Anything")); /* a star import may bring it */
  assert_false(absent_in(p, &t, "train.py", "torch.nn.Missing"));   /* not the project's */
  assert_false(absent_in(p, &t, "train.py", "nets.model"));         /* the module itself */
  oom_project_free(p);
  tree_remove(&t);
}


/* The same answers whichever module is asked first: summaries do not depend
 * on the order a run reads them in. */
static void answers_do_not_depend_on_order(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "a.py", "import torch.nn as nn\nimport b\nclass A(nn.Module):\n    pass\ndef make():\n    return b.B()\n",
    "b.py", "import a\nclass B(a.A):\n    pass\ndef make():\n    return a.A()\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  const char *names[] = {"a.A", "a.make", "b.B", "b.make"};
  uint32_t first[4], second[4];
  oom_project *p = oom_project_new();
  for (int i = 0; i < 4; i++) {
    facts_symbol s = {0};
    assert_true(ask(p, &t, "train.py", names[i], &s));
    first[i] = s.flags;
  }
  oom_project_free(p);
  p = oom_project_new();
  for (int i = 3; i >= 0; i--) {
    facts_symbol s = {0};
    assert_true(ask(p, &t, "train.py", names[i], &s));
    second[i] = s.flags;
  }
  oom_project_free(p);
  for (int i = 0; i < 4; i++) assert_int_equal(first[i], second[i]);
  assert_true(first[2] & SYM_MODEL);
  assert_true(first[3] & SYM_MODEL);
  tree_remove(&t);
}


/* A class defining `forward` without deriving nn.Module is a model unless
 * its bases say it is not: every one object, ABC, typing's, or a class of
 * the project known not to be a module in turn (a PyG transform over
 * BaseTransform(ABC)). No base at all, a base outside the project, a base
 * deriving nn.Module, a cycle or a chain past the depth bound keep it a
 * model. */
static void forward_classes_by_their_bases(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "base.py", "from abc import ABC\nclass BaseTransform(ABC):\n    def forward(self, x):\n        return x\n",
    "typed.py", "import abc\nfrom typing import Generic, TypeVar\nT = TypeVar('T')\n"
                "class Holder(Generic[T], object):\n    pass\n"
                "class Meta(metaclass=abc.ABCMeta):\n    def forward(self, x):\n        return x\n",
    "net.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
    "tf.py", "from base import BaseTransform\nfrom typed import Holder\nfrom net import Net\nfrom lib import Thing\n"
             "class Sym(BaseTransform):\n    def forward(self, x):\n        return x\n"
             "class Both(BaseTransform, Holder):\n    def forward(self, x):\n        return x\n"
             "class Again(Sym):\n    def forward(self, x):\n        return x\n"
             "class Bare:\n    def forward(self, x):\n        return x\n"
             "class Ext(Thing):\n    def forward(self, x):\n        return x\n"
             "class Mixed(BaseTransform, Thing):\n    def forward(self, x):\n        return x\n"
             "class Head(Net):\n    def forward(self, x):\n        return x\n"
             "class Missing(base.Nothing):\n    def forward(self, x):\n        return x\n",
    "c1.py", "from c2 import C2\nclass C1(C2):\n    def forward(self, x):\n        return x\n",
    "c2.py", "from c1 import C1\nclass C2(C1):\n    pass\n",
    /* d0 derives ABC; each dK derives d(K-1), one module apart */
    "d0.py", "from abc import ABC\nclass D0(ABC):\n    pass\n",
    "d1.py", "from d0 import D0\nclass D1(D0):\n    pass\n",
    "d2.py", "from d1 import D1\nclass D2(D1):\n    def forward(self, x):\n        return x\n",
    "d3.py", "from d2 import D2\nclass D3(D2):\n    pass\n",
    "d4.py", "from d3 import D3\nclass D4(D3):\n    pass\n",
    "d5.py", "from d4 import D4\nclass D5(D4):\n    pass\n",
    "d6.py", "from d5 import D5\nclass D6(D5):\n    pass\n",
    "d7.py", "from d6 import D6\nclass D7(D6):\n    pass\n",
    "d8.py", "from d7 import D7\nclass D8(D7):\n    pass\n",
    "d9.py", "from d8 import D8\nclass D9(D8):\n    def forward(self, x):\n        return x\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  static const char *const plain[] = {"base.BaseTransform", "typed.Holder", "typed.Meta", "tf.Sym",
                                      "tf.Both", "tf.Again", "d2.D2", NULL};
  static const char *const models[] = {"tf.Bare", "tf.Ext", "tf.Mixed", "tf.Head", "tf.Missing",
                                       "c1.C1", "net.Net", "d9.D9", NULL};
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < 8; k++) {
      size_t i = pass ? 7 - k : k; /* the second pass asks in the other order */
      if (plain[i]) {
        assert_true(ask(p, &t, "train.py", plain[i], &s));
        assert_int_equal(s.flags & (SYM_CLASS | SYM_MODEL | SYM_PLAIN | SYM_FORWARD), SYM_CLASS | SYM_PLAIN);
      }
      assert_true(ask(p, &t, "train.py", models[i], &s));
      assert_int_equal(s.flags & (SYM_CLASS | SYM_MODEL | SYM_PLAIN | SYM_FORWARD), SYM_CLASS | SYM_MODEL);
    }
    /* no forward and a base not known plain: neither */
    assert_true(ask(p, &t, "train.py", "c2.C2", &s));
    assert_int_equal(s.flags & SYM_PLAIN, 0);
    /* the same answers from a fresh index */
    oom_project_free(p);
    p = oom_project_new();
  }
  oom_project_free(p);
  tree_remove(&t);
}


static void editor_text_and_dependencies(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "net.py", "class Net:\n    pass\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  facts_symbol s;
  assert_true(ask(p, &t, "train.py", "net.Net", &s));
  assert_int_equal(s.flags & SYM_MODEL, 0);
  /* the buffer an editor holds, not saved */
  const char *edited = "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n";
  oom_project_set_text(p, path_in(&t, "net.py"), edited, strlen(edited));
  assert_true(ask(p, &t, "train.py", "net.Net", &s));
  assert_true(s.flags & SYM_MODEL);
  /* back to the file */
  oom_project_set_text(p, path_in(&t, "net.py"), NULL, 0);
  assert_true(ask(p, &t, "train.py", "net.Net", &s));
  assert_int_equal(s.flags & SYM_MODEL, 0);
  /* a buffer for a module not on disk makes it importable */
  oom_project_set_text(p, path_in(&t, "fresh.py"), edited, strlen(edited));
  assert_true(ask(p, &t, "train.py", "fresh.Net", &s));
  /* the file changed on disk */
  FILE *f = fopen(path_in(&t, "net.py"), "wb");
  fputs(edited, f);
  fclose(f);
  assert_int_equal(ask(p, &t, "train.py", "net.Net", &s) && (s.flags & SYM_MODEL), 0); /* still the old text */
  oom_project_forget(p, path_in(&t, "net.py"));
  assert_true(ask(p, &t, "train.py", "net.Net", &s) && (s.flags & SYM_MODEL));
  oom_project_free(p);
  tree_remove(&t);
}


static void a_lookup_records_what_it_read(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "base.py", "import torch.nn as nn\nclass Base(nn.Module):\n    pass\n",
    "net.py", "from base import Base\nclass Net(Base):\n    pass\n",
    "other.py", "",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  project_view v;
  TSNode none = {{0, 0, 0, 0}, NULL, NULL};
  project_view_init(&v, p, path_in(&t, "train.py"), none, NULL, 0);
  facts_symbol s;
  assert_true(v.imports.lookup(&v.imports, "net.Net", 7, &s));
  assert_false(v.imports.lookup(&v.imports, "torch.nn", 8, &s));
  bool net = false, base = false, other = false;
  for (size_t i = 0; i < v.deps.len; i++) {
    const char *d = v.deps.items[i].path + strlen(t.root);
    net |= !strcmp(d, "/net.py");
    base |= !strcmp(d, "/base.py");
    other |= !strcmp(d, "/other.py");
  }
  assert_true(net);
  assert_true(base); /* read to know that Net is a module */
  assert_false(other);
  project_view_free(&v);
  oom_project_free(p);
  tree_remove(&t);
}


/* A file the run lints is parsed once: the tree built for its summary is
 * handed to its lint when the text is the same, once, and only when the
 * file was expected; otherwise the lint parses as usual. */
static void a_summary_tree_is_kept_for_the_expected_lint(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const net_py = "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n";
  static const char *const files[] = {
    "pyproject.toml", "",
    "net.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
    "layers.py", "import torch.nn as nn\nclass Block(nn.Module):\n    pass\n",
    "train.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  oom_project_expect(p, path_in(&t, "net.py"));
  oom_project_expect(p, path_in(&t, "layers.py"));
  facts_symbol s;
  assert_true(ask(p, &t, "train.py", "net.Net", &s) && (s.flags & SYM_MODEL));
  assert_true(ask(p, &t, "train.py", "layers.Block", &s));
  /* not the same text: no tree, and none later */
  assert_null(project_take_tree(p, path_in(&t, "layers.py"), "x = 1\n", 6));
  /* the same text: the summary's tree, whose root is the module */
  TSTree *tr = project_take_tree(p, path_in(&t, "net.py"), net_py, strlen(net_py));
  assert_non_null(tr);
  TSNode root = ts_tree_root_node(tr);
  assert_int_equal(ts_node_end_byte(root), strlen(net_py));
  assert_false(ts_node_has_error(root));
  ts_tree_delete(tr);
  assert_null(project_take_tree(p, path_in(&t, "net.py"), net_py, strlen(net_py))); /* taken once */
  /* a file not expected keeps no tree */
  oom_project *q = oom_project_new();
  assert_true(ask(q, &t, "train.py", "net.Net", &s));
  assert_null(project_take_tree(q, path_in(&t, "net.py"), net_py, strlen(net_py)));
  oom_project_free(q);
  oom_project_free(p); /* frees the tree of layers.py if kept: ASan checks */
  tree_remove(&t);
}



/* The other way round: a file linted before any summary of it leaves its
 * tree for the summary, which reads that tree when the bytes are the same
 * (witnessed with a tree whose structure differs from the file's own:
 * the summary then finds no class), parses when they are not, and takes
 * an offer once; a project that is no batch run keeps no offer. */
static void a_linted_tree_is_offered_to_a_later_summary(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const net_py = "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n";
  static const char *const not_a_class = "import torch.nn as nn\nNet = (nn.Module, 0) \n    pass\n";
  static const char *const files[] = {
    "pyproject.toml", "",
    "net.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
    "layers.py", "import torch.nn as nn\nclass Block(nn.Module):\n    pass\n",
    "train.py", "",
    NULL};
  assert_int_equal(strlen(net_py), strlen(not_a_class));
  tree_make(&t, files);
  const char *why = NULL;
  TSParser *parser = parse_parser_new(&why);
  TSTree *odd = parse_source(parser, not_a_class, strlen(not_a_class), NULL);
  TSTree *other = parse_source(parser, "x = 1\n", 6, NULL);
  oom_project *p = oom_project_new();
  oom_project_expect(p, path_in(&t, "train.py")); /* a batch run */
  /* net.py's offer claims its bytes: the summary reads the offered tree */
  project_offer_tree(p, path_in(&t, "net.py"), net_py, strlen(net_py), odd);
  /* layers.py's offer holds other bytes: the summary parses the file */
  project_offer_tree(p, path_in(&t, "layers.py"), "x = 1\n", 6, other);
  facts_symbol s;
  assert_false(ask(p, &t, "train.py", "net.Net", &s) && (s.flags & SYM_CLASS));
  assert_true(ask(p, &t, "train.py", "layers.Block", &s) && (s.flags & SYM_MODEL));
  oom_project_free(p); /* the offers taken were freed with their summaries: ASan checks */
  /* no batch run: the offer is not kept, the file is parsed */
  oom_project *q = oom_project_new();
  project_offer_tree(q, path_in(&t, "net.py"), net_py, strlen(net_py), odd);
  assert_true(ask(q, &t, "train.py", "net.Net", &s) && (s.flags & SYM_MODEL));
  oom_project_free(q);
  ts_tree_delete(odd);
  ts_tree_delete(other);
  ts_parser_delete(parser);
  tree_remove(&t);
}


/* The estimate runs the modules a script imports: their path and text, and
 * where the attribute chain after the module begins; relative imports from
 * the importing module's folder; the script itself is never its own module. */
static void module_source_for_the_estimate(void **state) {
  (void)state;
  tree t = {{0}};
  const char *const files[] = {"train.py", "import model\n",
                               "model.py", "from .nets.block import Block\nclass GPT: pass\n",
                               "nets/__init__.py", "",
                               "nets/block.py", "from .base import Base\n",
                               "nets/base.py", "class Base: pass\n",
                               NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  project_view v;
  project_view_init(&v, p, path_in(&t, "train.py"), (TSNode){0}, NULL, 0);
  buf path = {0}, text = {0};
  size_t rest = 0;
  assert_true(v.imports.source(&v.imports, NULL, "model.GPT", 9, &path, &text, &rest));
  assert_string_equal(buf_str(&path), path_in(&t, "model.py"));
  assert_non_null(strstr(buf_str(&text), "class GPT"));
  assert_int_equal(rest, 6); /* "GPT" */
  buf_clear(&path);
  buf_clear(&text);
  assert_true(v.imports.source(&v.imports, NULL, "model", 5, &path, &text, &rest));
  assert_int_equal(rest, 5);
  /* `from .base import Base` in nets/block.py */
  buf_clear(&path);
  buf_clear(&text);
  assert_true(v.imports.source(&v.imports, path_in(&t, "nets/block.py"), ".base.Base", 10, &path, &text, &rest));
  assert_string_equal(buf_str(&path), path_in(&t, "nets/base.py"));
  assert_int_equal(rest, 6);
  /* not the project's, and not the script itself */
  assert_false(v.imports.source(&v.imports, NULL, "torch.nn", 8, &path, &text, &rest));
  assert_false(v.imports.source(&v.imports, NULL, "train", 5, &path, &text, &rest));
  /* what it read is a dependency of the lint */
  assert_int_equal(v.deps.len, 2);
  buf_free(&path);
  buf_free(&text);
  project_view_free(&v);
  oom_project_free(p);
  tree_remove(&t);
}

/* How the modules importing a file call its functions, and how the base
 * classes of other modules call a method on `self`: FACTS_CALLED_* bits. */
static void callers_in_importers_and_bases(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "pkg/__init__.py", "from .model import Net\n",
    "pkg/model.py", "class Net:\n    def infer(self, x):\n        return x\n",
    "pkg/sibling.py", "def infer(x):\n    return x\n", /* defines, never calls */
    "train.py",
    "import torch\nfrom pkg import Net\nnet = Net()\nwith torch.no_grad():\n    net.infer(1)\n"
    "net.both(1)\nwith torch.no_grad():\n    net.both(2)\n# net.unused(3) in a comment only\n",
    "unrelated.py", "import torch\nwith torch.no_grad():\n    thing.other(1)\n", /* imports nothing of pkg */
    "deep/tool.py", "import torch\nfrom pkg import Net\nNet().deep(1)\n", /* below the root: not read */
    "base.py",
    "import torch\nclass Root:\n    def run(self):\n        with torch.no_grad():\n            self.step()\n"
    "class Base(Root):\n    def go(self):\n        self.step()\n        self.fit()\n"
    "    def test(self):\n        with torch.no_grad():\n            self.forward()\n",
    "module_base.py",
    "import torch\nimport torch.nn as nn\nclass Base(nn.Module):\n    def test(self):\n"
    "        with torch.no_grad():\n            self.forward()\n",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  project_view v;
  TSNode none = {{0, 0, 0, 0}, NULL, NULL};
  project_view_init(&v, p, path_in(&t, "pkg/model.py"), none, NULL, 0);
  assert_int_equal(v.imports.importer_calls(&v.imports, "infer", 5), FACTS_CALLED_NO_GRAD);
  assert_int_equal(v.imports.importer_calls(&v.imports, "both", 4), FACTS_CALLED_NO_GRAD | FACTS_CALLED_GRAD);
  assert_int_equal(v.imports.importer_calls(&v.imports, "unused", 6), 0);
  assert_int_equal(v.imports.importer_calls(&v.imports, "other", 5), 0);
  assert_int_equal(v.imports.importer_calls(&v.imports, "deep", 4), 0);
  /* every file read is a dependency, those that call nothing too; the
   * file below the root is not read */
  bool train = false, unrelated = false, deep = false;
  for (size_t i = 0; i < v.deps.len; i++) {
    const char *d = v.deps.items[i].path + strlen(t.root);
    train |= !strcmp(d, "/train.py");
    unrelated |= !strcmp(d, "/unrelated.py");
    deep |= !strcmp(d, "/deep/tool.py");
  }
  assert_true(train);
  assert_true(unrelated);
  assert_false(deep);
  project_view_free(&v);

  project_view_init(&v, p, path_in(&t, "runner.py"), none, NULL, 0);
  /* Base's own calls and, through its base, Root's */
  assert_int_equal(v.imports.base_calls(&v.imports, "base.Base", 9, "step", 4),
                   FACTS_CALLED_NO_GRAD | FACTS_CALLED_GRAD);
  assert_int_equal(v.imports.base_calls(&v.imports, "base.Root", 9, "step", 4), FACTS_CALLED_NO_GRAD);
  assert_int_equal(v.imports.base_calls(&v.imports, "base.Base", 9, "fit", 3), FACTS_CALLED_GRAD);
  assert_int_equal(v.imports.base_calls(&v.imports, "base.Root", 9, "fit", 3), 0);
  /* a plain class's forward is a method like any other; an nn.Module's runs
   * on every call of the model, so its base's calls say nothing */
  assert_int_equal(v.imports.base_calls(&v.imports, "base.Base", 9, "forward", 7), FACTS_CALLED_NO_GRAD);
  assert_int_equal(v.imports.base_calls(&v.imports, "module_base.Base", 16, "forward", 7), 0);
  assert_int_equal(v.imports.base_calls(&v.imports, "missing.Base", 12, "step", 4), 0);
  project_view_free(&v);
  oom_project_free(p);
  tree_remove(&t);
}


/* A method of a class of the project, defined there or in a base of
 * another module: what its summary says (decorated with no-grad here). */
static void methods_through_bases(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "base.py",
    "import torch\nimport torch.nn as nn\nclass Base(nn.Module):\n    @torch.no_grad()\n    def predict(self, x):\n"
    "        return self(x)\n    def score(self, x):\n        return self(x)\n",
    "det.py", "from base import Base\nclass Detector(Base):\n    def forward(self, x):\n        return x\n",
    "run.py", "",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  project_view v;
  TSNode none = {{0, 0, 0, 0}, NULL, NULL};
  project_view_init(&v, p, path_in(&t, "run.py"), none, NULL, 0);
  facts_symbol s;
  assert_true(v.imports.method_symbol(&v.imports, "det.Detector", 12, "predict", 7, &s));
  assert_true((s.flags & SYM_FUNCTION) && (s.flags & SYM_NO_GRAD));
  assert_true(v.imports.method_symbol(&v.imports, "det.Detector", 12, "score", 5, &s));
  assert_int_equal(s.flags & SYM_NO_GRAD, 0);
  assert_true(v.imports.method_symbol(&v.imports, "det.Detector", 12, "forward", 7, &s));
  assert_false(v.imports.method_symbol(&v.imports, "det.Detector", 12, "missing", 7, &s));
  assert_false(v.imports.method_symbol(&v.imports, "nowhere.Detector", 16, "predict", 7, &s));
  project_view_free(&v);
  oom_project_free(p);
  tree_remove(&t);
}


/* Callers in the whole project, for distinctive names, and one hop up: a
 * call with gradients on made by a function that every caller runs under
 * no_grad counts as one under no_grad. */
static void callers_far_and_one_hop_up(void **state) {
  (void)state;
  tree t = {{0}};
  static const char *const files[] = {
    "pyproject.toml", "",
    "lib/models/clip.py", "class Clip:\n    def compute_sim_matrix(self, loader):\n        return loader\n",
    "lib/tasks/retrieval.py",
    "class Retrieval:\n    def evaluation(self, model, loader):\n        return model.compute_sim_matrix(loader)\n"
    "    def score_all(self, model, loader):\n        return model.score_every_pair(loader)\n",
    "lib/runners/runner.py",
    "import torch\nclass Runner:\n    @torch.no_grad()\n    def eval_epoch(self, model, loader):\n"
    "        return self.task.evaluation(model, loader)\n    def train_epoch(self, model, loader):\n"
    "        self.task.score_all(model, loader)\n        with torch.no_grad():\n"
    "            self.task.score_all(model, loader)\n",
    NULL};
  tree_make(&t, files);
  oom_project *p = oom_project_new();
  project_view v;
  TSNode none = {{0, 0, 0, 0}, NULL, NULL};
  project_view_init(&v, p, path_in(&t, "lib/models/clip.py"), none, NULL, 0);
  /* retrieval.py imports nothing of lib/models: found in the whole project,
   * its call with gradients on spoken for by the runner's no_grad */
  assert_int_equal(v.imports.importer_calls(&v.imports, "compute_sim_matrix", 18), FACTS_CALLED_NO_GRAD);
  /* score_all is called with gradients on once: its call stays one */
  assert_int_equal(v.imports.importer_calls(&v.imports, "score_every_pair", 16), FACTS_CALLED_GRAD);
  /* a short name is not looked for beyond the file's folders */
  assert_int_equal(v.imports.importer_calls(&v.imports, "evaluation", 10), 0);
  bool runner = false;
  for (size_t i = 0; i < v.deps.len; i++) runner |= !strcmp(v.deps.items[i].path + strlen(t.root), "/lib/runners/runner.py");
  assert_true(runner);
  project_view_free(&v);
  oom_project_free(p);
  tree_remove(&t);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(resolves_packages_relative_and_src),
    cmocka_unit_test(module_source_for_the_estimate),
    cmocka_unit_test(sys_path_literals_add_folders),
    cmocka_unit_test(sys_path_names_and_package_parent),
    cmocka_unit_test(folders_above_the_script),
    cmocka_unit_test(summaries_across_modules),
    cmocka_unit_test(cycles_and_broken_modules),
    cmocka_unit_test(names_a_module_lacks),
    cmocka_unit_test(answers_do_not_depend_on_order),
    cmocka_unit_test(forward_classes_by_their_bases),
    cmocka_unit_test(editor_text_and_dependencies),
    cmocka_unit_test(a_lookup_records_what_it_read),
    cmocka_unit_test(a_summary_tree_is_kept_for_the_expected_lint),
    cmocka_unit_test(a_linted_tree_is_offered_to_a_later_summary),
    cmocka_unit_test(callers_in_importers_and_bases),
    cmocka_unit_test(methods_through_bases),
    cmocka_unit_test(callers_far_and_one_hop_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
