"""What a conversion returns (pipeline.py): the converted module or the refusal, its
diagnostics, and what the stages found that np2ref.compile, the report and the CLI read. Every
line in it is the user's: a conversion of a text a front-end pass made is placed back through
the context's one line map (`placed`) where the result is made."""

from __future__ import annotations

import dataclasses
import functools

import libcst as cst

from .analysis.aliases import FunctionFacts
from .context import PipelineContext
from .diagnostics import Diagnostic, Np2RefError
from .emit import module as emit_module
from .policy import DtypePolicy


class _Later:
    """A ConversionResult field made when first read: `code` (the converted module's text) and
    `loops` (their lines need the module's positions). `np2ref check` reads only the diagnostics,
    and writing a 6,000-line module out was a seventh of its time. Set to a callable, the field
    holds it until read; `replaced` passes it on unread."""

    _NONE = object()

    def __init__(self, default=_NONE):
        self.default = default

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            if self.default is _Later._NONE:
                raise AttributeError(self.slot)  # (no default: dataclasses asks with no instance)
            return self.default
        value = obj.__dict__[self.slot]
        if callable(value):
            value = obj.__dict__[self.slot] = value()
        return value

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value


@dataclasses.dataclass
class ConversionResult:
    filename: str
    source: str | None
    code: str | None = _Later()      # the converted module (None when refused)
    diagnostics: list[Diagnostic]
    functions: dict[str, FunctionFacts] = dataclasses.field(default_factory=dict)
    host: dict[str, str] = dataclasses.field(default_factory=dict)
    rewritten: cst.Module | None = None
    plain: frozenset[str] = frozenset()  # functions with no array work, left undecorated
    # by function: the parameters a list argument reaches as a list (npr_jit's `lists=`)
    lists: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # by host function: (first line, last line, why) of each call that keeps it host code
    host_lines: dict[str, tuple[tuple[int, int, str], ...]] = dataclasses.field(default_factory=dict)
    # (line, col, function, loop variable, what became of the loop) of each loop converted
    loops: tuple[tuple[int, int, str, str, str], ...] = _Later(())
    policy: DtypePolicy = DtypePolicy()  # the policy `code`'s `@npr_jit`s were given

    @functools.cached_property
    def body(self) -> str | None:
        """The converted module without its header (what `compile(...).source` shows)."""
        if self.rewritten is None:
            return self.code
        return emit_module.strip_line_marks(emit_module.emit(self.rewritten, self.filename, with_header=False))

    @functools.cached_property
    def exec_source(self) -> str | None:
        """The converted functions only, their lines marked `# @L<n>` with the original line
        (what compile executes)."""
        if self.rewritten is None:
            return None
        return emit_module.functions_source(self.rewritten, self.functions)

    def code_for(self, runtime_module: str, policy: DtypePolicy = DtypePolicy(), options=None) -> str | None:
        """The converted module importing its helpers from `runtime_module` (np2ref.rt, or
        "np2ref_rt": the standalone copy that `convert --standalone` writes beside it), its
        `@npr_jit`s given the dtype policy and `options` (Config.entry_options)."""
        if self.rewritten is None or self._code is None or (
                runtime_module == emit_module.RUNTIME_MODULE and policy == self.policy and not options):
            return self.code
        return emit_module.emit(self.rewritten, self.filename, runtime_module=runtime_module, policy=policy,
                                options=options)

    @property
    def ok(self) -> bool:
        return self._code is not None and not any(d.is_error for d in self.diagnostics)

    def replaced(self, **changes) -> ConversionResult:
        """dataclasses.replace, the fields made when read (_Later) not made for it."""
        return dataclasses.replace(self, **{"code": self._code, "loops": self._loops, **changes})

    def raise_for_errors(self) -> None:
        if not self.ok:
            raise Np2RefError([d for d in self.diagnostics if d.is_error], self.source,
                              f"np2ref refused {self.filename}:")


def placed(ctx: PipelineContext, result: ConversionResult) -> ConversionResult:
    """A result of the text `ctx` converts on the user's lines and text (the marks of a tree
    converted for np2ref.compile too: only it writes them)."""
    if not ctx.lines:
        return result
    lines = ctx.lines
    rewritten = result.rewritten
    if rewritten is not None and ctx.only is not None:
        rewritten = lines.marks(rewritten)
    return result.replaced(source=ctx.user_text, rewritten=rewritten,
                               diagnostics=lines.diagnostics(result.diagnostics),
                               host_lines=lines.host_lines(result.host_lines), loops=_then(lines.loops, result._loops))


def _then(fn, value):
    """fn(value), for a _Later field: made when read when `value` is not made yet."""
    return (lambda: fn(value())) if callable(value) else fn(value)
