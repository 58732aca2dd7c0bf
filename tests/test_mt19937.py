"""Small draws run on a pure-numpy mt19937 (agrad._generator.mt19937_words), large ones
on numpy's MT19937: both give the same stream, and a generator may switch between them."""

import random

import numpy as np
from numpy.random import MT19937

import agrad
from agrad._generator import _N, _SMALL_DRAW, init_genrand, mt19937_words


def _numpy_engine(key, pos):
    bg = MT19937(0)
    bg.state = {"bit_generator": "MT19937", "state": {"key": np.array(key, dtype=np.uint32), "pos": pos}}
    return bg


def test_words_equal_numpy_s_mt19937_from_any_state():
    rng = random.Random(7)
    for _ in range(200):
        key, pos = init_genrand(rng.getrandbits(32)), _N
        if rng.random() < 0.7:   # a state in the middle of a block
            bg = _numpy_engine(key, pos)
            bg.random_raw(rng.randrange(1, 3000))
            key, pos = bg.state["state"]["key"], int(bg.state["state"]["pos"])
        n = rng.choice([0, 1, 16, 623, 624, 625, 1248, rng.randrange(1, 5000)])
        bg = _numpy_engine(key, pos)
        expected = bg.random_raw(n)
        before = key.copy()
        out, new_key, new_pos = mt19937_words(key, pos, n)
        assert out.dtype == np.uint64 and np.array_equal(out, expected)
        assert np.array_equal(new_key, bg.state["state"]["key"]) and new_pos == bg.state["state"]["pos"]
        assert np.array_equal(key, before)   # the caller's state is not changed in place


def test_a_generator_switching_engines_keeps_one_stream():
    g = agrad.Generator().manual_seed(123)
    sizes = [5, 700, _SMALL_DRAW + 10, 3, 2000]
    got = np.concatenate([g._random32(n) for n in sizes])
    expected = _numpy_engine(init_genrand(123), _N).random_raw(sum(sizes))
    assert np.array_equal(got, expected)


def test_state_round_trip_before_and_after_the_switch():
    g = agrad.Generator().manual_seed(5)
    g._random32(10)
    state = g.get_state()
    a = g._random32(100)
    g.set_state(state)
    assert np.array_equal(g._random32(100), a)
    g._random32(_SMALL_DRAW + 1)          # now on numpy's engine
    state = g.get_state()
    b = g._random32(50)
    h = agrad.Generator().set_state(state)   # a new generator from that state: pure numpy again
    assert np.array_equal(h._random32(50), b)
