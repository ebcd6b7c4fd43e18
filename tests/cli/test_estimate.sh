# `oomlint estimate`: the table a person checks by hand, the JSON schema,
# the budget (--gpu-memory) and its exit status, and usage errors.
# Usage: bash test_estimate.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

cat >mlp.py <<'EOF'
import torch
import torch.nn as nn

D = 768


class Block(nn.Module):
    def __init__(self, d=D):
        super().__init__()
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)


model = nn.Sequential(*[Block() for _ in range(12)])
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
EOF
printf 'import torch\nx = torch.zeros(3)\n' >nomodel.py

begin "text: one row per layer with file:line, arguments, repeat and parameters"
oom estimate mlp.py
want_rc 0 && want_out "mlp.py:10" && want_out "nn.Linear(768, 3072)" && want_out "x12" && want_out "28,348,416"
end

begin "text: totals, optimizer, activations and budget lines"
oom estimate mlp.py
want_out "56,669,184" && want_out "AdamW, 8 bytes per trainable parameter" && want_out "never calls this model" &&
  want_out "none given"
end

begin "json: the schema's keys"
oom estimate --output-format json mlp.py
want_rc 0 && want_out '"file": "mlp.py"' && want_out '"trainable_parameters": 56669184' &&
  want_out '"optimizer": "AdamW"' && want_out '"optimizer_state_bytes": 453353472' &&
  want_out '"input_batch_bytes": null' && want_out '"repeat": 12' && want_out '"budget_bytes": null'
end

begin "over the budget: exit 1 and the changes that fit"
oom estimate --gpu-memory 512MiB mlp.py
want_rc 1 && want_out "over by" && want_out "bf16"
end

begin "under the budget: exit 0"
oom estimate --gpu-memory 24GiB --output-format json mlp.py
want_rc 0 && want_out '"budget_bytes": 25769803776'
end

begin "a file without a model"
oom estimate nomodel.py
want_rc 0 && want_out "0 models"
end

begin "a bad --gpu-memory is a usage error"
oom estimate --gpu-memory lots mlp.py
want_rc 2 && want_err "--gpu-memory"
end

begin "no file is a usage error"
oom estimate
want_rc 2
end

begin "a missing file is an I/O error"
oom estimate missing.py
want_rc 2 && want_err "missing.py"
end

begin "check reports OOM601 only with a budget"
oom check --select OOM601 --gpu-memory 512MiB mlp.py
want_rc 1 && want_out "OOM601"
end

begin "check without a budget: OOM601 is silent"
oom check --select OOM601 mlp.py
want_rc 0
end

# ---- the script as it runs: other files of its project, its command line ----
mkdir -p proj/config proj/nets
cat >proj/model.py <<'EOF'
from dataclasses import dataclass

import torch.nn as nn

from nets.blocks import Block


@dataclass
class Config:
    vocab: int = 100
    width: int = 16
    depth: int = 2


class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab, cfg.width)
        self.blocks = nn.ModuleList([Block(cfg.width) for _ in range(cfg.depth)])
EOF
touch proj/nets/__init__.py
cat >proj/nets/blocks.py <<'EOF'
import torch.nn as nn

from .base import Base


class Block(Base):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
EOF
cat >proj/nets/base.py <<'EOF'
import torch.nn as nn


class Base(nn.Module):
    pass
EOF
cat >proj/train.py <<'EOF'
import argparse

import torch

import model as m
from model import *

parser = argparse.ArgumentParser()
parser.add_argument("--depth", type=int, default=2)
parser.add_argument("--batch-size", type=int, default=8)
args = parser.parse_args()
words = open("corpus.txt").read().split()
vocab_size = len(set(words))
net = m.Net(Config(vocab=vocab_size, depth=args.depth))
optimizer = torch.optim.AdamW(net.parameters())
EOF

begin "a model class of another module, its layers in a third: file:line of each"
oom estimate proj/train.py --assume vocab_size=50
want_rc 0 && want_out "model.py:18" && want_out "nn.Embedding(50, 16)" && want_out "blocks.py:9" &&
  want_out "nn.Linear(16, 16)" && want_out "x2" && want_out "1,344"
end

begin "a size only the data knows is named with the flag that gives it"
oom estimate proj/train.py
want_rc 0 && want_out "vocab_size = len(set(words))" && want_out "--assume vocab_size=N" && want_out "544"
end

begin "the script's own arguments after --"
oom estimate --output-format json proj/train.py --assume vocab_size=50 -- --depth 5
want_rc 0 && want_out '"parameters": 2160' && want_out '"file": "blocks.py"'
end

begin "--assume needs NAME=INTEGER"
oom estimate proj/train.py --assume vocab_size=many
want_rc 2 && want_err "--assume"
end

cat >proj/configurator.py <<'EOF'
import sys
from ast import literal_eval

for arg in sys.argv[1:]:
    if "=" not in arg:
        exec(open(arg).read())
    else:
        key, val = arg.split("=")
        key = key[2:]
        if key in globals():
            try:
                attempt = literal_eval(val)
            except (SyntaxError, ValueError):
                attempt = val
            globals()[key] = attempt
        else:
            raise ValueError(f"Unknown config key: {key}")
EOF
printf 'width = 32\n' >proj/config/wide.py
cat >proj/gpt.py <<'EOF'
import torch.nn as nn

width = 8
depth = 2
exec(open("configurator.py").read())
model = nn.Sequential(*[nn.Linear(width, width, bias=False) for _ in range(depth)])
EOF

begin "nanoGPT's configurator: a config file and --key=value on the script's command line"
oom estimate --output-format json proj/gpt.py -- config/wide.py --depth=3
want_rc 0 && want_out '"parameters": 3072'
end

begin "assume in the configuration file; --assume beats it"
printf 'assume = ["vocab_size=50"]\n' >proj/oomlint.toml
oom estimate --output-format json proj/train.py
want_rc 0 && want_out '"parameters": 1344'
oom estimate --output-format json proj/train.py --assume vocab_size=10
want_rc 0 && want_out '"parameters": 704'
printf 'assume = ["vocab_size"]\n' >proj/oomlint.toml
oom estimate proj/train.py
want_rc 2 && want_err "NAME=INTEGER"
rm proj/oomlint.toml
end

begin "OOM601 takes the assumed sizes"
cat >proj/big.py <<'EOF'
import torch
import torch.nn as nn

vocab = len(open("words.txt").read().split())
model = nn.Embedding(vocab, 4096)
optimizer = torch.optim.Adam(model.parameters())
EOF
oom check --select OOM601 --gpu-memory 1GiB proj/big.py
want_rc 0
oom check --select OOM601 --gpu-memory 1GiB --assume vocab=1000000 proj/big.py
want_rc 1 && want_out "OOM601"
end

begin "--gpu-memory auto: the first GPU's memory from nvidia-smi"
mkdir -p fakebin
printf '#!/bin/sh\necho "81559"\necho "81559"\n' >fakebin/nvidia-smi
chmod +x fakebin/nvidia-smi
PATH="$PWD/fakebin:$PATH" oom estimate --gpu-memory auto --output-format json mlp.py
want_rc 0 && want_out '"budget_bytes": 85520809984' && want_err "81559 MiB"
end

begin "--gpu-memory auto without nvidia-smi says so and checks no budget"
printf '#!/bin/sh\nexit 9\n' >fakebin/nvidia-smi
PATH="$PWD/fakebin:$PATH" oom estimate --gpu-memory auto --output-format json mlp.py
want_rc 0 && want_out '"budget_bytes": null' && want_err "no budget"
end

begin "the script's files: a config is read, a large data file is not, os.path.exists sees both"
mkdir -p data
head -c 5000000 /dev/zero >data/train.bin
cat >reads.py <<'EOF'
import os
import torch.nn as nn

width = 4 if os.path.exists("data/train.bin") else 1
text = open("data/train.bin").read()
model = nn.Linear(width, len(text))
EOF
oom estimate reads.py
want_rc 0 && want_out "nn.Linear(4, ?)" && want_out "data/train.bin"
end

begin "--show-settings lists the assumed sizes, the flags' first"
printf 'assume = ["vocab_size=50"]\n' >proj/oomlint.toml
oom --show-settings --assume n_embd=8 proj/train.py
want_rc 0 && want_out 'assume = ["n_embd=8", "vocab_size=50"]'
rm proj/oomlint.toml
end

begin "a model another module's function builds is built where the script calls it"
printf 'from model import Config, Net\n\n\ndef build(depth=1):\n    helper = Net(Config(depth=3))\n    return Net(Config(depth=depth))\n' >proj/factory.py
printf 'import factory\n\nnet = factory.build(depth=2)\n' >proj/train2.py
oom estimate proj/train2.py
want_rc 0 && want_out "model \`net\`: Net, built at train2.py:3" && want_out "built at factory.py:5"
end

finish
