"""The `check` and `convert` commands' own process (np2ref/command_process.py): libcst's node classes
answer isinstance/issubclass with `type`'s checks there, which must give ABCMeta's answers, and
the command prints and writes what the translator run as a library (cli.main, nothing changed)
does."""

from __future__ import annotations

import abc
import shutil
import subprocess
import sys

import libcst as cst

from conftest import ROOT, run_cli, run_cli_process
from np2ref import command_process

_FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "corpus/burgers_minmod_limiter.py", "corpus/heat_closure_loop.py", "examples/heat_equation.py"]


def test_type_checks_answer_as_abcmeta_for_every_pair_of_node_classes():
    classes = command_process.node_classes()
    assert len(classes) > 300 and cst.Name in classes and cst.BaseExpression in classes
    others = [int, str, tuple, object, cst.MaybeSentinel, cst.CSTVisitor]
    for base in classes:
        for cls in classes + others:
            assert type.__subclasscheck__(base, cls) == abc.ABCMeta.__subclasscheck__(base, cls), (base, cls)


def _in_a_process(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_command_swaps_the_metaclass_and_a_library_import_does_not():
    swapped = _in_a_process("from np2ref import command_process as c; import libcst as cst\n"
                            "c.command(); c.ready()\n"
                            "print(type(cst.Name).__name__, type(cst.BaseExpression).__name__,\n"
                            "      isinstance(cst.Name('x'), cst.BaseExpression), isinstance(1, cst.Name))")
    assert swapped == "_PlainChecks _PlainChecks True False"
    untouched = _in_a_process("from np2ref import command_process as c; import libcst as cst\n"
                              "c.ready(); print(type(cst.Name).__name__)")
    assert untouched == "ABCMeta"


def test_a_registered_virtual_subclass_keeps_abcmeta():
    # (a program that registers a class with one of libcst's ABCs: type's checks would not see it)
    found = _in_a_process("from np2ref import command_process as c; import libcst as cst\n"
                          "class Mine: pass\n"
                          "cst.BaseExpression.register(Mine)\n"
                          "print(c.plain_type_checks(), type(cst.Name).__name__, isinstance(Mine(), cst.BaseExpression))")
    assert found == "False ABCMeta True"


def test_check_and_convert_commands_print_and_write_what_the_library_does(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for path in _FILES:
        shutil.copy(ROOT / path, src / path.rsplit("/", 1)[1])
    for jobs in ("1", "2"):
        library = run_cli("check", "--no-cache", "-j", jobs, "src", cwd=tmp_path)
        command = run_cli_process("check", "--no-cache", "-j", jobs, "src", cwd=tmp_path)
        assert (command.returncode, command.stdout, command.stderr) == (library.returncode, library.stdout, library.stderr)
        assert "NPR" in command.stdout
    library = run_cli("convert", "--no-cache", "src", "-o", "lib", cwd=tmp_path)
    command = run_cli_process("convert", "--no-cache", "src", "-o", "cmd", cwd=tmp_path)
    assert command.returncode == library.returncode
    written = sorted(p.name for p in (tmp_path / "lib").iterdir())
    assert written and written == sorted(p.name for p in (tmp_path / "cmd").iterdir())
    for name in written:
        assert (tmp_path / "lib" / name).read_bytes() == (tmp_path / "cmd" / name).read_bytes()


def test_the_young_garbage_is_collected_between_files_in_the_command_only():
    code = ("import gc; from np2ref import command_process as c\n"
            "{on}\n"
            "n = lambda: gc.get_stats()[0]['collections']\n"
            "c.next_file(); first = n(); c.next_file(); c.next_file(); print(n() - first)")
    assert _in_a_process(code.format(on="c.command()")) == "2"  # (none before the first file)
    assert _in_a_process(code.format(on="")) == "0"
