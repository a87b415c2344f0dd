#!/usr/bin/env bash
# The TPU lane: one prepared call on a lent TPU machine (the `device` tool, docs/tpu.md). It
# installs the carried wheels, runs the differential tests that matter on the chip (one
# process: the chip admits one program at a time), then writes the benchmark tables. Every
# stage has its own time limit and writes its log under $OUT as it goes, so a stage that runs
# long costs only itself; the whole lane fits in one 10-minute call.
#
#     bash benchmarks/tpu_lane.sh              # as the device tool's command, carry [".whl"]
#
# The machine reaches no package registry: libcst (and PyYAML) travel as cp311 manylinux
# wheels in .whl/ or $WHEELS (docs/tpu.md says how to fetch them), installed into /tmp/site,
# after the machine's own JAX on PYTHONPATH. Stages, each skipped when its time is 0 (seconds, from the environment):
# T_PROBE benchmarks/tpu_probe.py (float64 and int64 operations against NumPy, in ulps),
# T_TESTS the differential tests on the chip (tests/device/test_tpu.py holds the float32 policy's),
# T_RUN_FLOAT32 and T_RUN_PRESERVE benchmarks/run.py per dtype policy (size $SIZE, default M; preserve 0,
# off, by default: its own call), T_SUITE benchmarks/suite.py
# (size $SUITE_SIZE, default L), T_DEVICE benchmarks/device_kernels.py ($DEVICE_ARGS, default --quick:
# NPBench-style kernels NumPy in and device-resident against their hand ports; 0, off, by default),
# T_WORST benchmarks/device_worst.py (suite.py's three kernels furthest from their hand ports on a
# TPU, np2ref's rewrites for each on and off; 0 by default), T_OVERHEAD benchmarks/tpu_chip7.py
# (np2ref's own overhead against the hand ports, this round's switches before and after; 0 by default).
# TESTS overrides the test files.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benchmarks/results}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
if ! "$PY" -c "import libcst" 2>/dev/null; then
    PIP_CONFIG_FILE=/dev/null "$PY" -m pip install --isolated -q --no-index --no-deps --no-compile \
        --no-cache-dir --upgrade --target /tmp/site "${WHEELS:-.whl}"/*.whl \
        || { echo "tpu_lane: could not install the carried wheels"; exit 1; }
    export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}/tmp/site"
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
"$PY" -c "import jax, numpy, libcst, platform; print('jax', jax.__version__, 'numpy', numpy.__version__, \
'glibc', platform.libc_ver()[1], jax.devices())" 2>&1 | tee "$OUT/versions.txt"

stage() {  # stage NAME SECONDS COMMAND...: run COMMAND under `timeout`, its output in $OUT/NAME.log
    local name=$1 limit=$2
    shift 2
    [ "$limit" = 0 ] && return 0
    echo "== $name (limit ${limit}s)"
    local start=$SECONDS
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    tail -4 "$OUT/$name.log"
    echo "-- $name: exit $rc after $((SECONDS - start))s"
}

# tpu_failures writes each failure's report as it happens: a stage killed at its limit keeps them
PYTEST=(env PYTHONPATH="$PYTHONPATH:$PWD/benchmarks" "$PY" -m pytest -p no:cacheprovider -p tpu_failures
        -o addopts= -q -rf --tb=short --durations=10)
# a compile on the chip takes seconds (6 s a corpus program): tests/device/test_tpu.py (both policies,
# about 2 min) fills the stage; the corpus's compile tests (about 5 min) are the second call's
# (TESTS="tests/corpus/test_corpus.py" T_TESTS=330 T_RUN_FLOAT32=0 T_SUITE=0); TESTS and K change it
TESTS=${TESTS:-"tests/device/test_tpu.py"}
stage probe "${T_PROBE:-0}" "$PY" benchmarks/tpu_probe.py --out "$OUT" --part "${PROBE_PARTS:-float,int}"
# shellcheck disable=SC2086 (TESTS is a list of paths)
stage tests "${T_TESTS:-150}" "${PYTEST[@]}" $TESTS -k "${K:-not verify and not convert}"
# run.py M takes about 190 s on the chip in float32 (first calls of 1-10 s, 5 repeats) and more than
# 450 s in preserve (thomas_tridiag's 800,000 sequential float64 divisions a call, emulated): the
# float32 table fits the lane's call, preserve is its own call (T_RUN_PRESERVE=450 T_TESTS=0 T_SUITE=0)
stage run_float32 "${T_RUN_FLOAT32:-${T_RUN:-210}}" "$PY" benchmarks/run.py --size "${SIZE:-M}" \
    --dtype-policy float32 --no-write --skip-extras --repeats "${REPEATS:-5}"
stage run_preserve "${T_RUN_PRESERVE:-0}" "$PY" benchmarks/run.py --size "${SIZE:-M}" --dtype-policy preserve \
    --no-write --skip-extras --repeats "${REPEATS:-5}"
# shellcheck disable=SC2086 (SUITE_ARGS: more arguments, `--kernels cnn_forward --rounds 3`)
stage suite "${T_SUITE:-200}" "$PY" benchmarks/suite.py --size "${SUITE_SIZE:-L}" ${SUITE_ARGS:---rounds 3}
# shellcheck disable=SC2086 (DEVICE_ARGS is a list of arguments)
stage device_kernels "${T_DEVICE:-0}" "$PY" benchmarks/device_kernels.py ${DEVICE_ARGS:---quick}
stage worst "${T_WORST:-0}" "$PY" benchmarks/device_worst.py --size "${SUITE_SIZE:-L}"
stage overhead "${T_OVERHEAD:-0}" "$PY" benchmarks/tpu_chip7.py --budget "$(( ${T_OVERHEAD:-0} * 4 / 5 ))"
exit 0
