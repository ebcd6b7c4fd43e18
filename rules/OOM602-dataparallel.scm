; code: OOM602
; name: dataparallel
; severity: warning
; message: `{fn}` replicates the model every step and gathers the outputs on GPU 0, which runs out of memory first
; fix: display: Use DistributedDataParallel launched with torchrun
; doc:
;   ## What it does
;   Finds models wrapped in `torch.nn.DataParallel(...)` (also written
;   `nn.DataParallel`, `torch.nn.parallel.DataParallel`, or through any
;   import alias) and calls of the functional form
;   `torch.nn.parallel.data_parallel(...)`. `DistributedDataParallel` is not
;   reported, nor is `isinstance(model, nn.DataParallel)`.
;
;   Test modules (that import `pytest`, `unittest` or `hypothesis`, or
;   define a pytest class `Test...`) are not reported: a test is not a
;   training job.
;
;   ## Why is this bad?
;   `DataParallel` runs one Python process that drives all GPUs. On every
;   forward pass it copies the parameters and buffers from GPU 0 to the other
;   GPUs, splits the batch, runs the replicas in threads, and then gathers
;   every output back on GPU 0, where the loss is computed. The gradients are
;   reduced onto GPU 0 as well. GPU 0 therefore holds the master weights,
;   the optimizer state, the whole batch of outputs and the loss, on top of
;   its own share of the work: it runs out of memory while the other GPUs
;   still have room, and the usable batch size is set by GPU 0 alone.
;
;   PyTorch recommends `DistributedDataParallel` (DDP) even on a single
;   machine: one process per GPU, each with its own copy of the model and its
;   own slice of the batch, gradients averaged with all-reduce. Memory use is
;   the same on every GPU, and it is faster because there is no replication
;   per step and no Python thread contention.
;
;   ## Example
;   ```python
;   model = nn.DataParallel(Net()).cuda()
;   for images, labels in train_loader:
;       loss = criterion(model(images.cuda()), labels.cuda())
;       ...
;   ```
;
;   ## Use instead
;   ```python
;   # launched with: torchrun --nproc_per_node=4 train.py
;   dist.init_process_group("nccl")
;   local_rank = int(os.environ["LOCAL_RANK"])
;   torch.cuda.set_device(local_rank)
;   model = DistributedDataParallel(Net().cuda(), device_ids=[local_rank])
;   sampler = DistributedSampler(train_set)
;   train_loader = DataLoader(train_set, batch_size=64, sampler=sampler)
;   ```
;   Each process now sees `batch_size` samples, so divide the old global
;   batch size by the number of GPUs.
;
;   ## Fix safety
;   There is no automatic fix: moving to DDP changes how the script is
;   launched, how data is sharded (`DistributedSampler`) and which process
;   saves checkpoints and logs.
;
;   ## References
;   - [torch.nn.DataParallel](https://pytorch.org/docs/stable/generated/torch.nn.DataParallel.html)
;   - [CUDA semantics: use nn.parallel.DistributedDataParallel instead of multiprocessing or nn.DataParallel](https://pytorch.org/docs/stable/notes/cuda.html#use-nn-parallel-distributeddataparallel-instead-of-multiprocessing-or-nn-dataparallel)
;   - [Getting started with distributed data parallel](https://pytorch.org/tutorials/intermediate/ddp_tutorial.html)
;   - [torchrun (elastic launch)](https://pytorch.org/docs/stable/elastic/run.html)
(call
  function: (_) @fn
  (#oom-qualname? @fn "torch\\.nn\\.(parallel\\.(data_parallel\\.)?)?DataParallel|torch\\.nn\\.parallel\\.(data_parallel\\.)?data_parallel")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")) @report
