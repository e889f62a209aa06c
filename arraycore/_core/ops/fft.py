"""L1: op-table entries of the fft family (see arraycore/_core/op_table.py).

The functions live in arraycore/fft/ (public as `arraycore.fft.<name>`: namespace "fft");
their native parts are `_native.fft_c2c`, `_native.fft_r2c` and `_native.fft_c2r`.  Every
transform is linear over the reals, so its jvp is the transform of the tangent (generated
from `linear=True`); the vjps (adjoint transforms) and batching rules are in
arraycore/autodiff/rules/fft.py.  fft2/ifft2/rfft2/irfft2/hfft2/ihfft2/hfftn/ihfftn,
fftshift/ifftshift and fftfreq/rfftfreq are composites of these (and of `roll`), with no
entries of their own.
"""

from ..op_table import OpDef, TestInfo, register

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft"]


def _fft_op(name, accepts, notes):
    return register(OpDef(
        name, 1, accepts, family="fft", namespace="fft", linear=True,
        test=TestInfo(ref=f"numpy.fft.{name}", rtol=1e-5, rtol64=1e-12, notes=notes)))


fft = _fft_op("fft", "numeric", "complex DFT along one axis; real input becomes complex")
ifft = _fft_op("ifft", "numeric", "inverse complex DFT along one axis")
fftn = _fft_op("fftn", "numeric", "complex DFT over several axes (one native call)")
ifftn = _fft_op("ifftn", "numeric", "inverse complex DFT over several axes")
rfft = _fft_op("rfft", "real numeric", "real-input DFT: n//2+1 bins")
irfft = _fft_op("irfft", "numeric", "inverse of rfft: Hermitian input, real output")
rfftn = _fft_op("rfftn", "real numeric", "rfft on the last axis, fft on the others")
irfftn = _fft_op("irfftn", "numeric", "ifft on all but the last axis, irfft on the last")
hfft = _fft_op("hfft", "numeric", "irfft of the conjugate (Hermitian time signal)")
ihfft = _fft_op("ihfft", "real numeric", "conjugate of rfft, inverse normalization")
