"""torch.optim: Optimizer and the update rules; ``optim.lr_scheduler``."""

from . import lr_scheduler  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .rmsprop import Adadelta, Adagrad, RMSprop  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
