#!/usr/bin/env bash
# session 9, chip call 1 (not committed): carry experiment, jax.Array types, run.py M both policies
set -uo pipefail
export PYTHONUNBUFFERED=1
PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site${PYTHONPATH:+:$PYTHONPATH}
st() { local n=$1 l=$2; shift 2; echo "== $n"; local s=$SECONDS; timeout $l "$@" > $OUT/$n.log 2>&1; echo "-- $n rc $? $((SECONDS-s))s"; tail -3 $OUT/$n.log; }
st carry 230 python3 benchmarks/tpu_carry8.py --size S --budget 200 --calls 5
st jaxtypes_tests 100 python3 -m pytest -p no:cacheprovider -o addopts= -q -rf --tb=short tests/python/test_jax_array_types.py tests/loops/test_loop_recurrences.py
st jaxtypes_bench 60 python3 benchmarks/tpu_jax_types.py --calls 10
st run_float32 70 python3 benchmarks/run.py --size M --dtype-policy float32 --no-write --skip-extras
st run_preserve 70 python3 benchmarks/run.py --size M --dtype-policy preserve --no-write
exit 0
