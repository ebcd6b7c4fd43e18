"""pytorch/examples dcgan/main.py at its defaults (--dataset cifar10: nc=3): one iteration of its loop,
D on real, D on G(noise).detach(), optimizerD.step(), D on G(noise) for G, optimizerG.step()."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row, script_args

path, argv = row("dcgan")
opt = script_args(path, argv)
m = load_defs(path, "dcgan_main")
# The classes read these module globals, set by the script's top level from opt.
m.nz, m.ngf, m.ndf, m.nc = int(opt.nz), int(opt.ngf), int(opt.ndf), 3
netG = m.Generator(int(opt.ngpu)).to(DEVICE)
netG.apply(m.weights_init)
netD = m.Discriminator(int(opt.ngpu)).to(DEVICE)
netD.apply(m.weights_init)
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
nz = m.nz


def step(b):
    real = torch.randn(b, 3, opt.imageSize, opt.imageSize, device=DEVICE)
    netD.zero_grad()
    label = torch.full((b,), 1.0, dtype=real.dtype, device=DEVICE)
    output = netD(real)
    errD_real = criterion(output, label)
    errD_real.backward()
    noise = torch.randn(b, nz, 1, 1, device=DEVICE)
    fake = netG(noise)
    label.fill_(0.0)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    optimizerD.step()
    netG.zero_grad()
    label.fill_(1.0)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()


measure("dcgan", [netG, netD], [optimizerD, optimizerG], step, opt.batchSize,
        inputs_desc=f"float32 [B,3,{opt.imageSize},{opt.imageSize}] real images, [B,{nz},1,1] noise",
        notes=["saved bytes are the peak alive at once: G's graph stays alive from netG(noise) until errG.backward()"])
