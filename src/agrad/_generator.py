"""PyTorch's CPU random generator, bit for bit: ``torch.Generator``.

ATen's ``CPUGeneratorImpl`` is a 32-bit Mersenne Twister (mt19937) seeded with
the standard ``init_genrand`` from the low 32 bits of a 64-bit seed
(``aten/src/ATen/core/MT19937RNGEngine.h``); ``random()`` is one 32-bit output,
``random64()`` two of them, the first as the high word
(``CPUGeneratorImpl.cpp``).  numpy's ``MT19937`` bit generator is the same
engine, so the state is set to PyTorch's and ``random_raw`` gives the raw
outputs fast; the transformations to floats live in :mod:`agrad.ops.random`.

The engine of a generator is made on its first draw (importing numpy.random
costs start-up time a script that draws nothing should not pay).

The state layout of ``get_state``/``set_state`` is ATen's
``CPUGeneratorImplState``: 5056 bytes (``uint64 the_initial_seed; int left;
int seeded; uint64 next; uint64 state[624]; double normal_x, normal_y,
normal_rho; int normal_is_valid;`` then ``float next_float_normal_sample;
bool is_next_float_normal_sample_valid``), little-endian with C padding.
"""

from __future__ import annotations

import math
import os
import struct

import numpy as np

#: The seed of a new ``torch.Generator()`` (c10's default_rng_seed_val).
DEFAULT_RNG_SEED = 67280421310721
_N = 624
_HEAD = struct.Struct("<QiiQ")          # the_initial_seed, left, seeded, next
_TAIL = struct.Struct("<dddi4xf?3x")    # normal_x, normal_y, normal_rho, normal_is_valid, float cache
STATE_SIZE = _HEAD.size + 8 * _N + _TAIL.size   # 5056, as sizeof(CPUGeneratorImplState)
_U64_MAX = (1 << 64) - 1

#: Callables run before every draw from any generator (vmap's randomness="error" raises there).
draw_checks: list = []


def init_genrand(seed: int) -> np.ndarray:
    """mt19937's standard seeding of its 624 words from a 32-bit seed."""
    key = [0] * _N
    x = key[0] = seed & 0xFFFFFFFF
    for j in range(1, _N):
        x = key[j] = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
    return np.array(key, dtype=np.uint32)


#: Draws up to this many words run on :func:`mt19937_words` (importing numpy.random costs
#: more than a pure-numpy draw of this size); larger ones on numpy's MT19937.
_SMALL_DRAW = 1 << 16
_UPPER, _LOWER, _MATRIX_A = np.uint32(0x80000000), np.uint32(0x7FFFFFFF), np.uint32(0x9908B0DF)


def _twist(mt: np.ndarray) -> np.ndarray:
    """The next 624 state words of mt19937, in three vectorised blocks: word i reads
    word i + 397, which for i >= 227 is a word this same twist has already made."""
    y = (mt[:-1] & _UPPER) | (mt[1:] & _LOWER)
    v = (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * _MATRIX_A)
    new = np.empty_like(mt)
    new[:227] = mt[397:] ^ v[:227]
    new[227:454] = new[:227] ^ v[227:454]
    new[454:623] = new[227:396] ^ v[454:]
    y = (int(mt[623]) & 0x80000000) | (int(new[0]) & 0x7FFFFFFF)
    new[623] = int(new[396]) ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    return new


def mt19937_words(key: np.ndarray, pos: int, n: int):
    """``n`` outputs of mt19937 from state ``(key, pos)`` (numpy's MT19937 layout: ``pos``
    624 means the next output twists first), as uint64; and the new ``(key, pos)``.
    The same numbers as ``MT19937.random_raw`` without importing numpy.random."""
    parts = [np.empty(0, dtype=np.uint32)]
    while n > 0:
        if pos >= _N:
            key, pos = _twist(key), 0
        take = min(n, _N - pos)
        parts.append(key[pos:pos + take])
        pos += take
        n -= take
    y = np.concatenate(parts)
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y.astype(np.uint64), key, pos


