"""Rule snippets: the converted text of a small function, before -> after, one or two per rule
family (rewrite/rules/*.py). No-op cases first. The module header np2ref writes (imports, the
runtime) is not compared: only the converted functions."""

from __future__ import annotations

import textwrap

import pytest

import np2ref


def converted_functions(before: str) -> str:
    """The converted module from its first top-level `def` or decorator on."""
    result = np2ref.convert_source(textwrap.dedent(before), "<rule>")
    assert result.ok, "\n".join(d.render(result.source) for d in result.diagnostics)
    lines = result.body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("def ", "@")))
    return "\n".join(lines[start:]).strip() + "\n"


def assert_converts(before: str, after: str) -> None:
    assert converted_functions(before) == textwrap.dedent(after).lstrip("\n")


CASES = [
    # -- no-op: nothing to rewrite ----------------------------------------------------------------
    ("noop_no_array_work", """
        def add(a, b):
            return a + b
        """, """
        def add(a, b):
            return a + b
        """),
    ("noop_reads_only", """
        import numpy as np
        def norm(a):
            return np.sqrt(np.sum(a * a))
        """, """
        @npr_jit
        def norm(a):
            return npr_np_sqrt(jnp.sum(a * a))
        """),
    # -- stores ------------------------------------------------------------------------------------
    ("stores_slice", """
        def smooth(u):
            u[1:-1] = 0.5 * (u[:-2] + u[2:])
        """, """
        @npr_jit(mutated=('u',))
        def smooth(u):
            npr_at(u)[1:-1] = 0.5 * (u[...][:-2] + u[...][2:])
        """),
    ("views_write_through", """
        def first_row(m):
            row = m[0]
            row[:] = 1.0
        """, """
        @npr_jit(mutated=('m',))
        def first_row(m):
            row = npr_sub(m, 0)
            npr_at(row)[:] = 1.0
        """),
    # -- augassign -------------------------------------------------------------------------------
    ("augassign_subscript", """
        def bump(u, i):
            u[i] += 1.0
        """, """
        @npr_jit(mutated=('u',))
        def bump(u, i):
            npr_at(u)[i] += 1.0
        """),
    ("augassign_name", """
        def scale(x, k):
            x *= k
        """, """
        @npr_jit(mutated=('x',), rebound=('x',))
        def scale(x, k):
            x = npr_iop(x, '*', k)
        """),
    # -- calls that write ----------------------------------------------------------------------
    ("out_args", """
        import numpy as np
        def double(a, out):
            np.multiply(a, 2.0, out=out)
        """, """
        @npr_jit(mutated=('out',))
        def double(a, out):
            npr_out(out, npr_np_multiply(a, 2.0), ufunc='multiply')
        """),
    ("ufunc_at", """
        import numpy as np
        def hist(c, idx):
            np.add.at(c, idx, 1)
        """, """
        @npr_jit(mutated=('c',))
        def hist(c, idx):
            npr_ufunc_at('add', c, idx, 1)
        """),
    ("inplace_method", """
        def zero(a):
            a.fill(0.0)
        """, """
        @npr_jit(mutated=('a',))
        def zero(a):
            npr_fill(a, 0.0)
        """),
    # -- control flow --------------------------------------------------------------------------
    ("loops_range", """
        def cumulate(a, n):
            for i in range(1, n):
                a[i] += a[i - 1]
        """, """
        @npr_jit(mutated=('a',))
        def cumulate(a, n):
            def _loop_i(i, _a_was1):
                npr_at(a)[i] += _a_was.read(a, _a_was1, i - 1)
                _a_was0 = _a_was.stored(a, i)
                _a_was1 = _a_was0
                return _a_was1
            _range_i = npr_range(1, n)
            _a_was = npr_recur(_range_i, a, 0, 1)
            _a_was1, = _a_was.first
            _a_was1 = npr_for(_range_i, _loop_i, _a_was1)
        """),
    ("branches_data_condition", """
        def relu_first(x):
            if x[0] < 0:
                x[0] = 0.0
        """, """
        @npr_jit(mutated=('x',))
        def relu_first(x):
            def _then_1():
                npr_at(x)[0] = 0.0
            npr_if(x[...][0] < 0, _then_1, None)
        """),
    ("asserts", """
        def check(a):
            assert a[0] > 0, 'positive'
            a[0] = 1.0
        """, """
        @npr_jit(mutated=('a',))
        def check(a):
            assert npr_assert(a[...][0] > 0, lambda: 'positive')
            npr_at(a)[0] = 1.0
        """),
]


@pytest.mark.parametrize("before, after", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule(before, after):
    assert_converts(before, after)
