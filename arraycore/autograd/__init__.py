"""arraycore.autograd: the torch.autograd-style tape and its companions.

>>> import arraycore as ac
>>> x = ac.asarray([1.0, 2.0]); x.requires_grad_()
>>> y = ac.sum(ac.sin(x) * x)
>>> y.backward()
>>> x.grad

Public: `backward`, `grad`, `Function`, `functional`, `forward_ad`, `gradcheck`,
`gradgradcheck` (`GradcheckError`), `detect_anomaly`, `set_detect_anomaly`,
`is_anomaly_enabled`, and the grad-mode switches.  See
docs/autodiff.md.
"""

from . import forward_ad  # noqa: F401
from ..autodiff.grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: F401
                                  no_grad, set_grad_enabled)
from ..autodiff.tape import grad  # noqa: F401
from ..autodiff.tape import run_backward_api as _run_backward_api


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward: accumulates gradients of `tensors` into the leaves' .grad."""
    from ..native import _native
    from ..autodiff.tracer import Tracer
    if isinstance(tensors, (_native.Array, Tracer)):
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif isinstance(grad_tensors, (_native.Array, Tracer)):
        grad_tensors = [grad_tensors]
    _run_backward_api(tensors, list(grad_tensors), retain_graph, create_graph, inputs)


from ..autodiff.function import Function, FunctionCtx  # noqa: F401,E402
from ..autodiff import functional  # noqa: F401,E402
from ..autodiff.gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401,E402
from ..autodiff.anomaly import (detect_anomaly, is_anomaly_check_nan_enabled,  # noqa: F401,E402
                                is_anomaly_enabled, set_detect_anomaly)
from ..autodiff.grad_mode import is_inference_mode_enabled  # noqa: F401,E402
