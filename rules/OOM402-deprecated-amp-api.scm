; code: OOM402
; name: deprecated-amp-api
; severity: warning
; message: `{api}` is a deprecated mixed-precision API; use `torch.amp` with an explicit device type
; fix: safe: Rewrite with the `torch.amp` equivalent and an explicit device type
; edit: replace @fn {root}.amp.{name}
; edit: prepend-arg @args "{dev}"
; edit: replace @kfn {root}.amp.{name}
; edit: append-arg @kargs device_type="{dev}"
; edit: replace @bare {root}.amp.{name}(device_type="{dev}")
; edit: replace @module torch.amp
; edit: amp-device-uses @import "{dev}"
; doc:
;   ## What it does
;   Finds the device-specific automatic mixed precision (AMP) entry points
;   that PyTorch 2.4 deprecated:
;
;   - calls of `torch.cuda.amp.autocast(...)`, `torch.cuda.amp.GradScaler(...)`,
;     `torch.cuda.amp.custom_fwd` / `custom_bwd` and anything under
;     `torch.cpu.amp`, however `torch` was imported;
;   - `from torch.cuda.amp import ...` and `from torch.cpu.amp import ...`
;     statements (the statement is reported once; the calls of the names it
;     imports are not reported again);
;   - NVIDIA apex's `amp.initialize(...)`, which the native AMP replaced.
;
;   `torch.amp.autocast`, `torch.autocast` and `torch.amp.GradScaler` are
;   the current spellings and are not reported, and neither is code in an
;   `except` clause, the usual fallback for older PyTorch versions
;   (`except ImportError: from torch.cuda.amp import autocast`). The rule
;   stays silent when the configured `torch-version` is older than 2.4.
;
;   ## Why is this bad?
;   The old names still work, but they emit a `FutureWarning` and are going
;   to be removed. One device-neutral API replaces them: the device is the
;   first argument (`torch.amp.autocast("cuda", ...)`,
;   `torch.amp.GradScaler("cuda", ...)`), so the same training code runs on
;   CUDA, CPU or other accelerators by changing one string.
;
;   Mixed precision is one of the cheapest ways to cut activation memory
;   roughly in half. Keeping it on the supported API means the saving does
;   not disappear the day the old names are removed, or when someone turns
;   AMP off to get rid of the warnings.
;
;   apex's `amp.initialize` patches the model and the optimizer in place,
;   keeps fp32 master copies of the weights next to half-precision ones at
;   `opt_level="O2"`, and is no longer developed. Native autocast keeps the
;   weights in fp32 and casts per operation, and `GradScaler` replaces
;   apex's loss scaling.
;
;   ## Example
;   ```python
;   scaler = torch.cuda.amp.GradScaler()
;   for images, labels in train_loader:
;       with torch.cuda.amp.autocast(dtype=torch.float16):
;           loss = criterion(model(images), labels)
;       scaler.scale(loss).backward()
;       scaler.step(optimizer)
;       scaler.update()
;   ```
;
;   ## Use instead
;   ```python
;   scaler = torch.amp.GradScaler("cuda")
;   for images, labels in train_loader:
;       with torch.amp.autocast("cuda", dtype=torch.float16):
;           loss = criterion(model(images), labels)
;       scaler.scale(loss).backward()
;       scaler.step(optimizer)
;       scaler.update()
;   ```
;   For custom autograd functions use
;   `@torch.amp.custom_fwd(device_type="cuda")` and
;   `@torch.amp.custom_bwd(device_type="cuda")`.
;
;   ## Fix safety
;   For `torch.cuda.amp.autocast(...)`, `torch.cuda.amp.GradScaler(...)`,
;   `torch.cpu.amp.autocast(...)` and `torch.cpu.amp.GradScaler(...)` written
;   with keyword arguments only, the fix rewrites the call to
;   `torch.amp.autocast("cuda", ...)` (or `"cpu"`, or `GradScaler`) and keeps
;   the arguments. It is safe: the old classes are thin wrappers that pass
;   exactly these arguments on, with the same defaults.
;
;   For `from torch.cuda.amp import autocast, GradScaler` (or
;   `torch.cpu.amp`, with or without `as` aliases) one fix changes the
;   import and every use of the names it imports together:
;
;   ```python
;   from torch.amp import autocast, GradScaler
;   scaler = GradScaler("cuda")
;   with autocast("cuda", dtype=torch.bfloat16):
;       ...
;   ```
;
;   `autocast(...)` and `GradScaler(...)` calls get the device as their
;   first argument; `custom_fwd` and `custom_bwd` (CUDA only) get
;   `device_type="cuda"`, which is what their `torch.cuda.amp` versions pass
;   to `torch.amp.custom_fwd`/`custom_bwd` (`@custom_fwd` becomes
;   `@custom_fwd(device_type="cuda")`, `@custom_fwd(cast_inputs=torch.float32)`
;   becomes `@custom_fwd(cast_inputs=torch.float32, device_type="cuda")`).
;   The import is left as a suggestion when any use is something else: a
;   name passed as a value (`ctx = autocast`), bound again (a parameter, an
;   assignment, another import), used in an annotation or `isinstance`, an
;   `autocast`/`GradScaler` call with positional or `*`/`**` arguments, a
;   `*` import, a submodule (`torch.cuda.amp.grad_scaler`), or an import in
;   a class body.
;
;   `@torch.cuda.amp.custom_fwd` and `@torch.cuda.amp.custom_bwd` become
;   `@torch.amp.custom_fwd(device_type="cuda")` (with their arguments kept,
;   `device_type=` added last), which is exactly what the old functions
;   call.
;
;   The other forms only get a suggestion: positional arguments are in a
;   different order in the new signature, `from torch.cuda import amp`
;   then `amp.autocast()` needs the module import changed too, and apex
;   `amp.initialize` has to be replaced by autocast and a `GradScaler` by
;   hand.
;
;   ## References
;   - [Automatic Mixed Precision package - torch.amp](https://pytorch.org/docs/stable/amp.html)
;   - [Automatic Mixed Precision examples](https://pytorch.org/docs/stable/notes/amp_examples.html)
;   - [Automatic Mixed Precision recipe](https://pytorch.org/tutorials/recipes/recipes/amp_recipe.html)

; torch.cuda.amp.autocast(...) / GradScaler(...), torch.cpu.amp.* written
; X.<dev>.amp.<name>(keywords only) with X resolving to torch: safe rewrite.
; Every pattern skips code in `except` clauses: that is the fallback for old
; PyTorch versions (`except ImportError: from torch.cuda.amp import ...`).
((call
  function: (attribute
    object: (attribute
      object: (attribute
        object: (_) @root
        attribute: (identifier) @dev)
      attribute: (identifier) @amp)
    attribute: (identifier) @name) @fn @api
  arguments: (argument_list) @args
  (#any-of? @dev "cuda" "cpu")
  (#eq? @amp "amp")
  (#any-of? @name "autocast" "GradScaler")
  (#oom-qualname? @root "torch")
  (#oom-keyword-args-only? @args)) @report
  (#oom-not-in-except? @report))

; torch.cuda.amp.custom_fwd(...) / custom_bwd(...), usually as a decorator
; factory (`@torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)`): the old
; functions are torch.amp's with `device_type="cuda"`, so that keyword is
; added.
((call
  function: (attribute
    object: (attribute
      object: (attribute
        object: (_) @root
        attribute: (identifier) @dev)
      attribute: (identifier) @amp)
    attribute: (identifier) @name) @kfn @api
  arguments: (argument_list) @kargs
  (#eq? @dev "cuda")
  (#eq? @amp "amp")
  (#any-of? @name "custom_fwd" "custom_bwd")
  (#oom-qualname? @root "torch")
  (#oom-not-has-arg? @kargs "device_type")) @report
  (#oom-not-in-except? @report))

; Every other call of a deprecated name through an attribute (positional
; arguments, `from torch.cuda import amp` then `amp.autocast()`, custom_fwd
; as a decorator factory). This pattern captures none of the edits' targets,
; so its fix is a suggestion only.
((call
  function: (attribute) @api
  (#oom-qualname? @api "torch\\.cuda\\.amp\\.(autocast|GradScaler|custom_fwd|custom_bwd)|torch\\.cpu\\.amp\\.\\w+")) @report
  (#oom-not-in-except? @report))

; @torch.cuda.amp.custom_fwd / @amp.custom_bwd used as bare decorators: the
; spelling with torch gets `(device_type="cuda")`, the next pattern reports
; the others.
(decorator
  (attribute
    object: (attribute
      object: (attribute
        object: (_) @root
        attribute: (identifier) @dev)
      attribute: (identifier) @amp)
    attribute: (identifier) @name) @api @report @bare
  (#eq? @dev "cuda")
  (#eq? @amp "amp")
  (#any-of? @name "custom_fwd" "custom_bwd")
  (#oom-qualname? @root "torch")
  (#oom-not-in-except? @report))

(decorator
  (attribute) @api @report
  (#oom-qualname? @api "torch\\.cuda\\.amp\\.custom_(fwd|bwd)")
  (#oom-not-in-except? @report))

; from torch.cuda.amp import autocast, GradScaler (or torch.cpu.amp): the
; fix moves the import to torch.amp and gives every use the device. It
; reports the same range as the next pattern, which stays the suggestion when
; the uses cannot all be rewritten.
((import_from_statement
  module_name: (dotted_name
    . (identifier) @mtorch
    . (identifier) @dev
    . (identifier) @mamp .) @api @module) @report @import
  (#eq? @mtorch "torch")
  (#any-of? @dev "cuda" "cpu")
  (#eq? @mamp "amp")
  (#oom-not-in-except? @report))

; from torch.cuda.amp import autocast, GradScaler (and torch.cpu.amp, and
; their submodules). Calls of the names imported here are not reported again.
((import_from_statement
  module_name: (dotted_name) @api
  (#match? @api "^torch\\.(cuda|cpu)\\.amp(\\.\\w+)*$")) @report
  (#oom-not-in-except? @report))

; NVIDIA apex: amp.initialize(model, optimizer, opt_level=...).
((call
  function: (_) @api
  (#oom-qualname? @api "apex\\.amp\\.initialize")) @report
  (#oom-not-in-except? @report))
