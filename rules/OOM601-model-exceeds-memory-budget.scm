; code: OOM601
; name: model-exceeds-memory-budget
; severity: error
; message: The model's training memory (weights, gradients, optimizer state, input batch) exceeds the GPU memory budget
; fix: display: Apply the cheapest change that fits: bf16 weights, 8-bit optimizer state, LoRA, or FSDP/ZeRO sharding
; doc:
;   ## What it does
;   Estimates, before anything runs, how much GPU memory each model the file
;   builds needs for training, and reports the model when that is more than
;   the budget given with `--gpu-memory 24GiB` (or `gpu-memory` in the
;   configuration). Without a budget the rule is silent; `oomlint estimate
;   PATH` prints the same estimate as a table either way.
;
;   The estimate counts every parameter exactly, with PyTorch's own shapes,
;   from the constructor arguments in the file: literals, module constants,
;   default and keyword arguments, dataclass and config fields, arithmetic
;   such as `4 * n_embd`, layers built in loops and comprehensions
;   (`nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])`), weights tied
;   with `a.weight = b.weight` (counted once) and frozen parameters (no
;   gradient, no optimizer state). Checkpoints loaded with `from_pretrained`,
;   `timm.create_model` or `torchvision.models` use the published counts of a
;   table shipped with oomlint. Then it adds:
;
;   - weights: parameters times their dtype (float32 4 bytes, bf16/fp16 2,
;     int8 1, 4-bit 0.5);
;   - gradients: the trainable parameters again, in the weights' dtype;
;   - optimizer state per trainable parameter: SGD 0 (one moment with
;     momentum), Adam/AdamW two moments, Adagrad one, RMSprop one (two with
;     momentum), bitsandbytes 8-bit Adam 2 bytes;
;   - one input batch, when its shape is known.
;
;   Activations are not estimated, so the real peak is higher still. What
;   cannot be derived from the file is never guessed: it is left out, and
;   `oomlint estimate` lists it. A model whose known part already exceeds the
;   budget is reported; one whose size cannot be derived is not.
;
;   This rule is built into oomlint: it has no query.
;
;   ## Why is this bad?
;   Mixed-precision training with Adam keeps about 16 bytes per parameter on
;   the GPU before the first activation is stored: a 7B model needs over
;   100 GiB. A job that cannot fit fails with `CUDA out of memory` after it
;   has waited in the queue, downloaded the weights and built the model.
;   Doing the arithmetic first costs nothing.
;
;   ## Example
;   ```python
;   # oomlint --gpu-memory 24GiB
;   from transformers import AutoModelForCausalLM
;   import torch
;
;   model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
;   optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
;   ```
;   6.7B float32 parameters need 25 GiB of weights, 25 GiB of gradients and
;   50 GiB of AdamW state.
;
;   ## Use instead
;   ```python
;   from peft import LoraConfig, get_peft_model
;   from transformers import AutoModelForCausalLM
;   import torch
;
;   model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", torch_dtype=torch.bfloat16)
;   model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
;   optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
;   ```
;   The fix lists the cheapest changes that fit, each with its saving:
;   bf16 weights (`model.to(torch.bfloat16)`), 8-bit optimizer state
;   (`bitsandbytes.optim.AdamW8bit`), LoRA adapters on a frozen base, and
;   FSDP / ZeRO-3 sharding across N GPUs. Gradient checkpointing
;   (`model.gradient_checkpointing_enable()`) cuts the activations, which
;   the estimate leaves out.
;
;   ## Fix safety
;   There is no automatic fix: each change trades speed, precision or
;   hardware, and only the author can choose.
;
;   ## References
;   - [Hugging Face: model memory anatomy](https://huggingface.co/docs/transformers/model_memory_anatomy)
;   - [PyTorch: FSDP](https://pytorch.org/docs/stable/fsdp.html)
;   - [bitsandbytes: 8-bit optimizers](https://huggingface.co/docs/bitsandbytes/main/en/optimizers)
