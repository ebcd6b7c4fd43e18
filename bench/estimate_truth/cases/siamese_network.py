"""pytorch/examples siamese_network/main.py: SiameseNetwork (ResNet-18 trunk), BCELoss, Adadelta(lr=args.lr),
batch args.batch_size pairs of MNIST images (1x28x28, float, unnormalized) and float targets."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("siamese_network")
args = script_args(path, argv)
m = load_defs(path, "siamese_main")
model = m.SiameseNetwork().to(DEVICE)
optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
criterion = nn.BCELoss()


def step(b):
    images_1 = torch.rand(b, 1, 28, 28, device=DEVICE) * 255
    images_2 = torch.rand(b, 1, 28, 28, device=DEVICE) * 255
    targets = torch.randint(0, 2, (b,), device=DEVICE).float()
    optimizer.zero_grad()
    outputs = model(images_1, images_2).squeeze()
    loss = criterion(outputs, targets)
    loss.backward()
    optimizer.step()


measure("siamese_network", [model], [optimizer], step, args.batch_size, inputs_desc="2 x float32 [B,1,28,28], float32 [B]")
