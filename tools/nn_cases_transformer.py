"""nn_cases for nn.Transformer and its encoder/decoder layers (registered in
nn_cases.CASES; see tools/nn_cases.py)."""

from __future__ import annotations

import warnings

from nn_cases import CASES, T, case, error, fix
from nn_cases_rnn import run_seq

__all__: list = []


def _pad(torch):
    return torch.tensor([[False, False, False, False], [False, False, True, True],
                         [False, False, False, True]])


def _tr_case(name, make, shapes, eval_mode=False, no_grad=False, **kwargs):
    """A layer with fixed weights on inputs of ``shapes``: outputs and gradients (or, with
    ``no_grad``, the output of an inference run)."""
    def fn(torch):
        m = fix(torch, make(torch.nn), scale=0.3)
        if eval_mode:
            m.eval()
        xs = [T(torch, *s, k=i, grad=not no_grad) for i, s in enumerate(shapes)]
        kw = {key: (val(torch) if callable(val) else val) for key, val in kwargs.items()}
        if no_grad:
            with torch.no_grad():
                return {"out": m(*xs, **kw)}
        return run_seq(torch, m, *xs, **kw)
    CASES.setdefault("transformer", {})[name] = fn


def _small(nn, **kw):
    return nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1,
                          dim_feedforward=12, dropout=0.0, **kw)


def _encoder(nn, n=2, **kw):
    kw.setdefault("batch_first", True)
    return nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 12, 0.0, **kw), n,
                                 nn.LayerNorm(8))


_tr_case("transformer", _small, [(4, 3, 8), (3, 3, 8)],
         tgt_mask=lambda torch: torch.nn.Transformer.generate_square_subsequent_mask(3))
_tr_case("transformer_masks_batch_first", lambda nn: _small(nn, batch_first=True),
         [(3, 4, 8), (3, 2, 8)], src_key_padding_mask=_pad, memory_key_padding_mask=_pad,
         tgt_mask=lambda torch: torch.tensor([[0.0, -1.0], [0.5, 0.0]]))
_tr_case("transformer_norm_first_gelu", lambda nn: _small(nn, norm_first=True,
                                                          activation="gelu"),
         [(4, 2, 8), (2, 2, 8)], tgt_is_causal=True,
         tgt_mask=lambda torch: torch.nn.Transformer.generate_square_subsequent_mask(2))
_tr_case("transformer_unbatched_eval", _small, [(4, 8), (3, 8)], eval_mode=True)
_tr_case("encoder_padding", _encoder, [(3, 4, 8)], src_key_padding_mask=_pad)
# eval mode without gradients: PyTorch runs nested tensors; padded positions come out as zeros
_tr_case("encoder_padding_inference", _encoder, [(3, 4, 8)], eval_mode=True, no_grad=True,
         src_key_padding_mask=_pad)
# mask_check=False: PyTorch keeps each row's first k positions (k its count of unmasked ones)
_tr_case("encoder_unaligned_no_mask_check",
         lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 12, 0.0, batch_first=True),
                                          2, nn.LayerNorm(8), mask_check=False),
         [(3, 4, 8)], eval_mode=True, no_grad=True,
         src_key_padding_mask=lambda torch: torch.tensor([[True, False, False, False],
                                                          [False, True, False, True],
                                                          [False, False, False, False]]))
_tr_case("encoder_unaligned_inference", _encoder, [(3, 4, 8)], eval_mode=True, no_grad=True,
         src_key_padding_mask=lambda torch: torch.tensor([[True, False, False, False],
                                                          [False, True, False, True],
                                                          [False, False, False, False]]))
# a float padding mask: the nested path leaves out every nonzero position
_tr_case("encoder_float_padding_inference", _encoder, [(3, 4, 8)], eval_mode=True, no_grad=True,
         src_key_padding_mask=lambda torch: torch.tensor([[0.0, 0.0, 0.0, -1.0],
                                                          [0.0, -2.0, -2.0, -2.0],
                                                          [0.0, 0.0, 0.0, 0.0]]))
