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
           "hessian", "functional_call", "stack_module_state"]

# functional_call and stack_module_state work on ac.nn modules (L4, above this layer): they
# live in arraycore.nn.utils.stateless and are imported on first use, as torch.func's are.
_FROM_NN = ("functional_call", "stack_module_state")


def __getattr__(name):
    if name in _FROM_NN:
        from ..nn.utils import stateless
        return getattr(stateless, name)
    raise AttributeError(f"module 'arraycore.func' has no attribute '{name}'")
