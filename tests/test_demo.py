"""The README's demo (examples/demo.py) keeps working: pricing and the Greeks by autodiff."""

import importlib.util
import os

import numpy as np

import arraycore as ac

_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                     "demo.py")
_spec = importlib.util.spec_from_file_location("arraycore_demo", _PATH)
demo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(demo)


def test_pricing_matches_numpy():
    spot = np.linspace(50.0, 150.0, 101)
    vol = 0.1 + 0.4 * (spot - 50.0) / 100.0
    t = np.full(101, 1.5)
    got = demo.black_scholes_call(ac, ac.asarray(spot), 100.0, 0.03, ac.asarray(vol),
                                  ac.asarray(t))
    want = demo.black_scholes_call(np, spot, 100.0, 0.03, vol, t)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=1e-13)


def test_greeks_run(capsys):
    demo.greeks(n=1000)
    out = capsys.readouterr().out
    err_delta = float(out.split("max |delta - N(d1)| = ")[1].split(",")[0])
    err_vega = float(out.split("max relative vega error = ")[1].split()[0])
    assert err_delta < 2e-5 and err_vega < 2e-5, out
