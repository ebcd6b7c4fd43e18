# A loop over zip() of nothing that calls a model and collects what it
# returns: the pieces-of-one-call test must not leave its walk behind.
import torch
from torch import nn

net = nn.Linear(4, 4)


def collect(xs):
    outs = []
    for a in zip():
        outs.append(net(a))
    return torch.cat(outs)


def probe(model, steps):
    for _ in range(steps):
        with torch.autocast("cuda"):
            out = model()
        out.mean().backward()
