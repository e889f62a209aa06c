"""L4: `ac.nn.functional` (torch.nn.functional): the stateless forms of the layers.

One file per topic (`linear.py`, `activation.py`, `conv.py`, ...); this module re-exports
each topic module's `__all__`.  To add a topic, add two lines:

    from .<topic> import *  # noqa: F401,F403
    from .<topic> import __all__ as _<topic>_all

and `+ list(_<topic>_all)` to `__all__` below.
"""

__all__: list[str] = []
