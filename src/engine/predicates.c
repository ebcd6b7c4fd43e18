/* This file contains the query predicates: their table (the one place they
 * are documented), their compilation when the linter is built (regexes are
 * compiled and JIT-compiled once), and their evaluation per match. */
#include <stdlib.h>
#include <string.h>

#include "parse/fields.h"
/* Under valgrind the regexes run interpreted: JIT code reads whole words past
 * the subject's end, which memcheck reports as uninitialised (harmless). */
#ifdef OOMLINT_HAVE_VALGRIND_H /* set by CMake when the header is installed */
#include <valgrind/valgrind.h>
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#include "engine/engine.h"
#include "util/alloc.h"

#include "parse/node.h"

typedef enum { ARGS_NONE, ARGS_CAPTURE, ARGS_CAPTURE_STRING, ARGS_STRING } arg_shape;

static const struct {
  const char *name;
  pred_kind kind;
  arg_shape shape;
  int min_strings, max_strings; /* strings after the capture */
  const char *doc;
} PREDICATES[] = {
  {"eq", PRED_EQ, ARGS_CAPTURE, 0, 1, "`#eq? @a \"text\"` or `#eq? @a @b`: the texts are equal"},
  {"match", PRED_MATCH, ARGS_CAPTURE_STRING, 1, 1, "`#match? @a \"RE\"`: PCRE2 regex RE matches somewhere in the text"},
  {"any-of", PRED_ANY_OF, ARGS_CAPTURE_STRING, 1, 1000, "`#any-of? @a \"x\" \"y\" ...`: the text is one of the strings"},
  {"oom-kind", PRED_KIND, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-kind? @x \"RE\"`: the node's type (tree-sitter's name: `identifier`, `call`, `attribute`...) is one RE "
   "matches in full. Cheaper than an alternation `[(identifier) (call)]`, which the query cursor follows as one "
   "state per branch at every node"},
  {"oom-qualname", PRED_QUALNAME, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-qualname? @x \"RE\"`: `@x` (a name, attribute chain, or a call's callee) resolves through imports and "
   "aliases (`import torch as T`, `from torch import cuda`, `acc = torch.cuda`) to a dotted name that RE matches in full"},
  {"oom-in-loop", PRED_IN_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-in-loop? @x`: `@x` is in the body of a per-iteration loop of its own function (a loop over a "
   "DataLoader-like iterable, or whose body calls `.backward()`, `optimizer.step()` or a model), not one whose "
   "body ends in an unconditional `break` (it runs once)"},
  {"oom-every-iteration", PRED_EVERY_ITERATION, ARGS_CAPTURE, 0, 0,
   "`#oom-every-iteration? @x`: as `oom-in-loop?`, and not guarded by an `if` whose test uses `%` (periodic work "
   "such as `if step % 100 == 0:`)"},
  {"oom-in-no-grad", PRED_IN_NO_GRAD, ARGS_CAPTURE, 0, 0,
   "`#oom-in-no-grad? @x`: `@x` runs with gradients off: under `with torch.no_grad()` / `inference_mode()` / "
   "`set_grad_enabled(False)` (or a name the function binds to one on some branch), in a function decorated with "
   "one, or after `torch.set_grad_enabled(False)` in the same block (but for the body of a `with "
   "torch.enable_grad():` inside any of those); a project's own decorator or context whose "
   "name contains `no_grad` or `inference_mode` (not called with `False`) counts as one; or in a function every "
   "caller runs so: in the file, in a base class's methods of another module calling it on `self`, or (asked "
   "last, after every other predicate) in the modules of its folder and the folders above it that import it"},
  {"oom-in-except", PRED_IN_EXCEPT, ARGS_CAPTURE, 0, 1,
   "`#oom-in-except? @x [\"RE\"]`: `@x` is inside an `except` clause (whose exception type resolves to, or is "
   "spelled as, a name RE matches in full, when RE is given; a bare `except:` catches everything)"},
  {"oom-has-arg", PRED_HAS_ARG, ARGS_CAPTURE_STRING, 1, 2,
   "`#oom-has-arg? @args \"NAME\" [\"POS\"]`: the argument list passes NAME as a keyword, or has more than POS "
   "positional arguments when POS is given, or has `**kwargs` (or `*args` when POS is given) that might pass it"},
  {"oom-arg", PRED_ARG, ARGS_CAPTURE_STRING, 2, 2,
   "`#oom-arg? @args \"NAME\" \"VALUE\"`: the argument list passes a keyword whose name the regex NAME matches in "
   "full, with a value whose text the regex VALUE matches in full, or a name that every binding of the file sets to "
   "one literal the regex matches (`use_mp = False`, then `enabled=use_mp`; `**kwargs` passes nothing known)"},
  {"oom-keyword-args-only", PRED_KEYWORD_ARGS_ONLY, ARGS_CAPTURE, 0, 0,
   "`#oom-keyword-args-only? @args`: the argument list has no positional and no `*`/`**` arguments"},
  {"oom-sole-backward", PRED_SOLE_BACKWARD, ARGS_CAPTURE, 0, 0,
   "`#oom-sole-backward? @x`: `@x` is the only backward pass (`.backward()`, `torch.autograd.backward/grad`) in "
   "one iteration of its per-iteration loop, and no inner loop repeats it"},
  {"oom-retained-graph-unused", PRED_RETAINED_UNUSED, ARGS_CAPTURE, 0, 0,
   "`#oom-retained-graph-unused? @x`: `@x`, a backward pass, is in a loop that runs a forward pass of its own "
   "(a model call, or it iterates a loader) or steps an optimizer, does not iterate values the file stores with "
   "`.append()`/`.extend()` (stored transitions may share a graph built before the loop), and no backward pass "
   "follows it in that loop's iteration: a graph it retains is never backpropagated again"},
  {"oom-first-backward", PRED_FIRST_BACKWARD, ARGS_CAPTURE, 0, 0,
   "`#oom-first-backward? @x`: `@x` is the first backward pass directly in the body of its per-iteration loop (no "
   "inner loop between them), whether the iteration has one or several"},
  {"oom-file-calls", PRED_FILE_CALLS, ARGS_STRING, 1, 1,
   "`#oom-file-calls? \"RE\"`: some call in the file resolves to a dotted name RE matches in full"},
  {"oom-file-imports", PRED_FILE_IMPORTS, ARGS_STRING, 1, 1,
   "`#oom-file-imports? \"RE\"`: the file imports a module whose dotted name RE matches in full"},
  {"oom-file-mentions", PRED_FILE_MENTIONS, ARGS_STRING, 1, 1,
   "`#oom-file-mentions? \"RE\"`: RE matches somewhere in the file's text (comments included: use it only to stay "
   "silent, never to report)"},
  {"oom-graph", PRED_GRAPH, ARGS_CAPTURE, 0, 0,
   "`#oom-graph? @x`: the expression carries an autograd graph there: it comes from a model call, a loss, a "
   "value `.backward()` is later called on (or what produced it, back to new data such as `torch.tensor(obs)`), "
   "or arithmetic, indexing, attribute access or a graph-preserving method (`.mean() .sum() .view() .to() .cpu() "
   ".float() .clone()`...) of one; and it was not cleaned (`.item() .detach() .tolist() .numpy() .data`, "
   "`float()`, computed under no-grad)"},
  {"oom-scalar-loss", PRED_SCALAR_LOSS, ARGS_CAPTURE, 0, 0,
   "`#oom-scalar-loss? @x`: `@x` holds a scalar loss: a loss call's result, `outputs.loss`, a `.mean()`/`.sum()` "
   "result, or a name `.backward()` is called on"},
  {"oom-outlives-iteration", PRED_OUTLIVES_ITERATION, ARGS_CAPTURE, 0, 0,
   "`#oom-outlives-iteration? @x`: `@x` (a name, `self.attr`, or a subscript/attribute of one) names storage that "
   "outlives one iteration of the enclosing per-iteration loop: bound before the loop (a parameter, a global, "
   "`self.x`) and not bound again earlier in the same iteration"},
  {"oom-numpy-array", PRED_NUMPY_ARRAY, ARGS_CAPTURE, 0, 0,
   "`#oom-numpy-array? @x`: `@x` (a name or `self.<name>`, or a subscript of one) is a NumPy array: the name "
   "is last bound, in its function or at module level, to `np.zeros(...)`, `np.empty`, `np.ones`, `np.full`, "
   "`np.array`, `np.asarray` or a `*_like` of them (`self.<name>`: every binding in the methods of its "
   "class); a value stored into it becomes a number"},
  {"oom-step-storage", PRED_STEP_STORAGE, ARGS_CAPTURE, 0, 0,
   "`#oom-step-storage? @x`: the storage `@x` (a plain name) filled in a per-iteration loop belongs to one step or "
   "one call, not to the epoch: a local of a model's `forward`; filled by a loop over the time steps of one "
   "sequence (no loader, backward or optimizer step of its own, a model's output fed back into it: "
   "`out, h = decoder(x, h)`); read by a later loop of the same function that backpropagates; or filled by a loop "
   "over models (`for net in nets: net(x)`) and made anew in each iteration of an enclosing loop"},
  {"oom-elements-backpropagated", PRED_ELEMENTS_BACKPROPAGATED, ARGS_CAPTURE, 0, 0,
   "`#oom-elements-backpropagated? @x`: elements of the container `@x` are backpropagated in the per-iteration "
   "loop holding it (`losses[i - 1].backward()`), so what is stored in it carries a graph"},
  {"oom-moves-arg-to-device", PRED_MOVES_ARG_TO_DEVICE, ARGS_CAPTURE, 0, 0,
   "`#oom-moves-arg-to-device? @f`: the callee `@f` (a function of this file, or of the project through its "
   "summary) returns its first argument moved to a device (`def batchify(data, bsz): ... return data.to(device)`)"},
  {"oom-batched-in-loop", PRED_BATCHED_IN_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-batched-in-loop? @x`: the name `@x` is taken batch by batch: subscripted in a per-iteration loop (of any "
   "function, for a module-level name), or given in one to a function of this file that subscripts it "
   "(`get_batch(train_data, i)`); `self.x` subscripted in a method of its class"},
  {"oom-outlives-epoch", PRED_OUTLIVES_EPOCH, ARGS_CAPTURE, 0, 0,
   "`#oom-outlives-epoch? @x`: `@x`, outside any per-iteration loop, names storage that outlives an epoch's or a "
   "step's work: in an epoch loop after its batch loop, storage bound before the epoch loop; after a batch loop, "
   "`self.x`; in a Lightning `training_step`, `self.x`"},
  {"oom-in-training-loop", PRED_IN_TRAINING_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-in-training-loop? @x`: `@x` is in a per-iteration loop whose body (or a function of this file it calls, "
   "or a loop nested in it) calls `.backward()` or `optimizer.step()`"},
  {"oom-in-eval-function", PRED_IN_EVAL_FUNCTION, ARGS_CAPTURE, 0, 0,
   "`#oom-in-eval-function? @x`: the function holding `@x` is named as an evaluation (the names of "
   "`oom-in-eval-context?`), so all of it is evaluation; not a method that neither calls `.eval()` nor loops and "
   "hands `@x`'s output back as it is (its callers choose the grad mode), nor `@x` kept with autograd on on purpose "
   "(a branch whose other branch runs under no_grad, a function named for gradients)"},
  {"oom-in-eval-context", PRED_IN_EVAL_CONTEXT, ARGS_CAPTURE, 0, 0,
   "`#oom-in-eval-context? @x`: `@x` is in a function named `eval`, `evaluate`, `valid(ate)`, `validation`, `test`, "
   "`predict`, `infer(ence)` (optionally followed by `_...`) or ending in `_eval`, `_validation`, `_test`, or "
   "for a call of a model, after that model's `.eval()` in the same scope before its `.train()`; with the "
   "exceptions of `oom-in-eval-function?`"},
  {"oom-reset-after-backward", PRED_RESET_AFTER_BACKWARD, ARGS_CAPTURE, 0, 0,
   "`#oom-reset-after-backward? @s`: `@s`, an accumulation `acc += v` or `acc = acc + v` in a per-iteration loop, "
   "sums a window only: `acc` is bound again later in the same iteration (reset after the optimizer step) and `v` "
   "is backpropagated in it (`v.backward()`, `scaler.scale(v).backward()`, `accelerator.backward(v)`), or `acc` "
   "itself is, after the accumulation (`avg = acc / n; avg.backward()`: a window of instances summed on purpose); "
   "or the loop "
   "has no backward or step of its own (it runs over the layers or features of one step, or over a loader for one "
   "full-batch step) and `acc` (or a name bound from it) is backpropagated after it in the same function; or `v` "
   "is computed by a call that takes `acc` itself (`x = x + 0.1 * block(x)`: a recurrence, not a sum); or `acc` is "
   "a local of the function summing the loss terms of one step (a loop with no loader, optimizer step or forward "
   "pass, only losses, `acc` read after it in the same call); or `acc` was last bound to a dict (`dict += tensor` "
   "raises before any graph is kept)"},
  {"oom-frozen", PRED_FROZEN, ARGS_CAPTURE, 0, 0,
   "`#oom-frozen? @x`: the model `@x` has its parameters frozen where it is called: `.requires_grad_(False)` on it "
   "(at the end of a chain such as `m.eval().requires_grad_(False)` too) at module level, in the same function or "
   "in its class's `__init__`, and `.requires_grad_(True)` in none of them; or it was built frozen "
   "(`G = build().requires_grad_(False)`) or copied from such a model (`copy.deepcopy(G)`); `for p in "
   "m.parameters(): p.requires_grad = False` freezes `m` as `.requires_grad_(False)` does; or every binding of "
   "the name makes a module holding no parameter or no module at all (`nn.CosineSimilarity(dim=1)` on one branch, "
   "an autograd `Function` on the other)"},
  {"oom-is-model", PRED_IS_MODEL, ARGS_CAPTURE, 0, 0,
   "`#oom-is-model? @x`: the callee `@x` runs a model's forward pass: an `nn.Module` instance (a module class of "
   "this file or the project, a `torch.nn` layer, a torchvision/timm/transformers model, "
   "`.to()/.cuda()/.train()/.eval()` of one, a DDP wrapper, a name whose `.parameters()`, `.eval()`, `.train()` "
   "or `.state_dict()` is used), a callable whose output reaches `.backward()`, or a forward-like method or "
   "submodule of one (`m.forward`, `m.predict`, `self.model.encoder`); never a loss (`criterion`, a `torch.nn` "
   "loss; a `critic` is a model) nor an instance of a class whose `forward`/`__call__` runs wholly under "
   "no_grad; a tool's name (`metric`, `opt`, `trainer`) a function binds itself to no model is none there, "
   "whatever other functions bind to it"},
  {"oom-backward-follows", PRED_BACKWARD_FOLLOWS, ARGS_CAPTURE, 0, 0,
   "`#oom-backward-follows? @x`: a backward pass may follow `@x` in its function: a `.backward()`, a call of a "
   "function (of this file or the project) that runs one, an optimizer step, or a call handed an optimizer, after it "
   "in the function's text, or before it in a loop holding it with no `.eval()` between them"},
  {"oom-function-trains", PRED_FUNCTION_TRAINS, ARGS_CAPTURE, 0, 0,
   "`#oom-function-trains? @x`: the function holding `@x` (or a function of this file it calls) calls "
   "`.backward()`; at module level, the file does"},
  {"oom-function-updates", PRED_FUNCTION_UPDATES, ARGS_CAPTURE, 0, 0,
   "`#oom-function-updates? @x`: the function holding `@x` trains weights: it calls `.backward()` itself in a "
   "file that steps an optimizer somewhere, or through functions of the file or the project it calls while "
   "something on that path also steps an optimizer (a profiler's backward, a unit test comparing gradients, "
   "updates nothing); at module level, the file calls `.backward()`"},
  {"oom-file-trains", PRED_FILE_TRAINS, ARGS_NONE, 0, 0, "`#oom-file-trains?`: the file calls `.backward()` somewhere"},
  {"oom-arg-from-outside", PRED_ARG_FROM_OUTSIDE, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-arg-from-outside? @args \"NAME\"`: the argument list passes keyword NAME a value made outside this "
   "file's constructors: a parameter, an alias, or a name bound (on any branch) from a call of something not "
   "named as a class, such as `parser.parse_json_file(...)` or `parser.parse_args_into_dataclasses()`"},
  {"oom-file-scales-loss", PRED_FILE_SCALES_LOSS, ARGS_NONE, 0, 0,
   "`#oom-file-scales-loss?`: some code of the file scales the loss it backpropagates: it makes a `GradScaler` or "
   "calls `scaler.scale(loss)`, apex's `amp.scale_loss`, a wrapper's `optimizer.backward(loss)` (an AMP optimizer, "
   "`accelerator.backward`), or a function or class of the project whose summary says it scales the loss"},
  {"oom-foreign-code", PRED_FOREIGN_CODE, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-foreign-code? @x \"RE\"`: `@x` is another framework's code: it is in a function that imports a module "
   "RE matches in full (`import chainer` in a benchmark beside PyTorch's), or in a file that imports one and never "
   "imports `torch`"},
  {"oom-loop-calls", PRED_LOOP_CALLS, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-loop-calls? @x \"RE\"`: the per-iteration loop holding `@x`, or a function of this file it calls, calls "
   "a function or method whose last name RE matches in full"},
  {"oom-accumulates-gradients", PRED_ACCUMULATES_GRADIENTS, ARGS_CAPTURE, 0, 0,
   "`#oom-accumulates-gradients? @x`: the per-iteration loop holding `@x` steps its optimizer only under an `if` "
   "that tests `%` (gradient accumulation), and zeroes no gradient in every iteration before `@x` (a "
   "`zero_grad()` at the top of the loop leaves nothing to accumulate)"},
  {"oom-divided", PRED_DIVIDED, ARGS_CAPTURE, 0, 0,
   "`#oom-divided? @x`: the value of `@x` was divided (`/`, `/=`, `.div()`) on its way from its source"},
  {"oom-dataset", PRED_DATASET, ARGS_CAPTURE, 0, 0,
   "`#oom-dataset? @x`: `@x` holds a whole dataset: the result of `np.load`, `np.loadtxt`, `pd.read_*`, "
   "`torch.tensor`/`torch.from_numpy`/`torch.as_tensor` of one, or a name like `X_train`, `train_data`, "
   "`dataset.data`"},
  {"oom-sliced-in-loop", PRED_SLICED_IN_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-sliced-in-loop? @x`: the name `@x` is subscripted inside a per-iteration loop of its function; a "
   "module-level name, also in one of a function that does not bind it itself, as such or through a local alias "
   "(`x = xtr if split == \"train\" else xte`)"},
  {"oom-dataset-attribute", PRED_DATASET_ATTRIBUTE, ARGS_CAPTURE, 0, 0,
   "`#oom-dataset-attribute? @x`: the call `@x` is bound to `self.NAME` (alone or in a tuple assignment) where NAME "
   "reads as a dataset's samples (`data`, `images`, `frames`, `all_fg_masks`, not `poses`), in a method of a class "
   "holding a dataset: a torch `Dataset`, a class of this file one derives from, or a class that indexes "
   "`self.NAME[...]` and defines `__getitem__`/`__iter__`/`__next__` or is named as a Dataset or an Iterator"},
  {"oom-kept-per-item", PRED_KEPT_PER_ITEM, ARGS_CAPTURE, 0, 0,
   "`#oom-kept-per-item? @x`: the call `@x`, in a loop that is not a batch loop, moves a tensor made from data "
   "(`torch.from_numpy(frame)`, `torch.load(path)`) that the loop keeps in a list or dict made empty before it, which "
   "a batch loop of the same function then subscripts or iterates"},
  {"oom-in-module-method", PRED_IN_MODULE_METHOD, ARGS_CAPTURE, 0, 0,
   "`#oom-in-module-method? @x`: `@x` is in a method of a model (a class deriving `nn.Module`, here or in the "
   "project, or defining `forward`), or in a function nested in one"},
  {"oom-in-parameter", PRED_IN_PARAMETER, ARGS_CAPTURE, 0, 0,
   "`#oom-in-parameter? @x`: `@x` is, or is inside, the first argument of `nn.Parameter(...)` without "
   "`requires_grad=False`: a tensor made to be trained"},
  {"oom-numpy-float64", PRED_NUMPY_FLOAT64, ARGS_CAPTURE, 0, 0,
   "`#oom-numpy-float64? @x`: `@x` is a NumPy array that defaults to float64 (`np.random.rand/randn/...`, "
   "`np.zeros/ones/empty/full/linspace` without `dtype`, `np.loadtxt`, `np.array` of float literals)"},
  {"oom-cast-after", PRED_CAST_AFTER, ARGS_CAPTURE, 0, 0,
   "`#oom-cast-after? @x`: the value of `@x` is converted right away: `.float()`, `.half()`, `.bfloat16()`, "
   "`.astype(...)`, `.type(...)`, `.to(<a dtype>)`"},
  {"oom-derives", PRED_DERIVES, ARGS_CAPTURE_STRING, 1, 1,
   "`#oom-derives? @x \"RE\"`: the class named `@x` derives, directly or through classes of this file, from a "
   "class whose resolved dotted name RE matches in full"},
  {"oom-in-method", PRED_IN_METHOD, ARGS_CAPTURE_STRING, 2, 2,
   "`#oom-in-method? @x \"NAME\" \"CLASS\"`: `@x` is in the body of a method whose name the regex NAME matches in "
   "full, of a class that derives (as `#oom-derives?`) from one whose resolved dotted name the regex CLASS matches "
   "in full"},
  {"oom-in-any-loop", PRED_IN_ANY_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-in-any-loop? @x`: `@x` is in the body of a `for` or `while` loop of its own function, per-iteration or "
   "not"},
  {"oom-in-model-method", PRED_IN_MODEL_METHOD, ARGS_CAPTURE, 0, 0,
   "`#oom-in-model-method? @x`: `@x` is in a model's own code: a `forward`, or any method of a class that derives "
   "`nn.Module` or defines `forward` (or a function nested in one), or a function outside classes that only such "
   "methods call, directly or through one more such function; its caller decides about gradients"},
  {"oom-in-unit-test", PRED_IN_UNIT_TEST, ARGS_CAPTURE, 0, 0,
   "`#oom-in-unit-test? @x`: `@x` is in a unit test: a function named `test...` (or one nested in it) that asserts, "
   "that takes nothing in a file named as a test suite (`test_*.py`, `*_test.py`: pytest collects it without an "
   "import), or in a file that imports pytest or unittest"},
  {"oom-warm-up", PRED_WARM_UP, ARGS_CAPTURE, 0, 0,
   "`#oom-warm-up? @call`: the call `@call` is outside any loop of its function and either a statement of its own, "
   "its result dropped (run once for its side effects: lazy layers' shapes, a first compile), or a probe whose "
   "arguments are all tensors made up there (`torch.randn(...)` and the like; keyword options given as literals, "
   "`just_feats=True`, aside) with no `.eval()` before it"},
  {"oom-probe-loop", PRED_PROBE_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-probe-loop? @x`: the per-iteration loop around `@x` runs its models only on tensors made up in the "
   "function (`torch.randn(...)` and the like, through names and `.to()`-like chains): a memory or speed probe, "
   "whose gradients nothing uses"},
  {"oom-wraps-only-backward", PRED_WRAPS_ONLY_BACKWARD, ARGS_CAPTURE, 0, 0,
   "`#oom-wraps-only-backward? @call`: `@call` opens a `with` block whose statements are all `.backward()` calls "
   "(`with autocast(): loss.backward()`): the forward ran before the block, and a backward pass keeps the dtypes "
   "its forward chose, so nothing in the block computes under that context"},
  {"oom-hands-model", PRED_HANDS_MODEL, ARGS_CAPTURE, 0, 0,
   "`#oom-hands-model? @call`: the call `@call` is handed a model as an argument (`method(x_s, x_q, model=model)`: "
   "a keyword argument named like a model, or a name the file knows as a model and named like one): a procedure "
   "that runs the model itself (a few-shot method, a trainer's step, an attack), whose own code decides about "
   "gradients"},
  {"oom-to-numpy", PRED_TO_NUMPY, ARGS_CAPTURE, 0, 0,
   "`#oom-to-numpy? @call`: the result of the call `@call` goes straight to `.numpy()` in its expression "
   "(through `.cpu()`, `.squeeze()`-like methods and subscripts, with no `.detach()`, `.data` or `.item()` on the "
   "way): `.numpy()` refuses a tensor that requires grad, so wherever that line runs gradients are off (a "
   "caller's `no_grad`, a decorator of the method, frozen weights) and the call records no graph"},
  {"oom-timed-loop", PRED_TIMED_LOOP, ARGS_CAPTURE, 0, 0,
   "`#oom-timed-loop? @x`: a loop around `@x` is timed: its function calls `torch.cuda.synchronize()` both before "
   "and after it (a throughput benchmark, whose results are thrown away)"},
  {"oom-handed-to-library", PRED_HANDED_TO_LIBRARY, ARGS_CAPTURE, 0, 0,
   "`#oom-handed-to-library? @x`: `@x` is in the body of a lambda handed as an argument to a callable of another "
   "library (not a builtin such as `map` or `sorted`, not a function or class of this file or the project: "
   "`ptan.agent.PolicyAgent(lambda x: net(x)[0])`): that library decides when the lambda runs, and under which "
   "grad mode; or to a function of this file or the project that runs a backward pass (`run_training(name, "
   "lambda: model(x), ...)`): a training loop taking its forward closure; or to a function of this file that "
   "calls the parameter receiving it only under no_grad (`measure_latency(lambda: model(dummy), ...)`)"},
  {"oom-input-requires-grad", PRED_INPUT_REQUIRES_GRAD, ARGS_CAPTURE, 0, 0,
   "`#oom-input-requires-grad? @call`: an argument of the call `@call` is a name its function made to require "
   "grad (`coords.clone().requires_grad_(True)`, `torch.rand(n, 1, requires_grad=True)`, or a `torch.cat` of "
   "such names) and a later call takes both that input and the call's result (`residual(points, pred)`): the "
   "code differentiates the output with respect to the input (a physics-informed network's residual), so the "
   "forward needs its graph; or, before the call in its function, an attribute of an argument (or of the loop "
   "variable of a `for` over one) is set to require grad (`graph.pos.requires_grad = flag`, not `= False`): "
   "the model differentiates with respect to it, as a potential's forces"},
  {"oom-returned-to-backward", PRED_RETURNED_TO_BACKWARD, ARGS_CAPTURE, 0, 0,
   "`#oom-returned-to-backward? @x`: the function holding `@x` returns a value after it, and a module of the "
   "project that imports the file backpropagates what a call of that function returns (`loss = "
   "scorer.reward_scorer(...)`, then `loss.backward()`): a differentiable reward or loss whose graph the caller "
   "needs"},
  {"oom-untrained", PRED_UNTRAINED, ARGS_CAPTURE, 0, 0,
   "`#oom-untrained? @x`: the callee `@x` (`net`, `net.forward`, `net.encoder`) calls a model built in the same "
   "function (or at module level, or the global a top-level function reads when every binding of it lies in the "
   "`__main__` block) and left untrained there: each binding of `net` before the call makes a fresh "
   "one (a module class of the file or the project, a `torch.nn` layer, a function of the file returning one, "
   "a function of the project that builds one and loads nothing into it, "
   "the abstract factory of a unit-test class: `self.create_model(...)` in a `*TestCase` whose `create_model` "
   "raises `NotImplementedError`; through `.to()`-like chains, `torch.compile(net)` and `nn.DataParallel(net)`), "
   "and nothing in that scope (after the model's first binding, in a function) loads weights "
   "(`load_state_dict`, `torch.load`, `restore`, `from_pretrained`...), trains (`.backward()`, `step`, `fit`, "
   "`.train()`, `.parameters()` other than a `for` loop or comprehension over them, which walks the weights: an "
   "initialization, a parameter count; a `load_*` of data, `load_graph_data(...)`, loads no weights) or hands `net` "
   "to a call other than `print`-like ones and parameter counters (`get_number_of_parameters(net)`): a shape smoke "
   "test (at "
   "module level, the file's functions count only when they name `net`)"},
};
#define NPREDICATES (sizeof PREDICATES / sizeof *PREDICATES)


