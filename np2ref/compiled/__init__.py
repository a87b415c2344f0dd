"""np2ref.compiled: the host side of `np2ref.compile` (compile.py, the decorator: reads the
function's source, converts it, runs it against np2ref.rt, chooses a route per signature, turns
the runtime's errors into diagnostics by `.code`). It reads the runtime (np2ref/rt/, what
converted files import) only through rt/compile_api.py's public names. Formerly np2ref.runtime,
a near-synonym of np2ref.rt; that name still imports (np2ref/runtime/__init__.py)."""
