"""arraycore demo: one Array-API function, run on arraycore (and on NumPy when it is present),
and differentiated by arraycore's autodiff.

Prices a grid of European options with the Black-Scholes formula, written once against the
Array API namespace `xp`.  arraycore runs it natively; the same code runs on NumPy, and the two
answers are compared.  Then the same function, unchanged, gives the Greeks: delta (d price /
d spot) through the torch-style tape and vega (d price / d vol) through `ac.func.grad`, both
checked against their closed forms.  Run:  python examples/demo.py
"""


import time

import arraycore as ac


def normal_cdf(xp, x):
    """Standard normal CDF via erf's Abramowitz-Stegun 7.1.26 rational approximation."""
    z = xp.abs(x) / 1.4142135623730951
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                          + t * 1.061405429))))
    erf = 1.0 - poly * xp.exp(-z * z)
    return 0.5 * (1.0 + xp.sign(x) * erf)


def black_scholes_call(xp, spot, strike, rate, vol, t):
    """Price of a European call option (Array API code: works for any conforming xp)."""
    sqrt_t = xp.sqrt(t)
    d1 = (xp.log(spot / strike) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    return spot * normal_cdf(xp, d1) - strike * xp.exp(-rate * t) * normal_cdf(xp, d2)


def main():
    n = 2_000_000
    spot = ac.linspace(50.0, 150.0, n)
    strike = ac.full((n,), 100.0)
    vol = 0.1 + 0.4 * (spot - 50.0) / 100.0
    t = ac.full((n,), 1.5)
    xp = spot.__array_namespace__()
    assert xp is ac

    start = time.perf_counter()
    price = black_scholes_call(xp, spot, strike, 0.03, vol, t)
    elapsed = time.perf_counter() - start
    print(f"arraycore {ac.__version__} (Array API {ac.__array_api_version__}), "
          f"{ac.get_num_threads()} thread(s)")
    print(f"priced {n:,} options in {elapsed * 1e3:.1f} ms")
    print("first prices:", price[:4])
    print("last prices: ", price[-4:])

    try:
        import numpy as np
    except ImportError:
        print("(NumPy not installed: skipping the side-by-side check)")
        return
    args = [np.asarray(a) for a in (spot, strike)] + [0.03] + [np.asarray(a) for a in (vol, t)]
    start = time.perf_counter()
    ref = black_scholes_call(np, *args)
    np_elapsed = time.perf_counter() - start
    err = float(np.max(np.abs(np.asarray(price) - ref)))
    print(f"NumPy {np.__version__}: {np_elapsed * 1e3:.1f} ms; max difference {err:.2e}")


def greeks(n=200_000):
    """Delta and vega of every option by reverse-mode autodiff of the pricing function."""
    spot = ac.linspace(50.0, 150.0, n)
    vol = 0.1 + 0.4 * (spot - 50.0) / 100.0
    strike, rate, t = 100.0, 0.03, ac.full((n,), 1.5)

    start = time.perf_counter()
    # The tape: options are independent, so the gradient of the summed price is each delta.
    s = ac.asarray(spot, copy=True)
    s.requires_grad_()
    ac.sum(black_scholes_call(ac, s, strike, rate, vol, t)).backward()
    delta = s.grad
    # The transform: vega = d(sum of prices)/d(vol), the same function under ac.func.grad.
    vega = ac.func.grad(lambda v: ac.sum(black_scholes_call(ac, spot, strike, rate, v, t)))(vol)
    elapsed = time.perf_counter() - start

    # Closed forms: delta = N(d1), vega = spot * sqrt(t) * phi(d1).  (They hold for the exact
    # normal CDF; the pricing function uses a 1.5e-7-accurate approximation of it, so the
    # differences below are of that order, not rounding level.)
    sqrt_t = ac.sqrt(t)
    d1 = (ac.log(spot / strike) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
    exact_delta = normal_cdf(ac, d1)
    exact_vega = spot * sqrt_t * ac.exp(-0.5 * d1 * d1) / 2.5066282746310002  # sqrt(2 pi)
    err_delta = float(ac.max(ac.abs(delta - exact_delta)))
    err_vega = float(ac.max(ac.abs(vega - exact_vega)) / ac.max(exact_vega))
    print(f"Greeks of {n:,} options by autodiff in {elapsed * 1e3:.1f} ms "
          f"(delta on the tape, vega through ac.func.grad)")
    print("first deltas:", delta[:4])
    print(f"max |delta - N(d1)| = {err_delta:.1e}, max relative vega error = {err_vega:.1e}")


if __name__ == "__main__":
    main()
    greeks()
