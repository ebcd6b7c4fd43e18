"""pytorch/examples gat/main.py: GAT(features, hidden_dim, num_heads, classes, concat_heads, dropout_p, 0.2),
Adam(lr, l2), NLLLoss on the training nodes (idx[1600:]), one full-graph step; dense features and adjacency."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
from cora import CLASSES, NODES, cora
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("gat")
args = script_args(path, argv)
m = load_defs(path, "gat_main")
features, labels, adj = cora(DEVICE, normalize_adj=False)
idx_train = torch.randperm(NODES)[1600:].to(DEVICE)
model = m.GAT(in_features=features.shape[1], n_hidden=args.hidden_dim, n_heads=args.num_heads, num_classes=CLASSES,
              concat=args.concat_heads, dropout=args.dropout_p, leaky_relu_slope=0.2).to(DEVICE)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.l2)
criterion = nn.NLLLoss()


def step(_):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss = criterion(output[idx_train], labels[idx_train])
    loss.backward()
    optimizer.step()


measure("gat", [model], [optimizer], step, NODES, inputs_desc="float32 features [2708,1433], dense adjacency [2708,2708]",
        notes=["batch = the whole graph (2708 nodes)", "Cora's sizes, random links and words (cases/cora.py)"])
