/* Unit tests of fix edits (src/engine/edits.c): append-arg, prepend-arg,
 * remove-arg, remove-statement, replace and insert, through small rules in a
 * temporary rules folder; divide-by-steps, amp-device-uses and edits that
 * belong to one pattern of a rule through the built-in OOM404, OOM402 and
 * OOM501. Each test applies
 * the fix edits to the source and compares the text with the expected one,
 * and checks that the result still parses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oomlint/oomlint.h"

typedef struct {
  char dir[64];
  oom_linter *linter;
  oom_worker *worker;
} engine;


static void write_rule(const char *dir, const char *code, const char *name, const char *fix_lines, const char *query) {
  char path[256], text[2048];
  snprintf(path, sizeof path, "%s/%s-%s.scm", dir, code, name);
  snprintf(text, sizeof text,
           "; code: %s\n; name: %s\n; severity: warning\n; message: test edit\n%s"
           "; doc:\n;   ## What it does\n;   A rule of the unit tests.\n%s",
           code, name, fix_lines, query);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  assert_int_equal(fclose(fp), 0);
}


static int setup(void **state) {
  engine *e = calloc(1, sizeof *e);
  *state = e;
  strcpy(e->dir, "/tmp/oomlint-unit-XXXXXX");
  if (!mkdtemp(e->dir)) return -1;
  write_rule(e->dir, "OOM971", "append", "; fix: safe: Add x\n; edit: append-arg @args x=1\n",
             "(call function: (identifier) @fn arguments: (argument_list) @args\n"
             "  (#eq? @fn \"f\") (#oom-not-has-arg? @args \"x\")) @report\n");
  write_rule(e->dir, "OOM972", "prepend", "; fix: safe: Add first\n; edit: prepend-arg @args first\n",
             "(call function: (identifier) @fn arguments: (argument_list) @args (#eq? @fn \"g\")) @report\n");
  write_rule(e->dir, "OOM973", "remove-arg", "; fix: unsafe: Drop it\n; edit: remove-arg @arg\n",
             "(call function: (identifier) @fn\n"
             "  arguments: (argument_list (keyword_argument name: (identifier) @k) @arg)\n"
             "  (#eq? @fn \"h\") (#eq? @k \"drop\")) @report\n");
  write_rule(e->dir, "OOM974", "remove-statement", "; fix: unsafe: Remove it\n; edit: remove-statement @report\n",
             "(call function: (identifier) @fn (#eq? @fn \"zap\")) @report\n");
  write_rule(e->dir, "OOM975", "replace", "; fix: unsafe: Detach it\n; edit: replace @report {obj}.detach()\n",
             "(call function: (attribute object: (_) @obj attribute: (identifier) @m)\n"
             "  (#eq? @m \"keep_graph\")) @report\n");
  write_rule(e->dir, "OOM976", "insert",
             "; fix: safe: Wrap it\n; edit: insert-before @report float(\n; edit: insert-after @report )\n",
             "(call function: (identifier) @fn (#eq? @fn \"wrap_me\")) @report\n");
  /* the edit needs @first, which the pattern may leave out */
  write_rule(e->dir, "OOM977", "optional-capture", "; fix: safe: Name it\n; edit: replace @first named\n",
             "(call function: (identifier) @fn arguments: (argument_list . (identifier)? @first)\n"
             "  (#eq? @fn \"opt\")) @report\n");
  /* two edits of one range collide */
  write_rule(e->dir, "OOM978", "colliding",
             "; fix: safe: Twice\n; edit: replace @report a\n; edit: replace @report b\n",
             "(call function: (identifier) @fn (#eq? @fn \"clash\")) @report\n");
  write_rule(e->dir, "OOM979", "append-clean", "; fix: unsafe: Clean it\n; edit: append-clean @v\n",
             "(augmented_assignment left: (identifier) @t right: (_) @v (#match? @t \"^acc\")) @report\n");
  /* each pattern has its own edit; the third pattern has none */
  write_rule(e->dir, "OOM980", "per-pattern",
             "; fix: safe: Rename\n; edit: replace @fa A\n; edit: replace @fb B\n",
             "(call function: (identifier) @fa (#eq? @fa \"pa\")) @report\n"
             "(call function: (identifier) @fb (#eq? @fb \"pb\")) @report\n"
             "(call function: (identifier) @fc (#eq? @fc \"pc\")) @report\n");
  oom_options *o = oom_options_new();
  oom_options_add_rules_dir(o, e->dir);
  char *err = NULL;
  e->linter = oom_linter_new(o, &err);
  oom_options_free(o);
  if (!e->linter) {
    fprintf(stderr, "linter: %s\n", err ? err : "?");
    free(err);
    return -1;
  }
  e->worker = oom_worker_new(e->linter);
  return 0;
}