def _seed_value(seed, what="manual_seed"):
    """PyTorch's unpacking of a seed: an int in [-2**63, 2**64), negative ones wrapped."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        from .tensor import Tensor
        if isinstance(seed, Tensor) and not seed.dtype.is_floating_point and seed.numel() == 1:
            seed = int(seed.item())
        else:
            raise RuntimeError(f"{what} expected a long, but got {type(seed).__name__}")
    if not -(1 << 63) <= seed <= _U64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return seed & _U64_MAX


def nondeterministic_seed() -> int:
    """A 64-bit seed from the operating system (c10's getNonDeterministicRandom)."""
    return int.from_bytes(os.urandom(8), "little")


class Generator:
    """``torch.Generator``: PyTorch's CPU mt19937 generator."""

    __slots__ = ("_initial_seed", "_bg", "_fresh", "_key", "_pos", "_normal_double",
                 "_normal_float", "__weakref__")

    def __init__(self, device="cpu"):
        _check_device(device)
        self._reseed(DEFAULT_RNG_SEED)

    # -- PyTorch's methods ---------------------------------------------------
    @property
    def device(self):
        from .tensor import device
        return device("cpu")

    def manual_seed(self, seed):
        """Seed the generator; returns it."""
        self._reseed(_seed_value(seed))
        return self

    def seed(self):
        """Seed from the operating system's randomness; returns the seed."""
        s = nondeterministic_seed()
        self._reseed(s)
        return s

    def initial_seed(self):
        return self._initial_seed

    def get_state(self):
        """The state as PyTorch's 5056-byte uint8 tensor."""
        from .tensor import Tensor
        key, pos = self._key_pos()
        left, nxt = (1, 0) if self._fresh else (_N + 1 - pos, pos)
        head = _HEAD.pack(self._initial_seed, left, 1, nxt)
        words = key.astype("<u8").tobytes()
        nd, nf = self._normal_double, self._normal_float
        tail = _TAIL.pack(0.0, 0.0 if nd is None else nd, 0.0, nd is not None,
                          0.0 if nf is None else nf, nf is not None)
        return Tensor._make(np.frombuffer(head + words + tail, dtype=np.uint8).copy())

    def set_state(self, new_state):
        """Restore a state from :meth:`get_state` (PyTorch's byte layout); returns the generator."""
        from .tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.numel() != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the "
                               f"input RNG state size to be {new_state.numel()}")
        raw = np.ascontiguousarray(new_state._data).reshape(-1).tobytes()
        seed, left, seeded, nxt = _HEAD.unpack_from(raw, 0)
        nxt &= 0xFFFFFFFF
        if not (seeded == 1 and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        key = np.frombuffer(raw, dtype="<u8", count=_N, offset=_HEAD.size).astype(np.uint32)
        _, ny, _, ny_ok, nf, nf_ok = _TAIL.unpack_from(raw, _HEAD.size + 8 * _N)
        self._initial_seed = seed
        # the engine twists when `left` reaches 0 and reads word `next`; for the states
        # PyTorch makes, left + next == 625 (or left == 1 right after seeding).
        self._fresh = left == 1 and nxt == 0
        self._set_engine(key, _N if left == 1 else nxt)
        self._normal_double = ny if ny_ok else None
        self._normal_float = nf if nf_ok else None
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"

    # -- draws (for agrad.ops.random) ----------------------------------------
    def _reseed(self, seed):
        self._initial_seed = seed
        self._bg = None
        self._key = None
        self._pos = _N
        self._fresh = True
        self._normal_double = None
        self._normal_float = None

    def _key_pos(self):
        if self._bg is None:
            if self._key is None:
                self._key = init_genrand(self._initial_seed)
            return self._key, self._pos
        st = self._bg.state["state"]
        return st["key"], int(st["pos"])

    def _set_engine(self, key, pos):
        self._key = np.asarray(key, dtype=np.uint32).copy()
        self._pos = int(pos)
        if self._bg is not None:
            self._bg.state = {"bit_generator": "MT19937",
                              "state": {"key": self._key, "pos": self._pos}}

    def _engine(self):
        """numpy's MT19937 at this generator's state (made on the first large draw)."""
        bg = self._bg
        if bg is None:
            from numpy.random import MT19937
            key, pos = self._key_pos()
            bg = MT19937(0)
            bg.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
            self._bg = bg
        return bg

    def _random32(self, n):
        """n raw 32-bit outputs (``random()``), as uint64."""
        for check in draw_checks:
            check()
        self._fresh = False
        n = int(n)
        if self._bg is None and n <= _SMALL_DRAW:
            key, pos = self._key_pos()
            out, self._key, self._pos = mt19937_words(key, pos, n)
            return out
        return self._engine().random_raw(n)

    def _random64(self, n):
        """n ``random64()`` values: two outputs each, the first the high word."""
        r = self._random32(2 * int(n))
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def _draw_normal_double(self):
        """One ``at::normal_distribution<double>`` sample (mean 0, std 1): Box-Muller
        on two random64() uniforms, the sine cached for the next call."""
        cached = self._normal_double
        if cached is not None:
            self._normal_double = None
            return cached
        r = self._random64(2)
        u1 = float(int(r[0]) & 0x1FFFFFFFFFFFFF) * 2.0 ** -53
        u2 = float(int(r[1]) & 0x1FFFFFFFFFFFFF) * 2.0 ** -53
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._normal_double = radius * math.sin(theta)
        return radius * math.cos(theta)


def _check_device(device):
    from .tensor import device as _device
    _device(device)


_default = None


def default_generator() -> Generator:
    """The process's default generator, seeded from the operating system as PyTorch's."""
    global _default
    if _default is None:
        g = Generator()
        g._reseed(nondeterministic_seed())
        _default = g
    return _default


def get(generator) -> Generator:
    """The generator a ``generator=`` argument names (None: the default one)."""
    if generator is None:
        return default_generator()
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator
