"""vwxyzjn/cleanrl cleanrl/dqn_atari.py at its defaults (the Args dataclass, read by tyro): QNetwork on
BreakoutNoFrameskip-v4 (4 actions: a size only the environment knows), Adam(learning_rate), one
training step of its loop: target network under no_grad, q_network on a replay batch of
batch_size uint8 4x84x84 observations, gather, mse_loss, backward, step.  The target network
(a second copy of the weights, no gradients, no optimizer) is reported in `extra`."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from types import SimpleNamespace
import torch
import torch.nn.functional as F
import torch.optim as optim
from harness import DEVICE, load_defs, measure, row

path, argv = row("cleanrl_dqn_atari")
m = load_defs(path, "cleanrl_dqn_atari")
args = m.Args()
envs = SimpleNamespace(single_action_space=SimpleNamespace(n=4))  # Breakout's action space
q_network = m.QNetwork(envs).to(DEVICE)
optimizer = optim.Adam(q_network.parameters(), lr=args.learning_rate)
target_network = m.QNetwork(envs).to(DEVICE)
target_network.load_state_dict(q_network.state_dict())


def step(b):
    obs = torch.randint(0, 256, (b, 4, 84, 84), dtype=torch.uint8, device=DEVICE)
    next_obs = torch.randint(0, 256, (b, 4, 84, 84), dtype=torch.uint8, device=DEVICE)
    actions = torch.randint(0, 4, (b, 1), device=DEVICE)
    rewards = torch.rand(b, 1, device=DEVICE)
    dones = torch.zeros(b, 1, device=DEVICE)
    with torch.no_grad():
        target_max, _ = target_network(next_obs).max(dim=1)
        td_target = rewards.flatten() + args.gamma * target_max * (1 - dones.flatten())
    old_val = q_network(obs).gather(1, actions).squeeze()
    loss = F.mse_loss(td_target, old_val)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


target_bytes = sum(p.numel() * p.element_size() for p in target_network.parameters())
measure("cleanrl_dqn_atari", [q_network], [optimizer], step, args.batch_size,
        inputs_desc="uint8 [B,4,84,84] observations (and next observations), int64 [B,1] actions",
        notes=["the replay buffer (1,000,000 transitions, SB3 optimize_memory_usage) lives in host memory, not counted"]
        + m.__skipped_imports__, extra={"target_network_bytes": target_bytes})
