"""L1: op-table entries of the indexing family (see arraycore/_core/op_table.py).

Both run the native gather kernel (native/src/kernels/gather.h); they are linear in x.
"""

from ..op_table import OpDef, TestInfo, register

take = register(OpDef("take", 2, "any", linear=True, family="indexing",
                      test=TestInfo(ref="take")))
take_along_axis = register(OpDef("take_along_axis", 2, "any", linear=True, family="indexing",
                                 test=TestInfo(ref="take_along_axis")))
