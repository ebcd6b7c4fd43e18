; code: OOM103
; name: retain-graph-in-loop
; severity: warning
; message: `{report}` on the iteration's last backward pass keeps its graph and saved activations alive into the next iteration
; fix: unsafe: Remove `retain_graph=True`
; edit: remove-arg @report
; doc:
;   ## What it does
;   Finds `.backward(retain_graph=True)` inside a loop that runs once per
;   batch, when no backward pass (`.backward()`, `torch.autograd.backward`,
;   `torch.autograd.grad`) follows it in the same iteration. The loop must
;   build its own graph each time round (it calls the model, or iterates a
;   loader) or step an optimizer; a backward pass *before* it in the
;   iteration does not matter, as nothing reuses the retained graph after it.
;
;   ## Why is this bad?
;   A backward pass normally frees the tensors the forward pass saved for it
;   (activations, masks, intermediate results) as soon as it has used them.
;   `retain_graph=True` tells autograd to keep all of them, because another
;   backward pass through the same graph is coming. When none comes, the
;   activations of the finished step stay in memory until the last reference
;   to the graph is gone, which is usually the next forward pass: the peak
;   then holds two steps' worth of activations.
;
;   It is worse when something carries the graph into the next iteration, a
;   recurrent hidden state or a running sum that was not detached. Then every
;   iteration's graph stays reachable, memory grows with each batch and the
;   job dies after a few hundred steps. `retain_graph=True` is often added to
;   silence the error "Trying to backward through the graph a second time",
;   which is really a sign of that carried-over graph; detaching the carried
;   value is the fix, not retaining the graph.
;
;   A later backward pass over the same graph in the same iteration (a GAN
;   discriminator step and then the generator's on the same fakes, several
;   losses backpropagated one after another) does need it, and is not
;   reported; nor is a loop with no forward pass or optimizer step of its
;   own (one backward per task loss of a graph built before the loop), whose
;   next round backpropagates through the same graph again, nor a loop over
;   values stored earlier with `.append()` (a replay memory's transitions:
;   `for s, a, r in self.data:`), whose states may share the graph of an
;   encoder run before the loop, backpropagated again in every round.
;
;   ## Example
;   ```python
;   hidden = model.init_hidden(batch_size)
;   for inputs, targets in train_loader:
;       optimizer.zero_grad()
;       output, hidden = model(inputs, hidden)
;       loss = criterion(output, targets)
;       loss.backward(retain_graph=True)
;       optimizer.step()
;   ```
;
;   ## Use instead
;   ```python
;   hidden = model.init_hidden(batch_size)
;   for inputs, targets in train_loader:
;       optimizer.zero_grad()
;       hidden = hidden.detach()  # cut the graph at the batch boundary
;       output, hidden = model(inputs, hidden)
;       loss = criterion(output, targets)
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Fix safety
;   The fix removes the `retain_graph=True` argument. It is unsafe: if the
;   graph of an earlier iteration is still reachable (an undetached hidden
;   state, a value accumulated across batches), the next backward pass now
;   raises "Trying to backward through the graph a second time". Detach that
;   value at the start of each iteration, as above.
;
;   ## References
;   - [torch.Tensor.backward](https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
;   - [torch.autograd.backward](https://pytorch.org/docs/stable/generated/torch.autograd.backward.html)
;   - [Autograd mechanics: saved tensors](https://pytorch.org/docs/stable/notes/autograd.html#saved-tensors)
((call
  function: (attribute
    attribute: (identifier) @method)
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @keyword
      value: (true)) @report)
  (#eq? @method "backward")
  (#eq? @keyword "retain_graph")) @call
  (#oom-in-loop? @call)
  (#oom-retained-graph-unused? @call)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
