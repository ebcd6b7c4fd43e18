"""A stand-in for Cora as pytorch/examples' load_cora returns it (no download here): 2708 nodes,
1433 binary word features (49,216 ones in Cora, row-normalized by the script), 7 classes,
5429 citation links plus self-loops.  Only the sizes are Cora's; links and words are random."""
import torch

NODES, FEATURES, CLASSES, LINKS, WORDS = 2708, 1433, 7, 5429, 49216


def cora(device, normalize_adj):
    g = torch.Generator().manual_seed(0)
    flat = torch.randperm(NODES * FEATURES, generator=g)[:WORDS]
    features = torch.zeros(NODES * FEATURES)
    features[flat] = 1.0
    features = features.view(NODES, FEATURES)
    features = features / features.sum(1, keepdim=True).clamp(min=1)
    pairs = torch.randperm(NODES * NODES, generator=g)
    pairs = pairs[pairs // NODES != pairs % NODES][:LINKS]
    edges = torch.stack([pairs // NODES, pairs % NODES])
    adj = torch.sparse_coo_tensor(edges, torch.ones(LINKS), (NODES, NODES)).to_dense() + torch.eye(NODES)
    if normalize_adj:
        d = adj.sum(1).pow(-0.5)
        adj = d[:, None] * adj * d[None, :]
    labels = torch.randint(0, CLASSES, (NODES,), generator=g)
    return features.to(device), labels.to(device), adj.to(device)