char *oom_linter_predicates_doc(void) {
  buf out = {0};
  buf_puts(&out, "Predicates a rule's query can use. Each has a negated form: `#not-eq?`, `#not-match?`,\n"
                 "`#not-any-of?`, and `#oom-not-NAME?` for oomlint's own. In query strings `\\` escapes:\n"
                 "write \"torch\\\\.load\" for the regex `torch\\.load`.\n\n");
  for (size_t i = 0; i < NPREDICATES; i++) buf_printf(&out, "- %s\n", PREDICATES[i].doc);
  return out.data;
}


static pcre2_code *compile_re(const char *pattern, bool full, buf *err) {
  buf src = {0};
  if (full) buf_printf(&src, "(?:%s)", pattern);
  else buf_puts(&src, pattern);
  int code;
  PCRE2_SIZE off;
  uint32_t flags = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | (full ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0);
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)buf_str(&src), PCRE2_ZERO_TERMINATED, flags, &code, &off, NULL);
  buf_free(&src);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    buf_printf(err, "invalid regex \"%s\": %s", pattern, (const char *)msg);
    return NULL;
  }
  if (!RUNNING_ON_VALGRIND) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter where JIT is missing */
  return re;
}


static uint32_t pattern_line(const oom_rule *rule, const TSQuery *q, uint32_t pattern) {
  uint32_t start = ts_query_start_byte_for_pattern(q, pattern) - rule->query_offset;
  uint32_t line = 1;
  for (uint32_t i = 0; i < start && i < rule->text_len; i++)
    if (rule->text[i] == '\n') line++;
  return line;
}


