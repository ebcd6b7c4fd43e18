"""pytorch/examples time_sequence_prediction/train.py: Sequence().double(), MSELoss, LBFGS(lr=0.8) with its
closure (up to max_iter=20 forward/backward passes per optimizer step, each graph freed by its
backward: the peak is one pass), on data[3:, :-1] of generate_sine_wave.py: 97 sequences of 999
float64 steps."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row

path, argv = row("time_sequence_prediction")
m = load_defs(path, "tsp_train")
seq = m.Sequence()
seq.double()
seq = seq.to(DEVICE)
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8)
N, L = 100, 1000  # generate_sine_wave.py


def step(b):
    x = torch.arange(L, dtype=torch.float64).repeat(b, 1) + torch.randint(-80, 80, (b, 1)).double()
    data = torch.sin(x / 20.0).to(DEVICE)
    inp, target = data[:, :-1], data[:, 1:]

    def closure():
        optimizer.zero_grad()
        out = seq(inp)
        loss = criterion(out, target)
        loss.backward()
        return loss

    optimizer.step(closure)


measure("time_sequence_prediction", [seq], [optimizer], step, N - 3,
        inputs_desc="float64 [97, 999]",
        notes=["the script runs on the CPU only (forward() creates its states on the CPU): gpu_run.sh runs this case on the CPU",
               "optimizer state: LBFGS history after one step (up to 20 evaluations)"] + m.__skipped_imports__)