_tr_case("encoder_padding_eval_grad", _encoder, [(3, 4, 8)], eval_mode=True,
         src_key_padding_mask=_pad)
_tr_case("encoder_causal_mask", lambda nn: _encoder(nn, batch_first=False), [(4, 2, 8)],
         mask=lambda torch: torch.nn.Transformer.generate_square_subsequent_mask(4))
_tr_case("encoder_layer_callable_activation",
         lambda nn: nn.TransformerEncoderLayer(8, 4, 6, 0.0, activation=nn.Tanh(),
                                               norm_first=True, bias=False),
         [(3, 2, 8)], src_mask=lambda torch: torch.tensor([[False, True, True], [False, False, True],
                                                          [False, False, False]]))
_tr_case("decoder_layer", lambda nn: nn.TransformerDecoderLayer(8, 2, 10, 0.0, batch_first=True),
         [(2, 3, 8), (2, 4, 8)], memory_key_padding_mask=lambda torch: torch.tensor(
             [[False, False, True, True], [False, False, False, False]]))
_tr_case("decoder_norm_first_inference",
         lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 4, 10, 0.0,
                                                                     norm_first=True), 2),
         [(3, 2, 8), (4, 2, 8)], eval_mode=True, no_grad=True,
         tgt_mask=lambda torch: torch.nn.Transformer.generate_square_subsequent_mask(3))


@case("transformer")
def transformer_module(torch):
    nn = torch.nn
    made = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = nn.TransformerEncoderLayer(4, 2, 6, batch_first=True)
        made.append(nn.TransformerEncoder(layer, 2))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 1))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 1, 6, batch_first=True), 1))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(
            4, 2, 6, batch_first=True, activation=torch.tanh), 1))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(
            4, 2, 6, batch_first=True, norm_first=True), 1, enable_nested_tensor=False))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(
            4, 2, 6, batch_first=True, bias=False), 1))
        made.append(nn.TransformerEncoder(nn.TransformerEncoderLayer(
            4, 2, 6, batch_first=True, activation=nn.GELU()), 1))
        made.append(nn.Transformer(4, 2, 1, 1, 6))
    texts = [str(w.message) for w in caught]
    t = made[-1]
    x = torch.ones(2, 3, 4)
    return {
        "warnings": texts,
        "reprs": [repr(m) for m in made],
        "keys": list(t.state_dict().keys()),
        "flags": [[m.use_nested_tensor, m.enable_nested_tensor, m.mask_check] for m in made[:7]],
        "activation_flags": [m.layers[0].activation_relu_or_gelu for m in made[:7]],
        "mask": nn.Transformer.generate_square_subsequent_mask(3),
        "mask64": nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64),
        "errors": [error(lambda: t(x, torch.ones(2, 2, 4))),
                   error(lambda: t(x, torch.ones(3, 3, 5))),
                   error(lambda: nn.TransformerEncoderLayer(4, 2, activation="tanh")),
                   error(lambda: nn.TransformerDecoderLayer(4, 2, activation="elu")),
                   error(lambda: nn.TransformerEncoderLayer(5, 2)),
                   error(lambda: t.encoder(x, mask=torch.ones(2, 2, dtype=torch.long)))],
    }


@case("random")
def transformer_initialisation(torch):
    """PyTorch's parameter creation order: the same numbers after manual_seed, and the
    dropout masks of a training step."""
    nn = torch.nn
    torch.manual_seed(3)
    t = nn.Transformer(8, 2, 1, 2, 12, dropout=0.25)
    enc = nn.TransformerEncoderLayer(6, 3, 10)
    dec = nn.TransformerDecoderLayer(4, 2, 6, bias=False)
    x, y = T(torch, 3, 2, 8), T(torch, 2, 2, 8, k=1)
    out = t(x, y)
    return {"transformer": [p.detach() for p in t.parameters()],
            "encoder_layer": [p.detach() for p in enc.parameters()],
            "decoder_layer": [p.detach() for p in dec.parameters()],
            "train_out": out.detach(), "after": torch.rand(3)}
