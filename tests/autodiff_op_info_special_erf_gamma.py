"""Autodiff test metadata of arraycore.special, family erf_gamma (see
tests/autodiff_op_info_special.py).  References: jax.scipy.special where it has the
function, else a jnp composite with the same signature."""

from __future__ import annotations

import numpy as np

from autodiff_op_info import uniform
from autodiff_op_info_special import jax_special, special_info


def _jnp(name, fn):
    fn.__name__ = name
    return fn


def _erfcinv(y):
    import jax.scipy.special as jss
    return jss.erfinv(1.0 - y)


def _ndtri_exp(y):
    import jax.numpy as jnp
    import jax.scipy.special as jss
    return jss.ndtri(jnp.exp(y))


def _rgamma(x):
    import jax.scipy.special as jss
    return 1.0 / jss.gamma(x)


def _zetac(x):
    import jax.scipy.special as jss
    return jss.zeta(x, 1.0) - 1.0


def _binom(n, k):
    import jax.numpy as jnp
    import jax.scipy.special as jss
    return jnp.exp(jss.gammaln(n + 1) - jss.gammaln(k + 1) - jss.gammaln(n - k + 1))


def _polygamma(n, x):
    import jax.numpy as jnp
    import jax.scipy.special as jss
    return jss.polygamma(jnp.asarray(n).astype(jnp.int32), x)  # JAX wants an integer n


def _log_expit(x):
    import jax
    return jax.nn.log_sigmoid(x)


def _ints(lo, hi):
    def s(rng, shape, dt):
        return rng.randint(lo, hi + 1, size=shape).astype(np.float64)
    return s


def build(add):
    add(special_info("erf", [uniform(-2.5, 2.5)], jax_special("erf")))
    add(special_info("erfc", [uniform(-2.5, 2.5)], jax_special("erfc")))
    add(special_info("erfcx", [uniform(-2.0, 5.0)], jax_special("erfcx")))
    add(special_info("erfinv", [uniform(-0.9, 0.9)], jax_special("erfinv")))
    add(special_info("erfcinv", [uniform(0.1, 1.9)], _jnp("erfcinv", _erfcinv)))
    add(special_info("ndtr", [uniform(-3.0, 3.0)], jax_special("ndtr")))
    add(special_info("log_ndtr", [uniform(-6.0, 4.0)], jax_special("log_ndtr")))
    add(special_info("ndtri", [uniform(0.05, 0.95)], jax_special("ndtri")))
    add(special_info("ndtri_exp", [uniform(-4.0, -0.05)], _jnp("ndtri_exp", _ndtri_exp)))
    add(special_info("gamma", [uniform(0.5, 4.0)], jax_special("gamma")))
    add(special_info("gammaln", [uniform(0.3, 6.0)], jax_special("gammaln")))
    add(special_info("loggamma", [uniform(0.3, 6.0)], jax_special("gammaln")))
    add(special_info("rgamma", [uniform(0.5, 4.0)], _jnp("rgamma", _rgamma)))
    add(special_info("gammasgn", [uniform(-3.7, 3.7)], jax_special("gammasgn")))
    add(special_info("psi", [uniform(0.5, 6.0)], jax_special("digamma")))
    add(special_info("polygamma", [_ints(0, 3), uniform(0.5, 5.0)], _jnp("polygamma", _polygamma),
                     diff=(1,), dtypes=("float64",),
                     notes="JAX's float32 polygamma is too inaccurate to compare with"))
    add(special_info("zeta", [uniform(2.0, 6.0), uniform(0.5, 4.0)], jax_special("zeta"),
                     diff=(1,)))
    add(special_info("zetac", [uniform(1.5, 8.0)], _jnp("zetac", _zetac),
                     dtypes=("float64",)))
    add(special_info("poch", [uniform(0.5, 4.0), uniform(0.2, 2.5)], jax_special("poch"),
                     scalar=1.5, rtol=1e-9))
    add(special_info("betaln", [uniform(0.5, 5.0), uniform(0.5, 5.0)], jax_special("betaln"),
                     scalar=2.5))
    add(special_info("binom", [uniform(3.0, 8.0), uniform(0.5, 2.5)], _jnp("binom", _binom),
                     scalar=1.5, rtol=1e-9))
    add(special_info("expit", [uniform(-5.0, 5.0)], jax_special("expit")))
    add(special_info("logit", [uniform(0.05, 0.95)], jax_special("logit")))
    add(special_info("log_expit", [uniform(-6.0, 6.0)], _jnp("log_expit", _log_expit)))
