"""`np2ref.compile(..., bitwise=True)`: the XLA options that keep a function's elementwise float
arithmetic rounded as NumPy rounds it, for that function's compiles only (docs/guide.md)."""

import jax

# XLA options that keep elementwise float arithmetic rounded as NumPy rounds it, for one
# compile (never process-wide): LLVM code generation at -O0 forms no fused multiply-add from
# `a * b + c` (XLA:CPU always allows FP contraction; xla_cpu_max_isa would drop FMA but is read
# only from XLA_FLAGS), and without the algebraic simplifier `x / 9.0` stays a division (not
# `x * (1 / 9.0)`), `a / b / c` two divisions, `a / sqrt(b)` no rsqrt. Transcendental
# functions and the order of sums stay XLA's (docs/semantics.md: Floating point).
# xla_cpu_use_fusion_emitters=False: XLA:CPU's fusion emitters contract `a * b + c` into an FMA
# even at -O0 on some CPUs (an AMD EPYC VM: 76.6% of float64 elements identical to NumPy)
BITWISE_OPTIONS = {"xla_backend_optimization_level": 0, "xla_disable_hlo_passes": "algsimp",
                   "xla_cpu_use_fusion_emitters": False}


def with_bitwise_options(jit_options):
    """NprFunction.jit_options (dynamic names, written names) -> jax.jit keywords, plus
    compiler_options=BITWISE_OPTIONS where the compile is XLA:CPU's. They are its options: a
    TPU's compiler without the algebraic simplifier stops at the transposes it leaves
    (`UNIMPLEMENTED: HLO transpose is not implemented on TPU`, syrk's lanes), and a TPU's float64
    is a float32 pair that holds NumPy's bits for no option (docs/tpu.md)."""
    def options(dynamic_names, written):
        base = jit_options(dynamic_names, written) if jit_options else {}
        if jax.default_backend() != "cpu":
            return base
        return {**base, "compiler_options": dict(BITWISE_OPTIONS)}
    return options
