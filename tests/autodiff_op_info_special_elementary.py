"""Autodiff test metadata of arraycore.special, family elementary (see
tests/autodiff_op_info_special.py).  References: jax.scipy.special where it has the function,
else the same formula in jax.numpy (JAX differentiates it)."""

from __future__ import annotations

import math

from autodiff_op_info import uniform
from autodiff_op_info_special import jax_special, special_info


def _jnp():
    import jax.numpy as jnp
    return jnp


def _ref(name, fn):
    def ref(*args):
        return fn(_jnp(), *args)
    ref.__name__ = f"jnp:{name}"
    return ref


_D = math.pi / 180


def _huber(jnp, d, r):
    a = jnp.abs(r)
    return jnp.where(a <= d, 0.5 * r * r, d * (a - 0.5 * d))


def build(add):
    add(special_info("cbrt", [uniform(0.2, 5.0)], _ref("cbrt", lambda j, x: j.cbrt(x))))
    add(special_info("sindg", [uniform(-400, 400)], _ref("sindg", lambda j, x: j.sin(x * _D))))
    add(special_info("cosdg", [uniform(-400, 400)], _ref("cosdg", lambda j, x: j.cos(x * _D))))
    add(special_info("tandg", [uniform(-80, 80)], _ref("tandg", lambda j, x: j.tan(x * _D))))
    add(special_info("cotdg", [uniform(10, 170)],
                     _ref("cotdg", lambda j, x: 1 / j.tan(x * _D))))
    add(special_info("cosm1", [uniform(-3, 3)], _ref("cosm1", lambda j, x: j.cos(x) - 1)))
    add(special_info("radian", [uniform(-90, 90), uniform(-60, 60), uniform(-60, 60)],
                     _ref("radian", lambda j, d, m, s: (d + m / 60 + s / 3600) * _D),
                     scalar=30.0))
    add(special_info("exp2", [uniform(-5, 5)], _ref("exp2", lambda j, x: j.exp2(x))))
    add(special_info("exp10", [uniform(-3, 3)], _ref("exp10", lambda j, x: 10.0 ** x)))
    add(special_info("exprel", [uniform(0.05, 3)], _ref("exprel", lambda j, x: j.expm1(x) / x)))
    add(special_info("sinc", [uniform(0.1, 3)], _ref("sinc", lambda j, x: j.sinc(x))))
    add(special_info("entr", [uniform(0.1, 5)], jax_special("entr")))
    add(special_info("rel_entr", [uniform(0.1, 5), uniform(0.1, 5)], jax_special("rel_entr"),
                     scalar=2.0))
    add(special_info("kl_div", [uniform(0.1, 5), uniform(0.1, 5)], jax_special("kl_div"),
                     scalar=2.0))
    add(special_info("xlogy", [uniform(-3, 3), uniform(0.1, 5)], jax_special("xlogy"),
                     scalar=2.0))
    add(special_info("xlog1py", [uniform(-3, 3), uniform(-0.5, 5)], jax_special("xlog1py"),
                     scalar=2.0))
    add(special_info("huber", [uniform(0.5, 2), uniform(-4, 4)], _ref("huber", _huber),
                     scalar=1.5))
    add(special_info("pseudo_huber", [uniform(0.5, 2), uniform(-4, 4)],
                     _ref("pseudo_huber",
                          lambda j, d, r: d * d * (j.sqrt(1 + (r / d) ** 2) - 1)),
                     scalar=1.5))
    add(special_info("boxcox", [uniform(0.2, 5), uniform(-2, 2)],
                     _ref("boxcox", lambda j, x, l: j.expm1(l * j.log(x)) / l),
                     diff=(0,)))
    add(special_info("boxcox1p", [uniform(-0.5, 5), uniform(-2, 2)],
                     _ref("boxcox1p", lambda j, x, l: j.expm1(l * j.log1p(x)) / l),
                     diff=(0,)))
    add(special_info("inv_boxcox", [uniform(0.1, 2), uniform(0.2, 2)],
                     _ref("inv_boxcox", lambda j, y, l: j.exp(j.log1p(l * y) / l)),
                     diff=(0,)))
    add(special_info("inv_boxcox1p", [uniform(0.1, 2), uniform(0.2, 2)],
                     _ref("inv_boxcox1p", lambda j, y, l: j.expm1(j.log1p(l * y) / l)),
                     diff=(0,)))
