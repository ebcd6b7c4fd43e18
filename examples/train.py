"""Train a small convolutional classifier on CIFAR-10.

This script runs, but it carries several of the habits that make training
jobs run out of GPU memory or waste it. Run `oomlint examples/train.py` to
see them.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Block(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm2d(c_out)

    def forward(self, x):
        return F.relu(self.norm(self.conv(x)))


class Net(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3, 64), Block(64, 128), Block(128, 256)])
        self.head = nn.Linear(256, num_classes)

    def forward(self, x):
        for block in self.blocks:
            x = checkpoint(block, x)  # recompute activations during backward
            x = F.max_pool2d(x, 2)
        return self.head(x.mean(dim=(2, 3)))


def validate(model, loader, device):
    model.eval()
    correct = 0
    for images, labels in loader:
        logits = model(images.to(device))
        correct += (logits.argmax(dim=1).cpu() == labels).sum().item()
    model.train()
    return correct / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()

    device = torch.device("cuda")
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,) * 3, (0.25,) * 3)])
    train_set = datasets.CIFAR10("data", train=True, download=True, transform=tf)
    val_set = datasets.CIFAR10("data", train=False, download=True, transform=tf)
    train_loader = DataLoader(train_set, batch_size=256, shuffle=True, num_workers=4)
    val_loader = DataLoader(val_set, batch_size=512, num_workers=4)

    model = nn.DataParallel(Net()).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    if args.resume:
        state = torch.load(args.resume)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
    scaler = torch.cuda.amp.GradScaler()

    for epoch in range(args.epochs):
        total_loss = 0.0
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            with torch.cuda.amp.autocast():
                loss = F.cross_entropy(model(images), labels)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            total_loss += loss
            torch.cuda.empty_cache()
        accuracy = validate(model, val_loader, device)
        print(f"epoch {epoch}: loss {total_loss / len(train_loader):.4f}, accuracy {accuracy:.3f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "last.pt")


if __name__ == "__main__":
    main()
