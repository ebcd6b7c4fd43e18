; code: OOM102
; name: graph-stored
; severity: error
; message: `{container}` keeps `{value}`, which still carries its autograd graph, past the iteration: every stored graph stays alive; store its `.item()` (a scalar loss) or `.detach()` instead
; fix: unsafe: Detach the value (`.item()` for a scalar loss)
; edit: append-clean @clean
; doc:
;   ## What it does
;   Finds tensors with autograd history that a loop running once per batch
;   stores somewhere that outlives the iteration:
;
;   - `xs.append(v)`, `xs.extend([v])`, `xs += [v]`
;   - `d[k] = v` and `d[k].append(v)`
;   - `self.x = v`
;
;   The container must outlive the iteration: bound before the loop, a
;   parameter, a global, or an attribute of `self`. Storage outside the
;   batch loop counts too when it outlives the work of an epoch or a step:
;   a list bound before the epoch loop and appended to after the batch loop
;   (`train_losses.append(running_loss / n)`), the instance's own list after
;   a batch loop, and Lightning's `self.training_step_outputs.append(...)`
;   in `training_step` (Lightning runs the other steps without
;   gradients).
;
;   `v` carries a graph when it comes from a model call or a loss, when
;   `.backward()` is called on it or on one of its entries
;   (`output["loss"].backward()` after `output = module.training_step(b)`),
;   or when it is arithmetic, indexing or a graph-preserving method of such
;   a value. A container whose elements the loop backpropagates
;   (`losses[i - 1].backward()`) holds graphs whatever is stored in it, such
;   as the loss an LBFGS-style `optimizer.step(closure)` returns. `.cpu()` does not clean a
;   value: the copy on the CPU still has the graph of the GPU computation
;   behind it.
;
;   A model call is a call of an `nn.Module`, or of a class another module
;   of the project defines with `forward` but without deriving `nn.Module`,
;   unless its bases say it is no module: when every base is `object`,
;   `ABC` (or `metaclass=ABCMeta`), one of `typing`'s (`Generic[T]`,
;   `Protocol`) or a class of the project that is itself no module by this
;   rule, it is a plain class, such as a data transform (PyTorch
;   Geometric's `ToUndirected` over `BaseTransform(ABC)`), and what it
;   returns is not a model's output. A class with no base at all, or a base
;   oomlint cannot find (a library's), stays a model. An Ultralytics
;   predictor (`model = YOLO("yolov8n.pt")`) is no model: its call runs
;   predict under inference mode and returns Results, which hold no graph.
;   A frozen model's output on plain data holds none either (every
;   parameter `requires_grad = False`), also through an `nn.Sequential` of
;   its layers (`nn.Sequential(*list(vgg.children())[:29])` after `for p
;   in vgg.parameters(): p.requires_grad = False`).
;
;   A call is taken to pass a graph on when what it returns was
;   backpropagated (a model or loss oomlint cannot read), but only along the
;   paths that reach that backward pass: a helper that converts the loss
;   after it (`self.total_loss = self.tensor_to_scalar(self.total_loss)`
;   after `self.total_loss.backward()`, in a loop that binds the loss anew
;   before its next backward) is not on that path, and what it returns is
;   no graph.
;
;   Not reported: a queue that the same loop drains into backward passes,
;   popped by a function of the file that backpropagates what it pops (a
;   pipeline schedule's `in_flight.append(forward(mb))`, then
;   `backward_oldest()` running `in_flight.popleft().backward()`); a value written into a NumPy array (`track_loss[i, 0] =
;   loss_targ` after `track_loss = np.zeros(...)`, or `self.losses[epoch] =
;   loss` when every binding of `self.losses` in the class makes one),
;   which converts it to a number; what a module's `load_state_dict(...)`
;   (the report of missing keys) or `state_dict()` (its weights) returns;
;   indices and tests, which carry no graph (`.argmax(1)`,
;   `torch.argmax(pred, dim=1)`, `torch.eq(a, b)`, `argsort`); an entry under a literal key (`loss_dict["d_real"] =
;   real_pred.mean()` in every iteration), which holds only the last
;   iteration's value, as a plain name would, and likewise a slot of a
;   `for i in range(...)` loop inside the batch loop (`loss_melsp[i] =
;   loss_melsp_.mean()` per half-cycle, `xs[i // 2] = v`, into a list made
;   before the loop) when that loop iterates no loader and runs no backward
;   or step and its range does not move with an enclosing loop's variable
;   (`xs[i] += v` sums, and is reported); a loss computed from detached
;   copies (`criterion(pred.detach().cpu(), y.detach().cpu())`); the terms
;   of one loss collected in a local list of a loss function, or of a loss
;   class's `__call__`/`forward`, by a loop with no loader, backward or
;   step of its own (a detection loss over its output layers), or whose
;   every backward detaches the value before it is stored (a cached
;   loss's mini-batches: `if with_backward: loss.backward(); loss =
;   loss.detach()`); a loss called on the model itself (`loss_fn(model)`:
;   a loss module being built); the
;   entry under a string key of a call of a function of the file whose
;   every return is a dict literal holding there a value that ends in
;   `.numpy()`, `.item()`, `.tolist()` or `.detach()` (or a name bound
;   only to such literals, `results = {"loss": loss.item(), ...}; return
;   results`, or a call of such a function:
;   `self._compute_grad(batch)["grads"]`); the
;   `"loss"` of a function (of the file or the project) that returns only
;   dicts whose `"loss"` is detached (`learner.learn_batch(batch)["loss"]`
;   of a step ending `return {"prediction": pred, "loss": loss.detach()}`);
;   the entry under a string key of what a module, a function or a method
;   (of the file or of another module of the project) returns when its
;   every return is a dict whose entry there carries no graph on any path,
;   and the whole dict when none of its entries does (an accuracy
;   estimator deriving `nn.Module` whose forward returns `dict(acc=
;   torch.eq(p, y).sum().tolist(), kl=kl.item(), domains=domains)`: `aux =
;   acc_estimator(out, y)` then `accs.append(aux["acc"])` or
;   `auxs.append(aux)`); the dict may be built as a literal, with
;   `dict(...)`, in a name that later `out["key"] = value` lines fill, or by
;   a method of the class it returns; a parameter annotated as plain data
;   (`domains: List[str]`) holds no tensor;
;   an episode's buffer on an object (`critic_net.saved_values.append(v)`)
;   that a function of the file empties (`del critic_net.saved_values[:]`,
;   `.clear()`) where it runs a backward pass; a list backpropagated after
;   the loop through a name bound from it (`value_loss =
;   torch.stack(value_losses).sum(); value_loss.backward()`), also through
;   sums (`z_batch = torch.cat(z_chunks)`, then per sample `total_loss +=
;   loss`, `mean_loss = total_loss / n` and `mean_loss.backward()`: one
;   batch's forward run in chunks); the log-probabilities of one episode
;   that a loop stepping an environment (`env.step(action)`, with no
;   loader, backward or optimizer step of its own) collects and its
;   function returns (`return log_probs, rewards`) for the caller's
;   policy-gradient update; an agent's `self.log_probs.append(lp)` when a
;   method of its class, called later in the same loop or one around it,
;   backpropagates and sets `self.log_probs = []` (`self.update_policy()`
;   after each episode);
;   a value
;   whose name the loss reads only through a later binding (`reward` from
;   `env.step()` stored while collecting, `reward = reward_pool[i]` rebound
;   in the update loop right before the loss); values stored after `.detach()`, `.item()`, `.tolist()`,
;   `.cpu().numpy()` or `.data`, what a function of the file returns when
;   called with `False` for the parameter its body hands to
;   `torch.set_grad_enabled` (`val_loss, n = run_batch(model, x, y, None,
;   train=False)` of PPRGo), values computed under `torch.no_grad()` or
;   `torch.inference_mode()` (here, or in every caller: of the file, of the
;   scripts importing it, of a base class's methods calling it on `self`,
;   as OOM201 reads them), a loss of a prediction made under no_grad
;   (`pred, _ = model(x)` in a `with torch.no_grad():` block, then
;   `lm_loss = seq_loss(pred.view(-1, v), y)`), containers created inside the iteration,
;   or inside the batch loop around a loop over one batch's items
;   (`job_reps = torch.zeros(b, 1, h)` per batch, then `job_reps[i] =
;   rnn(seq)` per profile; the batch loop may iterate the progress bar of
;   a loader, `with tqdm(loader) as pbar: for batch in pbar:`),
;   stores under `if step == 0:` of an enclosing loop's `step` (buffers
;   filled once, then updated in place), lists the function
;   backpropagates through after the loop (`losses.append(l)` then
;   `torch.stack(losses).sum().backward()`: the graphs are kept on
;   purpose; also through names bound one from another, `baseline =
;   torch.cat(baselines)` then `critic_loss = F.mse_loss(baseline, r)`,
;   and `torch.autograd.backward([critic_loss] + losses)`, or returned
;   by Lightning's `training_step`, which backpropagates what it returns:
;   `loss = sum(losses) / len(losses); return loss` over the noisy copies
;   of one batch) or
;   differentiates after the loop (`torch.autograd.grad(torch.cat(lls)
;   .mean(), model.parameters())`, an EWC Fisher estimate), `self.x = v`
;   that each iteration first sets to a number or None in the loop's own
;   body (`self.loss = 0.0`, then `self.loss = self.elbo(...)` of an
;   Avalanche strategy: one iteration's graph at a time, even retained),
;   `self.x = v`
;   that the loop only ever stores and never reads (`self.output =
;   output` of the best validation epoch: one value at a time; not when
;   the loop retains graphs with `retain_graph`), `self.x = v` that the iteration does not read before and
;   backpropagates through afterwards without `retain_graph`, directly or
;   through names bound from it that are not `.detach()`ed (`loss =
;   -self.conv_output.mean(); loss.backward()`; a GAN's `self.x_tilde =
;   G(z)`, `fx_tilde = D(self.x_tilde)`, `loss_g = mse(fx_tilde, y)`:
;   one step's tensor, its graph freed), and
;   a list of losses backpropagated in the loop through a name bound
;   from it and made anew after that backward (`loss_q =
;   torch.stack(loss_all).sum(0); loss_q.backward(); loss_all = []`: a
;   few tasks' graphs kept on purpose to be backpropagated together);
;   the `append` of an object of a library class that is no container
;   (MONAI's `CumulativeAverage()`, which keeps a detached copy; a meter
;   class of the file is read as a list);
;   nor a number a helper returns beside its loss (`_, auc = get_loss(out,
;   y)` where `get_loss` returns `loss, roc_auc_score(...)`, or the loss
;   alone when asked: a scalar loss cannot be unpacked, so that return says
;   nothing about the tuple's elements; names unpacked from a module of
;   unknown class beside the one that is backpropagated, directly or
;   through a name computed from it (`loss, interaction =
;   self.game(*batch)`; `out, cache, aux = model(x, cache)` with
;   `loss = nll(out, y) + aux.sum()` and `(loss / k).backward()`: the
;   cache), unless they have evidence of their own (`total = loss + 0.1 *
;   aux; total.backward()`); and when a function returns tuples
;   of two lengths, `loss, metrics` or `loss, logits, metrics`, names
;   unpacked from it carry what the tuples of their number carry).
;   Nor a module stored (`out[k] = mlp(in_dim, dims, out_dim)` calling the
;   file's builder of a module, even where its own local shares its name).
;   Nor storage that belongs to one step or one call rather than to the
;   epoch: a local list of a model's `forward` (micro-batches concatenated
;   before it returns), or of a model's method looping over a list it
;   built itself (flair's chunks of one text: `batches = []` then `for
;   batch in batches:` is no loader, whatever its name); the items of a
;   tensor handed to the function (`for meta_batch in x:` with `x:
;   torch.Tensor`, a meta-batch's tasks) gathered in a local list; the outputs of the time steps of one sequence, in a
;   loop with no loader, backward or optimizer step of its own that calls
;   a model and feeds a call's output back into that call (`out, h =
;   decoder(x, h)`, a generator taken from a dict, `x, h = gen(x, f, h)`,
;   or the instance's state, `q, self.hidden = self.rnn(x, self.hidden)`,
;   whose own store on `self` is then not reported either:
;   every step's graph is alive through `h` anyway), or that hands the
;   list itself back to the model (`{"hist_embeds": hist_embeds}` as the
;   next step's `**inputs`: an episode's history), or an item of it
;   (`model(states[step])`, the state the previous step appended); values read after the
;   loop into a loss left on `self` that a method of the file or a base
;   class of the project backpropagates (an actor-critic rollout's states
;   and log-probabilities, `self.loss += rl_loss`, then
;   `self.loss.backward()` in `train()`); losses kept for a later loop of the
;   same function that backpropagates them; one entry per model in a loop
;   over models (`for net in nets: net(x)`) whose list is made anew in each
;   round of an enclosing loop; the views of one input gathered in a local
;   list (`for scale in img_scalings: maps.append(model(resize(img,
;   scale)))`, or `for i in range(scale)`: a loop with no loader,
;   backward or step over scales, sizes, crops, flips or augmentations),
;   or repeated draws on one input (every model call of the loop takes
;   only names the loop never binds, or binds to a random draw: `u =
;   dist.sample()` with no argument, `.rsample()`, `torch.randn(...)`,
;   or the same rows reordered, `x_j = x_i[torch.randperm(n)]`;
;   `for _ in range(rollout_num): rewards.append(dis(samples))`, the
;   list made anew in each round of an enclosing loop); the steps of an unrolled inner loop
;   that takes gradients with `create_graph=True` and calls no `.backward()`
;   of its own (MAML's fast weights: every step's graph is alive through
;   them until the meta-backward anyway); the parts of one result: a loop
;   over the indices of one input (`range(x.shape[2])`, `range(n)` with `n
;   = x.size(0)`, `list(range(a, b))`, or a range whose variable takes a
;   later axis, `batch["s"][:, t]`, in the loop or in a helper of the file
;   it is handed to: the time steps of one batch; or the last items of one
;   sequence, `for h in history[-self.context:]`; no loader, backward or
;   step) into a local list that the statements right after the loop join
;   (`torch.cat`, `torch.stack`, `pad_sequence`, or a function of the file
;   handed the list that stacks or concatenates, `return
;   _stack_outputs(outs)`; one list each, after at most a few statements
;   that only add to the list or bind a local) into the tensor the call
;   goes on with,
;   outside test modules (whose helpers keep each step only to compare it);
;   and the outputs of the pieces of one batch (a loop with no loader,
;   backward or step over `x.split(n, dim=1)`, or, along the first axis,
;   over the batch the function put together itself: MixMatch's
;   `list(torch.split(mixup(torch.cat([x, u1, u2])), n))`; or over the
;   frames of a time-major view of one batch, `x = x.transpose(0, 1)` then
;   `for i in range(len(x))`) into a local list; and the time steps of one
;   training step: a loop with no loader, backward or step of its own that
;   takes a later axis of one batch (`frames[:, t]`) into a local list of
;   a function that runs a backward pass after the loop (the per-step
;   outputs its loss is made of, even when the list is also returned for
;   logging); and the parts of the one batch a framework hands a step hook
;   (a loop with no loader, backward or step of its own in the
;   `training_step` of a class with bases, over the sub-batches of each
;   source domain, `for u, y, d in zip(inputs, labels, domains)`); and
;   the outputs of a loop over `range(...)` whose model calls take the same
;   input every time and the count itself to pick a head (`for k in
;   range(n_domains): p.append(self.E(k, f))`, the experts of one
;   prediction). Nor a
;   list or dict that the same iteration empties again
;   after storing into it (`if step % k == 0: outs = []`, a window the loop
;   flushes itself), nor a module built by calling a network class with a
;   class count (`teachers[i] = self.model(self.num_classes)`). A starred
;   unpacking takes each target's element of the returned tuple
;   (`rec_loss, *_, losses_info = step(batch)`: the last one, a dict of
;   floats).
;   Running sums (`acc += v`) are OOM101.
;
;   ## Why is this bad?
;   A tensor with autograd history keeps alive the operations that produced
;   it and every tensor they saved for the backward pass: for a model's
;   output that is all the activations of the forward pass. Storing it in a
;   list that grows by one entry per batch keeps the activations of every
;   batch: an evaluation loop that collects `model(x)` for a few hundred
;   batches holds a few hundred forward passes' worth of activations and
;   runs out of memory, although each batch alone fits easily. Even after
;   `.backward()` has freed the saved tensors, the graph's nodes and the
;   stored outputs stay reachable and grow with every step.
;
;   ## Example
;   ```python
;   predictions, losses = [], []
;   for x, y in val_loader:
;       logits = model(x)
;       losses.append(criterion(logits, y))
;       predictions.append(logits.cpu())
;   ```
;
;   ## Use instead
;   ```python
;   predictions, losses = [], []
;   with torch.no_grad():
;       for x, y in val_loader:
;           logits = model(x)
;           losses.append(criterion(logits, y).item())
;           predictions.append(logits.cpu())
;   ```
;   Outside an evaluation loop, store `loss.item()` or `logits.detach()`.
;
;   ## Fix safety
;   The fix appends `.item()` when the value is a scalar loss (a loss call's
;   result, `outputs.loss`, a `.mean()`/`.sum()` result, or a name
;   `.backward()` is called on), and `.detach()` otherwise, adding
;   parentheses around an expression that needs them. It is unsafe: code
;   that later backpropagates through the stored values (a loss summed over
;   several iterations on purpose) stops receiving gradients, and `.item()`
;   stores Python floats instead of tensors.
;
;   ## References
;   - [PyTorch FAQ: my model reports "cuda runtime error(2): out of memory"](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
;   - [torch.Tensor.detach](https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html)
;   - [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
;   - [Autograd mechanics: locally disabling gradient computation](https://pytorch.org/docs/stable/notes/autograd.html#locally-disabling-gradient-computation)

; xs.append(v), d[k].append(v), self.xs.append(v)
((call
  function: (attribute
    object: (_) @container
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (_) @value @clean
    .)) @report
  (#eq? @method "append")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; xs.append((v, ...)), xs.append([v, ...]), xs.extend([v, ...]),
; xs.extend((v, ...)) and xs.append({"k": v}): each stored element is
; reported, so that its fix detaches the element, not the container
((call
  function: (attribute
    object: (_) @container
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (_
      (_) @value @clean @report) @stored
    .))
  (#any-of? @method "append" "extend")
  (#oom-kind? @stored "tuple|list")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

((call
  function: (attribute
    object: (_) @container
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (dictionary
      (pair
        value: (_) @value @clean @report))
    .))
  (#eq? @method "append")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; xs += [v, ...] and xs += (v, ...): each stored element is reported
((augmented_assignment
  left: (_) @container
  operator: "+="
  right: (_
    (_) @value @clean @report) @stored)
  (#oom-kind? @stored "tuple|list")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; d[k] = v (arithmetic on the right, `d[k] = d[k] + v`, is OOM101's running
; sum); a literal key (`loss_dict["d"] = d_loss`) is one entry, replaced the
; next time round: it keeps the last iteration's value, as a plain name does
((assignment
  left: (subscript
    value: (_) @container
    subscript: (_) @key)
  right: [(identifier) (call) (attribute) (subscript)] @value @clean) @report
  (#not-match? @key "^([\"']|-?[0-9]+$)")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#not-oom-numpy-array? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; self.x = v
((assignment
  left: (attribute
    object: (identifier) @self) @container
  right: [(identifier) (call) (attribute) (subscript)] @value @clean) @report
  (#eq? @self "self")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; d[k] = v into a container whose elements the loop backpropagates
; (`losses[i - 1].backward()` the next time round), the value unknown: the
; result of an LBFGS-style `optimizer.step(closure)`; also unpacked,
; `losses[i], cost = optimizer.step(closure)`. No fix: the stored element is
; not an expression of its own.
((assignment
  left: (subscript
    value: (_) @container)
  right: (_) @value) @report
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#not-oom-numpy-array? @container)
  (#oom-elements-backpropagated? @container)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

((assignment
  left: (pattern_list
    (subscript
      value: (_) @container) @report)
  right: (_) @value)
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-iteration? @container)
  (#not-oom-step-storage? @container)
  (#not-oom-numpy-array? @container)
  (#oom-elements-backpropagated? @container)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; after the batch loop: `train_losses.append(running_loss / n)` in the epoch
; loop, `self.train_losses.append(...)` after it, and Lightning's
; `self.training_step_outputs.append(...)` in a step
((call
  function: (attribute
    object: (_) @container
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (_) @value @clean
    .)) @report
  (#eq? @method "append")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-epoch? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

((call
  function: (attribute
    object: (_) @container
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (dictionary
      (pair
        value: (_) @value @clean @report))
    .))
  (#eq? @method "append")
  (#oom-kind? @value "identifier|call|attribute|subscript|binary_operator|unary_operator|parenthesized_expression|conditional_expression")
  (#oom-not-in-no-grad? @report)
  (#oom-outlives-epoch? @container)
  (#oom-graph? @value)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