static bool is_file_level(pred_kind k) {
  return k == PRED_FILE_CALLS || k == PRED_FILE_IMPORTS || k == PRED_FILE_MENTIONS;
}


/* The cache slot of a file-level predicate asking what P asks (the same
 * kind and regex) among PREDS, or -1: rules repeat them in every pattern. */
static int64_t same_question(const predicate *preds, size_t n, const predicate *p) {
  for (size_t i = 0; i < n; i++)
    if (is_file_level(preds[i].kind) && preds[i].kind == p->kind && !strcmp(preds[i].strings[0], p->strings[0]))
      return preds[i].slot;
  return -1;
}


/* What evaluating a predicate of KIND costs on one match, roughly: 0 a text
 * comparison or a flag, 1 a binary search or the file's imports, 2 a regex,
 * a resolution through imports or a walk of the arguments, 3 the replay of
 * the graph analysis and the other walks of the file's facts, 4 a regex
 * over the whole text or the names of all calls: once per file, but then
 * more than all the rest, so asked only of matches that pass everything else. */
static int cost(pred_kind kind) {
  switch (kind) {
  case PRED_EQ:
  case PRED_ANY_OF:
  case PRED_FILE_TRAINS:
  case PRED_FILE_SCALES_LOSS: return 0;
  case PRED_KIND:
  case PRED_IN_LOOP:
  case PRED_EVERY_ITERATION:
  case PRED_IN_NO_GRAD:
  case PRED_IN_ANY_LOOP:
  case PRED_IN_MODEL_METHOD:
  case PRED_IN_UNIT_TEST:
  case PRED_IN_TRAINING_LOOP:
  case PRED_FUNCTION_TRAINS:
  case PRED_FUNCTION_UPDATES:
  case PRED_IN_EVAL_FUNCTION:
  case PRED_IN_MODULE_METHOD:
  case PRED_FROZEN:
  case PRED_FILE_IMPORTS: return 1;
  case PRED_MATCH:
  case PRED_QUALNAME:
  case PRED_HAS_ARG:
  case PRED_ARG:
  case PRED_KEYWORD_ARGS_ONLY:
  case PRED_IN_EXCEPT:
  case PRED_IN_PARAMETER:
  case PRED_SOLE_BACKWARD:
  case PRED_RETAINED_UNUSED:
  case PRED_FIRST_BACKWARD: return 2;
  case PRED_FILE_CALLS:
  case PRED_FILE_MENTIONS:
  case PRED_FOREIGN_CODE: /* a regex per import: asked of nearly nothing but findings */
  case PRED_HANDED_TO_LIBRARY:
  case PRED_INPUT_REQUIRES_GRAD:
  case PRED_TIMED_LOOP:
  case PRED_PROBE_LOOP:
  case PRED_WRAPS_ONLY_BACKWARD:
  case PRED_HANDS_MODEL:
  case PRED_TO_NUMPY:
  case PRED_WARM_UP: /* ts_node_parent walks down from the root */ return 4;
  case PRED_NO_GRAD_IN_IMPORTERS:
  case PRED_RETURNED_TO_BACKWARD:
  case PRED_IN_NO_GRAD_ANYWHERE: /* may read and parse the modules importing the file */ return 5;
  default: return 3;
  }
}


