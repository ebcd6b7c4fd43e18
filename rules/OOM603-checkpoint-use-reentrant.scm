; code: OOM603
; name: checkpoint-use-reentrant
; severity: warning
; message: `{fn}` without `use_reentrant=`: the deprecated reentrant default saves no memory when the inputs do not require grad
; fix: safe: Add `use_reentrant=False`
; edit: append-arg @args use_reentrant=False
; doc:
;   ## What it does
;   Finds activation checkpointing calls, `torch.utils.checkpoint.checkpoint(...)`
;   and `torch.utils.checkpoint.checkpoint_sequential(...)`, that do not pass
;   `use_reentrant=` (and have no `**kwargs` that could pass it), also
;   through an alias: `ckpt = checkpoint`, or an attribute that holds the
;   function (`self.ckpt_fn = checkpoint`, then `self.ckpt_fn(block, x)`;
;   not one that holds checkpoint or a plain call, `checkpoint if on else
;   lambda f, x: f(x)`, whose plain branch the fix would break).
;
;   ## Why is this bad?
;   Activation checkpointing trades compute for memory: the wrapped segment
;   keeps only its inputs during the forward pass and runs again during the
;   backward pass to rebuild what it needs. It has two implementations, and
;   `use_reentrant` picks one:
;
;   - The reentrant variant (the historical default) builds a backward path
;     only when at least one tensor input requires grad. The first block of a
;     network usually receives the raw batch, which does not: that block's
;     output then carries no gradient, its parameters stop learning without
;     an error, and the usual repairs (making the input require grad, or not
;     checkpointing that block) cost memory again. It also rejects keyword
;     arguments to the checkpointed function and `torch.autograd.grad`.
;   - The non-reentrant variant (`use_reentrant=False`) handles all of these
;     cases, supports nesting, and is the one PyTorch recommends.
;
;   Current PyTorch releases warn when the argument is left out and have
;   announced that the default will change. Writing it down keeps the
;   behaviour, and the memory saving, from depending on the installed
;   version.
;
;   ## Example
;   ```python
;   from torch.utils.checkpoint import checkpoint
;
;   def forward(self, x):
;       for block in self.blocks:
;           x = checkpoint(block, x)
;       return x
;   ```
;
;   ## Use instead
;   ```python
;   from torch.utils.checkpoint import checkpoint
;
;   def forward(self, x):
;       for block in self.blocks:
;           x = checkpoint(block, x, use_reentrant=False)
;       return x
;   ```
;
;   ## Fix safety
;   The fix adds `use_reentrant=False` as the last argument. It is marked
;   safe: both variants compute the same values and gradients wherever the
;   reentrant one works at all, and `False` is the setting PyTorch
;   recommends. Code that relies on a reentrant-only detail (hooks that
;   observe the inner backward pass running as a separate graph) should pass
;   `use_reentrant=True` explicitly instead.
;
;   ## References
;   - [torch.utils.checkpoint](https://pytorch.org/docs/stable/checkpoint.html)
;   - [torch.utils.checkpoint.checkpoint](https://pytorch.org/docs/stable/checkpoint.html#torch.utils.checkpoint.checkpoint)
;   - [torch.utils.checkpoint.checkpoint_sequential](https://pytorch.org/docs/stable/checkpoint.html#torch.utils.checkpoint.checkpoint_sequential)
(call
  function: (_) @fn
  arguments: (argument_list) @args
  (#oom-qualname? @fn "torch\\.utils\\.checkpoint\\.(checkpoint|checkpoint_sequential)")
  (#oom-not-has-arg? @args "use_reentrant")) @report
