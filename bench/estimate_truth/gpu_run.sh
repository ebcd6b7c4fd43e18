#!/bin/sh
# Run every case of scripts.tsv on CUDA, one training step each at the script's own batch (no
# scaling), recording what autograd saves for backward and torch.cuda.max_memory_allocated()
# over the step.  Needs only PyTorch and torchvision (no network): the scripts must already be
# materialized under fetched/ (materialize.sh, on a machine with the repositories), and travel
# with the working tree, e.g. through the device tool's `carry`:
#
#     run(command="sh bench/estimate_truth/gpu_run.sh", carry=["bench/estimate_truth/fetched"], timeout_s=540)
#
# Writes $OUT/NAME.json and NAME.err per case, $OUT/env.txt and $OUT/truth-gpu.json (every case
# by name, the format of truth.json).  CASE_TIMEOUT (default 90 s) bounds each case.
# time_sequence_prediction runs on the CPU, last (CPU_CASE_TIMEOUT, default 240 s): the script
# itself creates its states there.
# For a dry run elsewhere: GPU_RUN_DEVICE=cpu (default cuda), GPU_RUN_ONLY="NAME ..." (a subset).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/gpu-out}
PYTHON=${PYTHON:-python3}
mkdir -p "$out"
[ -d "$here/fetched" ] || { echo "gpu_run: $here/fetched is missing: run materialize.sh and carry it" >&2; exit 2; }
$PYTHON -c 'import torch, torchvision; print("torch", torch.__version__, "torchvision", torchvision.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name() if torch.cuda.is_available() else "no GPU")' > "$out/env.txt" 2>&1
cat "$out/env.txt"
run_rows() {  # $1: "gpu" (every row but the CPU-only script) or "cpu" (that script)
  pass=$1
  tail -n +2 "$here/scripts.tsv" | while IFS="$(printf '\t')" read -r name repo commit script needs args case assume models notes; do
    if [ -n "${GPU_RUN_ONLY:-}" ]; then
      case " $GPU_RUN_ONLY " in *" $name "*) ;; *) continue ;; esac
    fi
    dev=${GPU_RUN_DEVICE:-cuda}
    limit=${CASE_TIMEOUT:-90}
    if [ "$name" = time_sequence_prediction ]; then
      [ "$pass" = cpu ] || continue
      dev=cpu
      limit=${CPU_CASE_TIMEOUT:-240}
    else
      [ "$pass" = gpu ] || continue
    fi
    set -- $case
    file=$1
    shift
    start=$(date +%s)
    TRUTH_DEVICE=$dev timeout "$limit" $PYTHON "$here/$file" "$@" > "$out/$name.json" 2> "$out/$name.err"
    echo "gpu_run: $name on $dev: exit $? in $(( $(date +%s) - start )) s"
  done
}
run_rows gpu
run_rows cpu  # last: the CPU-only script, slowest, so that a time limit cuts it and not the GPU rows
$PYTHON - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
merged = {}
for f in sorted(os.listdir(out)):
    if f.endswith(".json") and f != "truth-gpu.json":
        lines = [l for l in open(os.path.join(out, f)) if l.startswith("{")]
        if lines:
            merged[f[:-5]] = json.loads(lines[-1])
with open(os.path.join(out, "truth-gpu.json"), "w") as f:
    json.dump(merged, f, indent=1, sort_keys=True)
print(f"gpu_run: {len(merged)} cases in truth-gpu.json")
for k, v in merged.items():
    print(f"  {k:26s} saved {v['saved_activation_bytes']:>14,}  peak {v['cuda_first_step_peak_over_weights_bytes'] or 0:>14,}")
PY
