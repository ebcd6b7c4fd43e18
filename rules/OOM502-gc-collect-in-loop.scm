; code: OOM502
; name: gc-collect-in-loop
; severity: info
; message: `{fn}()` runs every batch: a full collection per step is slow and frees no tensor that is still referenced
; fix: unsafe: Remove the call
; edit: remove-statement @report
; doc:
;   ## What it does
;   Finds `gc.collect()` called on every iteration of a loop that runs once
;   per batch. Calls once per epoch (after the batch loop), calls guarded by
;   a periodic test such as `if step % 1000 == 0:`, and calls in an `except`
;   clause are not reported.
;
;   ## Why is this bad?
;   CPython frees most objects, tensors included, the moment their last
;   reference goes away. `gc.collect()` only adds something when objects
;   refer to each other in a cycle; it walks every tracked object in the
;   process to find them. In a training script that holds a model, a dataset
;   and many Python objects, one full collection can take milliseconds to tens
;   of milliseconds; once per batch it adds up to a noticeable part of the
;   step time.
;
;   It is usually added because memory keeps growing. If the growth comes
;   from tensors that are still referenced (a loss accumulated with its
;   graph, outputs appended to a list; see OOM101 and OOM102), collecting
;   cannot free them. Find the reference instead. If the growth truly comes
;   from reference cycles, collecting every few hundred steps or once per
;   epoch frees the same memory at a fraction of the cost.
;
;   ## Example
;   ```python
;   for step, (x, y) in enumerate(train_loader):
;       loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;       optimizer.zero_grad()
;       gc.collect()
;   ```
;
;   ## Use instead
;   ```python
;   for step, (x, y) in enumerate(train_loader):
;       loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;       optimizer.zero_grad()
;       if step % 500 == 0:
;           gc.collect()
;   ```
;
;   ## Fix safety
;   The fix removes the statement (a block left empty gets `pass`). It is
;   unsafe: a program that creates many reference cycles per step may rely
;   on the collection to keep memory flat; move the call under a periodic
;   test or after the batch loop instead of dropping it in that case.
;
;   ## References
;   - [CUDA semantics: memory management](https://pytorch.org/docs/stable/notes/cuda.html#memory-management)
;   - [PyTorch FAQ: frequently asked questions about memory](https://pytorch.org/docs/stable/notes/faq.html)
;   - [gc — Garbage Collector interface](https://docs.python.org/3/library/gc.html)
(expression_statement
  (call
    function: (_) @fn) @report
  (#oom-qualname? @fn "gc\\.collect")
  (#oom-every-iteration? @report)
  (#oom-not-in-except? @report))
