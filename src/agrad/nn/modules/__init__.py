"""The layer classes of torch.nn, one file per family."""

from .module import Module  # noqa: F401
from .container import Container, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa: F401
from .linear import Bilinear, Identity, Linear  # noqa: F401
from .activation import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .misc import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, Embedding,  # noqa: F401
                   EmbeddingBag,
                   FeatureAlphaDropout, Flatten, Unflatten)
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: F401
from .pooling import *  # noqa: F401,F403
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, CrossMapLRN2d, GroupNorm, LayerNorm, LocalResponseNorm,  # noqa: F401
                            RMSNorm, SyncBatchNorm)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase  # noqa: F401
from .attention import MultiheadAttention  # noqa: F401
from .shaping import *  # noqa: F401,F403
from .unpooling import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .lazy import *  # noqa: F401,F403
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401
