; code: OOM605
; name: ddp-without-set-device
; severity: warning
; message: `{fn}`, but the script never binds each rank to its own GPU: every rank creates a CUDA context and allocates on GPU 0
; fix: display: Call `torch.cuda.set_device(local_rank)` right after `init_process_group`
; doc:
;   ## What it does
;   Finds distributed training scripts that never tell each process which
;   GPU is its own. It reports the `torch.distributed.init_process_group(...)`
;   call, or, in a file that does not call it, each
;   `DistributedDataParallel(...)` call.
;
;   The rule stays silent when the file binds the process to a device in any
;   of the usual ways: it calls `torch.cuda.set_device(...)` (or
;   `torch.accelerator.set_device_index(...)`, or enters
;   `torch.cuda.device(...)`), passes `device_ids=` to
;   `DistributedDataParallel` or `device_id=` to `init_process_group`,
;   builds per-rank devices such as `f"cuda:{local_rank}"` or
;   `torch.device("cuda", local_rank)`, moves the model with
;   `.to(local_rank)` / `.cuda(local_rank)`, sets `CUDA_VISIBLE_DEVICES`,
;   uses the CPU-only `gloo` backend, or asks another library or a helper
;   of its project to pick the device (`get_device(...)`, `set_device(...)`,
;   `setup_device(...)`, `init_device(...)` with an argument: DeepSpeed's
;   `get_accelerator().set_device(local_rank)`, torchtune's
;   `utils.get_device(device=cfg.device)`, which binds the local rank in a
;   module the linter does not read).
;
;   ## Why is this bad?
;   `torchrun` starts one process per GPU, but every process starts with
;   `cuda:0` as its current device. Until the script says otherwise, each
;   rank's `.cuda()`, `torch.device("cuda")`, NCCL communicator and CUDA
;   context land on GPU 0. With eight ranks, GPU 0 holds eight CUDA
;   contexts (several hundred MiB each) plus whatever the ranks allocate
;   there, and runs out of memory while the other GPUs sit idle; in the
;   worst case all ranks train on GPU 0.
;
;   ## Example
;   ```python
;   dist.init_process_group(backend="nccl")
;   model = Net().cuda()
;   model = DistributedDataParallel(model)
;   ```
;
;   ## Use instead
;   ```python
;   dist.init_process_group(backend="nccl")
;   local_rank = int(os.environ["LOCAL_RANK"])
;   torch.cuda.set_device(local_rank)
;   model = Net().cuda()
;   model = DistributedDataParallel(model, device_ids=[local_rank])
;   ```
;
;   ## Fix safety
;   There is no automatic fix: where the local rank comes from
;   (`LOCAL_RANK`, a command-line argument, the `mp.spawn` index) differs
;   between scripts.
;
;   ## References
;   - [torch.cuda.set_device](https://pytorch.org/docs/stable/generated/torch.cuda.set_device.html)
;   - [torch.nn.parallel.DistributedDataParallel](https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html)
;   - [torch.distributed.init_process_group](https://pytorch.org/docs/stable/distributed.html#torch.distributed.init_process_group)
;   - [torchrun (elastic launch)](https://pytorch.org/docs/stable/elastic/run.html)

; The process group is created here, and nothing in the file picks a GPU.
(call
  function: (_) @fn
  arguments: (argument_list) @args
  (#oom-qualname? @fn "torch\\.distributed\\.init_process_group")
  (#oom-not-has-arg? @args "device_id")
  (#oom-not-file-calls? "torch\\.cuda\\.(set_device|device)|torch\\.accelerator\\.set_device_(index|idx)")
  (#oom-not-file-mentions? "cuda:(\\{|%|[\"']\\s*\\+)|\\bdevice\\(\\s*[\"']cuda[\"']\\s*,|\\bdevice\\([^)]*\\bindex\\s*=|\\.(to|cuda)\\(\\s*[\\w.]*(?i:rank|gpu)\\b|\\.(to|cuda)\\([^)]*(?i:local_rank)|device_ids\\s*=|CUDA_VISIBLE_DEVICES|[\"']gloo[\"']|\\b(get|set|setup|init)_device\\(\\s*[\\w*]")) @report

; DDP in a file that creates no process group itself (the setup lives
; elsewhere); report the wrapper when it gets no device_ids either.
(call
  function: (_) @fn
  arguments: (argument_list) @args
  (#oom-qualname? @fn "torch\\.nn\\.parallel\\.(distributed\\.)?DistributedDataParallel")
  (#oom-not-has-arg? @args "device_ids" 1)
  (#oom-not-file-calls? "torch\\.distributed\\.init_process_group")
  (#oom-not-file-calls? "torch\\.cuda\\.(set_device|device)|torch\\.accelerator\\.set_device_(index|idx)")
  (#oom-not-file-mentions? "cuda:(\\{|%|[\"']\\s*\\+)|\\bdevice\\(\\s*[\"']cuda[\"']\\s*,|\\bdevice\\([^)]*\\bindex\\s*=|\\.(to|cuda)\\(\\s*[\\w.]*(?i:rank|gpu)\\b|\\.(to|cuda)\\([^)]*(?i:local_rank)|device_ids\\s*=|CUDA_VISIBLE_DEVICES|[\"']gloo[\"']|\\b(get|set|setup|init)_device\\(\\s*[\\w*]")) @report
