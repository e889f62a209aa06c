"""L3: `arraycore.autodiff.coverage()`: which derivative machinery every op supports.

For each op-table entry and each registered `autograd.Function`, whether it has a jvp, a
vjp and a batching rule, and whether double backward works (true when the vjp is written
with namespace functions, which every rule in rules/ is).  docs/autodiff.md renders this
table (`python tools/autodiff_coverage.py`).
"""

from __future__ import annotations

from .._core.op_table import OPS


def _row(op, kind):
    nondiff = bool(op.nondiff)
    return {
        "kind": kind,
        "family": op.family,
        "differentiable": not nondiff,
        "jvp": (not nondiff) and op.jvp is not None,
        "vjp": (not nondiff) and op.vjp is not None,
        "batch": op.batch is not None,
        "double_backward": (not nondiff) and op.vjp is not None,
    }


def coverage() -> dict:
    """{name: {"jvp", "vjp", "batch", "double_backward", "differentiable", ...}}."""
    table = {name: _row(op, "op") for name, op in OPS.items()}
    try:
        from .function import REGISTRY
    except ImportError:
        REGISTRY = {}
    for name, op in getattr(REGISTRY, "items", lambda: [])():
        table[name] = _row(op, "Function")
    return table


def markdown() -> str:
    rows = ["| op | family | jvp | vjp | batching | double backward |",
            "| --- | --- | :-: | :-: | :-: | :-: |"]
    mark = {True: "yes", False: "-"}
    for name, r in sorted(coverage().items(), key=lambda kv: (kv[1]["family"], kv[0])):
        if not r["differentiable"]:
            rows.append(f"| `{name}` | {r['family']} | non-differentiable (zero tangent) | | "
                        f"{mark[r['batch']]} | |")
            continue
        rows.append(f"| `{name}` | {r['family']} | {mark[r['jvp']]} | {mark[r['vjp']]} | "
                    f"{mark[r['batch']]} | {mark[r['double_backward']]} |")
    return "\n".join(rows)


__all__ = ["coverage", "markdown"]
