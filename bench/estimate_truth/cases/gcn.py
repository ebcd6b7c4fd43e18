"""pytorch/examples gcn/main.py: GCN(features, hidden_dim, classes, include_bias, dropout_p), Adam(lr, l2),
NLLLoss on the training nodes (idx[1500:]), one full-graph step; features and the normalized
adjacency are sparse, as load_cora returns them."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
from cora import CLASSES, NODES, cora
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("gcn")
args = script_args(path, argv)
m = load_defs(path, "gcn_main")
features, labels, adj = cora("cpu", normalize_adj=True)
features, adj = features.to_sparse().to(DEVICE), adj.to_sparse().to(DEVICE)
labels = labels.to(DEVICE)
idx_train = torch.randperm(NODES)[1500:].to(DEVICE)
model = m.GCN(features.shape[1], args.hidden_dim, CLASSES, args.include_bias, args.dropout_p).to(DEVICE)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.l2)
criterion = nn.NLLLoss()


def step(_):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss = criterion(output[idx_train], labels[idx_train])
    loss.backward()
    optimizer.step()


measure("gcn", [model], [optimizer], step, NODES, inputs_desc="sparse float32 features [2708,1433], sparse adjacency [2708,2708]",
        notes=["batch = the whole graph (2708 nodes)", "Cora's sizes, random links and words (cases/cora.py)"])
