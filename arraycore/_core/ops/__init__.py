"""L1: op registrations, one module per family; importing this package fills the op table."""

from . import elementwise  # noqa: F401
from . import data_types, fft, indexing, linalg, manipulation, reductions, searching, sets, sorting  # noqa: F401,E501
from . import special_bessel, special_elementary, special_erf_gamma, special_incomplete  # noqa: F401,E501
from . import special_integrals_polynomials  # noqa: F401
from . import nn_conv  # noqa: F401
