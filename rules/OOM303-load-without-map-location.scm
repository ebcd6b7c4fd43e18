; code: OOM303
; name: load-without-map-location
; severity: warning
; message: `{fn}` without `map_location` restores tensors to the GPU they were saved from, the same GPU on every rank
; fix: safe: Add `map_location="cpu"`
; edit: append-arg @args map_location="cpu"
; doc:
;   ## What it does
;   Finds calls of `torch.load(...)` that do not say where the loaded tensors
;   should go: no `map_location=` keyword, no second positional argument and
;   no `**kwargs` that could carry one.
;
;   ## Why is this bad?
;   A checkpoint remembers the device of every tensor in it. Without
;   `map_location`, `torch.load` puts each tensor back on that device. A
;   checkpoint written by a job that trained on `cuda:0` is therefore loaded
;   onto `cuda:0` again:
;
;   - in a multi-GPU job every rank loads its own copy of the weights and the
;     optimizer state onto GPU 0, which runs out of memory long before the
;     others are busy;
;   - when resuming, the loaded copy sits on the GPU next to the live model and
;     optimizer until the last reference to it is dropped, doubling their
;     footprint for a while;
;   - on a machine without that GPU (a laptop, a CPU-only inference box) the
;     load fails outright.
;
;   Loading to the CPU first and letting `load_state_dict` copy the values
;   into the parameters that already live on the right device avoids all three.
;
;   ## Example
;   ```python
;   checkpoint = torch.load("last.pt")
;   model.load_state_dict(checkpoint["model"])
;   optimizer.load_state_dict(checkpoint["optimizer"])
;   ```
;
;   ## Use instead
;   ```python
;   checkpoint = torch.load("last.pt", map_location="cpu")
;   model.load_state_dict(checkpoint["model"])
;   optimizer.load_state_dict(checkpoint["optimizer"])
;   ```
;   To place the tensors on this process's GPU directly, pass that device
;   instead, e.g. `map_location=f"cuda:{local_rank}"`.
;
;   ## Fix safety
;   The fix adds `map_location="cpu"` and keeps every other argument,
;   including `weights_only`. It is marked safe: `load_state_dict` copies
;   values into the existing parameters wherever they live, so the model ends
;   up on the same device as before. Code that uses the loaded tensors
;   directly, without copying them into a model, now gets CPU tensors and may
;   need a `.to(device)`.
;
;   ## References
;   - [torch.load](https://pytorch.org/docs/stable/generated/torch.load.html)
;   - [Saving and loading models across devices](https://pytorch.org/tutorials/beginner/saving_loading_models.html#saving-loading-model-across-devices)
;   - [Serialization semantics](https://pytorch.org/docs/stable/notes/serialization.html)
(call
  function: (_) @fn
  arguments: (argument_list) @args
  (#oom-qualname? @fn "torch\\.load")
  (#oom-not-has-arg? @args "map_location" 1)) @report
