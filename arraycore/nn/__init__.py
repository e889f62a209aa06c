"""L4: `arraycore.nn`, PyTorch's torch.nn on the op table and the tape."""

from . import functional  # noqa: F401
