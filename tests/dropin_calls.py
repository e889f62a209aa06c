"""Calls into SciPy and scikit-learn that support the Array API, run on NumPy and arraycore.

Run as a script (tests/test_dropin.py does, in a subprocess, because SciPy reads
SCIPY_ARRAY_API=1 at import): prints one JSON line per call with whether arraycore's result is an
arraycore array equal to NumPy's result.
"""

import json
import os
import sys
import traceback

os.environ["SCIPY_ARRAY_API"] = "1"

import numpy as np  # noqa: E402

import arraycore as ac  # noqa: E402

rng = np.random.default_rng(0)
X = rng.standard_normal((40, 5))
Y = rng.standard_normal((40, 5)) + 0.5
y_true = rng.integers(0, 3, 40)
y_pred = np.where(rng.random(40) < 0.7, y_true, (y_true + 1) % 3)
v = np.linspace(0.1, 3.0, 50)


def scipy_calls():
    import scipy.cluster.vq
    import scipy.integrate
    import scipy.signal
    import scipy.special
    import scipy.stats
    return {
        "scipy.special.erf": lambda xp, a: scipy.special.erf(a(v)),
        "scipy.special.expit": lambda xp, a: scipy.special.expit(a(X)),
        "scipy.special.logsumexp": lambda xp, a: scipy.special.logsumexp(a(X), axis=0),
        "scipy.special.xlogy": lambda xp, a: scipy.special.xlogy(a(v), a(v[::-1])),
        "scipy.special.entr": lambda xp, a: scipy.special.entr(a(v)),
        "scipy.stats.zscore": lambda xp, a: scipy.stats.zscore(a(X), axis=0),
        "scipy.stats.skew": lambda xp, a: scipy.stats.skew(a(X), axis=0),
        "scipy.stats.moment": lambda xp, a: scipy.stats.moment(a(X), order=3, axis=0),
        "scipy.stats.ttest_ind": lambda xp, a: scipy.stats.ttest_ind(a(X), a(Y), axis=0).statistic,
        "scipy.cluster.vq.whiten": lambda xp, a: scipy.cluster.vq.whiten(a(X)),
        "scipy.integrate.trapezoid": lambda xp, a: scipy.integrate.trapezoid(a(v * v), a(v)),
        "scipy.signal.detrend": lambda xp, a: scipy.signal.detrend(a(v * v)),
    }


P = rng.random((40, 5)) + 0.1


def stats_calls():
    """Array-API-aware scipy.stats functions whose p-values and statistics go through
    scipy.special (stdtr, betainc, gammaincc, ndtr, ...), which SciPy resolves to
    arraycore.special for arraycore arrays (tests/test_special.py checks the resolution)."""
    import scipy.stats as st
    x0, y0, x1 = X[:, 0], Y[:, 0], X[:, 1]
    return {
        "scipy.stats.ttest_ind.pvalue": lambda xp, a: st.ttest_ind(a(X), a(Y), axis=0).pvalue,
        "scipy.stats.ttest_ind_welch": lambda xp, a: st.ttest_ind(a(X), a(Y), axis=0,
                                                                  equal_var=False).pvalue,
        "scipy.stats.ttest_1samp": lambda xp, a: st.ttest_1samp(a(X), 0.2, axis=0).pvalue,
        "scipy.stats.ttest_rel": lambda xp, a: st.ttest_rel(a(X), a(Y), axis=0).pvalue,
        "scipy.stats.pearsonr.statistic": lambda xp, a: st.pearsonr(a(x0), a(y0)).statistic,
        "scipy.stats.pearsonr.pvalue": lambda xp, a: st.pearsonr(a(x0), a(y0)).pvalue,
        "scipy.stats.zmap": lambda xp, a: st.zmap(a(X), a(Y), axis=0),
        "scipy.stats.kurtosis": lambda xp, a: st.kurtosis(a(X), axis=0),
        "scipy.stats.sem": lambda xp, a: st.sem(a(X), axis=0),
        "scipy.stats.variation": lambda xp, a: st.variation(a(P), axis=0),
        "scipy.stats.gmean": lambda xp, a: st.gmean(a(P), axis=0),
        "scipy.stats.hmean": lambda xp, a: st.hmean(a(P), axis=0),
        "scipy.stats.pmean": lambda xp, a: st.pmean(a(P), 2.5, axis=0),
        "scipy.stats.entropy": lambda xp, a: st.entropy(a(P), axis=0),
        "scipy.stats.chisquare": lambda xp, a: st.chisquare(a(P * 10), axis=0).pvalue,
        "scipy.stats.power_divergence": lambda xp, a: st.power_divergence(
            a(P * 10), lambda_="log-likelihood", axis=0).pvalue,
        "scipy.stats.skewtest": lambda xp, a: st.skewtest(a(X), axis=0).pvalue,
        "scipy.stats.kurtosistest": lambda xp, a: st.kurtosistest(a(X), axis=0).pvalue,
        "scipy.stats.normaltest": lambda xp, a: st.normaltest(a(X), axis=0).pvalue,
        "scipy.stats.jarque_bera": lambda xp, a: st.jarque_bera(a(X), axis=0).pvalue,
        "scipy.stats.f_oneway": lambda xp, a: st.f_oneway(a(x0), a(y0), a(x1)).pvalue,
        "scipy.stats.bartlett": lambda xp, a: st.bartlett(a(x0), a(y0)).pvalue,
        "scipy.stats.describe.variance": lambda xp, a: st.describe(a(X), axis=0).variance,
        "scipy.stats.tstd": lambda xp, a: st.tstd(a(X), (-1, 1), axis=0),
        "scipy.stats.circmean": lambda xp, a: st.circmean(a(X), axis=0),
    }


