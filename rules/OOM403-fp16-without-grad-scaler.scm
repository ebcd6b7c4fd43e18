; code: OOM403
; name: fp16-without-grad-scaler
; severity: warning
; message: `{fn}` does not match the file's loss scaling: float16 autocast in training needs a `GradScaler` on the backward path (small gradients underflow to zero), bfloat16 autocast needs none
; fix: display: Scale the loss with `torch.amp.GradScaler("cuda")` for float16 autocast; drop the scaler (or switch to float16) for bfloat16
; doc:
;   ## What it does
;   Finds two mismatches between the autocast dtype and loss scaling:
;
;   - float16 autocast in training without a `GradScaler`: a call of
;     `torch.autocast`, `torch.amp.autocast` or `torch.cuda.amp.autocast`
;     on CUDA with no dtype (float16 is CUDA's default) or with
;     `dtype=torch.float16`, in a loop that trains or a function that calls
;     `.backward()` (itself, or through helpers when something also steps
;     an optimizer: a profiler timing forward and backward trains nothing;
;     its own backward counts when the file steps an optimizer somewhere,
;     not in a unit test comparing gradients), in a file that never creates a `GradScaler` and never
;     calls `.scale(...)` (a scaler passed in from elsewhere counts);
;   - a `GradScaler` created in a file whose autocast regions all use
;     `dtype=torch.bfloat16`.
;
;   Not reported: bfloat16 autocast without a scaler, autocast used only for
;   inference (also an autocast inside `with torch.no_grad()` in a function
;   that trains: the prediction after test-time tuning steps, or entered
;   after it in the same statement, `with torch.no_grad(),
;   torch.cuda.amp.autocast():` for frozen text features), autocast with `enabled=False` (also through a name the
;   file binds only to `False`: `use_mp = False`, then
;   `autocast(enabled=use_mp)`), scalers created with an
;   `enabled=` switch, files using accelerate, DeepSpeed or apex (they
;   scale the loss themselves), files whose backward goes through a
;   wrapper that scales the loss (an AMP optimizer's
;   `optimizer.backward(loss)`, a class or function of the project that
;   uses a `GradScaler`, a scaler object handed in and called with the loss
;   and the optimizer, `scaler(loss, optimizer, model.parameters())`:
;   timm's NativeScaler or a project's wrapper of one), an autocast block that holds only a
;   `.backward()` call (the forward ran before it in float32, and the
;   backward keeps the forward's dtypes), autocast whose device or dtype is not
;   written out literally, and a probe's loop that runs the model only on
;   tensors it makes up (`torch.randn(...)`: an adaptive batch sizer trying
;   a forward and backward to see what fits, whose gradients nothing uses). Only code counts as a scaler: a comment, a
;   docstring or a message that mentions `GradScaler` does not.
;
;   ## Why is this bad?
;   float16 can represent magnitudes only down to about 6e-8. Many gradient
;   values of a real network are smaller; in float16 they become zero, so
;   layers stop learning or the loss turns into `nan` after a while, and the
;   run is wasted even though memory was saved. `GradScaler` multiplies the
;   loss by a large factor before `backward()` so the gradients stay in
;   range, and divides them again before the optimizer step, skipping steps
;   whose gradients overflowed.
;
;   bfloat16 has the exponent range of float32, so its gradients do not
;   underflow. A `GradScaler` with bfloat16 autocast only adds work to every
;   step (scaling, unscaling and an overflow check of every gradient), and
;   suggests the dtype is not what the author believes.
;
;   ## Example
;   ```python
;   for x, y in train_loader:
;       optimizer.zero_grad()
;       with torch.autocast("cuda"):
;           loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Use instead
;   ```python
;   scaler = torch.amp.GradScaler("cuda")
;   for x, y in train_loader:
;       optimizer.zero_grad()
;       with torch.autocast("cuda"):
;           loss = criterion(model(x), y)
;       scaler.scale(loss).backward()
;       scaler.step(optimizer)
;       scaler.update()
;   ```
;   or, on GPUs that support it, `torch.autocast("cuda", dtype=torch.bfloat16)`
;   with no scaler.
;
;   ## Fix safety
;   There is no automatic fix: adding a scaler changes three statements
;   around `backward()` and the optimizer step, and choosing bfloat16
;   instead depends on the hardware.
;
;   ## References
;   - [Automatic mixed precision package: torch.amp](https://pytorch.org/docs/stable/amp.html)
;   - [Gradient scaling](https://pytorch.org/docs/stable/amp.html#gradient-scaling)
;   - [CUDA automatic mixed precision examples](https://pytorch.org/docs/stable/notes/amp_examples.html)
;   - [Recipe: automatic mixed precision](https://pytorch.org/tutorials/recipes/recipes/amp_recipe.html)

; torch.autocast("cuda") / torch.amp.autocast(device_type="cuda") with the
; default dtype (float16), in a training loop
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "torch\\.(autocast|amp(\\.autocast_mode)?\\.autocast)")
  (#match? @args "^\\(\\s*[\"']cuda|device_type\\s*=\\s*[\"']cuda")
  (#oom-not-has-arg? @args "dtype" "1")
  (#not-match? @args "enabled\\s*=\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-in-training-loop? @report)
  (#oom-not-probe-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; ... in a function that calls backward
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "torch\\.(autocast|amp(\\.autocast_mode)?\\.autocast)")
  (#match? @args "^\\(\\s*[\"']cuda|device_type\\s*=\\s*[\"']cuda")
  (#oom-not-has-arg? @args "dtype" "1")
  (#not-match? @args "enabled\\s*=\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-function-updates? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; torch.cuda.amp.autocast() with the default dtype, in a training loop
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "torch\\.cuda\\.amp(\\.autocast_mode)?\\.autocast")
  (#oom-not-has-arg? @args "dtype" "1")
  (#not-match? @args "enabled\\s*=\\s*False|^\\(\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-in-training-loop? @report)
  (#oom-not-probe-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; ... in a function that calls backward
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "torch\\.cuda\\.amp(\\.autocast_mode)?\\.autocast")
  (#oom-not-has-arg? @args "dtype" "1")
  (#not-match? @args "enabled\\s*=\\s*False|^\\(\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-function-updates? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; any autocast with dtype=torch.float16 (not on a CPU-like device), in a
; training loop
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-arg? @args "dtype" "(\\w+\\.)?(float16|half)")
  (#oom-qualname? @fn "torch\\.(autocast|amp(\\.autocast_mode)?\\.autocast|cuda\\.amp(\\.autocast_mode)?\\.autocast)")
  (#not-match? @args "(?i)[\"'](cpu|mps|xla|xpu|hpu)|enabled\\s*=\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-in-training-loop? @report)
  (#oom-not-probe-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; ... in a function that calls backward
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-arg? @args "dtype" "(\\w+\\.)?(float16|half)")
  (#oom-qualname? @fn "torch\\.(autocast|amp(\\.autocast_mode)?\\.autocast|cuda\\.amp(\\.autocast_mode)?\\.autocast)")
  (#not-match? @args "(?i)[\"'](cpu|mps|xla|xpu|hpu)|enabled\\s*=\\s*False")
  (#oom-not-arg? @args "enabled" "False")
  (#oom-not-file-scales-loss?)
  (#oom-not-file-calls? ".*GradScaler")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:gradscaler|\\.scale\\(|scaler\\.step|accelerator|loss_scal|deepspeed|apex)")
  (#oom-function-updates? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-wraps-only-backward? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; a GradScaler in a file whose autocast regions all ask for bfloat16
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "torch\\.(amp|cuda\\.amp)(\\.grad_scaler)?\\.GradScaler")
  (#oom-not-has-arg? @args "enabled")
  (#oom-file-mentions? "autocast\\([^)]*bfloat16")
  (#oom-not-file-mentions? "(?<!b)float16|torch\\.half|fp16|autocast\\((?![^)]*dtype)")
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
