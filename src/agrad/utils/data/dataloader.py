"""DataLoader: batches from a map-style dataset, in order or shuffled (one
``randperm`` per epoch, as PyTorch's RandomSampler draws it)."""

from __future__ import annotations

from ...tensor import Tensor

__all__ = ["DataLoader", "default_collate"]


def default_collate(batch):
    """Stack tensors, turn numbers into tensors, and recurse into tuples, lists, dicts."""
    from ...ops import FUNCTIONS
    elem = batch[0]
    if isinstance(elem, Tensor):
        return FUNCTIONS["stack"](list(batch), 0)
    if isinstance(elem, bool):
        return FUNCTIONS["tensor"](list(batch))
    if isinstance(elem, float):
        from ... import dtypes
        return FUNCTIONS["tensor"](list(batch), dtype=dtypes.float64)
    if isinstance(elem, int):
        return FUNCTIONS["tensor"](list(batch))
    if isinstance(elem, str):
        return list(batch)
    if isinstance(elem, dict):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, (tuple, list)):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [default_collate(samples) for samples in transposed]
        return [default_collate(samples) for samples in transposed]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts "
                    f"or lists; found {type(elem)}")


class DataLoader:
    """Iterates over ``dataset`` in batches of ``batch_size`` (``None``: samples one by one)."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers != 0:
            raise ValueError("agrad's DataLoader loads in the main process only (num_workers=0)")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.drop_last = drop_last
        self.generator = generator
        self.num_workers = 0
        self.collate_fn = collate_fn if collate_fn is not None else (
            default_collate if batch_size is not None or batch_sampler is not None
            else (lambda x: x))

    def _indices(self):
        if self.sampler is not None:
            return list(iter(self.sampler))
        n = len(self.dataset)
        if not self.shuffle:
            return list(range(n))
        from ...ops import FUNCTIONS
        generator = self.generator
        if generator is None:
            # RandomSampler: a fresh generator seeded from the global stream
            seed = _draw_seed(None)
            make = _generator_class()
            if seed is not None and make is not None:
                generator = make()
                generator.manual_seed(seed)
        kw = {} if generator is None else {"generator": generator}
        return FUNCTIONS["randperm"](n, **kw).tolist()

    def _batches(self):
        if self.batch_sampler is not None:
            yield from iter(self.batch_sampler)
            return
        indices = self._indices()
        if self.batch_size is None:
            for i in indices:
                yield i
            return
        bs = self.batch_size
        for start in range(0, len(indices), bs):
            batch = indices[start:start + bs]
            if len(batch) < bs and self.drop_last:
                return
            yield batch

    def __iter__(self):
        return _LoaderIterator(self)

    def __len__(self):
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return n
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size


class _LoaderIterator:
    """What ``iter(loader)`` returns: the batches one by one, and ``len()`` as PyTorch's
    loader iterators have (``__length_hint__``: the batches still to come)."""

    def __init__(self, loader):
        # each iterator draws a base seed for worker processes first (PyTorch does, when the
        # iterator is made, even without workers): the draws that follow stay in its order
        _draw_seed(loader.generator)
        self._loader = loader
        self._batches = loader._batches()
        self._yielded = 0

    def __iter__(self):
        return self

    def __next__(self):
        b = next(self._batches)
        loader = self._loader
        if loader.batch_size is None and loader.batch_sampler is None:
            batch = loader.collate_fn(loader.dataset[b])
        else:
            batch = loader.collate_fn([loader.dataset[i] for i in b])
        self._yielded += 1
        return batch

    def __len__(self):
        return len(self._loader)

    def __length_hint__(self):
        try:
            return max(len(self._loader) - self._yielded, 0)
        except TypeError:
            return NotImplemented


def _draw_seed(generator):
    """``torch.empty((), dtype=torch.int64).random_(generator=...)``, once agrad's
    tensors have ``random_`` (the generator's draws); None before that."""
    from ... import dtypes
    from ...ops import FUNCTIONS
    t = FUNCTIONS["empty"]((), dtype=dtypes.int64)
    random_ = getattr(t, "random_", None)
    if random_ is None:
        return None
    kw = {} if generator is None else {"generator": generator}
    return int(random_(**kw).item())


def _generator_class():
    import agrad
    return getattr(agrad, "Generator", None)
