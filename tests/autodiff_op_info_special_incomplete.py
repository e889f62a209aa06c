"""Autodiff test metadata of arraycore.special, family incomplete (see
tests/autodiff_op_info_special.py).

References: jax.scipy.special.gammainc/gammaincc/betainc, and jnp compositions of them with
SciPy's argument orders for the distribution functions.  JAX has no inverses; their
reference is two Newton steps, in JAX, on the JAX forward function from SciPy's root held
constant (stop_gradient): from a root, the first step carries the exact first derivative
1/F' and the second the exact second derivative -F''/F'^3, so JAX differentiates the
inverse through them.  Shapes, degrees of freedom and counts are constants (not differentiated).
"""

from __future__ import annotations

import numpy as np

from autodiff_op_info import small_ints, uniform
from autodiff_op_info_special import jax_special, special_info


def _jss():
    import jax.scipy.special as jss
    return jss


def _jnp():
    import jax.numpy as jnp
    return jnp


def _inverse_ref(name, forward, nargs):
    """Reference of scipy.special.<name>: the root of forward(*consts, x) = p refined by
    two JAX Newton steps from SciPy's root."""
    def ref(*args):
        import jax
        import scipy.special as sp
        jnp = _jnp()
        args = [jnp.asarray(a) for a in args]
        shape = jnp.broadcast_shapes(*[jnp.shape(a) for a in args])
        dtype = jnp.result_type(*args)
        consts, p = args[:nargs - 1], args[nargs - 1]

        def scipy_root(*xs):
            return np.asarray(getattr(sp, name)(*[np.asarray(x, np.float64) for x in xs]),
                              dtype=dtype)
        x0 = jax.pure_callback(
            scipy_root, jax.ShapeDtypeStruct(shape, dtype),
            *[jax.lax.stop_gradient(jnp.broadcast_to(a, shape)) for a in args])
        f = lambda x: forward(*consts, x)  # noqa: E731

        def newton(x):
            fx, dfx = jax.jvp(f, (x,), (jnp.ones_like(x),))
            return x - (fx - p) / dfx
        return newton(newton(x0))
    ref.__name__ = f"newton({name})"
    return ref


def _floor(v):
    return _jnp().floor(v)


def _trunc(v):
    return _jnp().trunc(v)