static int teardown(void **state) {
  engine *e = *state;
  if (!e) return 0;
  oom_worker_free(e->worker);
  oom_linter_free(e->linter);
  DIR *dp = opendir(e->dir);
  struct dirent *de;
  while (dp && (de = readdir(dp))) {
    if (de->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", e->dir, de->d_name);
    unlink(path);
  }
  if (dp) closedir(dp);
  rmdir(e->dir);
  free(e);
  return 0;
}


static oom_document *lint(engine *e, const char *src) {
  oom_document *doc = oom_document_new("t.py", src, strlen(src));
  oom_document_lint(doc, e->worker);
  return doc;
}


static size_t count(const oom_document *doc, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++)
    if (!strcmp(oom_diagnostic_code(oom_document_diagnostic(doc, i)), code)) n++;
  return n;
}


/* Lint SRC, apply the edits of every CODE diagnostic (there must be at
 * least one, each with edits), check that the result parses, and return it
 * (malloc'd). */
static char *fix(engine *e, const char *src, const char *code) {
  oom_document *doc = lint(e, src);
  const oom_edit *edits[64];
  size_t n = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(d), code) != 0) continue;
    const oom_fix *f = oom_diagnostic_fix(d);
    if (!f || oom_fix_edit_count(f) == 0) fail_msg("%s in `%s` has no fix edits", code, src);
    for (size_t k = 0; k < oom_fix_edit_count(f) && n < 64; k++) edits[n++] = oom_fix_edit(f, k);
  }
  if (n == 0) fail_msg("no %s diagnostic in `%s`", code, src);
  /* edits of different diagnostics: sort by start */
  for (size_t i = 1; i < n; i++)
    for (size_t k = i; k > 0 && edits[k]->start_byte < edits[k - 1]->start_byte; k--) {
      const oom_edit *t = edits[k];
      edits[k] = edits[k - 1];
      edits[k - 1] = t;
    }
  size_t len = strlen(src), cap = len + 1;
  for (size_t i = 0; i < n; i++) cap += strlen(edits[i]->content);
  char *out = malloc(cap);
  size_t o = 0, at = 0;
  for (size_t i = 0; i < n; i++) {
    assert_true(edits[i]->start_byte >= at);
    assert_true(edits[i]->end_byte >= edits[i]->start_byte && edits[i]->end_byte <= len);
    memcpy(out + o, src + at, edits[i]->start_byte - at);
    o += edits[i]->start_byte - at;
    size_t cl = strlen(edits[i]->content);
    memcpy(out + o, edits[i]->content, cl);
    o += cl;
    at = edits[i]->end_byte;
  }
  memcpy(out + o, src + at, len - at);
  out[o + len - at] = '\0';
  oom_document_free(doc);
  /* the fixed text still parses */
  doc = lint(e, out);
  if (count(doc, "OOM000")) fail_msg("fixing `%s` gave `%s`, which does not parse", src, out);
  oom_document_free(doc);
  return out;
}


static void assert_fixed(engine *e, const char *code, const char *src, const char *want) {
  char *got = fix(e, src, code);
  if (strcmp(got, want) != 0) fail_msg("fixing %s in\n%s---\ngave\n%s---\nexpected\n%s---", code, src, got, want);
  free(got);
}


/* ---- argument lists ---- */

static void test_append_arg(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM971", "f()\n", "f(x=1)\n");
  assert_fixed(e, "OOM971", "f(a)\n", "f(a, x=1)\n");
  assert_fixed(e, "OOM971", "f(a,)\n", "f(a, x=1,)\n");
  assert_fixed(e, "OOM971", "f(a, b=2)\n", "f(a, b=2, x=1)\n");
  assert_fixed(e, "OOM971", "f(\n    a,\n)\n", "f(\n    a, x=1,\n)\n");
  /* a comment after the last argument stays after it */
  assert_fixed(e, "OOM971", "f(a  # why\n)\n", "f(a, x=1  # why\n)\n");
  assert_fixed(e, "OOM971", "f(a,  # why\n)\n", "f(a, x=1,  # why\n)\n");
}


