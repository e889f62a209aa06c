"""L1: op registrations, one module per family; importing this package fills the op table."""

from . import elementwise  # noqa: F401
