"""arraycore.linalg: the Array API 2025.12 `linalg` extension, the rest of NumPy's
`numpy.linalg` (cond, lstsq, multi_dot, norm, tensorinv, tensorsolve) and PyTorch's lu,
lu_factor, lu_solve, solve_triangular, matrix_exp and vander.

Every function takes stacks of matrices (..., M, N) and works batched over the leading
dimensions (two-operand solvers broadcast them), for float32, float64, complex64 and
complex128 (single precision stays single); integer input is promoted to float64, bool is a
TypeError.  Singular or non-positive-definite input raises `LinAlgError` (a ValueError)
naming the function and the batch index.

The factorizations and solvers are op-table primitives (arraycore/_core/ops/linalg.py) with
derivative and batching rules; the other functions are compositions of public functions, so
they differentiate through those.  `matmul`, `matrix_transpose`, `tensordot` and `vecdot`
are the main namespace's functions.  LAPACK drivers and batching: docs/linalg.md.
"""

from ._common import LinAlgError  # noqa: F401
from ._factorizations import (cholesky, eig, eigh, eigvals, eigvalsh, lu,  # noqa: F401
                              lu_factor, qr, svd, svdvals)
from ._matrix_functions import matrix_exp, matrix_power  # noqa: F401
from ._norms import cond, matrix_norm, matrix_rank, norm, vector_norm  # noqa: F401
from ._products import (cross, diagonal, multi_dot, outer, tensorinv,  # noqa: F401
                        tensorsolve, trace, vander)
from ._solvers import (det, inv, lstsq, lu_solve, pinv, slogdet, solve,  # noqa: F401
                       solve_triangular)
from ..array_api._linear_algebra import (matmul, matrix_transpose, tensordot,  # noqa: F401
                                         vecdot)

# The 2025.12 extension's 25 functions, then NumPy's and PyTorch's additions.
STANDARD = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
            "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
            "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
            "vector_norm"]
EXTRA = ["cond", "lstsq", "multi_dot", "norm", "tensorinv", "tensorsolve", "lu", "lu_factor",
         "lu_solve", "solve_triangular", "matrix_exp", "vander"]

__all__ = STANDARD + EXTRA + ["LinAlgError"]


def _share_main_namespace_functions(ns):
    """After the autodiff install: matmul & co. are the main namespace's (dispatching)
    functions (`ac.linalg.matmul is ac.matmul`)."""
    g = globals()
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        g[name] = getattr(ns, name)
