"""pytorch/examples vision_transformer/main.py (pinned before its removal): ViT(args), Adam(lr, weight_decay),
CrossEntropyLoss, batch args.batch_size of CIFAR-10 resized to img_size x img_size.

Its class token and positional embedding are parameters of shape [batch_size, 1, latent_size]:
the parameter count depends on the batch size.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("vision_transformer")
args = script_args(path, argv)
args.no_cuda = DEVICE.type != "cuda"
m = load_defs(path, "vit_main")
model = m.ViT(args).to(DEVICE)
optimizer = optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
criterion = nn.CrossEntropyLoss()


def step(b):
    images = torch.rand(b, args.n_channels, args.img_size, args.img_size, device=DEVICE)
    labels = torch.randint(0, args.num_classes, (b,), device=DEVICE)
    optimizer.zero_grad()
    logits = model(images)
    loss = criterion(logits, labels)
    loss.backward()
    optimizer.step()


measure("vision_transformer", [model], [optimizer], step, args.batch_size,
        inputs_desc=f"float32 [B,3,{args.img_size},{args.img_size}], int64 [B]")
