"""pytest plugin: scikit-learn's own array API tests, parametrized with arraycore too.

scikit-learn parametrizes its array API tests (and the `check_array_api_input*` estimator
checks) with the generators of `sklearn.utils._array_api`: `yield_namespaces()`,
`yield_namespace_device_dtype_combinations()` and `yield_mixed_namespace_input_permutations()`.
The test modules import them by name when they are collected, so this plugin (loaded with
`-p sklearn_arraycore_plugin`, before collection) replaces them in that module with versions
that also yield "arraycore": on its one device, "cpu", in float64 and float32 (as PyTorch's
CPU entries), and as the NumPy <-> arraycore pairs of the mixed-namespace tests.

    SCIPY_ARRAY_API=1 PYTHONPATH=<repo>:<repo>/tests python -m pytest --pyargs sklearn \
        -p sklearn_arraycore_plugin -k "array_api or array_namespace" -q

`-k arraycore` selects arraycore's parametrizations only (their ids contain "arraycore").
"""

from __future__ import annotations

import sys

import sklearn.utils._array_api as _sk_array_api

NAMESPACE = "arraycore"
_original_yield_namespaces = _sk_array_api.yield_namespaces
_original_combinations = _sk_array_api.yield_namespace_device_dtype_combinations
_original_mixed = _sk_array_api.yield_mixed_namespace_input_permutations


def yield_namespaces(include_numpy_namespaces=True):
    """scikit-learn's namespaces, then arraycore."""
    yield from _original_yield_namespaces(include_numpy_namespaces=include_numpy_namespaces)
    yield NAMESPACE


def yield_namespace_device_dtype_combinations(include_numpy_namespaces=True):
    """scikit-learn's (namespace, device, dtype) triples, then arraycore's."""
    for combination in _original_combinations(include_numpy_namespaces=include_numpy_namespaces):
        if combination[0] != NAMESPACE:  # (the original iterates the patched yield_namespaces)
            yield combination
    for dtype_name in ("float64", "float32"):
        yield NAMESPACE, "cpu", dtype_name


def yield_mixed_namespace_input_permutations():
    """scikit-learn's mixed-namespace pairs, then NumPy <-> arraycore."""
    yield from _original_mixed()
    NamespaceAndDevice = _sk_array_api.NamespaceAndDevice
    yield (NamespaceAndDevice("numpy", None), NamespaceAndDevice(NAMESPACE, "cpu"),
           "numpy to arraycore")
    yield (NamespaceAndDevice(NAMESPACE, "cpu"), NamespaceAndDevice("numpy", None),
           "arraycore to numpy")


_REPLACEMENTS = {
    "yield_namespaces": (_original_yield_namespaces, yield_namespaces),
    "yield_namespace_device_dtype_combinations": (_original_combinations,
                                                  yield_namespace_device_dtype_combinations),
    "yield_mixed_namespace_input_permutations": (_original_mixed,
                                                 yield_mixed_namespace_input_permutations),
}


def _install():
    # The module itself, and any sklearn module that imported a generator by name before
    # this plugin ran (sklearn.utils.estimator_checks, imported by sklearn's conftest).
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("sklearn"):
            continue
        for attr, (original, replacement) in _REPLACEMENTS.items():
            if getattr(module, attr, None) is original:
                setattr(module, attr, replacement)


_install()