/* A pattern matches when all its predicates hold, and none has side effects:
 * evaluating the cheap ones first (stably) rejects most matches early. */
static void order_by_cost(predicate *preds, size_t n) {
  for (size_t i = 1; i < n; i++) {
    predicate p = preds[i];
    size_t j = i;
    for (; j > 0 && cost(preds[j - 1].kind) > cost(p.kind); j--) preds[j] = preds[j - 1];
    preds[j] = p;
  }
}


bool predicates_compile(const TSQuery *q, uint32_t pattern, const oom_rule *rule, const pattern_info *earlier,
                        pattern_info *out, uint32_t *next_slot, buf *err) {
  uint32_t nsteps;
  const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(q, pattern, &nsteps);
  VEC(predicate) preds = {0};
  buf why = {0};
  uint32_t i = 0;
  while (i < nsteps) {
    /* one predicate: name, arguments, Done */
    uint32_t j = i;
    while (j < nsteps && steps[j].type != TSQueryPredicateStepTypeDone) j++;
    if (steps[i].type != TSQueryPredicateStepTypeString) {
      buf_puts(&why, "a predicate must start with its name");
      break;
    }
    uint32_t len;
    const char *name = ts_query_string_value_for_id(q, steps[i].value_id, &len);
    char *nm = oom_xstrndup(name, len);
    /* strip `#` and `?`; tree-sitter passes "eq?" */
    size_t nlen = strlen(nm);
    bool question = nlen && nm[nlen - 1] == '?';
    if (question) nm[--nlen] = '\0';
    bool negate = false;
    const char *base = nm;
    if (!strncmp(base, "not-", 4)) negate = true, base += 4;
    else if (!strncmp(base, "oom-not-", 8)) {
      negate = true;
      nm[4] = '\0';
      /* "oom-not-x" -> "oom-x" */
      memmove(nm + 4, nm + 8, strlen(nm + 8) + 1);
      base = nm;
    }
    size_t k;
    for (k = 0; k < NPREDICATES; k++)
      if (!strcmp(PREDICATES[k].name, base)) break;
    if (k == NPREDICATES || !question) {
      buf_printf(&why, "unknown predicate #%.*s (see `oomlint rule --predicates`)", (int)len, name);
      free(nm);
      break;
    }
    free(nm);
    predicate p = {PREDICATES[k].kind, negate, -1, -1, NULL, 0, NULL, NULL, -1, 0, 0};
    uint32_t a = i + 1;
    if (PREDICATES[k].shape != ARGS_STRING && PREDICATES[k].shape != ARGS_NONE) {
      if (a >= j || steps[a].type != TSQueryPredicateStepTypeCapture) {
        buf_printf(&why, "#%s? takes a capture first", PREDICATES[k].name);
        break;
      }
      p.capture = (int)steps[a].value_id;
      a++;
    }
    VEC(char *) strs = {0};
    for (; a < j; a++) {
      if (steps[a].type == TSQueryPredicateStepTypeCapture) {
        if (p.kind == PRED_EQ && p.capture2 < 0 && strs.len == 0) {
          p.capture2 = (int)steps[a].value_id;
          continue;
        }
        buf_printf(&why, "#%s? takes strings after its capture", PREDICATES[k].name);
        break;
      }
      uint32_t sl;
      const char *sv = ts_query_string_value_for_id(q, steps[a].value_id, &sl);
      vec_push(&strs, oom_xstrndup(sv, sl));
    }
    p.strings = strs.items;
    p.nstrings = strs.len;
    predicate *pp = &p;
    if (!why.len) {
      int n = (int)strs.len;
      bool two_captures = p.kind == PRED_EQ && p.capture2 >= 0;
      if (!two_captures && (n < PREDICATES[k].min_strings || n > PREDICATES[k].max_strings))
        buf_printf(&why, "#%s? takes %d to %d string argument(s), got %d", PREDICATES[k].name,
                   PREDICATES[k].min_strings, PREDICATES[k].max_strings, n);
      else if (p.kind == PRED_EQ && !two_captures && n != 1)
        buf_printf(&why, "#eq? takes a capture and a string or two captures");
    }
    if (!why.len) {
      switch (p.kind) {
      case PRED_MATCH: pp->re = compile_re(p.strings[0], false, &why); break;
      case PRED_KIND:
      case PRED_QUALNAME:
      case PRED_FILE_CALLS:
      case PRED_FILE_IMPORTS: pp->re = compile_re(p.strings[0], true, &why); break;
      case PRED_IN_EXCEPT:
        if (p.nstrings) pp->re = compile_re(p.strings[0], true, &why);
        break;
      case PRED_FILE_MENTIONS: pp->re = compile_re(p.strings[0], false, &why); break;
      case PRED_LOOP_CALLS:
      case PRED_FOREIGN_CODE:
      case PRED_DERIVES: pp->re = compile_re(p.strings[0], true, &why); break;
      case PRED_ARG:
      case PRED_IN_METHOD:
        pp->re = compile_re(p.strings[0], true, &why);
        if (pp->re) pp->re2 = compile_re(p.strings[1], true, &why);
        break;
      case PRED_HAS_ARG:
        if (p.nstrings == 2) {
          char *endp;
          pp->number = strtol(p.strings[1], &endp, 10);
          if (*endp || pp->number < 0) buf_printf(&why, "#oom-has-arg? position must be a number, got \"%s\"", p.strings[1]);
        }
        break;
      default: break;
      }
    }
    if (is_file_level(p.kind) && !why.len) {
      int64_t slot = same_question(preds.items, preds.len, &p);
      for (uint32_t e = 0; e < pattern && slot < 0; e++) slot = same_question(earlier[e].preds, earlier[e].npreds, &p);
      pp->slot = slot >= 0 ? (uint32_t)slot : (*next_slot)++;
    }
    /* gradients off in every caller of the importing modules is asked
     * last, only of what every other predicate would report: `not` splits
     * it off the file's own no-grad regions, cheap to ask first */
    if (p.kind == PRED_IN_NO_GRAD && !p.negate) p.kind = PRED_IN_NO_GRAD_ANYWHERE;
    vec_push(&preds, p);
    if (p.kind == PRED_IN_NO_GRAD && !why.len) {
      predicate later = p;
      later.kind = PRED_NO_GRAD_IN_IMPORTERS;
      later.strings = NULL;
      later.nstrings = 0;
      vec_push(&preds, later);
    }
    if (why.len) break;
    i = j + 1;
  }
  if (!why.len) order_by_cost(preds.items, preds.len);
  out->preds = preds.items;
  out->npreds = preds.len;
  if (why.len) {
    buf_printf(err, "%s:%u: %s", rule->origin, pattern_line(rule, q, pattern), buf_str(&why));
    buf_free(&why);
    return false;
  }
  buf_free(&why);
  return true;
}