static void test_append_arg_twice_changes_nothing(void **state) {
  engine *e = *state;
  char *once = fix(e, "y = f(a)\n", "OOM971");
  oom_document *doc = lint(e, once);
  assert_int_equal(count(doc, "OOM971"), 0);
  oom_document_free(doc);
  free(once);
}


static void test_prepend_arg(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM972", "g()\n", "g(first)\n");
  assert_fixed(e, "OOM972", "g(b)\n", "g(first, b)\n");
  assert_fixed(e, "OOM972", "g(b, c=2)\n", "g(first, b, c=2)\n");
  assert_fixed(e, "OOM972", "g(  # why\n    b)\n", "g(  # why\n    first, b)\n");
}


static void test_remove_arg(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM973", "h(drop=1)\n", "h()\n");                    /* only */
  assert_fixed(e, "OOM973", "h(drop=1, b=2)\n", "h(b=2)\n");            /* first */
  assert_fixed(e, "OOM973", "h(a, drop=1, b=2)\n", "h(a, b=2)\n");      /* middle */
  assert_fixed(e, "OOM973", "h(a, drop=1)\n", "h(a)\n");                /* last */
  assert_fixed(e, "OOM973", "h(drop=1,)\n", "h()\n");                   /* only, trailing comma */
  assert_fixed(e, "OOM973", "h(a,drop=1)\n", "h(a)\n");
}


static void test_remove_arg_trailing_comma(void **state) {
  engine *e = *state;
  /* the exact spacing is left open; the argument and one comma go, the
   * rest stays */
  char *got = fix(e, "h(a, drop=1,)\n", "OOM973");
  assert_null(strstr(got, "drop"));
  assert_true(strcmp(got, "h(a, )\n") == 0 || strcmp(got, "h(a,)\n") == 0 || strcmp(got, "h(a)\n") == 0);
  free(got);
  got = fix(e, "h(\n    a,\n    drop=1,\n)\n", "OOM973");
  assert_null(strstr(got, "drop"));
  assert_true(strncmp(got, "h(\n    a,", 9) == 0);
  free(got);
}


/* ---- statements ---- */

static void test_remove_statement_alone_in_block(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM974", "for b in loader:\n    zap()\n", "for b in loader:\n    pass\n");
  assert_fixed(e, "OOM974", "if c:\n    # note\n    zap()\nx = 1\n", "if c:\n    # note\n    pass\nx = 1\n");
  assert_fixed(e, "OOM974", "if c: zap()\n", "if c: pass\n");
  assert_fixed(e, "OOM974", "if c:\n    a()\nelse:\n    zap()\n", "if c:\n    a()\nelse:\n    pass\n");
}


static void test_remove_statement_alone_on_its_line(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM974", "x = 1\nzap()\ny = 2\n", "x = 1\ny = 2\n");
  /* the trailing comment goes with the line */
  assert_fixed(e, "OOM974", "def f():\n    a()\n    zap()  # free it\n    b()\n", "def f():\n    a()\n    b()\n");
  /* a statement over several lines takes them all */
  assert_fixed(e, "OOM974", "x = 1\nzap(\n    1,\n)\ny = 2\n", "x = 1\ny = 2\n");
  assert_fixed(e, "OOM974", "x = 1\r\nzap()\r\ny = 2\r\n", "x = 1\r\ny = 2\r\n");
  /* the last line of the file, without a newline */
  assert_fixed(e, "OOM974", "x = 1\nzap()", "x = 1\n");
}


static void test_remove_statement_sharing_a_line(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM974", "a = 1; zap()\n", "a = 1; pass\n");
  assert_fixed(e, "OOM974", "zap(); a = 1\n", "pass; a = 1\n");
  assert_fixed(e, "OOM974", "for b in loader:\n    a = 1; zap()\n    c = 2\n",
               "for b in loader:\n    a = 1; pass\n    c = 2\n");
}


static void test_remove_statement_builtin_rule(void **state) {
  (void)state;
  /* OOM501's fix: remove-statement of torch.cuda.empty_cache() */
  oom_options *o = oom_options_new();
  oom_options_select(o, "OOM0");
  oom_options_select(o, "OOM501");
  oom_linter *l = oom_linter_new(o, NULL);
  oom_options_free(o);
  assert_non_null(l);
  engine e = {{0}, l, oom_worker_new(l)};
  assert_fixed(&e, "OOM501",
               "import torch\n"
               "for batch in train_loader:\n"
               "    a = 1; torch.cuda.empty_cache()\n",
               "import torch\n"
               "for batch in train_loader:\n"
               "    a = 1; pass\n");
  assert_fixed(&e, "OOM501",
               "import torch\n"
               "for batch in train_loader:\n"
               "    torch.cuda.empty_cache()\n",
               "import torch\n"
               "for batch in train_loader:\n"
               "    pass\n");
  assert_fixed(&e, "OOM501",
               "import torch\n"
               "for batch in train_loader:\n"
               "    step(batch)\n"
               "    torch.cuda.empty_cache()  # free memory\n"
               "    log(batch)\n",
               "import torch\n"
               "for batch in train_loader:\n"
               "    step(batch)\n"
               "    log(batch)\n");
  oom_worker_free(e.worker);
  oom_linter_free(l);
}


