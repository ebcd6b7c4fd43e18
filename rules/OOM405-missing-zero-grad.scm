; code: OOM405
; name: missing-zero-grad
; severity: warning
; message: `{optimizer}` steps in a training loop that never calls `zero_grad()`: every batch's gradients are added to all earlier ones; call `{optimizer}.zero_grad()` once per step
; fix: display: Call `optimizer.zero_grad()` in the loop, before `backward()` or after `optimizer.step()`
; doc:
;   ## What it does
;   Finds optimizer steps (`optimizer.step()`, `opt.step()`,
;   `scaler.step(optimizer)`, ... on a name that looks like an optimizer) in
;   a loop that runs once per batch and trains, when neither that loop nor
;   any function of the file it calls ever calls `zero_grad()` (on the
;   optimizer or on the model).
;
;   Not reported: loops that never call `backward()` (`loss.backward()`,
;   `accelerator.backward(loss)`, ..., in their body or a helper of the same
;   file): with no backward pass nothing is added to the gradients (a test
;   that steps a scheduler, or sets `p.grad` by hand before each step); loops
;   that call `zero_grad` anywhere in their body
;   (including `zero_grad(set_to_none=True)`, calls in a helper of the
;   same file, Pyro's `zero_grads(params)` and normflows'
;   `clear_grad(model)`), files that clear gradients by hand (`p.grad = None`,
;   `p.grad.zero_()`), optimizer steps that take a closure (LBFGS),
;   learning-rate schedulers, and optimizers bound anew in the iteration
;   that steps them: a loop that builds a model and its optimizer per
;   iteration (a sweep over widths, a test of several optimizers) or one over
;   the optimizers a wrapper holds (`for opt in self.optimizers.values():
;   opt.step()`), whose `zero_grad` is a method of its own; and the
;   optimizer a loop picks by its own target in a function that zeroes
;   gradients (`for im, i1 in active: ...; optimizers[im].step()` after
;   `for optimizer in optimizers: optimizer.zero_grad()`: each steps
;   once per call); a loop that runs once (`range(1)`, or
;   `range(num_epochs)` with `num_epochs` bound only to `1`, or
;   `range(self.gradient_steps)` with every binding of the attribute `1`:
;   one backward on fresh gradients, the zero_grad of the loop around it
;   clearing them); a loop timed as a benchmark (its function calls
;   `torch.cuda.synchronize()` before and after it: a throughput test on a
;   constant batch, whose updates nobody uses). Another
;   framework's code: a file importing Paddle (whose `clear_grad()` is its
;   `zero_grad`), MXNet, Chainer, OneFlow, MindSpore, MegEngine or Jittor
;   and never `torch`, or a function importing one of them itself.
;
;   ## Why is this bad?
;   `backward()` does not overwrite `.grad`; it adds to it. Without
;   `zero_grad()` each step's gradient is the sum of the gradients of every
;   batch since the start, so the updates grow without bound and training
;   diverges. Gradient accumulation is the one deliberate use of this, and
;   it still clears the gradients after each optimizer step.
;
;   `zero_grad()` with its default `set_to_none=True` also frees the
;   gradient tensors between the step and the next backward pass, which
;   lowers the memory of the forward pass.
;
;   ## Example
;   ```python
;   optimizer.zero_grad()
;   for x, y in train_loader:
;       loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Use instead
;   ```python
;   for x, y in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Fix safety
;   There is no automatic fix: the call belongs either before the forward
;   pass or right after the optimizer step, and in an accumulation loop it
;   must sit inside the `if` that guards the step.
;
;   ## References
;   - [torch.optim.Optimizer.zero_grad](https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html)
;   - [torch.optim: taking an optimization step](https://pytorch.org/docs/stable/optim.html#taking-an-optimization-step)
;   - [Recipe: zeroing out gradients](https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html)

; optimizer.step()
((call
  function: (attribute
    object: (_) @optimizer
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#eq? @method "step")
  (#match? @optimizer "(?i)optim|^opt")
  (#not-match? @optimizer "(?i)sched")
  (#oom-not-has-arg? @args "closure" "0")
  (#oom-not-file-mentions? "\\.grad\\s*=\\s*None|\\.grad\\.(zero_|detach_)\\(")
  (#oom-in-training-loop? @report)
  (#oom-outlives-iteration? @optimizer)
  (#oom-loop-calls? @report "\\w*backward")
  (#oom-not-loop-calls? @report "zero_grads?|clear_grads?")
  (#oom-not-timed-loop? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; scaler.step(optimizer)
((call
  function: (attribute
    object: (_) @scaler
    attribute: (identifier) @method)
  arguments: (argument_list . (_) @optimizer)) @report
  (#eq? @method "step")
  (#match? @scaler "(?i)scaler")
  (#match? @optimizer "(?i)optim|^opt")
  (#not-match? @optimizer "(?i)sched")
  (#oom-not-file-mentions? "\\.grad\\s*=\\s*None|\\.grad\\.(zero_|detach_)\\(")
  (#oom-in-training-loop? @report)
  (#oom-outlives-iteration? @optimizer)
  (#oom-loop-calls? @report "\\w*backward")
  (#oom-not-loop-calls? @report "zero_grads?|clear_grads?")
  (#oom-not-timed-loop? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
