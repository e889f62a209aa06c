"""arraycore.fft: the Array API 2025.12 fft extension, plus NumPy/SciPy/PyTorch's fft2,
ifft2, rfft2, irfft2, hfft2, ihfft2, hfftn and ihfftn.

    >>> import arraycore as ac
    >>> ac.fft.rfft(ac.asarray([1.0, 2.0, 3.0, 4.0]))

The transforms run on the native FFT engine (arraycore/native/src/fft, docs/fft.md); this
package handles arguments, dtypes, padding and normalization (_args.py, _transforms.py) and
the helpers (_helpers.py).  Every transform is differentiable and batchable: the ten op-table
entries have rules in arraycore/autodiff/rules/fft.py, the rest are composites of them.
"""

from ._helpers import fftfreq, fftshift, ifftshift, rfftfreq
from ._helpers import __all__ as _helpers_all
from ._transforms import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft,
                          ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2, rfftn)
from ._transforms import __all__ as _transforms_all

__all__ = list(_transforms_all) + list(_helpers_all)