def build(add):
    jss = _jss
    a_gam = uniform(0.5, 6.0)
    x_gam = uniform(0.3, 6.0)
    prob = uniform(0.1, 0.9)
    shape = uniform(0.8, 6.0)

    # incomplete gamma, its inverses
    add(special_info("gammainc", [a_gam, x_gam], jax_special("gammainc"), diff=(1,)))
    add(special_info("gammaincc", [a_gam, x_gam], jax_special("gammaincc"), diff=(1,)))
    add(special_info("gammaincinv", [a_gam, prob],
                     _inverse_ref("gammaincinv", lambda a, x: jss().gammainc(a, x), 2),
                     diff=(1,)))
    add(special_info("gammainccinv", [a_gam, prob],
                     _inverse_ref("gammainccinv", lambda a, x: jss().gammaincc(a, x), 2),
                     diff=(1,)))
    # incomplete beta, its inverse
    add(special_info("betainc", [shape, shape, uniform(0.1, 0.9)], jax_special("betainc"),
                     diff=(2,)))
    add(special_info("betaincc", [shape, shape, uniform(0.1, 0.9)],
                     lambda a, b, x: 1.0 - jss().betainc(a, b, x), diff=(2,)))
    add(special_info("betaincinv", [shape, shape, prob],
                     _inverse_ref("betaincinv", lambda a, b, x: jss().betainc(a, b, x), 3),
                     diff=(2,)))

    # binomial: bdtr(k, n, p) = I_{1-p}(n-k, k+1)
    k_s, n_s = small_ints(0, 4), small_ints(6, 10)

    def bdtr(k, n, p):
        k, n = _floor(k), _trunc(n)
        return jss().betainc(n - k, k + 1.0, 1.0 - p)

    def bdtrc(k, n, p):
        k, n = _floor(k), _trunc(n)
        return jss().betainc(k + 1.0, n - k, p)
    add(special_info("bdtr", [k_s, n_s, prob], bdtr, diff=(2,)))
    add(special_info("bdtrc", [k_s, n_s, prob], bdtrc, diff=(2,)))
    add(special_info("bdtri", [k_s, n_s, prob], _inverse_ref("bdtri", bdtr, 3), diff=(2,)))

    # negative binomial: nbdtr(k, n, p) = I_p(n, k+1)
    kn_s, nn_s = small_ints(0, 6), small_ints(1, 6)

    def nbdtr(k, n, p):
        return jss().betainc(_trunc(n), _trunc(k) + 1.0, p)

    def nbdtrc(k, n, p):
        return jss().betainc(_trunc(k) + 1.0, _trunc(n), 1.0 - p)
    add(special_info("nbdtr", [kn_s, nn_s, prob], nbdtr, diff=(2,)))
    add(special_info("nbdtrc", [kn_s, nn_s, prob], nbdtrc, diff=(2,)))
    add(special_info("nbdtri", [kn_s, nn_s, prob], _inverse_ref("nbdtri", nbdtr, 3), diff=(2,)))

    # Poisson: pdtr(k, m) = Q(k+1, m)
    kp_s = small_ints(0, 6)

    def pdtr(k, m):
        return jss().gammaincc(_floor(k) + 1.0, m)

    def pdtrc(k, m):
        return jss().gammainc(_floor(k) + 1.0, m)
    add(special_info("pdtr", [kp_s, uniform(0.3, 6.0)], pdtr, diff=(1,)))
    add(special_info("pdtrc", [kp_s, uniform(0.3, 6.0)], pdtrc, diff=(1,)))
    add(special_info("pdtri", [kp_s, prob], _inverse_ref("pdtri", pdtr, 2), diff=(1,)))

    # chi-square: chdtr(v, x) = P(v/2, x/2)
    def chdtr(v, x):
        return jss().gammainc(0.5 * v, 0.5 * x)

    def chdtrc(v, x):
        return jss().gammaincc(0.5 * v, 0.5 * x)
    v_s = uniform(1.0, 10.0)
    add(special_info("chdtr", [v_s, uniform(0.5, 12.0)], chdtr, diff=(1,)))
    add(special_info("chdtrc", [v_s, uniform(0.5, 12.0)], chdtrc, diff=(1,)))
    add(special_info("chdtri", [v_s, prob], _inverse_ref("chdtri", chdtrc, 2), diff=(1,)))

    # gamma: gdtr(a, b, x) = P(b, a x), a the rate (differentiable), b the shape
    def gdtr(a, b, x):
        return jss().gammainc(b, a * x)

    def gdtrc(a, b, x):
        return jss().gammaincc(b, a * x)
    add(special_info("gdtr", [uniform(0.5, 3.0), a_gam, uniform(0.3, 4.0)], gdtr, diff=(0, 2),
                     scalar=1.5))
    add(special_info("gdtrc", [uniform(0.5, 3.0), a_gam, uniform(0.3, 4.0)], gdtrc,
                     diff=(0, 2), scalar=1.5))

    # F: fdtr(m, n, x) = I_{mx/(n+mx)}(m/2, n/2)
    def fdtr(m, n, x):
        return jss().betainc(0.5 * m, 0.5 * n, m * x / (n + m * x))

    def fdtrc(m, n, x):
        return jss().betainc(0.5 * n, 0.5 * m, n / (n + m * x))
    df_s = uniform(2.0, 12.0)
    add(special_info("fdtr", [df_s, df_s, uniform(0.2, 4.0)], fdtr, diff=(2,)))
    add(special_info("fdtrc", [df_s, df_s, uniform(0.2, 4.0)], fdtrc, diff=(2,)))
    add(special_info("fdtri", [df_s, df_s, prob], _inverse_ref("fdtri", fdtr, 3), diff=(2,)))

    # Student t: stdtr(v, t) = 1 - I_{v/(v+t^2)}(v/2, 1/2) / 2 for t > 0
    def stdtr(v, t):
        jnp = _jnp()
        tail = 0.5 * jss().betainc(0.5 * v, 0.5, v / (v + t * t))
        return jnp.where(t < 0, tail, 1.0 - tail)
    add(special_info("stdtr", [uniform(1.0, 10.0), uniform(0.2, 3.0)], stdtr, diff=(1,)))
    add(special_info("stdtrit", [uniform(1.0, 10.0), uniform(0.55, 0.95)],
                     _inverse_ref("stdtrit", stdtr, 2), diff=(1,)))
