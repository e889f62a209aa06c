"""Shared builder of the autodiff test metadata of arraycore.special (used by the family
files tests/autodiff_op_info_special_<family>.py, each with a `build(add)`).

`special_info(name, samplers, ref, diff=...)` makes an OpInfo whose samples cover the
elementwise cases: broadcasting, 0-d, size 1, transposed and strided views, and a Python
scalar operand.  Operands not in `diff` (orders, shape parameters without a closed-form
derivative) are NumPy constants, so they are passed but never differentiated; one sample
passes them as Python numbers, as users write them (`gammainc(2.0, x)`).
"""

from __future__ import annotations

import numpy as np

from autodiff_op_info import Arg, OpInfo, Sample, uniform


def jax_special(name):
    """jax.scipy.special.<name> as the reference (float64 enabled by the tests)."""
    def ref(*args):
        import jax.scipy.special as jss
        return getattr(jss, name)(*args)
    ref.__name__ = f"jax.scipy.special.{name}"
    return ref


def special_info(name, samplers, ref, *, diff=None, scalar=None, hvp=True, rtol=1e-10,
                 dtypes=("float64", "float32"), notes=""):
    """OpInfo of special function `name`: samplers[i](rng, shape, np_dtype) draws operand i;
    diff: differentiable operand indices (default all); scalar: a Python number standing for
    the last operand in one sample (omit for unary functions)."""
    samplers = tuple(s or uniform() for s in samplers)
    n = len(samplers)
    diff = tuple(range(n)) if diff is None else tuple(diff)

    def operand(i, shape, rng, layout="contiguous"):
        if i in diff:
            return Arg(shape, samplers[i], layout)
        return np.asarray(samplers[i](rng, shape, np.dtype("float64")), dtype="float64")

    def gen(rng, dtype):
        out = [Sample(tuple(operand(i, (3, 1) if i == 0 else (4,), rng) for i in range(n)),
                      name="broadcast"),
               Sample(tuple(operand(i, () if i == 0 else (2, 3), rng) for i in range(n)),
                      name="0d_first"),
               Sample(tuple(operand(i, (1,), rng) for i in range(n)), name="size1"),
               Sample(tuple(operand(i, (3, 4), rng, "transposed") for i in range(n)),
                      name="transposed"),
               Sample(tuple(operand(i, (5,), rng, "strided") for i in range(n)),
                      name="strided")]
        if len(diff) < n:
            # the constants as Python numbers, as users write them (gammainc(2.0, x))
            out.append(Sample(tuple(
                operand(i, (3,), rng) if i in diff
                else float(samplers[i](rng, (), np.dtype("float64"))) for i in range(n)),
                name="constant_scalars"))
        if n > 1 and scalar is not None:
            out.append(Sample(tuple(operand(i, (3,), rng) for i in range(n - 1)) + (scalar,),
                              name="scalar_last"))
        return out

    return OpInfo(name, gen, ref, dtypes=dtypes, hvp=hvp, rtol=rtol, notes=notes)