/* ---- replace and insert ---- */

static void test_replace_uses_full_capture_text(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM975", "v = loss.keep_graph()\n", "v = loss.detach()\n");
  /* the capture keeps its line breaks in edits (messages shorten them) */
  assert_fixed(e, "OOM975", "v = (a +\n     b).keep_graph()\n", "v = (a +\n     b).detach()\n");
}


static void test_insert_before_and_after(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM976", "s = wrap_me(t)\n", "s = float(wrap_me(t))\n");
}


static void test_append_clean(void **state) {
  engine *e = *state;
  /* a scalar loss (a name `.backward()` is called on) gets `.item()` */
  assert_fixed(e, "OOM979",
               "for batch in train_loader:\n"
               "    loss = criterion(model(batch))\n"
               "    loss.backward()\n"
               "    acc_loss += loss\n",
               "for batch in train_loader:\n"
               "    loss = criterion(model(batch))\n"
               "    loss.backward()\n"
               "    acc_loss += loss.item()\n");
  /* other values get `.detach()`; an operator expression is parenthesized */
  assert_fixed(e, "OOM979", "acc_out += out\n", "acc_out += out.detach()\n");
  assert_fixed(e, "OOM979", "acc_prod += a * b\n", "acc_prod += (a * b).detach()\n");
  assert_fixed(e, "OOM979", "acc_sub += outs[0]\n", "acc_sub += outs[0].detach()\n");
}


/* The CODE diagnostic of SRC (there must be one) has a display fix. */
static void assert_display(engine *e, const char *code, const char *src) {
  oom_document *doc = lint(e, src);
  size_t found = 0;
  for (size_t i = 0; i < oom_document_diagnostic_count(doc); i++) {
    const oom_diagnostic *d = oom_document_diagnostic(doc, i);
    if (strcmp(oom_diagnostic_code(d), code) != 0) continue;
    found++;
    const oom_fix *f = oom_diagnostic_fix(d);
    if (!f || oom_fix_applicability(f) != OOM_FIX_DISPLAY || oom_fix_edit_count(f) != 0)
      fail_msg("%s in\n%s---\nhas a fix with edits; expected a suggestion only", code, src);
  }
  if (found == 0) fail_msg("no %s diagnostic in\n%s", code, src);
  oom_document_free(doc);
}


/* ---- edits that belong to one pattern ---- */

static void test_edits_per_pattern(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM980", "pa()\n", "A()\n");
  assert_fixed(e, "OOM980", "pb(1)\n", "B(1)\n");
  assert_display(e, "OOM980", "pc()\n");
}


/* ---- divide-by-steps (OOM404) ---- */

#define ACCUM_LOOP(BACKWARD, TEST)                      \
  "def train(model, loader, optimizer, args, k):\n"     \
  "    for i, (x, y) in enumerate(loader):\n"          \
  "        loss = model(x)\n"                           \
  "        " BACKWARD "\n"                              \
  "        if " TEST ":\n"                              \
  "            optimizer.step()\n"                      \
  "            optimizer.zero_grad()\n"

