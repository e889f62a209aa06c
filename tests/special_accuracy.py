"""Accuracy checker of arraycore.special against mpmath.

Each function has one or more `Spec`s (in tests/special_accuracy_<family>.py, whose
`build(add)` adds them): the mpmath function, how each operand is sampled, and the error
bound.  The error of one point is measured against the exact value (mpmath at 40 digits on
the exact binary inputs):

    float32:  |got - exact| / ulp32(max(|exact|, scale))      bound: 4 ulp
    float64:  |got - exact| / max(|exact|, scale)             bound: 1e-13

`scale` (default 0: purely relative) is for functions with zeros inside the domain (j0, y1,
the inverses at their fixed points): there the error is absolute, in units of the
function's scale, as the issue allows.  Both results infinite with the same sign, or both
NaN, count as exact.

    python tests/special_accuracy.py                 # the table over every spec (slow)
    python tests/special_accuracy.py --only erf,gamma --points 5000

tests/test_special_accuracy.py asserts the bounds on a few points per spec by default and
on many with --runslow.
"""

from __future__ import annotations

import argparse
import importlib
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

FAMILIES = ("erf_gamma", "elementary", "bessel", "incomplete", "integrals_polynomials")
F32_ULP = 4.0
F64_REL = 1e-13
DPS = 40


@dataclass
class Spec:
    """name: the arraycore.special function; mp: mpmath function of mpf operands;
    operands: one sampler per operand: ("uniform", lo, hi), ("log", lo, hi) (log-uniform
    magnitude in [lo, hi], lo > 0), ("symlog", lo, hi) (log-uniform magnitude, random sign),
    ("int", lo, hi) (integer values); domain: how the table states the domain;
    scale: see the module docstring; f32_ulp / f64_rel: bounds (the issue's by default;
    a looser bound must say why in `notes`)."""

    name: str
    mp: Callable
    operands: tuple
    domain: str
    scale: float = 0.0
    f32_ulp: float = F32_ULP
    f64_rel: float = F64_REL
    dtypes: tuple = ("float32", "float64")
    notes: str = ""
    label: str = field(default="")

    def __post_init__(self):
        if not self.label:
            self.label = f"{self.name} [{self.domain}]"


SPECS: list = []


def _load():
    if SPECS:
        return SPECS
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"special_accuracy_{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"special_accuracy_{fam}":
                raise
            continue
        mod.build(SPECS.append)
    return SPECS


def specs() -> list:
    return list(_load())


def sample(spec: Spec, dtype: str, n: int, seed: int = 0) -> list:
    """n points per operand, exactly representable in `dtype`."""
    rng = np.random.default_rng(seed + sum(map(ord, spec.label)))
    dt = np.dtype(dtype)
    out = []
    for kind, lo, hi in spec.operands:
        if kind == "uniform":
            v = rng.uniform(lo, hi, n)
        elif kind == "log":
            v = np.exp(rng.uniform(math.log(lo), math.log(hi), n))
        elif kind == "symlog":
            v = np.exp(rng.uniform(math.log(lo), math.log(hi), n)) * rng.choice([-1.0, 1.0], n)
        elif kind == "int":
            v = rng.integers(lo, hi + 1, n).astype(np.float64)
        else:
            raise ValueError(f"{spec.label}: unknown sampler {kind!r}")
        out.append(v.astype(dt))
    return out


def exact_values(spec: Spec, points: list) -> np.ndarray:
    """mpmath at DPS digits on the exact binary inputs, rounded to float64 (which carries
    the exact value far more precisely than either dtype needs)."""
    import mpmath
    res = np.empty(len(points[0]), dtype=np.float64)
    with mpmath.workdps(DPS):
        for i in range(len(res)):
            args = [mpmath.mpf(float(p[i])) for p in points]
            try:
                v = spec.mp(*args)
                if isinstance(v, mpmath.mpc):
                    v = v.real if abs(v.imag) <= abs(v.real) * mpmath.mpf(10) ** -30 else \
                        mpmath.nan
                res[i] = float(v)
            except (ZeroDivisionError, ValueError):
                res[i] = np.nan
            except OverflowError:
                res[i] = np.inf
    return res


def errors(spec: Spec, dtype: str, got: np.ndarray, exact: np.ndarray,
           points: list | None = None) -> np.ndarray:
    """Per-point error in the dtype's unit (ulps for float32, relative for float64)."""
    got = got.astype(np.float64)
    same = (got == exact) | (np.isnan(got) & np.isnan(exact))
    diff = np.abs(got - exact)
    scale = spec.scale(*points) if callable(spec.scale) else spec.scale
    mag = np.maximum(np.abs(exact), scale)
    if dtype == "float32":
        unit = np.spacing(np.minimum(mag, np.finfo(np.float32).max).astype(np.float32))
        err = diff / np.abs(unit.astype(np.float64))
    else:
        err = diff / np.where(mag > 0, mag, np.finfo(np.float64).tiny)
    err = np.where(same, 0.0, err)
    return np.where(np.isnan(err), np.inf, err)


def measure(spec: Spec, dtype: str, n: int, seed: int = 0):
    """(max error, worst inputs, got, exact) over n sampled points."""
    import arraycore as ac
    points = sample(spec, dtype, n, seed)
    fn = getattr(ac.special, spec.name)
    got = np.asarray(fn(*[ac.asarray(p) for p in points]))
    assert got.dtype == np.dtype(dtype), f"{spec.name}: {got.dtype} result for {dtype}"
    exact = exact_values(spec, points)
    err = errors(spec, dtype, got, exact, points)
    k = int(np.argmax(err))
    return float(err[k]), [float(p[k]) for p in points], float(got[k]), float(exact[k])


def bound(spec: Spec, dtype: str) -> float:
    return spec.f32_ulp if dtype == "float32" else spec.f64_rel


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=2000)
    ap.add_argument("--only", default="", help="comma-separated function names")
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    print("| function | domain | float32 max ulp | float64 max rel. error | notes |")
    print("|---|---|---|---|---|")
    bad = 0
    for spec in specs():
        if only and spec.name not in only:
            continue
        cells = []
        for dtype in ("float32", "float64"):
            if dtype not in spec.dtypes:
                cells.append("n/a")
                continue
            e, at, _, _ = measure(spec, dtype, args.points)
            ok = e <= bound(spec, dtype)
            bad += not ok
            cells.append((f"{e:.2f}" if dtype == "float32" else f"{e:.2g}")
                         + ("" if ok else f" **FAIL** at {at}"))
        print(f"| {spec.name} | {spec.domain} | {cells[0]} | {cells[1]} | {spec.notes} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
