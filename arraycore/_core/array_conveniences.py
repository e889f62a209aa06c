"""L2: the array methods training code uses everywhere (issue 10, part 0), as thin calls
into the namespace functions, so that they dispatch like the functions (the tape, the
transforms) and share one implementation:

    x.item(), x.tolist(), f"{loss:.4f}", x.astype(d), x.reshape(2, 3), x.flatten(),
    x.copy(), x.numpy(), x.sum(axis=0, keepdims=True), x.mean(), x.std(ddof=1), x.argmax()

Reductions take NumPy's keywords (`axis`, `keepdims`; `ddof` or the standard's
`correction` for std/var).  They are attached to the engine's Array and to the autodiff
Tracer, so a function written with methods works under ac.func transforms too; `item`,
`tolist` and `numpy` need concrete values and raise a clear error on a traced value.
"""

from __future__ import annotations

Array = None  # set by install


def _plain_values(x):
    """x's values as nested Python lists (through the buffer protocol; complex values,
    which memoryview cannot list, through their real and imaginary parts)."""
    ns = _NS
    if x.dtype in (ns.complex64, ns.complex128):
        re = memoryview(ns.real(x)).tolist()
        im = memoryview(ns.imag(x)).tolist()
        return _zip_complex(re, im)
    return memoryview(x).tolist()


def _zip_complex(re, im):
    if isinstance(re, list):
        return [_zip_complex(r, i) for r, i in zip(re, im)]
    return complex(re, im)


def _concrete(self, who):
    if type(self) is not Array and not isinstance(self, Array):
        raise TypeError(f"{who}: needs a concrete array, got a traced value inside an "
                        f"ac.func transform (return it from the function instead)")


def item(self):
    """The single element of a one-element array as a Python scalar (bool, int, float or
    complex, by dtype)."""
    _concrete(self, "item")
    if self.size != 1:
        raise ValueError(f"item: only arrays of exactly one element convert to a Python "
                         f"scalar, got shape {self.shape}")
    v = _plain_values(_NS.reshape(self, ()))
    return v


def tolist(self):
    """The array's values as nested Python lists of Python scalars (a scalar for 0-d)."""
    _concrete(self, "tolist")
    return _plain_values(self)


def numpy(self):
    """A NumPy array sharing this array's memory (as torch.Tensor.numpy()).  Raises for an
    array the tape records (requires_grad): call .detach().numpy(), as in PyTorch."""
    _concrete(self, "numpy")
    if getattr(self, "requires_grad", False):
        raise ValueError("numpy: the array requires grad; use x.detach().numpy()")
    import numpy as np
    return np.asarray(self)


def __format__(self, spec):
    """0-d arrays format as their Python scalar (f"{loss:.4f}"); other arrays take only the
    empty format spec, as NumPy's."""
    if self.ndim == 0 and (type(self) is Array or isinstance(self, Array)):
        return format(item(self), spec)
    if spec:
        raise TypeError(f"unsupported format string {spec!r} for an array of shape "
                        f"{self.shape} (only 0-d arrays take a format spec)")
    return str(self)


def astype(self, dtype, /, *, copy=True, device=None):
    return _NS.astype(self, dtype, copy=copy, device=device)


def reshape(self, *shape, copy=None):
    """x.reshape(2, 3) or x.reshape((2, 3)), as NumPy and PyTorch accept both."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return _NS.reshape(self, tuple(shape), copy=copy)


def flatten(self):
    """A one-dimensional copy (as NumPy's flatten)."""
    return _NS.reshape(self, (-1,), copy=True)


def copy(self):
    return _NS.astype(self, self.dtype, copy=True)


def _no_out(name, out):
    # NumPy's np.sum(x), np.max(x), ... call x.sum(axis=..., out=None, ...) on array types
    # other than its own (as for PyTorch tensors), so the methods take NumPy's out= too.
    if out is not None:
        raise TypeError(f"{name}: out= is not supported (arraycore arrays are results, "
                        f"not output buffers)")


def _with_dtype(x, dtype):
    return x if dtype is None else _NS.astype(x, dtype)


def _reduction(name, takes_dtype):
    def method(self, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        _no_out(name, out)
        f = getattr(_NS, name)
        if takes_dtype and dtype is not None:
            return f(self, axis=axis, dtype=dtype, keepdims=keepdims, **kwargs)
        return f(_with_dtype(self, dtype), axis=axis, keepdims=keepdims, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"x.{name}(axis=None, keepdims=False, ...): arraycore.{name}(x, ...)."
    return method


def _spread(name):
    def method(self, axis=None, dtype=None, out=None, ddof=None, keepdims=False, *,
               correction=None):
        _no_out(name, out)
        if ddof is not None and correction is not None:
            raise TypeError(f"{name}: give ddof or correction, not both")
        c = ddof if ddof is not None else (correction if correction is not None else 0)
        return getattr(_NS, name)(_with_dtype(self, dtype), axis=axis, keepdims=keepdims,
                                  correction=c)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"x.{name}(axis=None, keepdims=False, ddof=0): arraycore.{name} with "
                      f"correction=ddof (NumPy's default 0; PyTorch's default is 1).")
    return method


def _index_reduction(name):
    def method(self, axis=None, out=None, *, keepdims=False):
        _no_out(name, out)
        return getattr(_NS, name)(self, axis=axis, keepdims=keepdims)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"x.{name}(axis=None, keepdims=False): arraycore.{name}(x, ...)."
    return method


def _extremum(name):
    def method(self, axis=None, out=None, keepdims=False, **kwargs):
        _no_out(name, out)
        return getattr(_NS, name)(self, axis=axis, keepdims=keepdims, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"x.{name}(axis=None, keepdims=False): arraycore.{name}(x, ...)."
    return method


_NS = None
METHODS = {
    "item": item, "tolist": tolist, "numpy": numpy, "__format__": __format__,
    "astype": astype, "reshape": reshape, "flatten": flatten, "copy": copy,
    **{n: _reduction(n, True) for n in ("sum", "prod")},
    "mean": _reduction("mean", False),
    **{n: _extremum(n) for n in ("max", "min", "all", "any")},
    **{n: _spread(n) for n in ("std", "var")},
    **{n: _index_reduction(n) for n in ("argmax", "argmin")},
}


def install(ns, classes) -> None:
    global _NS, Array
    _NS = ns
    Array = ns.Array
    for cls in classes:
        for name, fn in METHODS.items():
            setattr(cls, name, fn)
