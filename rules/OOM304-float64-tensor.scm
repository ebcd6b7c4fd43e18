; code: OOM304
; name: float64-tensor
; severity: warning
; message: `{report}` makes float64 tensors on the training path: twice the memory of float32 and much slower on GPUs; use float32 (`.float()`, `dtype=torch.float32`)
; fix: unsafe: Use float32 instead of float64
; edit: replace @old float
; doc:
;   ## What it does
;   Finds float64 ("double") tensors in code that trains or runs a model:
;
;   - `.double()` on a tensor or a model;
;   - `dtype=torch.float64` / `dtype=torch.double`, `.to(torch.float64)` and
;     `torch.set_default_dtype(torch.float64)`;
;   - `torch.from_numpy(x)`, `torch.tensor(x)` and `torch.as_tensor(x)`
;     where `x` comes from a NumPy function whose default dtype is float64
;     (`np.random.rand`/`randn`/`random`/`uniform`/`normal`,
;     `np.zeros`/`ones`/`empty`/`full`/`linspace` without `dtype`,
;     `np.loadtxt`, `np.genfromtxt`, `np.array` of float literals).
;
;   The file must call `.backward()`, or the code must be in a loop that
;   runs once per batch. Also reported: float64 made in a `Dataset`'s
;   `__getitem__` (`.astype(np.float64)`, `torch.from_numpy` of a float64
;   array), which the DataLoader collates into float64 batches (an
;   `.astype` only in files that convert nothing to float32 themselves),
;   and `torch.from_numpy(x)` of data a function of this file or another
;   module of the project returns as float64 (`x = make_data()`, `x, y =
;   make_data()`). In a model's method, a `torch.nn` layer made float64
;   (`nn.Linear(d, d).double()`) and a trainable `nn.Parameter` created
;   float64 are reported whatever file trains the model.
;
;   Not reported: arrays created with `dtype=np.float32` or converted with
;   `.astype(np.float32)`, conversions followed at once by `.float()` or
;   `.to(torch.float32)` (also after the old `Variable(...)` wrapper),
;   parameters made with `requires_grad=False` and buffers, integer data,
;   code under `torch.no_grad()`, small schedules made with
;   `torch.linspace`/`torch.arange`, metric arithmetic such as
;   `correct.double() / total`, tensors made from a list or tuple written
;   out in the source (`torch.tensor([count, total], dtype=torch.float64)`:
;   a few numbers, often statistics kept in float64 on purpose), and files
;   that run `gradcheck`, which needs float64.
;
;   ## Why is this bad?
;   PyTorch's default floating-point type is float32. A float64 tensor takes
;   eight bytes per element instead of four, so a dataset, a batch or a
;   model in float64 needs twice the memory, and every activation computed
;   from it is float64 too. GPUs also run float64 arithmetic much slower
;   than float32, consumer cards by a factor of 32 or more.
;
;   The float64 usually arrives unnoticed: NumPy creates float64 arrays by
;   default, and `torch.from_numpy` / `torch.tensor` keep the array's dtype.
;   A float64 input fed to a float32 model fails with a dtype mismatch, and
;   the quick fix `model.double()` then doubles the memory of the weights,
;   the gradients and the optimizer state as well.
;
;   ## Example
;   ```python
;   X = torch.from_numpy(np.random.randn(50_000, 512))
;   model = Net().double()
;   ```
;
;   ## Use instead
;   ```python
;   X = torch.from_numpy(np.random.randn(50_000, 512).astype(np.float32))
;   model = Net()
;   ```
;
;   ## Fix safety
;   The fix rewrites `.double()` as `.float()` and `torch.float64` /
;   `torch.double` as `torch.float` (which is float32). It is unsafe:
;   computations that need the extra precision (ill-conditioned linear
;   algebra, long reductions, numerical gradient checks) lose it, and
;   other code may expect the float64 dtype. Conversions of NumPy arrays get
;   no automatic fix; add `.float()` after the conversion or create the
;   array with `dtype=np.float32`.
;
;   ## References
;   - [Tensor attributes: torch.dtype](https://pytorch.org/docs/stable/tensor_attributes.html#torch-dtype)
;   - [torch.from_numpy](https://pytorch.org/docs/stable/generated/torch.from_numpy.html)
;   - [torch.set_default_dtype](https://pytorch.org/docs/stable/generated/torch.set_default_dtype.html)
;   - [torch.Tensor.double](https://pytorch.org/docs/stable/generated/torch.Tensor.double.html)

; x.double() / model.double(), in a file that trains
((call
  function: (attribute
    object: (_) @obj
    attribute: (identifier) @old) @fn
  arguments: (argument_list) @args) @report
  (#eq? @old "double")
  (#oom-not-has-arg? @args "memory_format" "0")
  (#not-match? @obj "(?i)correct|accura|\\bacc|count|total|metric|score|==|!=")
  (#oom-not-qualname? @fn "numpy\\..*")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-file-trains?)
  (#oom-not-in-no-grad? @report))

; x.double() in a batch loop
((call
  function: (attribute
    object: (_) @obj
    attribute: (identifier) @old) @fn
  arguments: (argument_list) @args) @report
  (#eq? @old "double")
  (#oom-not-has-arg? @args "memory_format" "0")
  (#not-match? @obj "(?i)correct|accura|\\bacc|count|total|metric|score|==|!=")
  (#oom-not-qualname? @fn "numpy\\..*")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-in-loop? @report)
  (#oom-not-in-no-grad? @report))

; dtype=torch.float64 / dtype=torch.double, in a file that trains
((call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(attribute attribute: (identifier) @old) (identifier)] @value) @report)) @call
  (#eq? @kw "dtype")
  (#oom-qualname? @value "torch\\.(float64|double)")
  (#oom-not-qualname? @fn "torch\\.(linspace|logspace|arange)")
  (#not-match? @call "^(\\w+\\.)*(tensor|as_tensor)\\(\\s*[\\[(]")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-not-cast-after? @call)
  (#oom-file-trains?)
  (#oom-not-in-no-grad? @call))

; dtype=torch.float64 in a batch loop
((call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(attribute attribute: (identifier) @old) (identifier)] @value) @report)) @call
  (#eq? @kw "dtype")
  (#oom-qualname? @value "torch\\.(float64|double)")
  (#oom-not-qualname? @fn "torch\\.(linspace|logspace|arange)")
  (#not-match? @call "^(\\w+\\.)*(tensor|as_tensor)\\(\\s*[\\[(]")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-not-cast-after? @call)
  (#oom-in-loop? @call)
  (#oom-not-in-no-grad? @call))

; x.to(torch.float64), in a file that trains or in a batch loop
((call
  function: (attribute
    attribute: (identifier) @method)
  arguments: (argument_list
    [(attribute attribute: (identifier) @old) (identifier)] @report)) @call
  (#eq? @method "to")
  (#oom-qualname? @report "torch\\.(float64|double)")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-file-trains?)
  (#oom-not-in-no-grad? @call))

((call
  function: (attribute
    attribute: (identifier) @method)
  arguments: (argument_list
    [(attribute attribute: (identifier) @old) (identifier)] @report)) @call
  (#eq? @method "to")
  (#oom-qualname? @report "torch\\.(float64|double)")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-in-loop? @call)
  (#oom-not-in-no-grad? @call))

; torch.set_default_dtype(torch.float64) in a file that trains
((call
  function: (_) @fn
  arguments: (argument_list
    . [(attribute attribute: (identifier) @old) (identifier)] @report)) @call
  (#oom-qualname? @fn "torch\\.set_default_dtype")
  (#oom-qualname? @report "torch\\.(float64|double)")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-file-trains?))

; torch.from_numpy / torch.tensor / torch.as_tensor of a float64 NumPy array,
; in a file that trains
((call
  function: (_) @fn
  arguments: (argument_list . (_) @array) @args) @report
  (#oom-qualname? @fn "torch\\.(from_numpy|tensor|as_tensor)")
  (#oom-not-has-arg? @args "dtype" "1")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-file-trains?)
  (#oom-numpy-float64? @array)
  (#oom-not-cast-after? @report)
  (#oom-not-in-no-grad? @report))

; the same in a batch loop
((call
  function: (_) @fn
  arguments: (argument_list . (_) @array) @args) @report
  (#oom-qualname? @fn "torch\\.(from_numpy|tensor|as_tensor)")
  (#oom-not-has-arg? @args "dtype" "1")
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-in-loop? @report)
  (#oom-numpy-float64? @array)
  (#oom-not-cast-after? @report)
  (#oom-not-in-no-grad? @report))

; float64 made in a Dataset's `__getitem__`: the DataLoader collates it into
; float64 batches, whatever file trains on them
; (the shape of OOM102's `xs.append(v)`, which the query then runs once)
((call
  function: (attribute
    object: (_) @array
    attribute: (identifier) @method)
  arguments: (argument_list
    .
    (_) @dtype
    .)) @report
  (#eq? @method "astype")
  (#oom-not-cast-after? @report)
  (#oom-not-file-mentions? "\\.float\\(\\)|float32|\\.to\\(\\s*(dtype\\s*=\\s*)?torch\\.float\\b")
  (#oom-in-method? @report "__getitem__" "torch\\.utils\\.data(\\.dataset)?\\.(Dataset|IterableDataset)")
  (#oom-numpy-float64? @report))

((call
  function: (_) @fn
  arguments: (argument_list . (_) @array) @args) @report
  (#oom-qualname? @fn "torch\\.(from_numpy|tensor|as_tensor)")
  (#oom-not-has-arg? @args "dtype" "1")
  (#oom-in-method? @report "__getitem__" "torch\\.utils\\.data(\\.dataset)?\\.(Dataset|IterableDataset)")
  (#oom-numpy-float64? @array)
  (#oom-not-cast-after? @report))

; a `torch.nn` layer made float64 in a model's method (`self.proj =
; nn.Linear(d, d).double()`): its weights, gradients and optimizer state are
; float64 wherever the model is trained, in this file or another
((call
  function: (attribute
    object: (call function: (_) @layer)
    attribute: (identifier) @old) @fn
  arguments: (argument_list) @args) @report
  (#eq? @old "double")
  (#oom-not-has-arg? @args "memory_format" "0")
  (#oom-not-file-trains?)
  (#oom-qualname? @layer "torch\\.nn\\.[A-Z]\\w*")
  (#oom-in-module-method? @report)
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-not-in-no-grad? @report))

; a trainable parameter created float64 in a model's method
; (`self.scale = nn.Parameter(torch.zeros(n, dtype=torch.float64))`)
((call
  function: (_) @fn
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(attribute attribute: (identifier) @old) (identifier)] @value) @report)) @call
  (#eq? @kw "dtype")
  (#oom-not-file-trains?)
  (#oom-qualname? @value "torch\\.(float64|double)")
  (#oom-in-module-method? @call)
  (#oom-in-parameter? @call)
  (#oom-not-cast-after? @call)
  (#oom-not-file-calls? "torch\\.autograd\\.(gradcheck|gradgradcheck)(\\..*)?")
  (#oom-not-in-no-grad? @call))
