; code: OOM101
; name: graph-accumulated
; severity: error
; message: `{target}` accumulates `{value}`, which still carries its autograd graph: every iteration's graph stays alive; accumulate its `.item()` (a scalar loss) or `.detach()` instead
; fix: unsafe: Detach the value (`.item()` for a scalar loss)
; edit: append-clean @value
; doc:
;   ## What it does
;   Finds running sums built inside a loop that runs once per batch, where
;   the value added still has autograd history and the sum lives longer than
;   one iteration:
;
;   - `acc += v`
;   - `acc = acc + v` and `acc = v + acc`
;
;   `acc` outlives the iteration when it was bound before the loop, is a
;   parameter, a global or an attribute such as `self.total`, and was not
;   bound again earlier in the same iteration. `v` carries a graph when it
;   comes from a model call or a loss, when `.backward()` is called on it, or
;   when it is arithmetic, indexing or a graph-preserving method (`.mean()`,
;   `.sum()`, `.view()`, `.cpu()`, ...) of such a value. The entries of a
;   dict of such values carry it too (`for name, value in losses.items()`,
;   `for value in losses.values()`), and so do the elements of what a loss
;   object returns (`loss, terms = self.loss_fn(pred, y)`, where the class
;   of `self.loss_fn`, in the file or another module of the project, built
;   directly or by a factory function such as `build_loss(cfg)`, returns
;   `total, {"box": box_loss, ...}` from its `__call__`), and what a method
;   of the class returns (`terms = self.train_one_batch(x, y)`), and the
;   elements of what a method of an instance of a project class returns
;   (`loss, mf, reg = model.pair_loss(u, i)` with `model =
;   Recommender(cfg).to(device)`), each as that method computes it: from
;   its arguments, through a `torch.nn` layer built and applied in place
;   (`nn.LogSigmoid()(x)`) too; an element that hands back one of the
;   function's parameters (`return loss, n` in `def sync(out, loss, n)`,
;   which only ever sets `n = 0` besides) is what the caller passed for it,
;   so a sample count handed through stays a number. The elements of a model's output are what
;   its class's `forward` returns (`loss, acc = model(x, y)` with `acc` made
;   of comparisons carries no graph), the model followed through wrappers
;   that keep that forward: `model = nn.DataParallel(model)`, `model =
;   torch.compile(model)`, a helper such as `model = cuda(model)`; a class
;   of its own built around the model (`Wrapper(model)`) has its own. The
;   class may come from another module of the project, imported by name or
;   with `from package import *`. An entry read by its key from the dicts a
;   function or a loss object of the file returns (`loss_dict["acc"]` after
;   `loss_dict = self.criterion(pred, y)`, whose `forward` ends `return
;   {"total": loss, "acc": acc.item()}`, or that binds such a dict to a
;   name it returns, `results = {...}; return results`) carries no graph
;   when every such dict cleans it there (`.item()`, `.tolist()`,
;   `.detach()`...); any other entry counts as the whole dict.
;
;   Not reported: values cleaned with `.item()`, `.detach()`, `.tolist()`,
;   `.numpy()`, `.data`, `float()` or `int()` (and MXNet's `.asscalar()` and
;   `.asnumpy()`), also behind a tensor test (`v.item() if isinstance(v,
;   torch.Tensor) else v`: a number on both branches) or by a function
;   of another module of the project that returns no graph, imported by
;   name or with `from helpers import *` (`loss = scalar(loss)` with
;   `def scalar(x): return x.view(-1).data.tolist()[0]` there); counts of
;   booleans, which carry no graph: comparisons, `torch.isclose` and
;   `torch.logical_and` and the like, and the bitwise `&`, `^`, `~` of
;   them (`tp += (torch.isclose(pred.round(), y) & positive).sum(0)`); sums computed under
;   `torch.no_grad()` / `torch.inference_mode()` (also in the hooks
;   Lightning runs in its evaluation loops: `validation_step`, a
;   Callback's `on_validation_end`, `on_test_epoch_end`...), or of a loss computed
;   after the block from a prediction made in it (`with torch.no_grad():
;   pred = model(x)`, then `criterion(pred, y)`); plain numbers; and
;   `loss = loss + aux` where `loss` was first assigned in the same
;   iteration (that is a new value per iteration, not a running sum), or
;   a slot set to a number earlier in the same iteration (`loss_rec[i] =
;   0` for each half-cycle, then `loss_rec[i] += ...` over the utterances
;   of the batch, the step's loss); and
;   a sum over one gradient-accumulation window, reset later in the same
;   iteration (`running_loss = 0` after the optimizer step), of values
;   backpropagated in that iteration, themselves or through the loss the
;   iteration makes of them, weighed or not (`running_kd += kd_loss * n`
;   beside `((1 - r) * ce + r * kd_loss).backward()`; torchtune's
;   recipes): backward frees
;   what their graphs saved, and the reset drops the rest every few steps
;   (also a reset now and then in a loop around the one that backpropagates:
;   `if batch_idx % log_interval == 0: total_reg = 0` around the time steps
;   of each batch; not an unconditional reset when the epoch ends);
;   likewise a sum that is itself backpropagated after the accumulation
;   and then reset (`avg = batch_loss / n; avg.backward()`, then
;   `batch_loss = 0.0`: a window of instances summed on purpose), whatever
;   the term added (`loss += loss_fn(u, u_hat)`, then every eight batches
;   `loss.backward()` and `loss = 0.`), and a window's slot that the same
;   iteration backpropagates and then moves on from (truncated
;   backpropagation through time: `sums[k] += policy_loss`, every k1
;   steps `sums[k].backward()`, a fresh zero appended and `k += 1`), and a
;   sum the function returns to a caller of the file that differentiates
;   it (`support_loss = self.task_loss(loader, w)`, then
;   `self.inner_update(inner_loss=support_loss, ...)` whose
;   `torch.autograd.grad(inner_loss, ...)` takes it: a meta-learner's task
;   loss). A name unpacked from a function or
;   method whose summary says what each returned element holds is that
;   element, even where the name reaches a backward pass in another branch
;   that binds it anew (`pg_loss, approx_kl = model.loss(...)` returning
;   `approx_kl.item()`, beside `approx_kl = (ratio - 1).mean()` in the
;   branch whose loss adds it).
;   Nor a sum built in a loop with no optimizer step of its own (over the
;   layers, feature maps or losses of one step, over a whole loader for one
;   full-batch step, or over the environments of one update whose gradients
;   the loop takes with `autograd.grad`) that is backpropagated or
;   differentiated after the loop in the same function, itself or through a
;   name bound from it or from such a name (`loss2 = sup_sum / n`, then
;   `loss = loss1 + w * loss2` and `loss.backward()`: one step's sum over
;   its decoders; `torch.autograd.backward([value_loss] + log_probs,
;   grads)`, `autograd.grad(total_loss / n, params)`, higher's
;   differentiable optimizer `diffopt.step(loss)` after a sum over the time
;   steps of one task; a list of such sums,
;   `losses_q[k + 1] += loss_q` then `(losses_q[-1] / n).backward()`, MAML's
;   meta-loss), or left on an attribute of `self` that a method of the
;   file backpropagates (a navigation agent's rollout, `self.loss +=
;   ml_loss * w`, then `self.loss.backward()` in its `train()`, or in a
;   base class of the project that runs `self.rollout(...)` and then
;   `self.loss.backward()`; or a `self.loss_*` attribute that the method
;   backpropagating the step's total reads by name, `total_loss +=
;   getattr(self, "loss_" + name)`): that is
;   the loss of the step, made anew at each call, and its backward frees
;   the graphs. Nor a sum of the loss terms of one step, local to the
;   function that makes it: bound in the function before a loop that runs
;   no loader, no optimizer step and no forward pass (it only scores slices
;   of one forward made before it: the loss per domain, per frame of a
;   clip; or runs them only on slices of one tensor along a later axis,
;   `w = latent[:, i, :]`, a discriminator per latent slot, and returns
;   the sum itself; or runs them on the chunks of one batch, `for ids in
;   input_ids.split(n, dim=1)` or a `zip` of such splits: truncated
;   backpropagation through time; or on the frames of a time-major view of
;   one batch, `x = x.transpose(0, 1)` then `for i in range(len(x))`, or
;   on pairs of consecutive items of a list those frames filled, `for i in
;   range(len(feats) - 1)`),
;   read after the loop in the same call (returned as a
;   loss term, backpropagated, `.item()`); the same sum may live on
;   `self` when the statement right before the loop sets it to a number
;   (`self.info_loss = 0.0`, then a loss per code slice of InfoGAN's
;   logits). When that loop takes gradients itself
;   (`torch.autograd.grad` per domain), the function must step its optimizer
;   after the loop: one step per call. The loop may run forward passes (a
;   contrastive loss mined per image of the batch) when the function
;   returns the sum and every call of it in the file backpropagates the
;   result (`loss = mine_and_compute_loss(model, x, y); loss.backward()`;
;   a call under no_grad, the validation's, records nothing to keep):
;   the sum is the step's loss, as a full-batch step's; or, for a function
;   the file never calls, when a module importing it backpropagates what it
;   returns (`losses = self.loss_computer.compute(data)`, then
;   `losses["total_loss"].backward()`). Nor such a local sum whose every
;   added value was backpropagated earlier in its own iteration
;   (`loss.backward()`, then `batch_loss += loss`: the mini-batches of one
;   step), in a loop with no loader, no optimizer step and no call named for
;   a step. Nor a recurrence `x = x + f(x)`, whose value is computed by a
;   call that takes the accumulator itself (a residual or denoising
;   update): each step feeds the next, it is not a sum of batches. Nor
;   `acc += v` on a name last bound to a dict (`other_loss = {k: 0. for k
;   in widths}`): `dict += tensor` raises `TypeError` before any graph is
;   kept (the per-key sum `acc[k] += v` is reported).
;
;   ## Why is this bad?
;   A tensor that has autograd history points to the operations that made
;   it, and through them to every tensor those operations saved for the
;   backward pass. Adding such a tensor to a running sum makes the sum part
;   of the graph: after the first iteration `acc` is a tensor whose history
;   contains the loss of batch 1, after the second the losses of batches 1
;   and 2, and so on. Nothing of any earlier iteration can be freed while
;   `acc` is alive, so memory grows with every batch until the job runs out
;   of memory, typically after a few hundred or thousand steps, long after
;   the first epoch looked fine.
;
;   Logging needs the number, not its history. `.item()` turns a one-element
;   tensor into a Python float; `.detach()` keeps a tensor but cuts it from
;   the graph.
;
;   ## Example
;   ```python
;   total_loss = 0.0
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(images), labels)
;       loss.backward()
;       optimizer.step()
;       total_loss += loss
;   ```
;
;   ## Use instead
;   ```python
;   total_loss = 0.0
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(images), labels)
;       loss.backward()
;       optimizer.step()
;       total_loss += loss.item()
;   ```
;   `.item()` synchronizes with the GPU once per step. Where that matters,
;   accumulate `loss.detach()` in a tensor and call `.item()` once per epoch.
;
;   ## Fix safety
;   The fix appends `.item()` when the value is a scalar loss (a loss call's
;   result, `outputs.loss`, a `.mean()`/`.sum()` result, or a name
;   `.backward()` is called on), and `.detach()` otherwise, adding
;   parentheses around an expression that needs them. It is unsafe: code
;   that later differentiates through the sum (a loss assembled across
;   iterations on purpose) stops receiving gradients, and with `.item()` the
;   sum becomes a Python float instead of a tensor.
;
;   ## References
;   - [PyTorch FAQ: my model reports "cuda runtime error(2): out of memory"](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
;   - [torch.Tensor.item](https://pytorch.org/docs/stable/generated/torch.Tensor.item.html)
;   - [torch.Tensor.detach](https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html)
;   - [Autograd mechanics](https://pytorch.org/docs/stable/notes/autograd.html)

; acc += v (a list on the right is storage, reported by OOM102)
((augmented_assignment
  left: (_) @target
  operator: "+="
  right: (_) @value) @report
  (#not-match? @value "^\\[")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @target)
  (#oom-not-reset-after-backward? @report)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; acc = acc + v
((assignment
  left: (_) @target
  right: (binary_operator
    left: (_) @acc
    operator: "+"
    right: (_) @value)) @report
  (#eq? @acc @target)
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @target)
  (#oom-not-reset-after-backward? @report)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; acc = v + acc
((assignment
  left: (_) @target
  right: (binary_operator
    left: (_) @value
    operator: "+"
    right: (_) @acc)) @report
  (#eq? @acc @target)
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @target)
  (#oom-not-reset-after-backward? @report)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
