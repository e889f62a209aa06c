"""L4: `arraycore.nn.functional` (torch.nn.functional): each topic module's `__all__`."""

from .activation import *  # noqa: F401,F403
from .dropout import *  # noqa: F401,F403
from .interpolation import *  # noqa: F401,F403
from .linear import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
