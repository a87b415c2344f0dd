"""analysis/positions.module_positions (issue 43): the positions libcst's PositionProvider gives,
for the same nodes, made without its whole-tree visit and with a lighter recording state."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from conftest import ROOT
from np2ref.analysis.positions import module_positions

FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "examples/heat_equation.py", "np2ref/frontend/fence.py",
         "np2ref/analysis/positions.py"]
ODD = ('x = """a\r\nb\rc\n"""  # mixed line ends in a string\r\nif x:\r\n\ty = (1,\r\n\t     2)\r\n'
       "def f(a, *, b=1):\n    return [i for i in a if i]  # comment\n\n\nclass C:\n    z: int = 0\n")


@pytest.mark.parametrize("text", [*[ROOT / p for p in FILES], ODD], ids=[*FILES, "odd"])
def test_the_positions_of_libcsts_provider(text):
    module = cst.parse_module(text.read_text() if hasattr(text, "read_text") else text)
    want = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = module_positions(module)
    assert list(got) == list(want) and dict(got) == dict(want)
    assert module_positions(module) is got  # (once per module)
