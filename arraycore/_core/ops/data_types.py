"""L1: op-table entries of the data-type family (see arraycore/_core/op_table.py).

`astype` moves values between dtypes; it is linear (real <-> complex casts included: a
complex -> real cast keeps the real part), so its derivative rules are casts of tangents.
"""

from ..op_table import OpDef, TestInfo, register

astype = register(OpDef("astype", 2, "any", kernel="", linear=True, family="data_types",
                        test=TestInfo(ref="astype")))
