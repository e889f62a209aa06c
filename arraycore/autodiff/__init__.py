"""L3: automatic differentiation.  One rule table (the op-table entries' jvp / vjp / batch,
filled by rules/) behind three frontends:

- the tape (tape.py, graph.py): `x.requires_grad_()`, `.backward()`, `autograd.grad`;
- forward mode (jvp.py): `autograd.forward_ad` duals, `func.jvp`, `jacfwd`;
- composable transforms (reverse.py, jvp.py, batching.py, func_api.py): `func.grad`,
  `vjp`, `jvp`, `vmap`, `jacrev`, `jacfwd`, `hessian`, in any nesting.

See docs/autodiff.md.  Public modules: arraycore.autograd, arraycore.func.
"""

from .install import install_array_methods, install_namespace  # noqa: F401
from .coverage import coverage  # noqa: F401,E402
