"""arraycore.func: composable function transforms (torch.func / JAX names).

>>> import arraycore as ac
>>> f = lambda x: ac.sum(ac.sin(x) ** 2)
>>> ac.func.grad(f)(ac.asarray([0.5, 1.0]))
>>> ac.func.vmap(ac.func.grad(f))(ac.ones((4, 2)))

See docs/autodiff.md.
"""

from ..autodiff.func_api import (grad, grad_and_value, hessian, jacfwd, jacrev,  # noqa: F401
                                 jvp, linearize, vjp, vmap)

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "vmap", "jacrev", "jacfwd",
           "hessian"]
