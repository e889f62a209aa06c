"""Accuracy checker of the complex transcendental functions of the main namespace (issue 9,
part 7) against mpmath, with NumPy's error on the same points for comparison.

The error of one point is per component, relative to the modulus of the exact result, in
units of the dtype's epsilon (2^-23 for complex64, 2^-52 for complex128):

    err = max(|Re got - Re f|, |Im got - Im f|) / |f| / eps

(a component that is tiny next to the other is measured against |f|, the scale the issue
asks for).  A spec passes when the maximum over its points is at most max(bound, NumPy's
maximum on the same points): NumPy's own complex functions are the reference implementation
(they call the C library), and `bound` is the stated ulp bound.

    python tests/complex_accuracy.py                  # the table (2000 points per region)
    python tests/complex_accuracy.py --only log1p,tan --points 500

tests/test_complex_accuracy.py asserts the bounds on a few points by default and on many
with --runslow.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np

DPS = 40
EPS = {"complex64": 2.0 ** -23, "complex128": 2.0 ** -52}
DTYPES = ("complex64", "complex128")


@dataclass
class CSpec:
    """name: the arraycore function (ac.<name>); mp: the mpmath function; region: how the
    points are drawn (see `sample`); bound: the ulp bound (of |f|), per dtype."""
    name: str
    mp: object
    region: tuple
    text: str
    bound64: float = 4.0      # complex64: every function evaluates in double
    bound128: float = 8.0
    arity: int = 1


def _mp():
    import mpmath
    return mpmath


def _fns():
    m = _mp()
    ln2, ln10 = m.log(2), m.log(10)
    return {
        "exp": m.exp, "expm1": m.expm1, "log": m.log, "log1p": m.log1p,
        "log2": lambda z: m.log(z) / ln2, "log10": lambda z: m.log(z) / ln10,
        "sqrt": m.sqrt, "sin": m.sin, "cos": m.cos, "tan": m.tan, "sinh": m.sinh,
        "cosh": m.cosh, "tanh": m.tanh, "asin": m.asin, "acos": m.acos, "atan": m.atan,
        "asinh": m.asinh, "acosh": m.acosh, "atanh": m.atanh,
        "pow": lambda z, w: m.power(z, w),
    }


# Regions: ("box", re_lo, re_hi, im_lo, im_hi) uniform; ("polar", r_lo, r_hi) log-uniform
# modulus, uniform angle; ("near", cx, cy, r_lo, r_hi) the point c + r e^(i t), r log-uniform.
WIDE = ("polar", 1e-6, 1e6)
ENTIRE = ("box", -20.0, 20.0, -20.0, 20.0)
SMALL = ("polar", 1e-8, 1e-1)


def specs() -> list:
    out = []
    for name in ("exp", "sin", "cos", "sinh", "cosh", "tan", "tanh"):
        out.append(CSpec(name, name, ENTIRE, "|Re z|, |Im z| <= 20"))
        out.append(CSpec(name, name, SMALL, "|z| in [1e-8, 0.1]"))
    out.append(CSpec("expm1", "expm1", ENTIRE, "|Re z|, |Im z| <= 20"))
    out.append(CSpec("expm1", "expm1", SMALL, "|z| in [1e-8, 0.1]"))
    for name in ("log", "log2", "log10", "sqrt", "log1p", "asin", "acos", "atan", "asinh",
                 "acosh", "atanh"):
        out.append(CSpec(name, name, WIDE, "|z| in [1e-6, 1e6]"))
    for name in ("log", "log2", "log10"):
        out.append(CSpec(name, name, ("near", 1.0, 0.0, 1e-6, 1e-1), "|z - 1| in [1e-6, 0.1]"))
    out.append(CSpec("log1p", "log1p", SMALL, "|z| in [1e-8, 0.1]"))
    out.append(CSpec("log1p", "log1p", ("near", -1.0, 0.0, 1e-6, 1e-1),
                     "|z + 1| in [1e-6, 0.1]"))
    out.append(CSpec("sqrt", "sqrt", ("box", -10.0, -1e-3, -1e-6, 1e-6),
                     "Re z in [-10, 0), |Im z| <= 1e-6"))
    for name in ("asin", "acos", "atanh"):
        for c in (1.0, -1.0):
            out.append(CSpec(name, name, ("near", c, 0.0, 1e-6, 1e-1),
                             f"|z - ({c:+g})| in [1e-6, 0.1]"))
    for name in ("asin", "atan", "asinh", "atanh"):
        out.append(CSpec(name, name, SMALL, "|z| in [1e-8, 0.1]"))
    out.append(CSpec("acosh", "acosh", ("near", 1.0, 0.0, 1e-6, 1e-1), "|z - 1| in [1e-6, 0.1]"))
    for c in (1.0, -1.0):
        out.append(CSpec("asinh", "asinh", ("near", 0.0, c, 1e-6, 1e-1),
                         f"|z - ({c:+g}i)| in [1e-6, 0.1]"))
        out.append(CSpec("atan", "atan", ("near", 0.0, c, 1e-6, 1e-1),
                         f"|z - ({c:+g}i)| in [1e-6, 0.1]"))
    out.append(CSpec("pow", "pow", ("pow",), "|z| in [1e-2, 1e2], w in [-4, 4]^2", arity=2))
    return out


def sample(spec: CSpec, dtype: str, n: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed + sum(map(ord, spec.name + spec.text)))
    kind = spec.region[0]
    if kind == "box":
        _, a, b, c, d = spec.region
        z = rng.uniform(a, b, n) + 1j * rng.uniform(c, d, n)
    elif kind == "polar":
        _, lo, hi = spec.region
        z = np.exp(rng.uniform(math.log(lo), math.log(hi), n)) * \
            np.exp(1j * rng.uniform(-math.pi, math.pi, n))
    elif kind == "near":
        _, cx, cy, lo, hi = spec.region
        z = (cx + 1j * cy) + np.exp(rng.uniform(math.log(lo), math.log(hi), n)) * \
            np.exp(1j * rng.uniform(-math.pi, math.pi, n))
    elif kind == "pow":
        z = np.exp(rng.uniform(math.log(1e-2), math.log(1e2), n)) * \
            np.exp(1j * rng.uniform(-math.pi, math.pi, n))
        w = rng.uniform(-4, 4, n) + 1j * rng.uniform(-4, 4, n)
        return [z.astype(dtype), w.astype(dtype)]
    else:
        raise ValueError(kind)
    return [z.astype(dtype)]


def exact(spec: CSpec, points: list) -> np.ndarray:
    m = _mp()
    f = _fns()[spec.mp]
    out = np.empty(len(points[0]), dtype=np.complex128)
    with m.workdps(DPS):
        for i in range(len(out)):
            args = [m.mpc(complex(p[i])) for p in points]
            out[i] = complex(f(*args))
    return out


def errors(got: np.ndarray, ex: np.ndarray, dtype: str) -> np.ndarray:
    got = got.astype(np.complex128)
    mag = np.abs(ex)
    d = np.maximum(np.abs(got.real - ex.real), np.abs(got.imag - ex.imag))
    with np.errstate(all="ignore"):
        err = d / mag / EPS[dtype]
    same = (got == ex)
    err = np.where(same, 0.0, err)
    ok = np.isfinite(mag) & (mag > 0) & (mag < np.finfo(dtype).max)
    err = np.where(ok, err, 0.0)   # overflowing exact values: not measured here
    return np.where(np.isnan(err), np.inf, err)


def _numpy_fn(name):
    return {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh,
            "acosh": np.arccosh, "atanh": np.arctanh, "pow": np.power}.get(name) or \
        getattr(np, name)


def measure(spec: CSpec, dtype: str, n: int, seed: int = 0):
    """(arraycore max err, worst point, NumPy max err) over n points."""
    import arraycore as ac
    pts = sample(spec, dtype, n, seed)
    ex = exact(spec, pts)
    got = np.asarray(getattr(ac, spec.name)(*[ac.asarray(p) for p in pts]))
    assert got.dtype == np.dtype(dtype), f"{spec.name}: {got.dtype} for {dtype}"
    with np.errstate(all="ignore"):
        ref = _numpy_fn(spec.name)(*pts)
    e = errors(got, ex, dtype)
    k = int(np.argmax(e))
    return float(e[k]), [complex(p[k]) for p in pts], float(np.max(errors(ref, ex, dtype)))


def bound(spec: CSpec, dtype: str) -> float:
    return spec.bound64 if dtype == "complex64" else spec.bound128


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=2000)
    ap.add_argument("--only", default="")
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    print("| function | region | complex64 ulp (NumPy) | complex128 ulp (NumPy) |")
    print("|---|---|---|---|")
    bad = 0
    for spec in specs():
        if only and spec.name not in only:
            continue
        cells = []
        for dtype in DTYPES:
            e, at, npe = measure(spec, dtype, args.points)
            ok = e <= max(bound(spec, dtype), npe)
            bad += not ok
            cells.append(f"{e:.3g} ({npe:.3g})" + ("" if ok else f" **FAIL** at {at}"))
        print(f"| {spec.name} | {spec.text} | {cells[0]} | {cells[1]} |", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
