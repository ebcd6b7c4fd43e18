# `oomlint estimate` with activations: the per-layer table of what autograd keeps for
# backward, the whole step, the JSON fields, linearity in the batch and the batch that
# fits a budget.
# Usage: bash test_estimate_act.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

# MNIST's example network at batch B
net() {
  cat <<EOF2
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


model = Net()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
data = torch.randn($1, 1, 28, 28)
target = torch.randint(0, 10, ($1,))
loss = F.nll_loss(model(data), target)
loss.backward()
optimizer.step()
EOF2
}
net 64 >net64.py
net 128 >net128.py
printf 'import torch\nimport torch.nn as nn\nmodel = nn.Linear(8, 8)\nx = load()\nmodel(x).sum().backward()\n' >unknown.py

begin "text: one row per layer that keeps tensors, with what it keeps"
oom estimate net64.py
want_rc 0 && want_out "kept for backward by one forward and loss at batch 64" &&
  want_out "net64.py:9 " && want_out "nn.Conv2d(1, 32, 3, 1)" && want_out "input 64x1x28x28 fp32" &&
  want_out "bool mask" && want_out "int64 indices" && want_out "whole step"
end

begin "json: activations_bytes as PyTorch 2.x measures it, per layer, batch and peak"
# peak, as backward starts: weights 4,799,528 + Adadelta's 9,599,056 + activations
# 22,920,196 (conv1 keeps the input batch already) + nll_loss's input gradient 2,560
# = 37,321,340 (the gradients, freed by zero_grad(), come as activations go)
oom estimate --output-format json net64.py
want_rc 0 && want_out '"activations_bytes": 22920196' && want_out '"keeps": "input 64x1x28x28 fp32"' &&
  want_out '"micro_batch": 64' && want_out '"batch_size": 64' && want_out '"peak_bytes": 37321340' &&
  want_out '"activations_unknown": null'
end

begin "activations grow linearly with the batch"
oom estimate --output-format json net128.py
# everything but nll_loss's 4-byte total_weight doubles: 2 * 22920192 + 4
want_out '"activations_bytes": 45840388'
end

begin "a budget names the largest batch that fits and the accumulation that keeps the batch"
oom estimate --gpu-memory 34MiB net64.py
want_rc 1 && want_out "batch that fits" && want_out "accumulation steps"
# 40 MiB - 14,398,584 of weights and state leaves 27,544,456; a sample keeps
# (22,920,196 + 2,560) / 64 = 358,168 bytes: 76 samples
oom estimate --gpu-memory 40MiB --output-format json net64.py
want_out '"max_batch": 76'
end

begin "unknown inputs say which and why"
oom estimate unknown.py
want_rc 0 && want_out "activations" && want_out "line 5: the input of" && want_out "activations not known"
end

finish
