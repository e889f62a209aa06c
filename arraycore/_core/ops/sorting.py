"""L1: op-table entries of the sorting family (see arraycore/_core/op_table.py).

Kernels: the engine's radix/stable sorts (kernels/sort.cpp), called by
arraycore/array_api/_sorting.py.
"""

from ..op_table import OpDef, TestInfo, register

sort = register(OpDef("sort", 1, "any", kernel="sort_axis", family="sorting",
                      test=TestInfo(ref="sort", notes="stable; NaNs last")))
argsort = register(OpDef("argsort", 1, "any", result="int64", kernel="argsort_axis",
                         family="sorting", test=TestInfo(ref="argsort", notes="stable")))
