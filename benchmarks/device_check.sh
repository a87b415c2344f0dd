#!/usr/bin/env bash
# One prepared call on a lent GPU machine (the `device` tool): compatibility with the JAX and
# NumPy found there, exactness on the GPU, and the benchmark tables. Every stage has its own
# time limit and writes its log under $OUT as it goes, so a stage that runs long costs only
# itself. The machine cannot reach a package registry: libcst travels as a wheel in .whl/
# (carry it), installed into /tmp/site.
#
#     bash benchmarks/device_check.sh          # as the device tool's command, carry [".whl"]
#
# Stages (seconds from the environment): T_CPU_TESTS the whole suite on the machine's CPUs with
# its JAX/NumPy (pytest-xdist), T_GPU_TESTS the differential tests that matter most on the GPU,
# then benchmarks/gpu.sh with T_RUN per dtype policy, T_SUITE and T_OVERHEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benchmarks/results}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
export PYTHON="$PY"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
if ! "$PY" -c "import libcst" 2>/dev/null; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl \
        || { echo "device_check: could not install the carried wheels"; exit 1; }
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# the `np2ref` command, for the tests that run it (an editable install: no registry needed)
"$PY" -m pip install -q --no-deps --no-build-isolation --no-index -e . >/dev/null 2>&1 \
    || echo "device_check: no np2ref command (pip install -e . failed)"
"$PY" -c "import jax, numpy, libcst, np2ref; print('jax', jax.__version__, 'numpy', numpy.__version__, \
'libcst', libcst.__version__ if hasattr(libcst, '__version__') else '?', jax.devices())" 2>&1 | tee "$OUT/versions.txt"

echo "== the whole suite on the CPU (jax/numpy of this machine)"
JAX_PLATFORMS=cpu timeout "${T_CPU_TESTS:-150}" "$PY" -m pytest -p no:cacheprovider -q -n 14 -rf \
    2>&1 | tail -60 > "$OUT/tests_cpu.log"
tail -5 "$OUT/tests_cpu.log"

echo "== differential tests on the GPU"
timeout "${T_GPU_TESTS:-90}" "$PY" -m pytest -p no:cacheprovider -q -n 4 -rf \
    tests/dtypes/test_division.py tests/loops/test_loop_stores.py tests/corpus/test_corpus.py tests/compile/test_compile.py \
    tests/loops/test_loop_reductions.py tests/python/test_scalar_math.py 2>&1 | tail -40 > "$OUT/tests_gpu.log"
tail -5 "$OUT/tests_gpu.log"

echo "== benchmarks"
export T_RUN T_SUITE T_OVERHEAD
T_RUN=${T_RUN:-120} T_SUITE=${T_SUITE:-90} T_OVERHEAD=${T_OVERHEAD:-30} bash benchmarks/gpu.sh "$@"
