; code: OOM702
; name: lightning-full-precision
; severity: info
; message: This Lightning `Trainer` trains on GPU in full 32-bit precision
; fix: display: Pass precision="bf16-mixed" (or "16-mixed" on GPUs without bf16)
; doc:
;   ## What it does
;   Reports a PyTorch Lightning `Trainer(...)` (`lightning.Trainer`,
;   `lightning.pytorch.Trainer`, `pytorch_lightning.Trainer`, through any
;   import alias) that runs on GPU (`accelerator="gpu"` or `"cuda"`, or the
;   older `gpus=N`) either without `precision=` (the default is full 32-bit
;   precision) or with `precision=32`, `"32"` or `"32-true"`.
;
;   `precision="bf16-mixed"`, `"16-mixed"` and the like are left alone, as
;   are trainers whose arguments come through `**kwargs`, and CPU trainers.
;   It is a hint, hence `info`: some models need full precision.
;
;   Test modules (that import `pytest`, `unittest` or `hypothesis`, or
;   define a pytest class `Test...`) are not reported: a test is not a
;   training job.
;
;   ## Why is this bad?
;   In 32-bit precision every activation saved for the backward pass takes
;   4 bytes. Mixed precision runs the forward pass in 16-bit floats and halves
;   that, usually the largest part of training memory, while keeping float32
;   master weights; on recent GPUs it is also faster.
;
;   ## Example
;   ```python
;   import lightning as L
;
;   trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=10)
;   ```
;
;   ## Use instead
;   ```python
;   import lightning as L
;
;   trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=10, precision="bf16-mixed")
;   ```
;
;   ## Fix safety
;   There is no automatic fix: bf16 needs an Ampere or newer GPU (use
;   `"16-mixed"` on older ones), and a few models are sensitive to reduced
;   precision.
;
;   ## References
;   - [Lightning: N-bit precision](https://lightning.ai/docs/pytorch/stable/common/precision_basic.html)
; One pattern per Trainer call, its arguments examined by predicates: nested
; patterns naming two keyword arguments of the same call make the query
; cursor try every pair of arguments of every call in the file.

; on GPU with no precision= (and no **kwargs that could pass one)
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "(pytorch_lightning|lightning|lightning\\.pytorch)(\\.trainer(\\.trainer)?)?\\.Trainer")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-arg? @args "accelerator" "[\"'](gpu|cuda)[\"']")
  (#oom-not-has-arg? @args "precision"))

; the old `gpus=N` form: any value but "no GPU" (0, None, [], "")
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#oom-qualname? @fn "(pytorch_lightning|lightning|lightning\\.pytorch)(\\.trainer(\\.trainer)?)?\\.Trainer")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-arg? @args "gpus" "(?!(0|None|\\[\\]|\"\"|'')$).+")
  (#oom-not-has-arg? @args "precision"))

; precision=32 spelled out, on GPU: reported at the argument
((call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @precision_key
      value: (_) @precision) @report) @args)
  (#eq? @precision_key "precision")
  (#match? @precision "^(32|\"32\"|'32'|\"32-true\"|'32-true')$")
  (#oom-qualname? @fn "(pytorch_lightning|lightning|lightning\\.pytorch)(\\.trainer(\\.trainer)?)?\\.Trainer")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-arg? @args "accelerator|gpus" "\"(gpu|cuda)\"|'(gpu|cuda)'|[1-9][0-9]*|-1|\\[.+\\]"))
