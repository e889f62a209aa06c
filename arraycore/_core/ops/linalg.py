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


# --- the linalg extension (arraycore.linalg; namespace="linalg") ---------------------------
# The primitives of arraycore/linalg/: factorizations, solvers and the few functions whose
# derivative or batching is better written once than derived from a composition (vector_norm:
# PyTorch's zero gradient at 0; diagonal: a view; trace: linear).  Their native parts are
# `_native.linalg_*` (LAPACK, see docs/linalg.md); the others of arraycore.linalg (cross,
# matrix_norm, multi_dot, ...) compose these and have no entry.  Tests: tests/test_linalg.py.

def _ext(name, arity, accepts="numeric", ref=None, **kw):
    test = kw.pop("test", None) or TestInfo(ref=ref or f"numpy.linalg.{name}", rtol=1e-4,
                                            rtol64=1e-10, notes=kw.pop("notes", ""))
    return register(OpDef(name, arity, accepts, family="linalg", namespace="linalg",
                          int_to_float=accepts == "numeric", test=test, **kw))


cholesky = _ext("cholesky", 1, notes="LAPACK ?potrf; upper= as NumPy 2")
det = _ext("det", 1, notes="LAPACK ?getrf; closed forms for n <= 4")
slogdet = _ext("slogdet", 1, notes="LAPACK ?getrf; (sign, logabsdet)")
eig = _ext("eig", 1, notes="LAPACK ?geev; complex results (the standard's rule)")
eigvals = _ext("eigvals", 1, notes="LAPACK ?geev without vectors")
eigh = _ext("eigh", 1, notes="LAPACK ?syevd/?heevd")
eigvalsh = _ext("eigvalsh", 1, notes="LAPACK ?syevd/?heevd without vectors")
inv = _ext("inv", 1, notes="LAPACK ?getrf + ?getri")
solve = _ext("solve", 2, notes="LAPACK ?getrf + ?getrs; batch dims broadcast")
svd = _ext("svd", 1, notes="LAPACK ?gesdd")
svdvals = _ext("svdvals", 1, ref="scipy.linalg.svdvals", notes="LAPACK ?gesdd, no vectors")
qr = _ext("qr", 1, notes="LAPACK ?geqrf + ?orgqr/?ungqr")
lstsq = _ext("lstsq", 2, notes="LAPACK ?gelsd; NumPy's (x, residuals, rank, s)")
lu_factor = _ext("lu_factor", 1, ref="torch.linalg.lu_factor",
                 notes="LAPACK ?getrf; PyTorch's 1-based int32 pivots")
lu = _ext("lu", 1, ref="torch.linalg.lu", notes="(P, L, U) from lu_factor")
lu_solve = _ext("lu_solve", 3, ref="torch.linalg.lu_solve", notes="LAPACK ?getrs")
solve_triangular = _ext("solve_triangular", 2, ref="torch.linalg.solve_triangular",
                        notes="BLAS ?trsm")
matrix_exp = _ext("matrix_exp", 1, ref="scipy.linalg.expm",
                  notes="scaling and squaring, Pade 3-13 (Higham 2005)")
pinv = _ext("pinv", 1, notes="from svd (eigh when hermitian)")
vector_norm = _ext("vector_norm", 1, result="real", notes="any ord, axis tuples")
diagonal = _ext("diagonal", 1, accepts="any", ref="numpy.linalg.diagonal", linear=True,
                notes="a view")
trace = _ext("trace", 1, ref="numpy.linalg.trace", linear=True, notes="sum of diagonal")

__all__ += ["cholesky", "det", "slogdet", "eig", "eigvals", "eigh", "eigvalsh", "inv", "solve",
            "svd", "svdvals", "qr", "lstsq", "lu_factor", "lu", "lu_solve", "solve_triangular",
            "matrix_exp", "pinv", "vector_norm", "diagonal", "trace"]
