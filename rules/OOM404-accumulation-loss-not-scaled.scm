; code: OOM404
; name: accumulation-loss-not-scaled
; severity: warning
; message: `{loss}` is backpropagated undivided while the optimizer steps only every few batches: the accumulated gradients are the sum, not the mean, of the micro-batches; divide `{loss}` by the number of accumulation steps before `backward()`
; fix: unsafe: Divide the loss by the number of accumulation steps before backward()
; edit: divide-by-steps @loss
; doc:
;   ## What it does
;   Finds gradient accumulation loops, where `optimizer.step()` runs only
;   under an `if` that tests `%` (`if (step + 1) % accum_steps == 0:`), whose
;   `.backward()` receives the loss as it came out of the loss function: not
;   divided (`/`, `/=`, or multiplied by `1 / n`) anywhere on its way from
;   the loss to `backward()`, alone or with the other terms of a tuple or
;   list (`losses = tuple(l / accum for l in losses); losses[0].backward()`)
;   or of a tuple assignment (`loss, shown = loss.mean() / accum, loss.mean()`;
;   terms unpacked from a sequence each is divided over, `cls, reg =
;   tuple(map(lambda l: l / accum, model(x)))` or `[l / accum for l in
;   model(x)]`).
;   A sum started at a number is divided when each of its terms is (`loss =
;   0`, then `loss = loss + step_loss / accum` or `loss += ...` over the
;   rollout steps of one batch); one undivided term makes it undivided.
;   `scaler.scale(loss).backward()` is checked for `loss`.
;
;   Not reported: updates that run whole every few batches (`backward()`
;   and the optimizer step under the same `if step % k == 0:`, or under two
;   `if`s with the same test, `if i % batch == 0 or i == N:` around the
;   packed batch's backward and again around the step: either way each step
;   has one backward, and no micro-batches are summed), loops that zero the gradients in every iteration
;   before the backward (`optimizer.zero_grad()` at the top of the loop,
;   not under an `if` such as a NaN guard: nothing is accumulated, the
;   step only drops batches), a test whose count is 1 (`if step %
;   gradient_accumulation_steps == 0:` with the name bound only to `1`:
;   the optimizer steps every batch), losses divided anywhere in the iteration or in the
;   function of the file that returns them (`loss, acc = forward_pass(...)`
;   whose helper ends `loss = loss / accum_steps; return loss, acc`; for
;   `self.forward_propagation(batch)` of a base class whose method only
;   raises `NotImplementedError`, every override in the file's subclasses
;   divides), loops inside
;   `accelerator.accumulate(...)` or other `.accumulate(` contexts (which
;   scale the loss themselves), `accelerator.backward(loss)`,
;   DeepSpeed's `engine.backward(loss)`, ColossalAI's
;   `booster.backward(loss=..., optimizer=...)`, and files where a loss is
;   multiplied in place or by a factor (`loss *= w`, `loss = loss * w`),
;   which may be the scaling, and files that scale the gradients instead
;   (`p.grad /= n`, `p.grad.div_(n)`, torchtune's
;   `scale_grads_(params, 1 / num_tokens)` before the step).
;
;   ## Why is this bad?
;   Accumulating gradients over `k` micro-batches is meant to imitate one
;   batch `k` times larger. `backward()` adds each micro-batch's gradients
;   to `.grad`, so after `k` calls the gradients are the sum of `k` mean
;   losses: `k` times the gradient of the large batch. The optimizer then
;   takes steps `k` times too large for the learning rate that was tuned
;   for the mean, which makes training unstable or diverge, and changing
;   `k` to fit memory silently changes the effective learning rate.
;
;   ## Example
;   ```python
;   for step, (x, y) in enumerate(train_loader):
;       loss = criterion(model(x), y)
;       loss.backward()
;       if (step + 1) % accum_steps == 0:
;           optimizer.step()
;           optimizer.zero_grad()
;   ```
;
;   ## Use instead
;   ```python
;   for step, (x, y) in enumerate(train_loader):
;       loss = criterion(model(x), y) / accum_steps
;       loss.backward()
;       if (step + 1) % accum_steps == 0:
;           optimizer.step()
;           optimizer.zero_grad()
;   ```
;
;   ## Fix safety
;   The fix divides the loss where it is given to `backward()`, by the
;   number of steps read from the `%` test that guards `optimizer.step()`:
;
;   ```python
;   (loss / accum_steps).backward()         # was loss.backward()
;   scaler.scale(loss / accum_steps).backward()
;   ```
;
;   The loss itself keeps its value, so code that logs it after
;   `backward()` still logs the undivided loss. The divisor is copied only
;   when it is an integer, a name or an attribute chain (`args.accum_steps`)
;   that is not assigned inside the loop, and when every optimizer step of
;   the loop is guarded by a test with one `%`, `X % K == c` (or
;   `not X % K`), with the same K.
;   Otherwise (`% (n * 2)`, `% cfg["accum"]`, two `%` in the test, steps
;   under different tests) the fix is a suggestion only: the number of steps
;   then lives in an expression that may not mean the same at `backward()`.
;
;   The fix is unsafe because it changes training: the gradients become the
;   mean instead of the sum over the micro-batches, so a learning rate that
;   was tuned on the summed gradients (or gradient clipping thresholds) may
;   need tuning again, and a loss that was already scaled somewhere this
;   rule does not see (inside the loss function, by a factor passed in)
;   would be divided twice.
;
;   ## References
;   - [torch.Tensor.backward](https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
;   - [CUDA automatic mixed precision examples: gradient accumulation](https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-accumulation)
;   - [Autograd mechanics](https://pytorch.org/docs/stable/notes/autograd.html)

; loss.backward() (with no positional argument: `accelerator.backward(loss)`
; and `engine.backward(loss)` scale the loss themselves; nor a `loss=`
; keyword: ColossalAI's `booster.backward(loss=..., optimizer=...)`)
((call
  function: (attribute
    object: (_) @loss
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#eq? @method "backward")
  (#oom-not-has-arg? @args "gradient" "0")
  (#oom-not-has-arg? @args "loss")
  (#not-match? @loss "/|\\.scale\\(")
  (#oom-not-file-mentions? "\\.accumulate\\(|loss\\w*\\s*\\*=|loss\\w*\\s*=\\s*\\w*loss\\w*\\s*\\*|\\.grad\\s*(/=|\\*=)|\\.grad\\.(div_|mul_)\\(|scale_grads?_?\\(")
  (#oom-accumulates-gradients? @report)
  (#oom-not-divided? @loss)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; scaler.scale(loss).backward()
((call
  function: (attribute
    object: (call
      function: (attribute
        attribute: (identifier) @scale)
      arguments: (argument_list . (_) @loss .))
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#eq? @method "backward")
  (#eq? @scale "scale")
  (#oom-not-has-arg? @args "gradient" "0")
  (#not-match? @loss "/")
  (#oom-not-file-mentions? "\\.accumulate\\(|loss\\w*\\s*\\*=|loss\\w*\\s*=\\s*\\w*loss\\w*\\s*\\*|\\.grad\\s*(/=|\\*=)|\\.grad\\.(div_|mul_)\\(|scale_grads?_?\\(")
  (#oom-accumulates-gradients? @report)
  (#oom-not-divided? @loss)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
