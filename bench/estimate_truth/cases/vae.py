"""pytorch/examples vae/main.py: VAE, Adam(lr=1e-3), loss_function (BCE sum + KLD), batch 128 of 1x28x28."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("vae")
args = script_args(path, argv)
m = load_defs(path, "vae_main")
model = m.VAE().to(DEVICE)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def step(b):
    data = torch.rand(b, 1, 28, 28, device=DEVICE)  # MNIST after ToTensor, in [0, 1]
    optimizer.zero_grad()
    recon, mu, logvar = model(data)
    loss = m.loss_function(recon, data, mu, logvar)
    loss.backward()
    optimizer.step()


measure("vae", [model], [optimizer], step, args.batch_size, inputs_desc="float32 [B,1,28,28]")
