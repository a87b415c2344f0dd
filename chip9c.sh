#!/usr/bin/env bash
# session 9, chip call 3 (not committed): fission keeps trip-counter indices in the body; carry by dtype
set -uo pipefail
export PYTHONUNBUFFERED=1
PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site${PYTHONPATH:+:$PYTHONPATH}
st() { local n=$1 l=$2; shift 2; echo "== $n"; local s=$SECONDS; timeout $l "$@" > $OUT/$n.log 2>&1; echo "-- $n rc $? $((SECONDS-s))s"; grep "^|" $OUT/$n.log | tail -40; tail -2 $OUT/$n.log; }
st carry 200 python3 benchmarks/tpu_carry8.py --size S --budget 170 --calls 5
st tests 100 python3 -m pytest -p no:cacheprovider -o addopts= -q -rf --tb=short tests/loops/test_loop_fission.py tests/loops/test_loop_recurrences.py
st run_f32 220 python3 benchmarks/run.py --size M --dtype-policy float32 --no-write --skip-extras --programs iir_filter thomas_tridiag jacobi_poisson2d game_of_life
exit 0
