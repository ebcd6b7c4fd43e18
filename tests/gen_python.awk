# Generates a realistic PyTorch training module: imports, nn.Module classes,
# helper functions with loops, branches, comprehensions and calls, training
# and evaluation loops; about one function in RATE carries a memory bug that
# oomlint reports (loss accumulated with its graph, torch.load without
# map_location). Deterministic for a given SEED.
#
#   awk -v seed=7 -v funcs=40 [-v rate=25] -f tests/gen_python.awk </dev/null >file.py
#
# Used by tests/stress.sh and bench/cache.sh to make large trees and files
# of ordinary code (not one huge literal, which is a known slow case).
BEGIN {
  if (funcs == "") funcs = 40
  if (rate == "") rate = 25
  srand(seed + 0)
  print "\"\"\"Generated training module " seed ": models, data helpers and loops.\"\"\""
  print "import math"
  print "import os"
  print ""
  print "import torch"
  print "import torch.nn as nn"
  print "import torch.nn.functional as F"
  print "from torch.utils.data import DataLoader, Dataset"
  print ""
  print "LEARNING_RATE = " sprintf("%.4f", rand() / 100)
  print "HIDDEN = " (64 * (1 + int(rand() * 8)))
  print ""
  for (i = 0; i < funcs; i++) {
    print ""
    kind = int(rand() * 6)
    bug = int(rand() * rate) == 0
    name = "f" seed "_" i
    if (kind == 0) model(name)
    else if (kind == 1) helper(name)
    else if (kind == 2) train(name, bug)
    else if (kind == 3) evaluate(name)
    else if (kind == 4) dataset(name)
    else loader(name, bug)
  }
}

function model(name,    n, k) {
  n = 2 + int(rand() * 4)
  print ""
  print "class Model_" name "(nn.Module):"
  print "    \"\"\"A small multilayer perceptron with " n " layers.\"\"\""
  print ""
  print "    def __init__(self, d_in, d_out, hidden=HIDDEN):"
  print "        super().__init__()"
  print "        self.layers = nn.ModuleList()"
  print "        for k in range(" n "):"
  print "            self.layers.append(nn.Linear(d_in if k == 0 else hidden, hidden))"
  print "        self.head = nn.Linear(hidden, d_out)"
  print "        self.dropout = nn.Dropout(p=0." (1 + int(rand() * 5)) ")"
  print ""
  print "    def forward(self, x):"
  print "        for layer in self.layers:"
  print "            x = self.dropout(F.relu(layer(x)))"
  print "        return self.head(x)"
}

function helper(name,    n) {
  n = 1 + int(rand() * 9)
  print ""
  print "def " name "(values, scale=" n ", offset=0.5):"
  print "    \"\"\"Normalise VALUES and drop outliers beyond " n " deviations.\"\"\""
  print "    if not values:"
  print "        return []"
  print "    mean = sum(values) / len(values)"
  print "    var = sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)"
  print "    std = math.sqrt(var) or 1.0"
  print "    kept = [v for v in values if abs(v - mean) <= scale * std]"
  print "    result = {}"
  print "    for index, value in enumerate(kept):"
  print "        key = f\"item_{index % " (3 + n) "}\""
  print "        if key in result:"
  print "            result[key] = result[key] + (value - mean) / std + offset"
  print "        else:"
  print "            result[key] = (value - mean) / std"
  print "    return sorted(result.items(), key=lambda kv: kv[1])"
}

function train(name, bug) {
  print ""
  print "def " name "(model, loader, optimizer, device, epochs=" (1 + int(rand() * 20)) "):"
  print "    \"\"\"Train MODEL for EPOCHS epochs; returns the loss of each epoch.\"\"\""
  print "    model.train()"
  print "    history = []"
  print "    for epoch in range(epochs):"
  print "        total = 0.0"
  print "        for step, (inputs, targets) in enumerate(loader):"
  print "            inputs = inputs.to(device, non_blocking=True)"
  print "            targets = targets.to(device, non_blocking=True)"
  print "            optimizer.zero_grad(set_to_none=True)"
  print "            outputs = model(inputs)"
  print "            loss = F.cross_entropy(outputs, targets)"
  print "            loss.backward()"
  print "            optimizer.step()"
  if (bug) print "            total += loss"
  else print "            total += loss.item()"
  print "            if step % 100 == 0:"
  print "                print(f\"epoch {epoch} step {step}: {total / (step + 1):.4f}\")"
  print "        history.append(total / max(len(loader), 1))"
  print "    return history"
}

function evaluate(name) {
  print ""
  print "@torch.no_grad()"
  print "def " name "(model, loader, device):"
  print "    \"\"\"Accuracy of MODEL over LOADER.\"\"\""
  print "    model.eval()"
  print "    correct = 0"
  print "    seen = 0"
  print "    for inputs, targets in loader:"
  print "        logits = model(inputs.to(device))"
  print "        correct += (logits.argmax(dim=1).cpu() == targets).sum().item()"
  print "        seen += targets.numel()"
  print "    return correct / max(seen, 1)"
}

function dataset(name) {
  print ""
  print "class Data_" name "(Dataset):"
  print "    \"\"\"Samples read lazily from ROOT, one file each.\"\"\""
  print ""
  print "    def __init__(self, root, transform=None):"
  print "        self.root = root"
  print "        self.names = sorted(n for n in os.listdir(root) if n.endswith(\".pt\"))"
  print "        self.transform = transform"
  print ""
  print "    def __len__(self):"
  print "        return len(self.names)"
  print ""
  print "    def __getitem__(self, index):"
  print "        sample = torch.load(os.path.join(self.root, self.names[index]), map_location=\"cpu\")"
  print "        if self.transform is not None:"
  print "            sample = self.transform(sample)"
  print "        return sample[\"x\"].float(), int(sample[\"y\"])"
}

function loader(name, bug) {
  print ""
  print "def " name "(root, batch_size=" (16 * (1 + int(rand() * 8))) ", workers=" int(rand() * 8) "):"
  print "    \"\"\"A shuffled loader over ROOT, and the checkpoint to resume from.\"\"\""
  if (bug) print "    state = torch.load(os.path.join(root, \"last.ckpt\"))"
  else print "    state = torch.load(os.path.join(root, \"last.ckpt\"), map_location=\"cpu\")"
  print "    data = [torch.randn(8) for _ in range(batch_size)]"
  print "    return DataLoader(data, batch_size=batch_size, shuffle=True, num_workers=workers), state"
}
