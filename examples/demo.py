"""arraycore demo: one Array-API function, run on arraycore (and on NumPy when it is present).

Prices a grid of European options with the Black-Scholes formula, written once against the
Array API namespace `xp`.  arraycore runs it natively; the same code runs on NumPy, and the two
answers are compared.  Run:  python examples/demo.py
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


if __name__ == "__main__":
    main()
