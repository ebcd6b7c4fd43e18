; code: OOM401
; name: no-mixed-precision
; severity: info
; message: This training loop on CUDA runs entirely in float32 (no autocast, AMP, bf16 or fp16 anywhere in the file): mixed precision could roughly halve its activation memory; consider `torch.autocast("cuda", dtype=torch.bfloat16)` around the forward pass
; fix: display: Run the forward pass and the loss under `torch.autocast("cuda", dtype=torch.bfloat16)`
; doc:
;   ## What it does
;   Finds training loops in scripts that run on CUDA and never use reduced
;   precision. It reports the first `.backward()` call of each loop that
;   runs once per batch (a loop with several backward passes, such as GAN
;   or actor-critic training, is reported once; backward calls in helper
;   functions outside the loop are not).
;
;   The rule is advice (`info`) and stays silent when the file's code
;   shows any sign of precision handling (comments, docstrings and message
;   strings do not count; a string passed as a value, such as
;   `precision="bf16-mixed"`, does): `autocast`, `torch.amp`, `GradScaler`,
;   `bf16`, `fp16`, `float16`, `bfloat16`, `.half()`, `torch.half`,
;   a `precision=` argument (Lightning), `mixed_precision` or an
;   `Accelerator` (accelerate), DeepSpeed, NVIDIA apex, or an `amp` flag.
;   Scripts that put nothing on a CUDA device (no `.cuda()`, no `"cuda"`
;   device string) are not reported.
;
;   Test modules (that import `pytest`, `unittest` or `hypothesis`, or
;   define a pytest class `Test...`) are not reported: a test is not a
;   training job.
;
;   ## Why is this bad?
;   In float32 every activation the forward pass saves for the backward pass
;   takes four bytes per element. Under `torch.autocast` the matrix
;   multiplications and convolutions run in bfloat16 or float16 and most
;   saved activations take two bytes, so the activation memory of a step,
;   often the largest part of the peak, drops by up to half, and the tensor
;   cores of recent GPUs run those operations several times faster. The
;   weights and the optimizer state stay in float32, so training behaves the
;   same in almost all models.
;
;   bfloat16 (Ampere GPUs and newer) has the range of float32 and needs no
;   loss scaling. float16 works on older GPUs too but needs a
;   `torch.amp.GradScaler` (see OOM403).
;
;   ## Example
;   ```python
;   model = Net().cuda()
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       loss = criterion(model(images.cuda()), labels.cuda())
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Use instead
;   ```python
;   model = Net().cuda()
;   for images, labels in train_loader:
;       optimizer.zero_grad()
;       with torch.autocast("cuda", dtype=torch.bfloat16):
;           loss = criterion(model(images.cuda()), labels.cuda())
;       loss.backward()
;       optimizer.step()
;   ```
;
;   ## Fix safety
;   There is no automatic fix: which statements belong inside the autocast
;   region, and whether the GPU supports bfloat16, are for the author to
;   decide. Keep `.backward()` and `optimizer.step()` outside the region.
;
;   ## References
;   - [Automatic mixed precision package: torch.amp](https://pytorch.org/docs/stable/amp.html)
;   - [torch.autocast](https://pytorch.org/docs/stable/amp.html#torch.autocast)
;   - [Recipe: automatic mixed precision](https://pytorch.org/tutorials/recipes/recipes/amp_recipe.html)
;   - [CUDA automatic mixed precision examples](https://pytorch.org/docs/stable/notes/amp_examples.html)
((call
  function: (attribute
    attribute: (identifier) @method)) @report
  (#eq? @method "backward")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-file-mentions? "\\.cuda\\(|[\"']cuda")
  (#oom-not-file-mentions? "(?:#[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|'''[\\s\\S]*?'''|(?<=help=)[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*')|(?<![=:])(?<![=:] )[rbfuRBFU]{0,2}(?:\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'))(*SKIP)(*F)|(?i:autocast|torch\\.amp|GradScaler|bf16|fp16|float16|\\.half\\(|torch\\.half|precision\\s*=|mixed_precision|Accelerator|deepspeed|apex|(?<![a-z])amp\\b)")
  (#oom-in-training-loop? @report)
  (#oom-first-backward? @report))