static void test_divide_by_steps(void **state) {
  engine *e = *state;
  /* the receiver of backward(): the quotient is parenthesized */
  assert_fixed(e, "OOM404", ACCUM_LOOP("loss.backward()", "(i + 1) % k == 0"),
               ACCUM_LOOP("(loss / k).backward()", "(i + 1) % k == 0"));
  assert_fixed(e, "OOM404", ACCUM_LOOP("model(x).loss.backward()", "not (i + 1) % args.accum_steps"),
               ACCUM_LOOP("(model(x).loss / args.accum_steps).backward()", "not (i + 1) % args.accum_steps"));
  assert_fixed(e, "OOM404", ACCUM_LOOP("model(x, y).backward()", "i % 8 == 7"),
               ACCUM_LOOP("(model(x, y) / 8).backward()", "i % 8 == 7"));
  /* an argument of scaler.scale(): parenthesized only when not primary */
  assert_fixed(e, "OOM404", ACCUM_LOOP("args.scaler.scale(loss).backward()", "(i + 1) % k == 0"),
               ACCUM_LOOP("args.scaler.scale(loss / k).backward()", "(i + 1) % k == 0"));
  assert_fixed(e, "OOM404", ACCUM_LOOP("args.scaler.scale(loss + 0.1 * x.norm()).backward()", "(i + 1) % k == 0"),
               ACCUM_LOOP("args.scaler.scale((loss + 0.1 * x.norm()) / k).backward()", "(i + 1) % k == 0"));
  assert_fixed(e, "OOM404", ACCUM_LOOP("args.scaler.scale(-loss).backward()", "(i + 1) % k == 0"),
               ACCUM_LOOP("args.scaler.scale((-loss) / k).backward()", "(i + 1) % k == 0"));
  /* divisors that are not a literal, a name or an attribute chain */
  assert_display(e, "OOM404", ACCUM_LOOP("loss.backward()", "(i + 1) % (k * 2) == 0"));
  assert_display(e, "OOM404", ACCUM_LOOP("loss.backward()", "(i + 1) % args.steps[0] == 0"));
  assert_display(e, "OOM404", ACCUM_LOOP("loss.backward()", "(i + 1) % args.get_steps() == 0"));
  /* two `%` in the test */
  assert_display(e, "OOM404", ACCUM_LOOP("loss.backward()", "(i + 1) % k == 0 and i % 100 == 0"));
  /* K assigned in the loop may not mean the same at backward() */
  assert_display(e, "OOM404",
                 "def train(model, loader, optimizer, schedule):\n"
                 "    for i, (x, y) in enumerate(loader):\n"
                 "        loss = model(x)\n"
                 "        loss.backward()\n"
                 "        k = schedule(i)\n"
                 "        if (i + 1) % k == 0:\n"
                 "            optimizer.step()\n"
                 "            optimizer.zero_grad()\n");
}


/* ---- amp-device-uses (OOM402) ---- */

static void test_amp_import_uses(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM402",
               "from torch.cuda.amp import autocast, GradScaler\n"
               "scaler = GradScaler()\n"
               "with autocast(enabled=use_amp):\n"
               "    pass\n",
               "from torch.amp import autocast, GradScaler\n"
               "scaler = GradScaler(\"cuda\")\n"
               "with autocast(\"cuda\", enabled=use_amp):\n"
               "    pass\n");
  /* aliases; the same word as an attribute or a keyword is not a use */
  assert_fixed(e, "OOM402",
               "from torch.cpu.amp import autocast as ac\n"
               "with ac(dtype=torch.bfloat16):\n"
               "    cfg.ac = f(ac=1)\n",
               "from torch.amp import autocast as ac\n"
               "with ac(\"cpu\", dtype=torch.bfloat16):\n"
               "    cfg.ac = f(ac=1)\n");
  /* custom_fwd/custom_bwd take device_type as a keyword */
  assert_fixed(e, "OOM402",
               "from torch.cuda.amp import custom_fwd, custom_bwd\n"
               "class F(torch.autograd.Function):\n"
               "    @staticmethod\n"
               "    @custom_fwd(cast_inputs=torch.float32)\n"
               "    def forward(ctx, x):\n"
               "        return x\n"
               "    @staticmethod\n"
               "    @custom_bwd\n"
               "    def backward(ctx, g):\n"
               "        return g\n",
               "from torch.amp import custom_fwd, custom_bwd\n"
               "class F(torch.autograd.Function):\n"
               "    @staticmethod\n"
               "    @custom_fwd(cast_inputs=torch.float32, device_type=\"cuda\")\n"
               "    def forward(ctx, x):\n"
               "        return x\n"
               "    @staticmethod\n"
               "    @custom_bwd(device_type=\"cuda\")\n"
               "    def backward(ctx, g):\n"
               "        return g\n");
  /* an import inside a function: its uses are there */
  assert_fixed(e, "OOM402",
               "def run(model, x):\n"
               "    from torch.cuda.amp import autocast\n"
               "    with autocast():\n"
               "        return model(x)\n",
               "def run(model, x):\n"
               "    from torch.amp import autocast\n"
               "    with autocast(\"cuda\"):\n"
               "        return model(x)\n");
  /* the name in another function is not the one imported */
  assert_fixed(e, "OOM402",
               "def f():\n    from torch.cuda.amp import autocast\n    return autocast()\n"
               "def g():\n    return autocast()\n",
               "def f():\n    from torch.amp import autocast\n    return autocast(\"cuda\")\n"
               "def g():\n    return autocast()\n");
  /* uses that cannot be rewritten leave the whole import a suggestion */
  static const char *const refused[] = {
    "from torch.cuda.amp import autocast\nctx = autocast if amp else nullcontext\n",         /* a value */
    "from torch.cuda.amp import autocast\nwith autocast(True):\n    pass\n",                   /* positional */
    "from torch.cuda.amp import GradScaler\ns = GradScaler(**kw)\n",                           /* splat */
    "from torch.cuda.amp import GradScaler\ns = GradScaler(device=\"cuda\")\n",              /* device */
    "from torch.cuda.amp import autocast\ndef f(autocast):\n    return autocast()\n",         /* shadowed */
    "from torch.cuda.amp import autocast\nautocast = None\n",                                  /* rebound */
    "from torch.cuda.amp import GradScaler\ndef f(s: GradScaler):\n    return s\n",           /* annotation */
    "from torch.cuda.amp import GradScaler\nok = isinstance(s, GradScaler)\n",                 /* isinstance */
    "from torch.cuda.amp import autocast\n@autocast\ndef f():\n    pass\n",                  /* bare autocast */
    "from torch.cuda.amp import autocast, common\nwith autocast():\n    pass\n",              /* unknown name */
    "from torch.cuda.amp import *\nwith autocast():\n    pass\n",                             /* wildcard */
    "from torch.cpu.amp import custom_fwd\n@custom_fwd\ndef f():\n    pass\n",               /* not in cpu */
    "from torch.cuda.amp import autocast\nfrom other import autocast\n",                        /* imported twice */
    "from torch.cuda.amp import autocast\n__all__ = [\"autocast\"]\n",                       /* re-exported */
    "class A:\n    from torch.cuda.amp import autocast\n",                                     /* class body */
    "def f():\n    global autocast\n    from torch.cuda.amp import autocast\n",                /* a global */
  };
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) assert_display(e, "OOM402", refused[i]);
}