sig = rng.standard_normal(256)
sig2 = rng.standard_normal(40)
M = rng.standard_normal((12, 10))
Z = rng.standard_normal(33) + 1j * rng.standard_normal(33)
ZM = rng.standard_normal((6, 5)) + 1j * rng.standard_normal((6, 5))


def fft_calls():
    """SciPy calls that run on the namespace's fft extension (xp.fft) for arraycore arrays.
    scipy.signal's spectral estimators (welch, periodogram, csd, coherence, spectrogram,
    stft, istft, lombscargle, czt, decimate) convert their input to NumPy in SciPy 1.17 and
    return NumPy arrays, so they are not drop-in calls yet; scipy.fft's dct/dst family
    converts too (they have no xp.fft counterpart)."""
    import scipy.fft as sf
    import scipy.signal as ss
    return {
        "scipy.fft.fft": lambda xp, a: sf.fft(a(Z)),
        "scipy.fft.ifft": lambda xp, a: sf.ifft(a(Z), n=40, norm="ortho"),
        "scipy.fft.rfft": lambda xp, a: sf.rfft(a(sig), n=200),
        "scipy.fft.irfft": lambda xp, a: sf.irfft(a(Z), n=64),
        "scipy.fft.hfft": lambda xp, a: sf.hfft(a(Z)),
        "scipy.fft.ihfft": lambda xp, a: sf.ihfft(a(sig), norm="forward"),
        "scipy.fft.fftn": lambda xp, a: sf.fftn(a(M), s=(16, 8)),
        "scipy.fft.ifftn": lambda xp, a: sf.ifftn(a(ZM), axes=(0,)),
        "scipy.fft.rfftn": lambda xp, a: sf.rfftn(a(M)),
        "scipy.fft.irfftn": lambda xp, a: sf.irfftn(a(ZM), s=(6, 9)),
        "scipy.fft.fft2": lambda xp, a: sf.fft2(a(M)),
        "scipy.fft.rfft2": lambda xp, a: sf.rfft2(a(M), norm="ortho"),
        "scipy.fft.irfft2": lambda xp, a: sf.irfft2(a(ZM)),
        "scipy.fft.hfftn": lambda xp, a: sf.hfftn(a(ZM)),
        "scipy.fft.ihfftn": lambda xp, a: sf.ihfftn(a(M)),
        "scipy.fft.fftshift": lambda xp, a: sf.fftshift(a(M)),
        "scipy.fft.ifftshift": lambda xp, a: sf.ifftshift(a(M), axes=1),
        "scipy.fft.fftfreq": lambda xp, a: sf.fftfreq(16, d=0.1, xp=xp),
        "scipy.fft.rfftfreq": lambda xp, a: sf.rfftfreq(15, xp=xp),
        "scipy.fft.fht": lambda xp, a: sf.fht(a(sig), dln=0.05, mu=0.5),
        "scipy.signal.fftconvolve": lambda xp, a: ss.fftconvolve(a(sig), a(sig2)),
        "scipy.signal.fftconvolve_2d_same": lambda xp, a: ss.fftconvolve(a(M), a(M[:3, :4]),
                                                                         mode="same"),
        "scipy.signal.oaconvolve": lambda xp, a: ss.oaconvolve(a(sig), a(sig2), mode="valid"),
        "scipy.signal.convolve_fft": lambda xp, a: ss.convolve(a(sig), a(sig2), method="fft"),
        "scipy.signal.correlate_fft": lambda xp, a: ss.correlate(a(M), a(M[:3, :4]),
                                                                 method="fft"),
        "scipy.signal.hilbert": lambda xp, a: ss.hilbert(a(sig)),
        "scipy.signal.hilbert2": lambda xp, a: ss.hilbert2(a(M)),
        "scipy.signal.resample": lambda xp, a: ss.resample(a(sig), 100),
        "scipy.signal.freqz": lambda xp, a: ss.freqz(a(sig2), worN=64)[1],
    }