void predicates_free(pattern_info *p) {
  for (size_t i = 0; i < p->npreds; i++) {
    for (size_t k = 0; k < p->preds[i].nstrings; k++) free(p->preds[i].strings[k]);
    free(p->preds[i].strings);
    if (p->preds[i].re) pcre2_code_free(p->preds[i].re);
    if (p->preds[i].re2) pcre2_code_free(p->preds[i].re2);
  }
  free(p->preds);
  p->preds = NULL;
  p->npreds = 0;
}


/* ---- evaluation ---- */

static bool re_match(const pcre2_code *re, const char *s, size_t len, pred_context *ctx) {
  int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, ctx->md, NULL);
  return rc >= 0;
}


static const char *node_text(const pred_context *ctx, TSNode n, size_t *len) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e > ctx->length) e = (uint32_t)ctx->length;
  if (s > e) s = e;
  *len = e - s;
  return ctx->source + s;
}


static bool text_equals(const pred_context *ctx, TSNode n, const char *s) {
  size_t len;
  const char *t = node_text(ctx, n, &len);
  return strlen(s) == len && !memcmp(t, s, len);
}


static bool has_arg(const pred_context *ctx, TSNode args, const char *name, long pos) {
  if (!NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args);
  long positional = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    const char *t = ts_node_type(a);
    if (!strcmp(t, "comment")) continue;
    if (!strcmp(t, "dictionary_splat")) return true;
    if (!strcmp(t, "list_splat")) {
      if (pos >= 0) return true; /* `*args` may fill the position; keyword-only names it cannot */
      continue;
    }
    if (!strcmp(t, "keyword_argument")) {
      TSNode k = FIELD(a, name);
      if (!ts_node_is_null(k) && text_equals(ctx, k, name)) return true;
      continue;
    }
    positional++;
  }
  return pos >= 0 && positional > pos;
}


