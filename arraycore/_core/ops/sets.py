"""L1: op-table entries of the sets family (see arraycore/_core/op_table.py).

Kernels: kernels/sets.cpp, called by arraycore/array_api/_sets.py.
"""

from ..op_table import OpDef, TestInfo, register

isin = register(OpDef("isin", 2, "any", result="bool", kernel="isin_values", family="sets",
                      test=TestInfo(ref="isin")))
unique_all = register(OpDef("unique_all", 1, "any", kernel="unique_flat", family="sets",
                            test=TestInfo(ref="unique_all")))
unique_counts = register(OpDef("unique_counts", 1, "any", kernel="unique_flat", family="sets",
                               test=TestInfo(ref="unique_counts")))
unique_inverse = register(OpDef("unique_inverse", 1, "any", kernel="unique_flat",
                                family="sets", test=TestInfo(ref="unique_inverse")))
unique_values = register(OpDef("unique_values", 1, "any", kernel="unique_flat", family="sets",
                               test=TestInfo(ref="unique_values")))
