"""pytorch/examples imagenet/main.py: models.__dict__[args.arch](), CrossEntropyLoss, SGD(lr, momentum,
weight_decay), batch args.batch_size of RandomResizedCrop(224) images.

Usage: imagenet.py NAME (imagenet_resnet18 or imagenet_resnet50: the row gives the argv).
On the CPU the saved bytes are measured at batch 2 and 4 and extrapolated to the default 256.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torchvision.models as models
from harness import DEVICE, measure, row, script_args

name = sys.argv[1]
path, argv = row(name)
model_names = sorted(n for n in models.__dict__ if n.islower() and not n.startswith("__") and callable(models.__dict__[n]))
args = script_args(path, argv, {"model_names": model_names})
model = models.__dict__[args.arch]().to(DEVICE)
criterion = nn.CrossEntropyLoss().to(DEVICE)
optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=args.momentum, weight_decay=args.weight_decay)


def step(b):
    images = torch.randn(b, 3, 224, 224, device=DEVICE)
    target = torch.randint(0, 1000, (b,), device=DEVICE)
    output = model(images)
    loss = criterion(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


measure(name, [model], [optimizer], step, args.batch_size, cpu_batches=(2, 4),
        inputs_desc="float32 [B,3,224,224], int64 [B]", extra={"arch": args.arch})
