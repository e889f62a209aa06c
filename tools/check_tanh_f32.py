"""Exhaustive accuracy check of arraycore's float32 tanh (not part of the test suite: it
evaluates every float, a few minutes).

Every non-negative float32 bit pattern (all of [0, +inf] and the NaNs; tanh is odd and the
kernel restores the sign bit, which the negative specials below check) is run through
ac.tanh in contiguous chunks and compared with NumPy's float64 tanh rounded to float32 (the
correctly rounded result, barring double-rounding ties, which none of the reported maxima
come near).  Reported: the largest distance in floats from the correctly rounded result
(the contract: at most 1), the largest error in ulps from the float64 value, where they
occur; then exact checks: subnormals and zeros map to themselves (sign included), +-inf to
+-1, NaN to NaN, and a strided (non-contiguous) view gives the same bits as the
contiguous run.

Run:  PYTHONPATH=. python tools/check_tanh_f32.py [--top 9.2]
      (--top: stop at that value instead of +inf; the remaining floats all give 1)
"""
import argparse
import sys

import numpy as np

import arraycore as ac


def order_key(v):
    i = v.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=float, default=None)
    args = ap.parse_args()
    end = 0x7FFFFFFF if args.top is None else int(np.float32(args.top).view(np.uint32))
    step = 1 << 22
    max_cr, max_cr_at, max_ulp, max_ulp_at = 0, 0.0, 0.0, 0.0
    with np.errstate(invalid="ignore"):
        for s in range(0, end + 1, step):
            x = np.arange(s, min(s + step, end + 1), dtype=np.uint32).view(np.float32)
            r = np.asarray(ac.tanh(ac.asarray(x)))
            ref64 = np.tanh(x.astype(np.float64))
            ref = ref64.astype(np.float32)
            nan = np.isnan(x)
            if not np.isnan(r[nan]).all():
                sys.exit(f"NaN input gave a number near bits {s:#x}")
            ok = ~nan
            d = np.abs(order_key(r[ok]) - order_key(ref[ok]))
            if d.size and d.max() > max_cr:
                i = int(d.argmax())
                max_cr, max_cr_at = int(d[i]), float(x[ok][i])
            e = np.abs(r[ok].astype(np.float64) - ref64[ok]) / np.spacing(ref[ok]).astype(np.float64)
            if e.size and e.max() > max_ulp:
                i = int(e.argmax())
                max_ulp, max_ulp_at = float(e[i]), float(x[ok][i])
    print(f"max distance from the correctly rounded result: {max_cr} ulp (at x = {max_cr_at!r})")
    print(f"max error from the float64 value: {max_ulp:.4f} ulp (at x = {max_ulp_at!r})")
    sub = np.arange(0, 0x00800000, 977, dtype=np.uint32).view(np.float32)
    for v in (sub, -sub):
        out = np.asarray(ac.tanh(ac.asarray(v)))
        assert (out.view(np.uint32) == v.view(np.uint32)).all(), "a subnormal or zero changed"
    sp = np.array([np.inf, -np.inf, np.nan, -np.nan], np.float32)
    out = np.asarray(ac.tanh(ac.asarray(sp)))
    assert out[0] == 1 and out[1] == -1 and np.isnan(out[2:]).all()
    rng = np.random.default_rng(1)
    y = (4 * rng.standard_normal(100_003)).astype(np.float32)
    a = ac.asarray(y)
    assert (np.asarray(ac.tanh(a[::3])).view(np.uint32) ==
            np.asarray(ac.tanh(a))[::3].view(np.uint32)).all(), "strided != contiguous"
    print("subnormals, zeros (signed), +-inf, NaN and strided layout: ok")
    if max_cr > 1:
        sys.exit("FAILED: more than 1 ulp from the correctly rounded result")


if __name__ == "__main__":
    main()
