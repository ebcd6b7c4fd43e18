"""pytorch/examples fast_neural_style/neural_style/neural_style.py `train` at its defaults: TransformerNet,
Adam(lr), a frozen Vgg16 (requires_grad=False; its ImageNet weights are not downloaded here:
the same layers, random weights), content loss on relu2_2 and style loss on the four Gram
matrices, batch args.batch_size of image_size x image_size images (x255)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torchvision.models as tv_models
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("fast_neural_style")
args = script_args(path, argv)
folder = os.path.dirname(path)
_vgg16 = tv_models.vgg16
tv_models.vgg16 = lambda *a, **kw: _vgg16()  # no download: the architecture without its weights
ns = load_defs(path, "fns_main")
utils = sys.modules["utils"]
transformer = ns.TransformerNet().to(DEVICE)
optimizer = torch.optim.Adam(transformer.parameters(), args.lr)
mse_loss = torch.nn.MSELoss()
vgg = ns.Vgg16(requires_grad=False).to(DEVICE)
with torch.no_grad():
    style = torch.rand(args.batch_size, 3, args.image_size, args.image_size, device=DEVICE) * 255
    gram_style = [utils.gram_matrix(y) for y in vgg(utils.normalize_batch(style))]


def step(b):
    x = torch.rand(b, 3, args.image_size, args.image_size, device=DEVICE) * 255
    optimizer.zero_grad()
    y = transformer(x)
    y = utils.normalize_batch(y)
    x = utils.normalize_batch(x)
    features_y = vgg(y)
    features_x = vgg(x)
    content_loss = args.content_weight * mse_loss(features_y.relu2_2, features_x.relu2_2)
    style_loss = 0.
    for ft_y, gm_s in zip(features_y, gram_style):
        gm_y = utils.gram_matrix(ft_y)
        style_loss += mse_loss(gm_y, gm_s[:b, :, :])
    style_loss *= args.style_weight
    total_loss = content_loss + style_loss
    total_loss.backward()
    optimizer.step()


measure("fast_neural_style", [transformer, vgg], [optimizer], step, args.batch_size,
        inputs_desc=f"float32 [B,3,{args.image_size},{args.image_size}]",
        notes=["parameters include the frozen VGG-16 slices (no gradients, no optimizer state)"] + ns.__skipped_imports__)
