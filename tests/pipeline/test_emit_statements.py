"""np2ref/emit/codes.py: a converted module written from each statement's text, made once per
statement node, is libcst's own text for the module (header comments, decorators, CRLF and tab
layouts, a footer, no trailing newline, an empty module), with the runtime names Python's
parse of the whole text finds; and conversions that meet statements made before write what a
cold conversion writes."""

from __future__ import annotations

import functools

import libcst as cst
import pytest

from np2ref.emit import codes
from np2ref.emit.module import _known_names, runtime_names, used_runtime_names
from np2ref.pipeline import convert_source

SOURCES = {
    "header_and_footer": "# a header comment\n\nimport numpy as np\n\n\n@dec(1)\ndef f(a):\n    return npr_load(a)\n\n# footer\n",
    "crlf_tabs": "import numpy as np\r\n\r\ndef f(a):\r\n\tif a:\r\n\t\treturn 1\r\n\treturn NprError\r\n",
    "no_trailing_newline": "x = 1\ndef f():\n    return x",
    "empty": "",
    "only_comments": "# nothing but this\n",
    "string_named_like_a_helper": 's = "npr_load"\nclass C:\n    pass\n',
}

WITH_NAMES = {"header_and_footer": ["npr_load"], "crlf_tabs": ["NprError"], "string_named_like_a_helper": []}


@pytest.mark.parametrize("name", SOURCES)
def test_the_text_and_names_are_libcsts_and_pythons(name):
    module = cst.parse_module(SOURCES[name])
    names_of = functools.partial(_known_names, runtime_names())
    for _ in range(2):  # the second time from the statements made the first
        text, names = codes.module_text(module, module.header, module.body, module.footer, names_of)
        assert text == module.code
        if names is not None:
            assert sorted(names) == used_runtime_names(module, text)
    if name in WITH_NAMES:
        assert sorted(names) == WITH_NAMES[name]  # (a name in a string is not one)


FUNCTIONS = '''
import numpy as np


def helper(a):
    return a * 2.0


def first(a):
    a[0] = helper(a)[1]
    return a.sum()


def second(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i] + 1.0
    return b
'''


def test_a_conversion_meeting_made_statements_writes_what_a_cold_one_writes():
    warm = {}
    for name in ("first", "second", "first"):
        warm[name] = convert_source(FUNCTIONS, "m.py", only={name}).code
    for name in ("second", "first"):
        codes._MADE.clear()
        assert convert_source(FUNCTIONS, "m.py", only={name}).code == warm[name]