def sklearn_calls():
    import sklearn
    from sklearn import metrics, preprocessing
    from sklearn.metrics import pairwise

    def with_dispatch(fn):
        def run(xp, a):
            with sklearn.config_context(array_api_dispatch=xp is ac):
                return fn(xp, a)
        return run

    return {
        "sklearn.StandardScaler": with_dispatch(
            lambda xp, a: preprocessing.StandardScaler().fit_transform(a(X))),
        "sklearn.MinMaxScaler": with_dispatch(
            lambda xp, a: preprocessing.MinMaxScaler().fit_transform(a(X))),
        "sklearn.MaxAbsScaler": with_dispatch(
            lambda xp, a: preprocessing.MaxAbsScaler().fit_transform(a(X))),
        "sklearn.normalize": with_dispatch(lambda xp, a: preprocessing.normalize(a(X))),
        "sklearn.rbf_kernel": with_dispatch(lambda xp, a: pairwise.rbf_kernel(a(X), a(Y))),
        "sklearn.polynomial_kernel": with_dispatch(
            lambda xp, a: pairwise.polynomial_kernel(a(X), a(Y))),
        "sklearn.euclidean_distances": with_dispatch(
            lambda xp, a: pairwise.euclidean_distances(a(X), a(Y))),
        "sklearn.r2_score": with_dispatch(lambda xp, a: metrics.r2_score(a(X), a(Y))),
        "sklearn.mean_squared_error": with_dispatch(
            lambda xp, a: metrics.mean_squared_error(a(X), a(Y))),
        "sklearn.accuracy_score": with_dispatch(
            lambda xp, a: metrics.accuracy_score(a(y_true), a(y_pred))),
    }


def compare(name, fn):
    try:
        want = np.asarray(fn(np, np.asarray))
        # complex results (the fft calls) are compared as complex
        as_dtype = np.complex128 if want.dtype.kind == "c" else np.float64
        want = want.astype(as_dtype)
        got = fn(ac, ac.asarray)
        is_ac = isinstance(got, ac.Array) or isinstance(got, float)
        got_np = np.asarray(got)
        ok = got_np.shape == want.shape and (got_np.dtype.kind == "c") == (as_dtype is
                                                                            np.complex128)
        ok = ok and bool(np.allclose(got_np.astype(as_dtype), want, rtol=1e-9, atol=1e-12,
                                     equal_nan=True))
        return {"name": name, "ok": ok and is_ac, "is_arraycore": is_ac,
                "type": type(got).__name__, "error": None}
    except Exception as e:  # reported per call; the test shows the traceback
        return {"name": name, "ok": False, "is_arraycore": False, "type": None,
                "error": f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}"}


def main(which):
    calls = {}
    if which in ("scipy", "all"):
        calls.update(scipy_calls())
        calls.update(stats_calls())
        calls.update(fft_calls())
    if which in ("sklearn", "all"):
        calls.update(sklearn_calls())
    for name, fn in calls.items():
        print(json.dumps(compare(name, fn)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "all")
