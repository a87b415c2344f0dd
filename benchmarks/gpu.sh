#!/usr/bin/env bash
# The benchmark table on a GPU machine, in float64 (dtype_policy="preserve") and float32
# (dtype_policy="float32"). Self-contained: it uses the Python environment it finds (JAX with
# a GPU backend, 0.11.x on the lent H200s, plus numpy and libcst; the machine cannot reach a
# package registry), installs nothing, and writes the two tables and logs under $OUT.
#
#     bash benchmarks/gpu.sh                 # size M (the 1024² heat target), all programs
#     SIZE=L bash benchmarks/gpu.sh --programs heat_k1 jacobi_poisson2d
#
# Extra arguments go to benchmarks/run.py. Environment: SIZE (S|M|L, default M), PYTHON,
# OUT (default $OUT if set, as the device runner provides, else benchmarks/results), and time
# limits in seconds T_RUN (each run.py), T_SUITE, T_OVERHEAD (default none). Each run.py prints
# its table and each program's row as it finishes (gpu_float64.log, gpu_float32.log).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
SIZE=${SIZE:-M}
OUT=${OUT:-benchmarks/results}
mkdir -p "$OUT"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export XLA_PYTHON_CLIENT_PREALLOCATE=false   # the NumPy side and XLA share the host; no 75 % grab

"$PY" - <<'PYEOF'
import sys
missing = []
for name in ("jax", "numpy", "libcst"):
    try:
        __import__(name)
    except ImportError:
        missing.append(name)
if missing:
    sys.exit(f"gpu.sh: missing Python packages: {', '.join(missing)}")
import jax
print(f"jax {jax.__version__}, backend {jax.default_backend()}, devices {jax.devices()}")
if jax.default_backend() != "gpu":
    sys.exit("gpu.sh: JAX has no GPU backend here")
PYEOF

nvidia-smi --query-gpu=name,memory.total,clocks.max.memory --format=csv 2>/dev/null | tee "$OUT/gpu_info.txt" || true
status=0
for policy in preserve float32; do
    tag=$([ "$policy" = preserve ] && echo float64 || echo float32)
    echo "== dtype_policy=$policy ($tag), size $SIZE"
    timeout "${T_RUN:-0}" "$PY" benchmarks/run.py --size "$SIZE" --dtype-policy "$policy" --no-write \
        $([ "$policy" = float32 ] && echo --skip-extras) "$@" \
        2>&1 | tee "$OUT/gpu_$tag.log" || status=1
done
echo "== third-party kernels (benchmarks/suite.py, float64) and compile's call overhead"
timeout "${T_SUITE:-0}" "$PY" benchmarks/suite.py --size "${SUITE_SIZE:-L}" 2>&1 | tee "$OUT/gpu_suite.md" || status=1
timeout "${T_OVERHEAD:-0}" "$PY" benchmarks/overhead.py 2>&1 | tee "$OUT/gpu_overhead.md" || status=1
exit $status