static bool arg_matches(pred_context *ctx, TSNode args, const pcre2_code *name, const pcre2_code *value) {
  if (!NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!NODE_IS(a, "keyword_argument")) continue;
    TSNode k = FIELD(a, name), v = FIELD(a, value);
    if (ts_node_is_null(k) || ts_node_is_null(v)) continue;
    size_t kl, vl;
    const char *kt = node_text(ctx, k, &kl), *vt = node_text(ctx, v, &vl);
    if (!re_match(name, kt, kl, ctx)) continue;
    if (re_match(value, vt, vl, ctx)) return true;
    /* a name the file binds only to one literal (`use_mp = False`, then
     * `autocast(enabled=use_mp)`): that literal */
    TSNode c = facts_constant_value(ctx->model, v);
    if (!ts_node_is_null(c) && (vt = node_text(ctx, c, &vl), re_match(value, vt, vl, ctx))) return true;
  }
  return false;
}


static bool keyword_args_only(TSNode args) {
  if (!NODE_IS(args, "argument_list")) return false;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    const char *t = ts_node_type(ts_node_named_child(args, i));
    if (strcmp(t, "keyword_argument") != 0 && strcmp(t, "comment") != 0) return false;
  }
  return true;
}


static bool except_matches(pred_context *ctx, TSNode type, const pcre2_code *re) {
  if (ts_node_is_null(type)) return true; /* bare except catches everything */
  if (NODE_IS(type, "as_pattern") && ts_node_named_child_count(type)) type = ts_node_named_child(type, 0);
  TSNode items[32];
  uint32_t n = 0;
  if (NODE_IS(type, "tuple") || NODE_IS(type, "parenthesized_expression")) {
    uint32_t c = ts_node_named_child_count(type);
    for (uint32_t i = 0; i < c && n < 32; i++) items[n++] = ts_node_named_child(type, i);
  } else {
    items[n++] = type;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (facts_qualname(ctx->model, items[i], ctx->tmp) && re_match(re, buf_str(ctx->tmp), ctx->tmp->len, ctx))
      return true;
    size_t len;
    const char *t = node_text(ctx, items[i], &len);
    if (re_match(re, t, len, ctx)) return true;
  }
  return false;
}


static qual_entry *qual_slot(qual_memo *q, const void *id) {
  size_t i = ((uintptr_t)id >> 4) * 0x9E3779B97F4A7C15ull >> 7 & (q->cap - 1);
  while (q->slots[i].id && q->slots[i].id != id) i = (i + 1) & (q->cap - 1);
  return &q->slots[i];
}


/* facts_qualname of N, resolved once per document: *NAME points into the
 * memo's pool until the next call. */
