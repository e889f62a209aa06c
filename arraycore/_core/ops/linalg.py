"""L1: op-table entries of the linalg family (see arraycore/_core/op_table.py).

The functions live in arraycore/array_api/_linear_algebra.py; their native parts are
`_native.matmul` and `_native.vecdot_last` (kernels/matmul.cpp, BLAS gemm for floating dtypes).
"""

from ..op_table import OpDef, TestInfo, register

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

matmul = register(OpDef(
    "matmul", 2, "numeric", family="linalg", bilinear=True,
    test=TestInfo(ref="matmul", rtol=1e-5, rtol64=1e-12,
                  notes="floating dtypes through BLAS ?gemm, integers wrap")))
matrix_transpose = register(OpDef(
    "matrix_transpose", 1, "any", family="linalg", linear=True,
    test=TestInfo(ref="matrix_transpose", notes="a view")))
tensordot = register(OpDef(
    "tensordot", 2, "numeric", family="linalg", bilinear=True,
    test=TestInfo(ref="tensordot", rtol=1e-5, notes="permute/reshape + matmul")))
vecdot = register(OpDef(
    "vecdot", 2, "numeric", family="linalg", bilinear=True,
    test=TestInfo(ref="vecdot", rtol=1e-5, notes="conjugates x1 for complex")))
