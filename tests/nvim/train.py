import torch
from torch.utils.checkpoint import checkpoint

model = torch.nn.DataParallel(net)
total = 0
for x, y in loader:
    with torch.cuda.amp.autocast():
        out = checkpoint(model, x)
    loss = criterion(out, y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print("训练😀é́"); total += loss
    torch.cuda.empty_cache()
