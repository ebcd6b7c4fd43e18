; code: OOM305
; name: dataset-python-objects-with-workers
; severity: info
; message: This Dataset keeps its samples in `self.{attr}` as Python objects and the file starts DataLoader workers: each worker may copy them piece by piece as it reads them (copy-on-read); consider NumPy arrays or Arrow/pandas columns
; fix: display: Store the samples in NumPy arrays or Arrow/pandas columns instead of Python lists and dicts
; report: once per function
; doc:
;   ## What it does
;   Finds `torch.utils.data.Dataset` subclasses whose `__init__` keeps the
;   samples as Python objects: `self.x = [...]` (a list or dict
;   comprehension), `self.x = json.load(f)`, `pickle.load(f)`, `list(...)`,
;   `f.readlines()`, or an empty list filled by a loop in `__init__`, in a
;   file that passes `num_workers=` something other than `0` to a
;   `DataLoader`.
;
;   Each attribute is reported once per `__init__`, where it is first
;   filled: later statements that filter or reorder the same list add
;   nothing.
;
;   This is advice (`info`): the rule cannot see how many samples there
;   are, and a few thousand file names do no harm. Not reported: NumPy
;   arrays, tensors, Arrow tables and pandas frames, and files where every
;   `num_workers` is `0` (or any `num_workers` is `0`: the rule stays
;   silent when in doubt).
;
;   ## Why is this bad?
;   With `num_workers > 0` the DataLoader forks worker processes that share
;   the parent's memory copy-on-write. A NumPy array is one object with one
;   reference count; a Python list of a million samples is a million
;   objects, each with its own reference count. Merely reading a sample in a
;   worker increments and decrements those counts, which writes to the page
;   that holds the object, and the operating system then copies that page
;   into the worker. Over an epoch every worker ends up with its own copy of
;   the whole list: with 8 workers and a 5 GiB annotation file, host memory
;   use grows towards 45 GiB, which looks like a memory leak and ends with
;   the out-of-memory killer stopping the job.
;
;   ## Example
;   ```python
;   class CaptionDataset(Dataset):
;       def __init__(self, path):
;           with open(path) as f:
;               self.items = json.load(f)
;
;       def __len__(self):
;           return len(self.items)
;
;       def __getitem__(self, i):
;           item = self.items[i]
;           return load_image(item["file"]), item["caption"]
;
;   loader = DataLoader(CaptionDataset("captions.json"), batch_size=64, num_workers=8)
;   ```
;
;   ## Use instead
;   ```python
;   class CaptionDataset(Dataset):
;       def __init__(self, path):
;           frame = pd.read_json(path)
;           # one array object per column instead of one object per sample
;           self.files = frame["file"].to_numpy(dtype=np.str_)
;           self.captions = frame["caption"].to_numpy(dtype=np.str_)
;
;       def __len__(self):
;           return len(self.files)
;
;       def __getitem__(self, i):
;           return load_image(str(self.files[i])), str(self.captions[i])
;   ```
;
;   ## Fix safety
;   There is no automatic fix: the right storage (NumPy arrays of fixed-size
;   strings, offsets into one byte buffer, an Arrow table, a memory-mapped
;   file) depends on what a sample holds.
;
;   ## References
;   - [torch.utils.data: multi-process data loading](https://pytorch.org/docs/stable/data.html#multi-process-data-loading)
;   - [torch.utils.data.Dataset](https://pytorch.org/docs/stable/data.html#torch.utils.data.Dataset)
;   - [pytorch/pytorch#13246: worker memory grows with a dataset's Python objects](https://github.com/pytorch/pytorch/issues/13246)
; Each pattern starts at the statement itself and asks the facts for the
; method and class around it: a pattern rooted at the class, with the method
; and the statement nested in it, costs the query cursor work at every node of
; every class body.

; self.x = <comprehension> in __init__
((assignment
  left: (attribute
    object: (identifier) @self
    attribute: (identifier) @attr)
  right: [(list_comprehension) (dictionary_comprehension)]) @report
  (#eq? @self "self")
  (#oom-file-mentions? "num_workers\\s*=\\s*(?!0\\b)")
  (#oom-not-file-mentions? "(?i)num_workers\\s*=\\s*0\\b")
  (#oom-in-method? @report "__init__" "torch\\.utils\\.data\\.(dataset\\.)?Dataset"))

; self.x = json.load(f) / pickle.load(f) / list(...) / f.readlines(),
; possibly subscripted, in __init__
((assignment
  left: (attribute
    object: (identifier) @self
    attribute: (identifier) @attr)
  right: [(call function: (_) @fn) (subscript value: (call function: (_) @fn))]) @report
  (#eq? @self "self")
  (#match? @fn "^(json\\.loads?|pickle\\.load|list)$|\\.(readlines|splitlines)$")
  (#oom-file-mentions? "num_workers\\s*=\\s*(?!0\\b)")
  (#oom-not-file-mentions? "(?i)num_workers\\s*=\\s*0\\b")
  (#oom-in-method? @report "__init__" "torch\\.utils\\.data\\.(dataset\\.)?Dataset"))

; self.x = [] filled by a loop of __init__: `for ...: self.x.append(...)`,
; reported at the append
((call
  function: (attribute
    object: (attribute
      object: (identifier) @self
      attribute: (identifier) @attr)
    attribute: (identifier) @append)) @report
  (#eq? @append "append")
  (#eq? @self "self")
  (#oom-file-mentions? "num_workers\\s*=\\s*(?!0\\b)")
  (#oom-not-file-mentions? "(?i)num_workers\\s*=\\s*0\\b")
  (#oom-in-any-loop? @report)
  (#oom-in-method? @report "__init__" "torch\\.utils\\.data\\.(dataset\\.)?Dataset"))
