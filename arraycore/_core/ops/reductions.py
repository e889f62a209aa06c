"""L1: op-table entries of the reductions family (see arraycore/_core/op_table.py).

The statistical functions (sum, prod, max, min, mean, std, var), the cumulative scans and the
utility functions (all, any, diff) of the Array API 2025.12.  Their native side is
`_native.reduce` / `_native.cumulative` (arraycore/native/src/reductions.h), not the
elementwise kernel registry, so `kernel` names the native entry point.  `accepts` is the
dtype category the public function takes; integer inputs to mean/std/var are promoted to
float64 (`int_to_float`, NumPy's behaviour).  Tests: tests/test_statistics.py.
"""

from ..op_table import OpDef, TestInfo as T, register


def reduction(name, accepts, kernel, result="same", int_to_float=False, test=None, **kw):
    return register(OpDef(name, 1, accepts, result, int_to_float, kernel=kernel, test=test,
                          family="reduction", **kw))


# sum/prod/cumulative accept bool too (-> int64, as NumPy and the standard's defaults).
sum = reduction("sum", "any", "reduce", linear=True, test=T("sum", rtol=1e-5, rtol64=1e-12))
prod = reduction("prod", "any", "reduce", test=T("prod", rtol=1e-5, rtol64=1e-12))
max = reduction("max", "real numeric", "reduce", test=T("max"))
min = reduction("min", "real numeric", "reduce", test=T("min"))
mean = reduction("mean", "numeric", "reduce", int_to_float=True, linear=True,
                 test=T("mean", rtol=1e-5, rtol64=1e-12))
var = reduction("var", "numeric", "reduce", result="real", int_to_float=True,
                test=T("var", rtol=1e-4, rtol64=1e-10))
std = reduction("std", "numeric", "reduce", result="real", int_to_float=True,
                test=T("std", rtol=1e-4, rtol64=1e-10))
cumulative_sum = reduction("cumulative_sum", "any", "cumulative", linear=True,
                           test=T("cumulative_sum", rtol=1e-5, rtol64=1e-12))
cumulative_prod = reduction("cumulative_prod", "any", "cumulative",
                            test=T("cumulative_prod", rtol=1e-5, rtol64=1e-12))
all = reduction("all", "any", "reduce", result="bool", test=T("all"))
any = reduction("any", "any", "reduce", result="bool", test=T("any"))
diff = reduction("diff", "any", "subtract", linear=True, test=T("diff"))
