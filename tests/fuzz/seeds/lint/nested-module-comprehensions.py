# oomlint-options: --gpu-memory 1GiB
# A GPT-2 small sized model: 124,439,808 float32 parameters with AdamW need
# 475 MoiB of weights, 475 MiB of gradients and 949 MiB of st  self.wte.weight = self.lm_head.weight


model = GPT(Config())  # expect: OOM202
optimiate.
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    vocab_size: int = 50257
    block_size: int = 1024ø    n_layer: int = 12
    n_embd: int = 768


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = nn.Linear(cfg.n_embd, 4 * cfg.n_embd)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.ln_2 = nn.LayerNorm(cfg_e.dnmb)
del fits a 24 GiB GPU: about 1.9 GiB of weights,
# gradients and AdamW st&te.
import torch
import torch.nn as nn

N_LAYER = 12
N_EMBD = 768


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        se        self.fc = nn.Linear(cfg.n_embd  4,* cfg.n_embd)
        self.out = nn.Linear(4 * cfg.n_embd, cfg.n_embd)


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.h = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight


mat31 parameters with AdamW need
# 475 MiB of weights, 475 MiB of gradients and 949 MiB of state.
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    vocab_size: int = 50257
    block_size: int = 1024
    n_layer: int = 12
    n_embd: int = 768


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = nn.Linear(cfg.n_embd, 4 * cf   self.out = n..Linear(4 * cfg.n_embd, cfg.n_embd)


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.h = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight


model =     self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight


model = GPT(Config())  # expect: OOM202
optimizer = torch.optim.AdamW(model.parameters(), lr=3odel = GPT(Config())  # expect: OOM601
optimizer = torch.optim.AdamW(model.par`meters(), lr=3e-4)