static bool qualname_of(pred_context *ctx, TSNode n, const char **name, size_t *len) {
  qual_memo *q = &ctx->quals;
  if ((q->used + 1) * 2 > q->cap) {
    qual_memo bigger = {oom_xcalloc(q->cap ? q->cap * 2 : 256, sizeof *q->slots), q->cap ? q->cap * 2 : 256, q->used,
                        q->pool};
    for (size_t i = 0; i < q->cap; i++)
      if (q->slots[i].id) *qual_slot(&bigger, q->slots[i].id) = q->slots[i];
    free(q->slots);
    *q = bigger;
  }
  qual_entry *e = qual_slot(q, n.id);
  if (!e->id) {
    e->id = n.id;
    e->ok = facts_qualname(ctx->model, n, ctx->tmp);
    e->start = (uint32_t)q->pool.len;
    e->len = (uint32_t)ctx->tmp->len;
    buf_append(&q->pool, buf_str(ctx->tmp), ctx->tmp->len);
    q->used++;
  }
  *name = buf_str(&q->pool) + e->start;
  *len = e->len;
  return e->ok;
}


void predicates_context_free(pred_context *ctx) {
  free(ctx->quals.slots);
  buf_free(&ctx->quals.pool);
  ctx->quals = (qual_memo){0};
}


static bool file_level(const predicate *p, pred_context *ctx) {
  signed char *cached = &ctx->file_cache[p->slot];
  if (*cached == FILE_UNKNOWN) {
    ctx->unknown = true;
    return false;
  }
  if (*cached >= 0) return *cached;
  bool r = false;
  uint32_t at = UINT32_MAX;
  const facts *f = ctx->model;
  if (p->kind == PRED_FILE_CALLS) {
    /* by callee, as facts_qualname resolves a call (a callee that is itself
     * a call resolves to nothing): #oom-qualname? @fn asks about the same nodes */
    for (size_t i = 0; i < f->calls.len && !r; i++) {
      TSNode callee = FIELD(f->calls.items[i].call, function);
      const char *q;
      size_t ql;
      if (!ts_node_is_null(callee) && !NODE_IS(callee, "call") && qualname_of(ctx, callee, &q, &ql) &&
          re_match(p->re, q, ql, ctx))
        r = true, at = ts_node_start_byte(f->calls.items[i].call);
    }
  } else if (p->kind == PRED_FILE_IMPORTS) {
    for (size_t i = 0; i < f->imported_modules.len && !r; i++)
      r = re_match(p->re, f->imported_modules.items[i], strlen(f->imported_modules.items[i]), ctx);
  } else {
    r = re_match(p->re, ctx->source, ctx->length, ctx);
    if (r) at = (uint32_t)pcre2_get_ovector_pointer(ctx->md)[0];
  }
  *cached = r;
  if (ctx->witness) ctx->witness[p->slot] = at;
  return r;
}


bool predicates_file_level_answer(const predicate *p, pred_context *ctx) {
  return file_level(p, ctx);
}


void predicates_file_level_table(const oom_linter *linter, const predicate **out) {
  for (uint32_t i = 0; i < linter->npatterns; i++)
    for (size_t k = 0; k < linter->patterns[i].npreds; k++) {
      const predicate *p = &linter->patterns[i].preds[k];
      if (p->kind == PRED_FILE_CALLS || p->kind == PRED_FILE_IMPORTS || p->kind == PRED_FILE_MENTIONS)
        out[p->slot] = p;
    }
}


bool predicates_file_level_text(const predicate *p, const char *text, size_t length, pcre2_match_data *md) {
  return p->kind == PRED_FILE_MENTIONS && pcre2_match(p->re, (PCRE2_SPTR)text, length, 0, 0, md, NULL) >= 0;
}


typedef struct {
  const pcre2_code *re;
  pred_context *ctx;
} re_ctx;


static bool re_callback(void *c, const char *s, size_t len) {
  re_ctx *r = c;
  return pcre2_match(r->re, (PCRE2_SPTR)s, len, 0, 0, r->ctx->md, NULL) >= 0;
}


/* Whether POS is in another framework's code (#oom-foreign-code?): a file
 * that imports a module RE matches and never torch, or a function (or one
 * enclosing it) that imports one itself. A file that imports both is
 * PyTorch's, with the other framework's loader or the model it converts. */
static bool foreign_code(pred_context *ctx, uint32_t pos, const pcre2_code *re) {
  const facts *f = ctx->model;
  bool torch = false, foreign = false;
  for (size_t i = 0; i < f->imported_modules.len; i++) {
    const char *m = f->imported_modules.items[i];
    if (!strncmp(m, "torch", 5) && (m[5] == 0 || m[5] == '.')) torch = true;
    else if (!foreign && re_match(re, m, strlen(m), ctx)) foreign = true;
  }
  if (!foreign) return false;
  if (!torch) return true;
  int fn = facts_function_at(f, pos);
  if (fn < 0) return false;
  for (size_t i = 0; i < f->bindings.len; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->kind != BINDING_IMPORT || !re_match(re, b->qualname, strlen(b->qualname), ctx)) continue;
    for (int g = fn; g >= 0; g = f->functions.items[g].parent)
      if (b->pos >= f->functions.items[g].body.start && b->pos < f->functions.items[g].body.end) return true;
  }
  return false;
}


