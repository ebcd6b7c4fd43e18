; code: OOM301
; name: oversize-batch
; severity: warning
; message: This batch size exceeds the configured limits (max-batch-size, or the GPU memory budget together with the model)
; fix: display: Divide the batch by k and accumulate gradients over k steps; the effective batch is unchanged
; doc:
;   ## What it does
;   Checks batch sizes written as integer literals in the file: the
;   `batch_size` of a `DataLoader` (directly or through a constant such as
;   `BATCH_SIZE = 512`), `per_device_train_batch_size` of Hugging Face
;   `TrainingArguments`, and the leading dimension of a tensor such as
;   `torch.randn(B, 3, 224, 224)` fed to a model. It reports one when
;
;   - it is above `max-batch-size` (configuration), or
;   - the bytes of one input batch (known when the sample shape is: a
;     `TensorDataset` of known tensors, torchvision MNIST/CIFAR/ImageFolder
;     with fixed-size transforms, a tensor of known shape) plus the model's
;     weights, gradients and optimizer state exceed the GPU memory budget
;     (`--gpu-memory`), while the model alone fits.
;
;   The message states the bytes of one input batch when the shape is known.
;   Without `max-batch-size` and a budget the rule is silent. Batch sizes
;   that come from the command line or configuration files (`args.batch_size`)
;   are not literals and are not reported.
;
;   This rule is built into oomlint: it has no query.
;
;   ## Why is this bad?
;   Activation memory grows linearly with the batch: a batch that does not
;   fit makes the first forward pass run out of memory. Gradient accumulation
;   reaches the same effective batch in smaller steps, at the same
;   convergence and only a little slower.
;
;   ## Example
;   ```python
;   loader = DataLoader(train_set, batch_size=4096, shuffle=True)
;   for x, y in loader:
;       loss = criterion(model(x), y)
;       loss.backward()
;       optimizer.step()
;       optimizer.zero_grad()
;   ```
;
;   ## Use instead
;   ```python
;   accumulation = 8
;   loader = DataLoader(train_set, batch_size=512, shuffle=True)
;   for step, (x, y) in enumerate(loader):
;       loss = criterion(model(x), y) / accumulation
;       loss.backward()
;       if (step + 1) % accumulation == 0:
;           optimizer.step()
;           optimizer.zero_grad()
;   ```
;   With Hugging Face, set `per_device_train_batch_size=512` and
;   `gradient_accumulation_steps=8` instead.
;
;   ## Fix safety
;   The fix is shown, not applied: the loop has to change in several places,
;   and batch normalization sees smaller batches.
;
;   ## References
;   - [Hugging Face: gradient accumulation](https://huggingface.co/docs/transformers/perf_train_gpu_one#gradient-accumulation)
;   - [PyTorch forums: gradient accumulation](https://discuss.pytorch.org/t/why-do-we-need-to-set-the-gradients-manually-to-zero-in-pytorch/4903/20)
