; code: OOM501
; name: empty-cache-in-loop
; severity: warning
; message: `{fn}()` runs every batch: it frees no live tensor, only forces synchronizing frees and re-allocations
; fix: unsafe: Remove the call
; edit: remove-statement @report
; doc:
;   ## What it does
;   Finds `torch.cuda.empty_cache()` called on every iteration of a loop that
;   runs once per batch. Calls once per epoch (after the batch loop), calls
;   guarded by a periodic test such as `if step % 500 == 0:`, and calls in an
;   `except` clause that recovers from an out-of-memory error are not
;   reported.
;
;   ## Why is this bad?
;   PyTorch's CUDA caching allocator keeps the memory of freed tensors
;   reserved so that the next allocation of the same size is instant.
;   `empty_cache()` hands that reserved but unused memory back to the driver.
;   It cannot free anything a live tensor still uses, so it does not lower
;   the peak of the next step and does not prevent an out-of-memory error
;   caused by tensors that are kept alive (see OOM101, OOM102).
;
;   What it does cost, every batch: a device synchronization, the release of
;   the cached blocks, and `cudaMalloc` calls to get the same memory back in
;   the next forward pass. Training becomes slower, and other processes on
;   the GPU see memory that is about to be taken again.
;
;   If the job fails with "reserved but unallocated" memory far above the
;   allocated memory, the cause is fragmentation; setting
;   `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` in the environment
;   addresses it without a per-step cost.
;
;   ## Example
;   ```python
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(images.cuda()), labels.cuda())
;       loss.backward()
;       optimizer.step()
;       torch.cuda.empty_cache()
;   ```
;
;   ## Use instead
;   ```python
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(images.cuda()), labels.cuda())
;       loss.backward()
;       optimizer.step()
;   ```
;   and, against fragmentation, launch with
;   `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python train.py`.
;
;   ## Fix safety
;   The fix removes the statement (a block left empty gets `pass`). It is
;   unsafe: when other processes share the GPU, or the loop switches between
;   very different tensor sizes, the call may have been there on purpose. It
;   never changes the values your program computes.
;
;   ## References
;   - [torch.cuda.empty_cache](https://pytorch.org/docs/stable/generated/torch.cuda.empty_cache.html)
;   - [CUDA semantics: memory management](https://pytorch.org/docs/stable/notes/cuda.html#memory-management)
;   - [CUDA semantics: optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF](https://pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)
(expression_statement
  (call
    function: (_) @fn) @report
  (#oom-qualname? @fn "torch\\.cuda(\\.memory)?\\.empty_cache")
  (#oom-every-iteration? @report)
  (#oom-not-in-except? @report))
