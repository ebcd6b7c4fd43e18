; code: OOM302
; name: whole-dataset-to-gpu
; severity: warning
; message: `{data}` looks like a whole dataset and is moved to the GPU in one piece, then sliced per batch: all of it occupies GPU memory for the whole run; keep it on the CPU and move each batch
; fix: display: Keep the dataset on the CPU and move each batch inside the loop (`pin_memory()`, `non_blocking=True`)
; doc:
;   ## What it does
;   Finds a whole dataset moved to the GPU with `.to(device)` or `.cuda()`
;   outside the batch loop, when the loop then takes its batches by
;   indexing or slicing it (`X_train[i:i + bs]`, `X[idx]`). A dataset is the
;   result of `np.load`, `np.loadtxt`, `pd.read_*`, `torch.load` of data,
;   `torch.tensor` / `torch.from_numpy` / `torch.as_tensor` of one, or a
;   name such as `X_train`, `train_data` or `*.data`.
;
;   A project's helper counts as the move when it returns its first
;   argument moved to the device (`def batchify(data, bsz): ... return
;   data.to(device)`, in this file or another module of the project) and
;   its result is then taken batch by batch: sliced in a batch loop, or
;   given in one to a function that slices it (`get_batch(train_data, i)`).
;   So does a data module keeping a dataset on the GPU (`self.data =
;   torch.from_numpy(np.load(path)).cuda()`) that its methods index.
;
;   Also reported:
;
;   - a dataset class moving its samples to the device at once: an
;     attribute named for them (`self.data`, `self.images`,
;     `self.all_fg_masks`, `self.rays`...) set to a tensor moved with
;     `.to(device)` or `.cuda()` in a `Dataset` (or a class of the file a
;     `Dataset` derives from), or in a class named as a dataset or an
;     iterator (or defining `__getitem__`/`__iter__`) that indexes it;
;   - a loading loop that moves every item to the device and keeps it in a
;     list or dict (`frames.append(torch.from_numpy(f).cuda())`) that the
;     batch loop then indexes or iterates;
;   - a dataset moved at module level and sliced by a function's batch loop
;     through a local name (`x = xtr if split == "train" else xva`).
;
;   Not reported: moving a model, moving each batch inside the loop, moving
;   small constant tensors (normalization statistics, class weights, the
;   camera poses of a dataset), made-up data (`torch.randint` in a smoke
;   test), `.to()` calls that change only the dtype or go to the CPU,
;   datasets that are used whole (full-batch training), and files that
;   never mention CUDA or a GPU (but for a dataset class, whose device
;   usually comes from its caller).
;
;   ## Why is this bad?
;   A dataset on the GPU takes that memory for the whole run, next to the
;   model's weights, gradients, optimizer state and the activations of the
;   current batch. A training step needs only one batch at a time; the rest
;   of the dataset sits idle in the scarcest memory of the machine. A
;   dataset of a few GiB that "fits" on the first try leaves too little room
;   once the model or the batch grows, and the job fails at the first large
;   step instead of on loading.
;
;   Copying each batch from pinned CPU memory with `non_blocking=True`
;   overlaps the transfer with computation, so keeping the data on the CPU
;   usually costs no speed.
;
;   ## Example
;   ```python
;   X_train = torch.from_numpy(np.load("features.npy")).cuda()
;   y_train = torch.from_numpy(np.load("labels.npy")).cuda()
;   for epoch in range(epochs):
;       for i in range(0, len(X_train), batch_size):
;           xb, yb = X_train[i:i + batch_size], y_train[i:i + batch_size]
;           loss = criterion(model(xb), yb)
;           ...
;   ```
;
;   ## Use instead
;   ```python
;   X_train = torch.from_numpy(np.load("features.npy")).pin_memory()
;   y_train = torch.from_numpy(np.load("labels.npy")).pin_memory()
;   for epoch in range(epochs):
;       for i in range(0, len(X_train), batch_size):
;           xb = X_train[i:i + batch_size].cuda(non_blocking=True)
;           yb = y_train[i:i + batch_size].cuda(non_blocking=True)
;           loss = criterion(model(xb), yb)
;           ...
;   ```
;   or wrap the tensors in a `TensorDataset` and iterate a
;   `DataLoader(..., pin_memory=True)`.
;
;   ## Fix safety
;   There is no automatic fix: the batch loop has to change too, and a
;   small dataset that fits comfortably may be on the GPU on purpose to
;   avoid transfers.
;
;   ## References
;   - [CUDA semantics: use pinned memory buffers](https://pytorch.org/docs/stable/notes/cuda.html#use-pinned-memory-buffers)
;   - [torch.Tensor.pin_memory](https://pytorch.org/docs/stable/generated/torch.Tensor.pin_memory.html)
;   - [torch.utils.data: memory pinning](https://pytorch.org/docs/stable/data.html#memory-pinning)
;   - [Tutorial: a guide on good usage of non_blocking and pin_memory()](https://pytorch.org/tutorials/intermediate/pinmem_nonblock.html)

; name = X.to(device), and `name` is sliced in a batch loop
((assignment
  left: (identifier) @name
  right: (call
    function: (attribute
      object: (_) @data
      attribute: (identifier) @method)
    arguments: (argument_list) @args) @report)
  (#eq? @method "to")
  (#match? @args "(?i)cuda|device|gpu|rank|^\\(\\s*\\d")
  (#not-match? @args "(?i)[\"']cpu|[\"']mps|dtype|torch\\.(float|double|half|bfloat|int|long|short|bool|uint|complex)")
  (#oom-file-mentions? "(?i)cuda|gpu")
  (#oom-not-in-loop? @report)
  (#oom-dataset? @data)
  (#oom-sliced-in-loop? @name))

; name = X.cuda()
((assignment
  left: (identifier) @name
  right: (call
    function: (attribute
      object: (_) @data
      attribute: (identifier) @method)) @report)
  (#eq? @method "cuda")
  (#oom-not-in-loop? @report)
  (#oom-dataset? @data)
  (#oom-sliced-in-loop? @name))

; X.to(device) where X itself is sliced in a batch loop
; (`X_train, y_train = X_train.to(device), y_train.to(device)`)
((call
  function: (attribute
    object: (identifier) @data
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#eq? @method "to")
  (#match? @args "(?i)cuda|device|gpu|rank|^\\(\\s*\\d")
  (#not-match? @args "(?i)[\"']cpu|[\"']mps|dtype|torch\\.(float|double|half|bfloat|int|long|short|bool|uint|complex)")
  (#oom-file-mentions? "(?i)cuda|gpu")
  (#oom-not-in-loop? @report)
  (#oom-dataset? @data)
  (#oom-sliced-in-loop? @data))

; X.cuda() where X itself is sliced in a batch loop
((call
  function: (attribute
    object: (identifier) @data
    attribute: (identifier) @method)) @report
  (#eq? @method "cuda")
  (#oom-not-in-loop? @report)
  (#oom-dataset? @data)
  (#oom-sliced-in-loop? @data))

; `train_data = batchify(corpus.train, bsz)`, a function (of this file or of
; the project) that returns its argument moved to the device
((assignment
  left: (identifier) @name
  right: (call
    function: (_) @fn
    arguments: (argument_list . (_) @data)) @report)
  (#oom-not-in-loop? @report)
  (#oom-moves-arg-to-device? @fn)
  (#oom-batched-in-loop? @name))

; `self.data = torch.from_numpy(np.load(path)).cuda()` in a data module
((assignment
  left: (attribute
    object: (identifier) @self) @name
  right: (call
    function: (attribute
      object: (_) @data
      attribute: (identifier) @method)
    arguments: (argument_list) @args) @report)
  (#eq? @self "self")
  (#any-of? @method "to" "cuda")
  (#not-match? @args "(?i)[\"']cpu|[\"']mps|dtype|torch\\.(float|double|half|bfloat|int|long|short|bool|uint|complex)")
  (#match? @args "(?i)^\\(\\)$|cuda|device|gpu|rank|^\\(\\s*\\d")
  (#oom-file-mentions? "(?i)cuda|gpu")
  (#oom-not-in-loop? @report)
  (#oom-dataset? @data)
  (#oom-batched-in-loop? @name))

; `self.images = torch.stack(images).to(device)` in a dataset class, alone
; or in a tuple assignment: every sample on the device for the whole run
((call
  function: (attribute
    object: (_) @data
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#any-of? @method "to" "cuda")
  (#not-match? @args "(?i)[\"']cpu|[\"']mps|dtype|torch\\.(float|double|half|bfloat|int|long|short|bool|uint|complex)")
  (#match? @args "(?i)^\\(\\)$|cuda|device|gpu|rank|^\\(\\s*\\d")
  (#oom-not-in-loop? @report)
  (#oom-dataset-attribute? @report))

; every frame moved to the device in a loading loop and kept in a list that
; the batch loop indexes: `cache.append(torch.from_numpy(frame).to(device))`
((call
  function: (attribute
    object: (_) @data
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @report
  (#any-of? @method "to" "cuda")
  (#not-match? @args "(?i)[\"']cpu|[\"']mps|dtype|torch\\.(float|double|half|bfloat|int|long|short|bool|uint|complex)")
  (#match? @args "(?i)^\\(\\)$|cuda|device|gpu|rank|^\\(\\s*\\d")
  (#oom-file-mentions? "(?i)cuda|gpu")
  (#oom-not-in-loop? @report)
  (#oom-kept-per-item? @report))
