import numpy as np


def until_negative(a, out):
    s = 0.0
    for i, x in enumerate(a):
        if x < 0:
            break
        if x == 0.0:
            continue
        s += x * i
    else:
        s = -s
    out[0] = s


def search(a):
    k = 0
    while True:
        if a[k] > 2.0:
            break
        k += 1
    return k


def rows_and_cells(a, out):
    for r in a:
        out[0] += r.max()
    for i, j in np.ndindex(a.shape):
        out[1] += a[i, j] * max(i - 1, 0)

# run: until_negative(np.array([1.0, 0.0, 2.0, -1.0, 5.0]), np.zeros(1))
# run: until_negative(np.array([1.0, 0.0, 2.0]), np.zeros(1))
# run: search(np.array([0.5, 1.0, 3.0, 4.0]))
# run: rows_and_cells(np.arange(6.0).reshape(3, 2), np.zeros(2))
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_and, npr_at, npr_for, npr_get, npr_if, npr_int_max, npr_iop, npr_items, npr_jit, npr_like,
    npr_ndindex, npr_not, npr_pyreturn, npr_range, npr_while,
)


@npr_jit(mutated=('out',), items=('a',))
def until_negative(a, out):
    s = 0.0
    _break_1 = False
    def _loop_i(i, carry):
        _break_1, s = carry
        x = a[i]
        _skip_2 = _break_1
        def _then_5(_break_1, _skip_2, s):
            def _then_1(_break_1, _skip_2):
                _break_1 = True; _skip_2 = True
                return _break_1, _skip_2
            def _else_1(_break_1, _skip_2):
                pass
                return _break_1, _skip_2
            _break_1, _skip_2 = npr_if(x < 0, _then_1, _else_1, _break_1, _skip_2)
            def _then_4(_skip_2, s):
                def _then_2(_skip_2):
                    _skip_2 = True
                    return _skip_2
                def _else_2(_skip_2):
                    pass
                    return _skip_2
                _skip_2 = npr_if(x == 0.0, _then_2, _else_2, _skip_2)
                def _then_3(s):
                    s = npr_iop(s, '+', x * i, maybe_scalar=True)
                    return s
                def _else_3(s):
                    pass
                    return s
                s = npr_if(npr_not(_skip_2), _then_3, _else_3, s)
                return _skip_2, s
            def _else_4(_skip_2, s):
                pass
                return _skip_2, s
            _skip_2, s = npr_if(npr_not(_skip_2), _then_4, _else_4, _skip_2, s)
            return _break_1, _skip_2, s
        def _else_5(_break_1, _skip_2, s):
            pass
            return _break_1, _skip_2, s
        _break_1, _skip_2, s = npr_if(npr_not(_skip_2), _then_5, _else_5, _break_1, _skip_2, s)
        return _break_1, s
    _break_1, s = npr_for(npr_range(len(a)), _loop_i, (_break_1, s), stop=0)
    def _then_6(s):
        s = -s
        return s
    def _else_6(s):
        pass
        return s
    s = npr_if(npr_not(_break_1), _then_6, _else_6, s)
    npr_at(out)[0] = s


@npr_jit(items=('a',))
def search(a):
    k = 0
    _break_1 = False
    def _test_9(_break_1, k):
        return npr_and(npr_not(_break_1), (True))
    def _body_9(_break_1, k):
        _skip_2 = False
        def _then_7(_break_1, _skip_2):
            _break_1 = True; _skip_2 = True
            return _break_1, _skip_2
        def _else_7(_break_1, _skip_2):
            pass
            return _break_1, _skip_2
        _break_1, _skip_2 = npr_if(npr_get(a)[k] > 2.0, _then_7, _else_7, _break_1, _skip_2)
        def _then_8(k):
            k += 1
            return k
        def _else_8(k):
            pass
            return k
        k = npr_if(npr_not(_skip_2), _then_8, _else_8, k)
        return _break_1, k
    _break_1, k = npr_while(_test_9, _body_9, _break_1, k)
    return npr_pyreturn(k, 'int')


@npr_jit(mutated=('out',))
def rows_and_cells(a, out):
    def _loop_r(r):
        npr_at(out)[0] += r.max()
    npr_for(npr_items(a), _loop_r)
    def _loop__item(_item):
        i, j = _item
        npr_at(out)[1] += npr_get(a)[i, j] * npr_int_max(i - 1, 0, use='arith', against=(lambda _npr_p: npr_like(a) * _npr_p, lambda _npr_p: npr_like(out) + _npr_p))
    npr_for(npr_ndindex(a.shape), _loop__item)

# run: until_negative(np.array([1.0, 0.0, 2.0, -1.0, 5.0]), np.zeros(1))
# run: until_negative(np.array([1.0, 0.0, 2.0]), np.zeros(1))
# run: search(np.array([0.5, 1.0, 3.0, 4.0]))
# run: rows_and_cells(np.arange(6.0).reshape(3, 2), np.zeros(2))
