"""Arrays put into Python containers (`hist.append(u)`, `lst += [u]`, `list(zip([u], ...))`,
`list(u)`) while they are written: NumPy's container holds the array itself and sees every later
write, so np2ref refuses (NPR207) instead of loading a snapshot, which was a silent wrong answer.
Copies, scalar elements and arrays rebound (not written) translate, against NumPy."""

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from conftest import assert_same_as_numpy, program, ROOT

P = program("container_aliases")
REFUSED = ["append_written_later", "append_once_then_write", "extend_with_display", "zip_holds_it",
           "rows_of_written", "comprehension_of_rows", "list_of_zeros_written", "list_returned"]


def test_containers_of_written_arrays_are_refused_at_the_line():
    source = (ROOT / "tests" / "programs" / "container_aliases.py").read_text()
    result = convert_source(source, "container_aliases.py")
    lines = source.splitlines()
    flagged = {d.span.line for d in result.diagnostics if d.code == "NPR207"}
    want = {i + 1 for i, ln in enumerate(lines) if "# NPR207" in ln}
    assert want and flagged == want


@pytest.mark.parametrize("name", REFUSED)
def test_compile_refuses(name):
    with pytest.raises(np2ref.Np2RefError, match="NPR207"):
        np2ref.compile(getattr(P, name), host_below=0)(
            np.arange(6.0).reshape(2, 3) if name.startswith(("rows", "comprehension")) else np.arange(6.0))


def test_copies_scalar_elements_and_rebinding_translate():
    a = np.array([1.5, -2.5, 3.0, 4.0])
    for fn in (P.append_copies, P.append_elements, P.rebound_each_step):
        assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), a)
    fn = P.comprehension_of_copies_and_elements
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), np.arange(6.0).reshape(2, 3))


def test_a_row_of_a_written_array_is_refused_when_traced():
    with pytest.raises(np2ref.Np2RefError, match="NPR207"):
        np2ref.compile(P.append_row_of_written, host_below=0)(np.arange(6.0).reshape(2, 3))


def test_unpacking_views_of_a_written_array():
    """`u, v = s` (rows), `np.split`, a helper returning slices: NumPy's pieces are views of the
    written array (they were copies, silently); refused. Items of a 1-D array and indexed rows
    translate."""
    source = (ROOT / "tests" / "programs" / "container_aliases.py").read_text()
    flagged = {d.span.line for d in convert_source(source, "container_aliases.py").diagnostics
               if d.code == "NPR205"}
    want = {i + 1 for i, ln in enumerate(source.splitlines()) if "# NPR205" in ln}
    assert want and flagged == want
    s = np.arange(6.0).reshape(2, 3)
    for name in ("unpack_rows_then_write_one", "unpack_rows_then_write_base"):
        with pytest.raises(np2ref.Np2RefError, match="NPR205"):
            np2ref.compile(getattr(P, name), host_below=0)(s)
    assert_same_as_numpy(P.unpack_items_of_1d, np2ref.compile(P.unpack_items_of_1d, host_below=0),
                         np.array([1.5, 2.0, -3.0]))
    assert_same_as_numpy(P.unpack_indexed_rows, np2ref.compile(P.unpack_indexed_rows, host_below=0), s)
    with pytest.raises(ValueError, match="too many values to unpack"):
        np2ref.compile(P.unpack_items_of_1d, host_below=0)(np.arange(4.0))


def test_a_containers_shallow_copy_written_is_refused_and_an_arrays_translates():
    # `x = state.copy()` of a list or dict holds the caller's arrays: NumPy's `x[0] += v` writes
    # into them. np2ref kept a list argument as one stacked array, so the caller's arrays were left
    # unchanged (a silent wrong answer); the list now reaches npr_own as a list, which refuses it
    v = np.ones(3)
    with pytest.raises(np2ref.Np2RefError, match="NPR207"):
        np2ref.compile(P.shallow_copy_written, host_below=0)([np.arange(3.0), np.zeros(3)], v)
    with pytest.raises(np2ref.Np2RefError, match="NPR207"):
        np2ref.compile(P.dict_copy_written, host_below=0)({"x": np.arange(3.0)}, v)
    fn = np2ref.compile(P.array_copy_written, host_below=0)
    assert_same_as_numpy(P.array_copy_written, fn, np.arange(3.0), v)
    assert fn.mutated == ()


@pytest.mark.parametrize("name, container", [("append_to_param", [np.ones(4)]), ("history_of_steps", []),
                                             ("update_param", {}), ("record_through_helper", []),
                                             ("append_through_a_name", [])])
def test_a_container_argument_the_function_changes_is_refused_at_the_call(name, container):
    """`hist.append(x)` on a list passed in (here, in a loop, or in a function it calls) or
    `d.update(...)` on a dict: NumPy's caller sees the change; the translated call returned with
    the caller's list or dict as it was (a silent wrong answer). Any size, any route."""
    a = np.arange(4.0)
    before = type(container)(container)
    getattr(P, name)(a.copy(), before)
    assert len(before) == len(container) + 1 or name == "history_of_steps" and len(before) == 3
    for host_below in (0, None):
        given = type(container)(container)
        with pytest.raises(np2ref.Np2RefError, match=r"NPR207.*changes its argument `(hist|d)`"):
            np2ref.compile(getattr(P, name), host_below=host_below)(a.copy(), given)
        assert given == container or len(given) == len(container)  # nothing half done


def test_a_star_kwargs_dict_is_the_calls_own():
    """`opts.pop("scale")` on `**opts` changes the call's own dict (it was read as a module-level
    name the module changes: NPR021)."""
    c = np2ref.compile(P.options_popped, host_below=0)
    a = np.arange(3.0)
    assert_same_as_numpy(P.options_popped, c, a, 1, scale=3.0)
    assert_same_as_numpy(P.options_popped, c, a)
