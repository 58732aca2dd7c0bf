"""torch.nn.utils.rnn: pad_sequence and unpad_sequence.

``pad_sequence`` is ATen's: a tensor full of ``padding_value`` (the first sequence's dtype), each
sequence copied into its slot (``select`` and ``narrow``, then ``copy_``: a CopySlices per sequence
that requires grad, as PyTorch records).  ``unpad_sequence`` is torch's Python: a mask per sequence.

PackedSequence and the packing functions are not built: RNN modules take padded batches only.
"""

from __future__ import annotations

from ...tensor import Tensor

__all__ = ["pad_sequence", "unpad_sequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence",
           "unpack_sequence", "PackedSequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Sequences of shape (L_i, *) stacked into (max L, B, *) (or (B, max L, *) with ``batch_first``),
    padded with ``padding_value`` on the right (or the left)."""
    from ...ops import FUNCTIONS
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)   # (PyTorch's Python wrapper: a tensor is its rows)
    sequences = list(sequences)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    first = sequences[0]
    max_len = max(int(s.shape[0]) for s in sequences)
    trailing = tuple(first.shape[1:])
    shape = ((len(sequences), max_len) if batch_first else (max_len, len(sequences))) + trailing
    out = FUNCTIONS["full"](shape, padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = int(seq.shape[0])
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The inverse of pad_sequence (right padding): a list of the sequences, each its first
    ``lengths[i]`` steps (PyTorch transposes a time-first input in place first, as here)."""
    from ...ops import FUNCTIONS
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = FUNCTIONS["arange"](max_length)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths)]


def _not_built(name):
    def missing(*args, **kwargs):
        raise NotImplementedError(
            f"torch.nn.utils.rnn.{name} is not supported yet in agrad (no PackedSequence: RNN modules take "
            "padded batches; pad_sequence and unpad_sequence are supported)")
    missing.__name__ = missing.__qualname__ = name
    return missing


pack_padded_sequence = _not_built("pack_padded_sequence")
pad_packed_sequence = _not_built("pad_packed_sequence")
pack_sequence = _not_built("pack_sequence")
unpack_sequence = _not_built("unpack_sequence")
PackedSequence = _not_built("PackedSequence")
