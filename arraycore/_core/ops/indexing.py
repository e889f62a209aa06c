"""L1: op-table entries of the indexing family (see arraycore/_core/op_table.py).

Both run the native gather kernel (native/src/kernels/gather.h); they are linear in x.
"""

from ..op_table import OpDef, TestInfo, register

take = register(OpDef("take", 2, "any", linear=True, family="indexing",
                      test=TestInfo(ref="take")))
take_along_axis = register(OpDef("take_along_axis", 2, "any", linear=True, family="indexing",
                                 test=TestInfo(ref="take_along_axis")))

# Array methods (x[key], x[key] = v) as ops, so autodiff treats them like any other entry.
# `setitem` is the out-of-place form: a copy of x with x[key] replaced by value; the array
# method writes that result back (see arraycore/autodiff/inplace.py).
getitem = register(OpDef("getitem", 2, "any", linear=True, family="array_method",
                         test=TestInfo(ref="operator.getitem")))
setitem = register(OpDef("setitem", 3, "any", linear=True, family="array_method",
                         test=TestInfo(ref="operator.setitem")))
