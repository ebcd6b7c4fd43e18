; code: OOM701
; name: hf-trainer-memory-flags
; severity: info
; message: `{key}` in `{fn}(...)` commonly runs out of GPU memory without a memory setting: mixed precision, gradient checkpointing, gradient or evaluation accumulation
; fix: display: Add bf16=True (or fp16=True), gradient_checkpointing=True, or a smaller batch with gradient_accumulation_steps
; doc:
;   ## What it does
;   Looks at Hugging Face training configurations, `TrainingArguments(...)`,
;   `Seq2SeqTrainingArguments(...)` and TRL's `SFTConfig(...)`, and reports
;   two settings that commonly run out of memory:
;
;   - a literal `per_device_train_batch_size` of 16 or more with none of
;     `bf16`, `fp16`, `gradient_checkpointing` and
;     `gradient_accumulation_steps` given (any value of them counts as a
;     choice made);
;   - a `Trainer` (or `Seq2SeqTrainer`, `SFTTrainer`) with `compute_metrics`
;     in a file that loads a language model (`AutoModelForCausalLM`,
;     `AutoModelForSeq2SeqLM`, `AutoModelForMaskedLM`) without
;     `preprocess_logits_for_metrics` and without `eval_accumulation_steps`
;     anywhere in the file.
;
;   Arguments passed through `**kwargs`, batch sizes that are not
;   integer literals (read from the command line or a config file), and a
;   `Trainer` whose `args=` come from outside the file (parsed by
;   `HfArgumentParser` from a JSON file or the command line, on either
;   branch of an `if`; a parameter of the function) are not reported: the
;   settings may be there. It is a hint, hence `info`: the model may be small enough.
;
;   Test modules (that import `pytest`, `unittest` or `hypothesis`, or
;   define a pytest class `Test...`) are not reported: a test is not a
;   training job.
;
;   ## Why is this bad?
;   The Trainer defaults to float32 activations, stores every activation of
;   the forward pass, and steps once per batch: the batch size alone decides
;   the activation memory. Mixed precision halves it, gradient checkpointing
;   trades it for recomputation, and gradient accumulation reaches the same
;   effective batch in smaller pieces.
;
;   During evaluation with `compute_metrics`, the Trainer gathers the logits
;   of every evaluation batch on the GPU and moves them to the CPU only when
;   evaluation ends, unless `eval_accumulation_steps` is set. For a language
;   model the logits are batch x sequence x vocabulary floats: 8 sequences of
;   1,024 tokens over a 50,257-word vocabulary are 1.5 GiB per batch.
;
;   ## Example
;   ```python
;   args = TrainingArguments(output_dir="out", per_device_train_batch_size=64)
;   trainer = Trainer(model=model, args=args, train_dataset=train,
;                     eval_dataset=val, compute_metrics=compute_metrics)
;   ```
;
;   ## Use instead
;   ```python
;   args = TrainingArguments(output_dir="out", per_device_train_batch_size=16,
;                            gradient_accumulation_steps=4, bf16=True,
;                            gradient_checkpointing=True, eval_accumulation_steps=8)
;   trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=val,
;                     compute_metrics=compute_metrics,
;                     preprocess_logits_for_metrics=lambda logits, labels: logits.argmax(-1))
;   ```
;
;   ## Fix safety
;   There is no automatic fix: which setting fits depends on the hardware
;   (bf16 needs Ampere or newer) and on the metrics.
;
;   ## References
;   - [Hugging Face: methods and tools for efficient training on a single GPU](https://huggingface.co/docs/transformers/perf_train_gpu_one)
;   - [Hugging Face: TrainingArguments.eval_accumulation_steps](https://huggingface.co/docs/transformers/main_classes/trainer#transformers.TrainingArguments.eval_accumulation_steps)
(call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @key
      value: (integer) @bs)) @args
  (#oom-qualname? @fn "transformers\\.(Seq2Seq)?TrainingArguments|transformers\\.training_args\\.TrainingArguments|trl\\.SFTConfig")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#eq? @key "per_device_train_batch_size")
  (#match? @bs "^(1[6-9]|[2-9][0-9]|[1-9][0-9]{2,})$")
  (#oom-not-has-arg? @args "bf16")
  (#oom-not-has-arg? @args "fp16")
  (#oom-not-has-arg? @args "gradient_checkpointing")
  (#oom-not-has-arg? @args "gradient_accumulation_steps")) @report

(call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @key) @report) @args
  (#oom-qualname? @fn "transformers\\.(Seq2Seq)?Trainer|trl\\.SFTTrainer")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#eq? @key "compute_metrics")
  (#oom-not-has-arg? @args "preprocess_logits_for_metrics")
  (#oom-not-arg-from-outside? @args "args")
  (#oom-file-calls? "transformers\\.AutoModelFor(CausalLM|Seq2SeqLM|MaskedLM)\\.from_pretrained")
  (#oom-not-file-mentions? "eval_accumulation_steps"))
