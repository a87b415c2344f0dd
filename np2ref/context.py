"""The state one conversion carries through the pipeline's stages (pipeline.py).

    PipelineContext   what is converted and how: the file, the text this pass converts, the
                      user's text, the line map from one to the other, the options, the policy
    Fenced            the fence's findings by function, the functions as the user wrote them,
                      and the desugared module's positions on the user's text

As LibCST's CodemodContext carries a codemod's file and metadata, one PipelineContext goes from
read to emit; a pass that converts a text made from the user's (imported helpers appended,
closures lifted, driver loops lifted) converts it with `ctx.again(text, where)`, whose line map
is the old one composed with the pass's, so every diagnostic, loop note and line mark of that
conversion is placed on the user's line and column once, where the result is made.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .diagnostics import Diagnostic, DiagnosticSink
from .frontend.lines import LineMap
from .policy import DtypePolicy


@dataclasses.dataclass(frozen=True)
class PipelineContext:
    filename: str
    text: str                          # the text this pass converts
    user_text: str                     # the module as the user wrote it (what results are placed on)
    lines: LineMap = LineMap()         # this pass's lines -> the user's
    only: frozenset | None = None      # np2ref.compile: these functions and their callees
    seeds: bool = False                # np.random.seed translated (np2ref.compile), not host code
    known: frozenset = frozenset()     # names the module does not bind that the program finds bound
    over_rows: frozenset = frozenset()  # (line, col) of loop targets NPR204 named: indexed loops
    keep_generators: frozenset = frozenset()  # functions that stay host code for the generator they make
    planned: frozenset = frozenset()   # (name, why): set-up functions refused when planned, kept host code
    policy: DtypePolicy = DtypePolicy()  # carried into every `@npr_jit` the emitter writes
    host_lifts: bool = False           # with `only`: host functions' loops lifted, their callees kept

    @classmethod
    def of(cls, text: str, filename: str, only=None, **options) -> PipelineContext:
        """The context of a conversion of the user's `text`."""
        return cls(filename, text, text, only=None if only is None else frozenset(only), **options)

    @property
    def setup(self) -> bool:
        """convert, not np2ref.compile: a refused function the module calls that writes no
        array stays host code (np2ref.compile needs every function it calls)."""
        return self.only is None

    def front(self) -> PipelineContext:
        """What the stages before diagnosis (pipeline._front, cached by it) read of this context:
        the file, the text and the options that change what the fence and the analysis find.
        Not the line map, the policy, `known` or which functions `only` names: a conversion of
        another function of the same module, or the same text reached through another pass,
        finds the same front."""
        return PipelineContext(self.filename, self.text, self.text, only=None if self.only is None else frozenset(),
                               seeds=self.seeds, over_rows=self.over_rows, keep_generators=self.keep_generators,
                               planned=self.planned)

    def again(self, text: str, where, **changes) -> PipelineContext:
        """The context of a conversion of `text`, made from this one's with its lines going to
        `where` (imported helpers appended, closures lifted, loops lifted)."""
        return dataclasses.replace(self, text=text, lines=self.lines.through(where), **changes)

    def retry(self, **changes) -> PipelineContext:
        """This conversion again with other options (more indexed loops, generators kept)."""
        return dataclasses.replace(self, **changes)

    def sink(self) -> DiagnosticSink:
        """A pass's diagnostics, at this text's lines until its result is placed."""
        return DiagnosticSink(self.filename, self.text)


@dataclasses.dataclass(frozen=True)
class Fenced:
    """The fence's findings for the module the analysis reads (frontend/fence.py), keyed by its
    functions; with the jumps desugared (frontend/jumps.py), the functions as the user wrote
    them, by name (one left unconverted keeps its break/continue), and the positions of the
    desugared module's nodes on the user's text."""
    findings: dict[cst.FunctionDef, list[Diagnostic]]
    originals: dict[str, cst.FunctionDef] = dataclasses.field(default_factory=dict)
    positions: object | None = None    # frontend/jumps.Positions
