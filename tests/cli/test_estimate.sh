# `oomlint estimate`: the table a person checks by hand, the JSON schema,
# the budget (--gpu-memory) and its exit status, and usage errors.
# Usage: bash test_estimate.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

cat >mlp.py <<'EOF'
import torch
import torch.nn as nn

D = 768


class Block(nn.Module):
    def __init__(self, d=D):
        super().__init__()
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)


model = nn.Sequential(*[Block() for _ in range(12)])
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
EOF
printf 'import torch\nx = torch.zeros(3)\n' >nomodel.py

begin "text: one row per layer with file:line, arguments, repeat and parameters"
oom estimate mlp.py
want_rc 0 && want_out "mlp.py:10" && want_out "nn.Linear(768, 3072)" && want_out "x12" && want_out "28,348,416"
end

begin "text: totals, optimizer, activations and budget lines"
oom estimate mlp.py
want_out "56,669,184" && want_out "AdamW, 8 bytes per trainable parameter" && want_out "never calls this model" &&
  want_out "none given"
end

begin "json: the schema's keys"
oom estimate --output-format json mlp.py
want_rc 0 && want_out '"file": "mlp.py"' && want_out '"trainable_parameters": 56669184' &&
  want_out '"optimizer": "AdamW"' && want_out '"optimizer_state_bytes": 453353472' &&
  want_out '"input_batch_bytes": null' && want_out '"repeat": 12' && want_out '"budget_bytes": null'
end

begin "over the budget: exit 1 and the changes that fit"
oom estimate --gpu-memory 512MiB mlp.py
want_rc 1 && want_out "over by" && want_out "bf16"
end

begin "under the budget: exit 0"
oom estimate --gpu-memory 24GiB --output-format json mlp.py
want_rc 0 && want_out '"budget_bytes": 25769803776'
end

begin "a file without a model"
oom estimate nomodel.py
want_rc 0 && want_out "0 models"
end

begin "a bad --gpu-memory is a usage error"
oom estimate --gpu-memory lots mlp.py
want_rc 2 && want_err "--gpu-memory"
end

begin "no file is a usage error"
oom estimate
want_rc 2
end

begin "a missing file is an I/O error"
oom estimate missing.py
want_rc 2 && want_err "missing.py"
end

begin "check reports OOM601 only with a budget"
oom check --select OOM601 --gpu-memory 512MiB mlp.py
want_rc 1 && want_out "OOM601"
end

begin "check without a budget: OOM601 is silent"
oom check --select OOM601 mlp.py
want_rc 0
end

finish