/* ---- fixes that cannot make their edits ---- */

static void test_missing_capture_gives_display_fix(void **state) {
  engine *e = *state;
  assert_fixed(e, "OOM977", "opt(a)\n", "opt(named)\n");
  oom_document *doc = lint(e, "opt()\n");
  assert_int_equal(count(doc, "OOM977"), 1);
  const oom_fix *f = oom_diagnostic_fix(oom_document_diagnostic(doc, 0));
  assert_non_null(f);
  assert_int_equal(oom_fix_applicability(f), OOM_FIX_DISPLAY);
  assert_int_equal(oom_fix_edit_count(f), 0);
  assert_null(oom_fix_edit(f, 0));
  assert_string_equal(oom_fix_title(f), "Name it");
  oom_document_free(doc);
}


static void test_colliding_edits_give_display_fix(void **state) {
  engine *e = *state;
  oom_document *doc = lint(e, "clash()\n");
  assert_int_equal(count(doc, "OOM978"), 1);
  const oom_fix *f = oom_diagnostic_fix(oom_document_diagnostic(doc, 0));
  assert_non_null(f);
  assert_int_equal(oom_fix_applicability(f), OOM_FIX_DISPLAY);
  assert_int_equal(oom_fix_edit_count(f), 0);
  oom_document_free(doc);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_append_arg),
    cmocka_unit_test(test_append_arg_twice_changes_nothing),
    cmocka_unit_test(test_prepend_arg),
    cmocka_unit_test(test_remove_arg),
    cmocka_unit_test(test_remove_arg_trailing_comma),
    cmocka_unit_test(test_remove_statement_alone_in_block),
    cmocka_unit_test(test_remove_statement_alone_on_its_line),
    cmocka_unit_test(test_remove_statement_sharing_a_line),
    cmocka_unit_test(test_remove_statement_builtin_rule),
    cmocka_unit_test(test_replace_uses_full_capture_text),
    cmocka_unit_test(test_insert_before_and_after),
    cmocka_unit_test(test_append_clean),
    cmocka_unit_test(test_edits_per_pattern),
    cmocka_unit_test(test_divide_by_steps),
    cmocka_unit_test(test_amp_import_uses),
    cmocka_unit_test(test_missing_capture_gives_display_fix),
    cmocka_unit_test(test_colliding_edits_give_display_fix),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
