"""torch.utils.data: Dataset, TensorDataset, DataLoader, random_split."""

from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split  # noqa: F401
from .dataloader import DataLoader, default_collate  # noqa: F401
