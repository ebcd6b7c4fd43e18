"""pytorch/examples word_language_model/main.py at its defaults: RNNModel('LSTM', ntokens, 200, 200, 2, 0.2),
NLLLoss, clip_grad_norm_, and a hand-written SGD update (no optimizer object: --use-optimizer is off).
With the row word_language_model_transformer (--model Transformer): TransformerModel(ntokens, emsize,
nhead, nhid, nlayers, dropout), an nn.Transformer subclass (d_model, nhead, dim_feedforward and
num_encoder_layers passed on; the encoder layers keep nn.Transformer's own dropout 0.1; its
`decoder` stack is replaced by the output Linear), with its causal mask.

Usage: word_language_model.py [ROW] (default word_language_model).

ntokens is len(corpus.dictionary) of Wikitext-2 as data.Corpus builds it (train,
valid and test words plus <eos>): 33278.  A batch is bptt x batch_size tokens.
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch.nn as nn
from harness import DEVICE, load_defs, measure, row, script_args

NTOKENS = 33278
name = sys.argv[1] if len(sys.argv) > 1 else "word_language_model"
path, argv = row(name)
args = script_args(path, argv)
m = load_defs(os.path.join(os.path.dirname(path), "model.py"), "wlm_model")
transformer = args.model == "Transformer"
if transformer:
    model = m.TransformerModel(NTOKENS, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout).to(DEVICE)
else:
    model = m.RNNModel(args.model, NTOKENS, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied).to(DEVICE)
criterion = nn.NLLLoss()


def step(b):
    data = torch.randint(0, NTOKENS, (args.bptt, b), device=DEVICE)
    targets = torch.randint(0, NTOKENS, (args.bptt * b,), device=DEVICE)
    model.zero_grad()
    if transformer:
        output = model(data).view(-1, NTOKENS)
    else:
        output, hidden = model(data, model.init_hidden(b))
    loss = criterion(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-args.lr)


measure(name, [model], [], step, args.batch_size,
        inputs_desc=f"int64 [bptt={args.bptt}, B] tokens, vocabulary {NTOKENS}",
        notes=["no optimizer object: the script updates p.data by hand (SGD without state)"])
