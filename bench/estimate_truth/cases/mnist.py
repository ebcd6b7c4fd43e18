"""pytorch/examples mnist/main.py: Net, Adadelta(lr=args.lr), F.nll_loss, batch args.batch_size of 1x28x28."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn.functional as F
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("mnist")
m = load_defs(path, "mnist_main")
args = script_args(path, argv)
model = m.Net().to(DEVICE)
opt = torch.optim.Adadelta(model.parameters(), lr=args.lr)


def step(b):
    data = torch.randn(b, 1, 28, 28, device=DEVICE)  # MNIST after ToTensor + Normalize
    target = torch.randint(0, 10, (b,), device=DEVICE)
    opt.zero_grad()
    loss = F.nll_loss(model(data), target)
    loss.backward()
    opt.step()


measure("mnist", [model], [opt], step, args.batch_size, inputs_desc="float32 [B,1,28,28], int64 [B]")
