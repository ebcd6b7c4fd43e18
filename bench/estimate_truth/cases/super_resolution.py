"""pytorch/examples super_resolution/main.py with --upscale_factor 3 (its README's example; the flag is required):
Net(upscale_factor), MSELoss, Adam(lr=opt.lr), batch opt.batchSize.

Its data.py crops BSDS300 to calculate_valid_crop_size(256, 3) = 255 and
resizes the input to 255 // 3 = 85: inputs [B,1,85,85], targets [B,1,255,255] (the Y channel).
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("super_resolution")
opt = script_args(path, argv)
m = load_defs(os.path.join(os.path.dirname(path), "model.py"), "sr_model")
model = m.Net(upscale_factor=opt.upscale_factor).to(DEVICE)
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=opt.lr)
crop = 256 - 256 % opt.upscale_factor
small = crop // opt.upscale_factor


def step(b):
    inp = torch.rand(b, 1, small, small, device=DEVICE)
    target = torch.rand(b, 1, crop, crop, device=DEVICE)
    optimizer.zero_grad()
    loss = criterion(model(inp), target)
    loss.backward()
    optimizer.step()


measure("super_resolution", [model], [optimizer], step, opt.batchSize,
        inputs_desc=f"float32 [B,1,{small},{small}] -> [B,1,{crop},{crop}]")
