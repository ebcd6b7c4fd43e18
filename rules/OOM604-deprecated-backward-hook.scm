; code: OOM604
; name: deprecated-backward-hook
; severity: warning
; message: `register_backward_hook` is deprecated: its hook may see the gradients of the module's last operation instead of the module's own
; fix: safe: Rename to `register_full_backward_hook`
; edit: replace @report register_full_backward_hook
; doc:
;   ## What it does
;   Finds calls of the `.register_backward_hook(...)` method of
;   `nn.Module`. `register_full_backward_hook`, `register_full_backward_pre_hook`
;   and tensor hooks (`tensor.register_hook`) are not reported.
;
;   ## Why is this bad?
;   The old module backward hook is attached to the last autograd node that
;   the module's forward pass created, not to the module as a whole. For any
;   module that does more than one operation, `grad_input` holds the
;   gradients with respect to the inputs of that last operation, not of the
;   module, and its entries need not line up with the module's inputs.
;   PyTorch has deprecated the method and warns about it.
;
;   Hooks are a common way to log gradient norms or to look for the layer
;   whose gradients explode before a run diverges or runs out of memory;
;   with the old method those numbers can be quietly wrong.
;   `register_full_backward_hook` wraps the whole module and passes the
;   gradients of its real inputs and outputs, with the same hook signature
;   `hook(module, grad_input, grad_output)`.
;
;   ## Example
;   ```python
;   def log_grad_norm(module, grad_input, grad_output):
;       print(type(module).__name__, grad_output[0].norm().item())
;
;   for layer in model.encoder.layers:
;       layer.register_backward_hook(log_grad_norm)
;   ```
;
;   ## Use instead
;   ```python
;   def log_grad_norm(module, grad_input, grad_output):
;       print(type(module).__name__, grad_output[0].norm().item())
;
;   for layer in model.encoder.layers:
;       layer.register_full_backward_hook(log_grad_norm)
;   ```
;
;   ## Fix safety
;   The fix renames the method. It is safe: both methods take the same hook
;   function and return a removable handle. The hook now receives the
;   gradients the old one was documented to receive. One difference to know:
;   a module whose forward pass modifies its input in place cannot take a
;   full backward hook, and PyTorch raises an error at the first backward
;   pass.
;
;   ## References
;   - [torch.nn.Module.register_full_backward_hook](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook)
;   - [torch.nn.Module.register_backward_hook](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.register_backward_hook)
;   - [Autograd mechanics: backward hooks execution](https://pytorch.org/docs/stable/notes/autograd.html#backward-hooks-execution)
(call
  function: (attribute
    attribute: (identifier) @report)
  (#eq? @report "register_backward_hook"))
