"""L1: op registrations, one module per family; importing this package fills the op table."""

from . import elementwise  # noqa: F401
from . import data_types, fft, indexing, linalg, manipulation, reductions, searching, sets, sorting  # noqa: F401,E501
