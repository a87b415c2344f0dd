"""Module assembly (module.py), the standalone runtime (standalone.py), JAX's spellings
(jaxnames.py). The names of the runtime a converted file imports are here, readable without
libcst: `convert` answered from the content cache needs them and nothing else of emit."""

import pathlib

RUNTIME_PACKAGE = pathlib.Path(__file__).parent.parent / "rt"
RUNTIME_MODULE = "np2ref.rt"
STANDALONE_MODULE = "np2ref_rt"
