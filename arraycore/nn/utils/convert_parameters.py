"""L4: flattening parameters into one vector and back (torch.nn.utils.parameters_to_vector /
vector_to_parameters)."""

from __future__ import annotations

from ...autodiff.tracer import Tracer
from ...native import _native

Array = _native.Array

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one 1-D array (differentiable).

    >>> import arraycore as ac
    >>> ac.nn.utils.parameters_to_vector([ac.ones((2, 2)), ac.zeros(1)])
    Array([1., 1., 1., 1., 0.], dtype=float64)
    """
    import arraycore as ac
    params = list(parameters)
    if not params:
        raise ValueError("parameters_to_vector: no parameters given")
    return ac.concat([ac.reshape(p, (-1,)) for p in params])


def vector_to_parameters(vec, parameters) -> None:
    """Copies consecutive slices of the 1-D `vec` into the parameters, in place.

    PyTorch rebinds each parameter's `.data` to a view of `vec`; arraycore copies the values
    into the parameters' own buffers (parameters keep their identity and memory), so later
    writes to `vec` do not reach the parameters.

    >>> import arraycore as ac
    >>> ps = [ac.nn.Parameter(ac.zeros(2, dtype=ac.float32))]
    >>> ac.nn.utils.vector_to_parameters(ac.asarray([1.0, 2.0], dtype=ac.float32), ps)
    >>> ps[0]
    Array([1., 2.], dtype=float32)
    """
    from .._inplace import assign_
    if not isinstance(vec, (Array, Tracer)):
        raise TypeError(f"vector_to_parameters: expected an array, but got: "
                        f"{type(vec).__name__}")
    if vec.ndim != 1:
        raise ValueError(f"vector_to_parameters: expected a 1-D vector, got shape {vec.shape}")
    params = list(parameters)
    total = sum(p.size for p in params)
    if total != vec.shape[0]:
        raise ValueError(f"vector_to_parameters: the vector has {vec.shape[0]} elements but "
                         f"the parameters have {total}")
    pointer = 0
    for p in params:
        n = p.size
        assign_(p, vec[pointer:pointer + n].reshape(p.shape), "vector_to_parameters")
        pointer += n
