"""Special-function benchmarks (issue 9): arraycore.special vs SciPy / PyTorch / JAX.

    python benchmarks/bench_special.py --threads 1                  # every function
    python benchmarks/bench_special.py --threads 1 --only erf,gammaln
    python benchmarks/bench_special.py --threads 1 --only erf --dtypes float32

The harness's baseline column "numpy" is **scipy.special** here (its ufuncs on NumPy
arrays), so "ratio" is arraycore's (or PyTorch's / JAX's) time over SciPy's.  Cases: every
arraycore.special function that PyTorch or JAX also has (torch.special / torch,
jax.scipy.special), at 1e6 float32 and float64 elements (logsumexp, softmax and log_softmax
along the last axis of a (1000, 1000) array), plus the issue's two headline cases, erf and
gammaln of 1e7 float32.  The target for each function is at most the faster
of PyTorch and JAX (the "vs torch / vs jax" lines); erf 1e7 f32 <= 0.15x and gammaln 1e7
f32 <= 0.25x SciPy.  `--only a,b` keeps the functions named (exact names), `--dtypes`
the dtypes.  JAX is eager (no jit), as the harness measures it everywhere.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _u(lo, hi):
    return lambda rng, n, dt: rng.uniform(lo, hi, n).astype(dt)


def _ints(lo, hi):
    return lambda rng, n, dt: rng.integers(lo, hi + 1, n).astype(dt)


# name: (operand samplers, torch function (path in torch), jax function (in jax.scipy.special))
# A Python int operand (polygamma's n, multigammaln's d) is given as an int, not a sampler.
FUNCTIONS = {
    "erf": ([_u(-3, 3)], "special.erf", "erf"),
    "erfc": ([_u(-3, 9)], "special.erfc", "erfc"),
    "erfcx": ([_u(-3, 30)], "special.erfcx", None),
    "erfinv": ([_u(-0.99, 0.99)], "special.erfinv", "erfinv"),
    "ndtr": ([_u(-8, 8)], "special.ndtr", "ndtr"),
    "log_ndtr": ([_u(-30, 8)], "special.log_ndtr", "log_ndtr"),
    "ndtri": ([_u(0.001, 0.999)], "special.ndtri", "ndtri"),
    "gamma": ([_u(0.1, 30)], None, "gamma"),
    "gammaln": ([_u(0.1, 100)], "special.gammaln", "gammaln"),
    "rgamma": ([_u(-5, 30)], None, None),
    "psi": ([_u(0.1, 50)], "special.digamma", "digamma"),
    "polygamma": ([1, _u(0.1, 30)], "special.polygamma", "polygamma"),
    "zeta": ([_u(1.5, 10), _u(0.5, 5)], "special.zeta", "zeta"),
    "betaln": ([_u(0.1, 30), _u(0.1, 30)], None, "betaln"),
    "poch": ([_u(0.1, 10), _u(0, 5)], None, "poch"),
    "multigammaln": ([_u(3, 30), 3], "special.multigammaln", "multigammaln"),
    "expit": ([_u(-20, 20)], "special.expit", "expit"),
    "logit": ([_u(0.001, 0.999)], "special.logit", "logit"),
    "log_expit": ([_u(-30, 30)], None, None),
    "i0": ([_u(-30, 30)], "special.i0", "i0"),
    "i0e": ([_u(-50, 50)], "special.i0e", "i0e"),
    "i1": ([_u(-30, 30)], "special.i1", "i1"),
    "i1e": ([_u(-50, 50)], "special.i1e", "i1e"),
    "j0": ([_u(-50, 50)], "special.bessel_j0", None),
    "j1": ([_u(-50, 50)], "special.bessel_j1", None),
    "y0": ([_u(0.01, 50)], "special.bessel_y0", None),
    "y1": ([_u(0.01, 50)], "special.bessel_y1", None),
    "k0": ([_u(0.01, 50)], "special.modified_bessel_k0", None),
    "k1": ([_u(0.01, 50)], "special.modified_bessel_k1", None),
    "k0e": ([_u(0.01, 50)], "special.scaled_modified_bessel_k0", None),
    "k1e": ([_u(0.01, 50)], "special.scaled_modified_bessel_k1", None),
    "airy_ai": ([_u(-10, 10)], "special.airy_ai", None),
    "spherical_bessel_j0": ([_u(-50, 50)], "special.spherical_bessel_j0", None),
    "gammainc": ([_u(0.1, 20), _u(0, 30)], "special.gammainc", "gammainc"),
    "gammaincc": ([_u(0.1, 20), _u(0, 30)], "special.gammaincc", "gammaincc"),
    "betainc": ([_u(0.1, 20), _u(0.1, 20), _u(0, 1)], None, "betainc"),
    # (JAX's exp1, and expi at x < 0 where it calls exp1, are left out: eager, they take
    # ~39 us per element (3.9 s per 1e5 float32 on the Cascade Lake machine, 2026-11-28),
    # which stalls the whole run; see NOTES)
    "exp1": ([_u(0.01, 30)], None, None),
    "expi": ([_u(-30, 30)], None, None),
    "expn": ([_ints(0, 10), _u(0.01, 30)], None, None),  # (JAX left out, see NOTES)
    "spence": ([_u(0, 10)], None, "spence"),
    "hyp1f1": ([_u(-5, 5), _u(0.5, 5), _u(-5, 5)], None, "hyp1f1"),
    "entr": ([_u(0, 10)], "special.entr", "entr"),
    "rel_entr": ([_u(0, 10), _u(0.01, 10)], None, "rel_entr"),
    "kl_div": ([_u(0, 10), _u(0.01, 10)], None, "kl_div"),
    "xlogy": ([_u(-5, 5), _u(0.01, 10)], "special.xlogy", "xlogy"),
    "xlog1py": ([_u(-5, 5), _u(-0.9, 10)], "special.xlog1py", "xlog1py"),
    "sinc": ([_u(-10, 10)], "special.sinc", None),
    "exp2": ([_u(-50, 50)], "special.exp2", None),
    "exp10": ([_u(-30, 30)], None, None),
    "cbrt": ([_u(-100, 100)], None, None),
}

# Printed with the case (things measured outside the interleaved run).
NOTES = {
    "exp1": "JAX not timed: jax.scipy.special.exp1 takes ~39 us/element eagerly (1e5 float32: "
            "3.9 s), 1000x the others",
    "expi": "JAX not timed: jax.scipy.special.expi calls exp1 for x < 0 (see exp1)",
    "expn": "JAX not timed: jax.scipy.special.expn takes 13 us/element eagerly at 1e4 and grows "
            "faster than n (a 1e6 case ran over 10 minutes)",
}

# torch's orthogonal polynomials: (x, n) with a scalar n
for _p in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
           "laguerre_polynomial_l", "legendre_polynomial_p"):
    FUNCTIONS[_p] = ([_u(-1, 1), 8], f"special.{_p}", None)


def _torch_fn(torch, path):
    obj = torch
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _case(name, samplers, torch_path, jax_name, dtype, n, rng, note=""):
    data = [s(rng, n, np.dtype(dtype)) if callable(s) else s for s in samplers]

    def scipy_setup(np_):
        import scipy.special as sp
        f = getattr(sp, name, None)
        if f is None:
            raise RuntimeError(f"scipy.special has no {name}")
        return lambda: f(*data)

    def ac_setup(ac):
        f = getattr(ac.special, name)
        args = [ac.asarray(d) if isinstance(d, np.ndarray) else d for d in data]
        return lambda: f(*args)

    def torch_setup(torch):
        if torch_path is None:
            raise RuntimeError("no PyTorch function")
        f = _torch_fn(torch, torch_path)
        args = [torch.from_numpy(d.copy()) if isinstance(d, np.ndarray) else d for d in data]
        if name == "polygamma":  # torch.special.polygamma(n: int, input)
            args[0] = int(data[0])
        return lambda: f(*args)

    def jax_setup(jnp):
        if jax_name is None:
            raise RuntimeError("no JAX function")
        import jax.scipy.special as jss
        f = getattr(jss, jax_name)
        args = [jnp.asarray(d).block_until_ready() if isinstance(d, np.ndarray) else d
                for d in data]
        return lambda: f(*args).block_until_ready()

    nbytes = sum(d.nbytes for d in data if isinstance(d, np.ndarray)) + n * np.dtype(dtype).itemsize
    return Case(f"{name} {dtype[0]}{dtype[-2:]} {n:.0e}", {
        "numpy": scipy_setup, "arraycore": ac_setup, "torch": torch_setup, "jax": jax_setup},
        bytes_moved=nbytes, note=note)


# The reductions along the last axis of a (1000, 1000) array (1e6 elements): SciPy's
# function, PyTorch's torch.<name>(x, -1) and JAX's (jax.scipy.special.logsumexp,
# jax.nn.softmax / log_softmax).
REDUCTIONS = {"logsumexp": "scipy", "softmax": "nn", "log_softmax": "nn"}


def _reduction_case(name, dtype, side, rng):
    data = rng.standard_normal((side, side)).astype(dtype) * 4

    def scipy_setup(np_):
        import scipy.special as sp
        f = getattr(sp, name)
        return lambda: f(data, axis=-1)

    def ac_setup(ac):
        f, x = getattr(ac.special, name), ac.asarray(data)
        return lambda: f(x, axis=-1)

    def torch_setup(torch):
        f, x = getattr(torch, name), torch.from_numpy(data.copy())
        return lambda: f(x, -1)

    def jax_setup(jnp):
        import jax
        f = jax.scipy.special.logsumexp if REDUCTIONS[name] == "scipy" else getattr(jax.nn, name)
        x = jnp.asarray(data).block_until_ready()
        return lambda: f(x, axis=-1).block_until_ready()

    return Case(f"{name} {dtype[0]}{dtype[-2:]} {side}x{side} axis=-1", {
        "numpy": scipy_setup, "arraycore": ac_setup, "torch": torch_setup, "jax": jax_setup},
        bytes_moved=2 * data.nbytes)


def build_cases(quick: bool = False):
    only = [w for w in os.environ.get("BENCH_SPECIAL_ONLY", "").split(",") if w]
    dtypes = [w for w in os.environ.get("BENCH_SPECIAL_DTYPES", "float32,float64").split(",")
              if w]
    n = 10 ** 5 if quick else 10 ** 6
    big = 10 ** 6 if quick else 10 ** 7
    rng = np.random.default_rng(0)
    cases = []
    for name, target in (("erf", "target <= 0.15x SciPy"), ("gammaln", "target <= 0.25x SciPy")):
        if (not only or name in only) and "float32" in dtypes:
            s, tp, jn = FUNCTIONS[name]
            cases.append(_case(name, s, tp, jn, "float32", big, rng, note=target))
    for name, (s, tp, jn) in FUNCTIONS.items():
        if only and name not in only:
            continue
        for dt in dtypes:
            cases.append(_case(name, s, tp, jn, dt, n, rng, note=NOTES.get(name, "")))
    for name in REDUCTIONS:
        if only and name not in only:
            continue
        for dt in dtypes:
            cases.append(_reduction_case(name, dt, 316 if quick else 1000, rng))
    return cases


if __name__ == "__main__":
    argv = list(sys.argv[1:])
    for flag, var in (("--only", "BENCH_SPECIAL_ONLY"), ("--dtypes", "BENCH_SPECIAL_DTYPES")):
        if flag in argv:  # (filters of this file, not of the harness)
            i = argv.index(flag)
            os.environ[var] = argv[i + 1]
            del argv[i:i + 2]
    sys.exit(harness.main(build_cases, argv=argv, description=__doc__.splitlines()[0]))
