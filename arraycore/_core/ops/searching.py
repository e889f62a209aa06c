"""L1: op-table entries of the searching family (see arraycore/_core/op_table.py).

The kernels are the engine's searching functions (kernels/search.cpp), called directly by
arraycore/array_api/_searching.py; `kernel` names the `_native` function each entry uses.
"""

from ..op_table import OpDef, TestInfo, register

argmax = register(OpDef("argmax", 1, "any", result="int64", kernel="arg_extreme",
                        family="searching", test=TestInfo(ref="argmax")))
argmin = register(OpDef("argmin", 1, "any", result="int64", kernel="arg_extreme",
                        family="searching", test=TestInfo(ref="argmin")))
count_nonzero = register(OpDef("count_nonzero", 1, "any", result="int64",
                               kernel="count_nonzero_axes", family="searching",
                               test=TestInfo(ref="count_nonzero")))
nonzero = register(OpDef("nonzero", 1, "any", result="int64", kernel="nonzero_indices",
                         family="searching", test=TestInfo(ref="nonzero")))
searchsorted = register(OpDef("searchsorted", 2, "any", result="int64",
                              kernel="searchsorted_1d", family="searching",
                              test=TestInfo(ref="searchsorted")))
where = register(OpDef("where", 3, "any", kernel="where_select", family="searching",
                       test=TestInfo(ref="where")))
