"""eriklindernoren/PyTorch-GAN implementations/wgan_gp/wgan_gp.py: the first iteration of its loop (i = 0, so
the generator is trained too): D on real and on G(z), the gradient penalty (autograd.grad with
create_graph=True: the graph of the gradient is saved for the second backward), d_loss.backward(),
optimizer_D.step(), then G(z) through D and optimizer_G.step(); Adam x2, batch 64 of 1x28x28."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy as np
import torch
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("wgan_gp")
opt = script_args(path, argv)
m = load_defs(path, "wgan_gp_main")
# Module globals the script's top level sets and its classes and functions read.
m.opt = opt
m.img_shape = (opt.channels, opt.img_size, opt.img_size)
m.cuda = DEVICE.type == "cuda"


def Tensor(*a):
    """The script's `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`, in both its uses
    (from a NumPy array; from sizes), without the legacy constructors newer PyTorch warns about."""
    if len(a) == 1 and isinstance(a[0], np.ndarray):
        return torch.tensor(a[0], dtype=torch.float32, device=DEVICE)
    return torch.empty(*a, device=DEVICE)


m.Tensor = Tensor
lambda_gp = 10
generator = m.Generator().to(DEVICE)
discriminator = m.Discriminator().to(DEVICE)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt.lr, betas=(opt.b1, opt.b2))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt.lr, betas=(opt.b1, opt.b2))


def step(b):
    real_imgs = torch.rand(b, *m.img_shape, device=DEVICE) * 2 - 1
    optimizer_D.zero_grad()
    z = Tensor(np.random.normal(0, 1, (b, opt.latent_dim)))
    fake_imgs = generator(z)
    real_validity = discriminator(real_imgs)
    fake_validity = discriminator(fake_imgs)
    gradient_penalty = m.compute_gradient_penalty(discriminator, real_imgs.data, fake_imgs.data)
    d_loss = -torch.mean(real_validity) + torch.mean(fake_validity) + lambda_gp * gradient_penalty
    d_loss.backward()
    optimizer_D.step()
    optimizer_G.zero_grad()
    fake_imgs = generator(z)
    fake_validity = discriminator(fake_imgs)
    g_loss = -torch.mean(fake_validity)
    g_loss.backward()
    optimizer_G.step()


measure("wgan_gp", [generator, discriminator], [optimizer_D, optimizer_G], step, opt.batch_size,
        inputs_desc=f"float32 [B,{opt.channels},{opt.img_size},{opt.img_size}], noise [B,{opt.latent_dim}]")
