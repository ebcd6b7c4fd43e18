"""milesial/Pytorch-UNet train.py at its defaults: UNet(n_channels=3, n_classes=args.classes, bilinear=False) in
channels_last, RMSprop(lr, weight_decay, momentum, foreach=True) with train_model's defaults,
CrossEntropyLoss + dice_loss(softmax, one_hot), clip_grad_norm_, GradScaler disabled (--amp off),
batch args.batch_size of Carvana images (1918x1280) scaled by --scale 0.5: 959x640.

TRUTH_UNET_SCALE (default 0.5, the script's) sets the image scale; below the default on a
small machine, the saved bytes are NOT the default's (they grow with the pixels).
"""
import inspect
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from harness import DEVICE, grad_scaler, load_defs, measure, row, script_args

path, argv = row("unet")
args = script_args(path, argv)
m = load_defs(path, "unet_train")
defaults = {k: p.default for k, p in inspect.signature(m.train_model).parameters.items()}
model = m.UNet(n_channels=3, n_classes=args.classes, bilinear=args.bilinear)
model = model.to(memory_format=torch.channels_last).to(DEVICE)
try:
    optimizer = optim.RMSprop(model.parameters(), lr=args.lr, weight_decay=defaults["weight_decay"],
                              momentum=defaults["momentum"], foreach=True)
except TypeError:
    optimizer = optim.RMSprop(model.parameters(), lr=args.lr, weight_decay=defaults["weight_decay"],
                              momentum=defaults["momentum"])
scaler = grad_scaler(args.amp)
criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
scale = float(os.environ.get("TRUTH_UNET_SCALE", args.scale))
W, H = int(scale * 1918), int(scale * 1280)


def step(b):
    images = torch.rand(b, 3, H, W, device=DEVICE).to(memory_format=torch.channels_last)
    true_masks = torch.randint(0, model.n_classes, (b, H, W), device=DEVICE)
    with torch.autocast(DEVICE.type, enabled=args.amp):
        masks_pred = model(images)
        loss = criterion(masks_pred, true_masks)
        loss += m.dice_loss(F.softmax(masks_pred, dim=1).float(),
                            F.one_hot(true_masks, model.n_classes).permute(0, 3, 1, 2).float(), multiclass=True)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), defaults["gradient_clipping"])
    scaler.step(optimizer)
    scaler.update()


measure("unet", [model], [optimizer], step, args.batch_size, inputs_desc=f"float32 [B,3,{H},{W}] channels_last, int64 masks [B,{H},{W}]",
        notes=[f"image {W}x{H} (Carvana 1918x1280 at scale {scale})"], extra={"image": [H, W]})