static bool eval(const predicate *p, const TSQueryMatch *m, pred_context *ctx) {
  TSNode n = {0}, n2;
  if (p->capture >= 0 && !engine_capture(m, p->capture, &n)) return !p->negate; /* optional capture absent */
  uint32_t pos = p->capture >= 0 ? ts_node_start_byte(n) : 0;
  size_t len;
  const char *t;
  switch (p->kind) {
  case PRED_EQ:
    t = node_text(ctx, n, &len);
    if (p->capture2 >= 0) {
      if (!engine_capture(m, p->capture2, &n2)) return !p->negate;
      size_t len2;
      const char *t2 = node_text(ctx, n2, &len2);
      return len == len2 && !memcmp(t, t2, len);
    }
    return strlen(p->strings[0]) == len && !memcmp(t, p->strings[0], len);
  case PRED_MATCH:
    t = node_text(ctx, n, &len);
    return re_match(p->re, t, len, ctx);
  case PRED_ANY_OF:
    for (size_t i = 0; i < p->nstrings; i++)
      if (text_equals(ctx, n, p->strings[i])) return true;
    return false;
  case PRED_QUALNAME: {
    const char *q;
    size_t ql;
    return qualname_of(ctx, n, &q, &ql) && re_match(p->re, q, ql, ctx);
  }
  case PRED_IN_LOOP:
    return facts_iteration_loop_at(ctx->model, pos) >= 0;
  case PRED_EVERY_ITERATION: {
    int loop = facts_iteration_loop_at(ctx->model, pos);
    return loop >= 0 && !facts_periodic_at(ctx->model, pos, loop);
  }
  case PRED_IN_NO_GRAD:
    return facts_in_no_grad(ctx->model, pos);
  case PRED_NO_GRAD_IN_IMPORTERS:
    return facts_no_grad_in_importers(ctx->model, pos) || facts_no_grad_method_call(ctx->model, pos);
  case PRED_IN_NO_GRAD_ANYWHERE:
    return facts_in_no_grad(ctx->model, pos) || facts_no_grad_in_importers(ctx->model, pos) ||
           facts_no_grad_method_call(ctx->model, pos);
  case PRED_IN_EXCEPT: {
    const facts_except *ex[16];
    size_t k = facts_excepts_at(ctx->model, pos, ex, 16);
    for (size_t i = 0; i < k; i++)
      if (!p->re || except_matches(ctx, ex[i]->type, p->re)) return true;
    return false;
  }
  case PRED_HAS_ARG:
    return has_arg(ctx, n, p->strings[0], p->number);
  case PRED_ARG:
    return arg_matches(ctx, n, p->re, p->re2);
  case PRED_KIND: {
    const char *type = ts_node_type(n);
    return re_match(p->re, type, strlen(type), ctx);
  }
  case PRED_KEYWORD_ARGS_ONLY:
    return keyword_args_only(n);
  case PRED_SOLE_BACKWARD:
    return facts_sole_backward(ctx->model, pos);
  case PRED_RETAINED_UNUSED:
    return facts_retained_graph_unused(ctx->model, pos);
  case PRED_FIRST_BACKWARD:
    return facts_first_backward(ctx->model, pos);
  case PRED_FILE_CALLS:
  case PRED_FILE_IMPORTS:
  case PRED_FILE_MENTIONS:
    return file_level(p, ctx);
  case PRED_GRAPH:
    return facts_value_of(ctx->model, n).graph;
  case PRED_SCALAR_LOSS:
    return facts_value_of(ctx->model, n).scalar;
  case PRED_DIVIDED:
    return facts_value_of(ctx->model, n).divided;
  case PRED_OUTLIVES_ITERATION:
    return facts_outlives_iteration(ctx->model, n);
  case PRED_STEP_STORAGE:
    return facts_step_storage(ctx->model, n);
  case PRED_NUMPY_ARRAY:
    return facts_numpy_array(ctx->model, n);
  case PRED_ELEMENTS_BACKPROPAGATED:
    return facts_elements_backpropagated(ctx->model, n);
  case PRED_IN_TRAINING_LOOP: {
    int loop = facts_iteration_loop_at(ctx->model, pos);
    return loop >= 0 && facts_loop_trains(ctx->model, loop);
  }
  case PRED_IN_EVAL_CONTEXT:
    return facts_in_eval_context(ctx->model, n);
  case PRED_IN_EVAL_FUNCTION:
    return facts_in_eval_function(ctx->model, n);
  case PRED_IS_MODEL:
    return facts_is_model_call(ctx->model, n);
  case PRED_BACKWARD_FOLLOWS:
    return facts_backward_follows(ctx->model, pos);
  case PRED_FROZEN:
    return facts_is_frozen(ctx->model, n);
  case PRED_RESET_AFTER_BACKWARD:
    return facts_reset_after_backward(ctx->model, n) || facts_backpropagated_after_loop(ctx->model, n) ||
           facts_recurrence(ctx->model, n) || facts_step_sum(ctx->model, n) || facts_dict_accumulator(ctx->model, n);
  case PRED_FUNCTION_TRAINS:
    return facts_function_backward_at(ctx->model, pos);
  case PRED_FUNCTION_UPDATES:
    return facts_function_updates_at(ctx->model, pos);
  case PRED_FILE_TRAINS:
    return ctx->model->file_backward || ctx->model->file_gradients;
  case PRED_FILE_SCALES_LOSS:
    return ctx->model->file_scales_loss;
  case PRED_MOVES_ARG_TO_DEVICE:
    return facts_moves_arg_to_device(ctx->model, n);
  case PRED_BATCHED_IN_LOOP:
    return facts_batched_in_loop(ctx->model, n);
  case PRED_OUTLIVES_EPOCH:
    return facts_outlives_epoch(ctx->model, n);
  case PRED_ARG_FROM_OUTSIDE:
    return facts_arg_from_outside(ctx->model, n, p->strings[0]);
  case PRED_LOOP_CALLS: {
    re_ctx r = {p->re, ctx};
    return facts_loop_calls(ctx->model, pos, re_callback, &r);
  }
  case PRED_ACCUMULATES_GRADIENTS:
    return facts_accumulates_gradients(ctx->model, pos);
  case PRED_DATASET:
    return facts_is_dataset(ctx->model, n);
  case PRED_SLICED_IN_LOOP:
    return facts_sliced_in_loop(ctx->model, n);
  case PRED_DATASET_ATTRIBUTE:
    return facts_dataset_attribute(ctx->model, n);
  case PRED_KEPT_PER_ITEM:
    return facts_kept_per_item(ctx->model, n);
  case PRED_IN_MODULE_METHOD:
    return facts_in_module_method(ctx->model, facts_function_at(ctx->model, pos));
  case PRED_IN_PARAMETER:
    return facts_in_parameter(ctx->model, n);
  case PRED_NUMPY_FLOAT64:
    return facts_is_numpy_float64(ctx->model, n);
  case PRED_CAST_AFTER:
    return facts_cast_after(ctx->model, n);
  case PRED_DERIVES: {
    re_ctx r = {p->re, ctx};
    return facts_class_derives(ctx->model, n, re_callback, &r);
  }
  case PRED_IN_METHOD: {
    int fn = facts_function_at(ctx->model, pos);
    if (fn < 0) return false;
    const facts_function *f = &ctx->model->functions.items[fn];
    if (f->klass < 0 || !re_match(p->re, f->name, f->name_len, ctx)) return false;
    TSNode name = FIELD(ctx->model->classes.items[f->klass].node, name);
    re_ctx r = {p->re2, ctx};
    return !ts_node_is_null(name) && facts_class_derives(ctx->model, name, re_callback, &r);
  }
  case PRED_IN_ANY_LOOP:
    return facts_innermost_loop_at(ctx->model, pos) >= 0;
  case PRED_IN_MODEL_METHOD:
    return facts_in_model_code(ctx->model, facts_function_at(ctx->model, pos));
  case PRED_IN_UNIT_TEST:
    return facts_in_unit_test(ctx->model, pos);
  case PRED_WARM_UP:
    return facts_warm_up_call(ctx->model, n);
  case PRED_TIMED_LOOP:
    return facts_timed_loop(ctx->model, pos);
  case PRED_PROBE_LOOP:
    return facts_probe_loop(ctx->model, pos);
  case PRED_TO_NUMPY:
    return facts_to_numpy(ctx->model, n);
  case PRED_WRAPS_ONLY_BACKWARD:
    return facts_wraps_only_backward(ctx->model, n);
  case PRED_HANDS_MODEL:
    return facts_hands_model(ctx->model, n);
  case PRED_UNTRAINED:
    return facts_untrained_model(ctx->model, n);
  case PRED_HANDED_TO_LIBRARY:
    return facts_handed_to_library(ctx->model, n);
  case PRED_INPUT_REQUIRES_GRAD:
    return facts_input_requires_grad(ctx->model, n);
  case PRED_RETURNED_TO_BACKWARD:
    return facts_returned_to_importers_backward(ctx->model, n);
  case PRED_FOREIGN_CODE:
    return foreign_code(ctx, pos, p->re);
  }
  return false;
}


bool predicates_same_question(const predicate *a, const predicate *b) {
  if (a->kind != b->kind || a->capture != b->capture || a->capture2 != b->capture2 || a->number != b->number ||
      a->nstrings != b->nstrings)
    return false;
  for (size_t i = 0; i < a->nstrings; i++)
    if (strcmp(a->strings[i], b->strings[i]) != 0) return false;
  return true;
}


bool predicates_pass(const pattern_info *p, const TSQueryMatch *m, pred_context *ctx) {
  for (size_t i = 0; i < p->npreds; i++) {
    const predicate *pr = &p->preds[i];
    signed char *known = &ctx->answers[pr->answer];
    if (*known < 0) *known = eval(pr, m, ctx);
    if (*known == pr->negate) return false;
  }
  return true;
}
