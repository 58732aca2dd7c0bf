"""nn_cases for convolution, pooling and normalisation layers (registered in
nn_cases.CASES; see tools/nn_cases.py)."""

from __future__ import annotations

from nn_cases import CASES, T, case, error, fix, run_layer

__all__: list = []


# ------------------------------------------------------------------ convolution, pooling, norms

def _layer_case(name, make, *shape, family="conv"):
    def fn(torch):
        return run_layer(torch, fix(torch, make(torch.nn)), T(torch, *shape, grad=True))
    CASES.setdefault(family, {})[name] = fn


_layer_case("conv1d", lambda nn: nn.Conv1d(2, 3, 3), 2, 2, 7)
_layer_case("conv1d_same_dilated", lambda nn: nn.Conv1d(2, 4, 3, padding="same", dilation=2,
                                                        groups=2), 1, 2, 9)
_layer_case("conv2d", lambda nn: nn.Conv2d(2, 3, 3, stride=2, padding=1), 2, 2, 6, 5)
_layer_case("conv2d_same_even_kernel", lambda nn: nn.Conv2d(1, 2, (2, 4), padding="same",
                                                            bias=False), 1, 1, 5, 6)
_layer_case("conv2d_valid_groups", lambda nn: nn.Conv2d(4, 2, 2, padding="valid", groups=2),
            1, 4, 4, 4)
_layer_case("conv2d_reflect", lambda nn: nn.Conv2d(1, 2, 3, padding=1, padding_mode="reflect"),
            1, 1, 4, 4)
_layer_case("conv2d_circular", lambda nn: nn.Conv2d(1, 1, 3, padding=(1, 2),
                                                    padding_mode="circular"), 1, 1, 4, 5)
_layer_case("conv_transpose2d", lambda nn: nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1,
                                                              output_padding=1), 1, 2, 3, 3)
_layer_case("conv_transpose1d", lambda nn: nn.ConvTranspose1d(2, 2, 4, stride=3), 2, 2, 4)
_layer_case("conv_transpose3d", lambda nn: nn.ConvTranspose3d(2, 4, (2, 3, 2), stride=(2, 1, 2), padding=(0, 1, 1),
                                                              output_padding=(1, 0, 0), groups=2), 1, 2, 2, 3, 2)
_layer_case("maxpool2d", lambda nn: nn.MaxPool2d(2), 1, 2, 4, 6)
_layer_case("maxpool2d_ceil", lambda nn: nn.MaxPool2d(3, 2, 1, ceil_mode=True), 1, 1, 6, 5)
_layer_case("maxpool1d", lambda nn: nn.MaxPool1d(3, stride=2), 2, 2, 7)
_layer_case("avgpool2d", lambda nn: nn.AvgPool2d(2, padding=1, count_include_pad=False),
            1, 2, 5, 4)
_layer_case("avgpool1d", lambda nn: nn.AvgPool1d(3, 2), 1, 2, 8)
_layer_case("adaptive_avg2d", lambda nn: nn.AdaptiveAvgPool2d((2, 3)), 1, 2, 5, 7)
_layer_case("adaptive_avg1d", lambda nn: nn.AdaptiveAvgPool1d(3), 2, 1, 8)
_layer_case("maxpool3d", lambda nn: nn.MaxPool3d((2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0),
                                                 dilation=(1, 1, 2)), 1, 2, 3, 5, 6)
_layer_case("maxpool3d_ceil", lambda nn: nn.MaxPool3d(2, ceil_mode=True), 2, 1, 3, 3, 5)
_layer_case("avgpool3d", lambda nn: nn.AvgPool3d(2, stride=(1, 2, 1), padding=1,
                                                 count_include_pad=False), 1, 2, 3, 4, 3)
_layer_case("avgpool3d_divisor", lambda nn: nn.AvgPool3d((1, 2, 2), ceil_mode=True,
                                                         divisor_override=3), 2, 3, 3, 5)
_layer_case("adaptive_avg3d", lambda nn: nn.AdaptiveAvgPool3d((2, None, 3)), 1, 2, 5, 3, 7)
_layer_case("batchnorm3d", lambda nn: nn.BatchNorm3d(3), 2, 3, 2, 3, 2, family="norm")
_layer_case("cross_map_lrn2d", lambda nn: nn.CrossMapLRN2d(3), 2, 5, 3, 3, family="norm")
_layer_case("cross_map_lrn2d_even", lambda nn: nn.CrossMapLRN2d(4, alpha=0.5, beta=1.3, k=2.0),
            1, 7, 2, 3, family="norm")
_layer_case("layernorm", lambda nn: nn.LayerNorm([3, 4]), 2, 3, 4, family="norm")
_layer_case("groupnorm", lambda nn: nn.GroupNorm(2, 4), 2, 4, 3, family="norm")
_layer_case("cnn", lambda nn: nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(4, 2, 3), nn.Flatten(), nn.Linear(8, 3)), 2, 1, 8, 8)


@case("norm")
def batchnorm_running_stats(torch):
    nn = torch.nn
    res = {}
    for name, m, shape in [("bn1d", nn.BatchNorm1d(3), (4, 3)),
                           ("bn1d_3d", nn.BatchNorm1d(3, momentum=None), (2, 3, 5)),
                           ("bn2d", nn.BatchNorm2d(2, affine=False), (2, 2, 3, 3))]:
        fix(torch, m)
        outs = []
        for k in range(3):
            outs.append(m(T(torch, *shape, k=k)).detach())
        res[name] = {"outs": outs, "buffers": [b for b in m.buffers()]}
        m.eval()
        res[name]["eval"] = m(T(torch, *shape, k=7)).detach()
        x = T(torch, *shape, k=8, grad=True)
        m.train()
        r = run_layer(torch, m, x)
        res[name]["train_grads"] = r
    res["bad_dim"] = error(lambda: nn.BatchNorm2d(3)(torch.ones(2, 3)))
    return res


@case("module")
def conv_reprs(torch):
    nn = torch.nn
    mods = [nn.Conv1d(2, 4, 3), nn.Conv2d(2, 4, 3, stride=2, padding=1, bias=False),
            nn.Conv2d(2, 4, (3, 5), padding="same", dilation=2, groups=2, padding_mode="reflect"),
            nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1), nn.MaxPool1d(2),
            nn.MaxPool2d(2), nn.MaxPool2d(3, 1, 1, ceil_mode=True), nn.AvgPool1d(2),
            nn.AvgPool2d(2), nn.AvgPool2d(3, 2, 1, True, False, 2), nn.AdaptiveAvgPool1d(3),
            nn.AdaptiveAvgPool2d((2, 3)), nn.AdaptiveAvgPool2d(1), nn.BatchNorm1d(3),
            nn.BatchNorm2d(3, momentum=None, affine=False), nn.LayerNorm(4),
            nn.LayerNorm([2, 3], elementwise_affine=False), nn.GroupNorm(2, 4), nn.MaxPool3d(2),
            nn.MaxPool3d((1, 2, 3), 1, (0, 1, 1), 2, True, True), nn.AvgPool3d(2),
            nn.AvgPool3d((1, 2, 2), (1, 1, 2), 1, True, False, 3), nn.AdaptiveAvgPool3d(2),
            nn.AdaptiveAvgPool3d((None, 2, 3)), nn.BatchNorm3d(4),
            nn.BatchNorm3d(2, eps=1e-3, momentum=0.2, affine=False, track_running_stats=False),
            nn.CrossMapLRN2d(3), nn.CrossMapLRN2d(2, 0.5, 1.5, 2)]
    return {"reprs": [repr(m) for m in mods],
            "bn_state": list(nn.BatchNorm1d(3).state_dict().keys()),
            "errors": [error(lambda: nn.Conv2d(3, 4, 3, groups=2)),
                       error(lambda: nn.Conv2d(2, 4, 3, stride=2, padding="same")),
                       error(lambda: nn.GroupNorm(3, 4)),
                       error(lambda: nn.Conv2d(2, 4, 3)(torch.ones(1, 3, 5, 5))),
                       error(lambda: nn.BatchNorm3d(3)(torch.ones(2, 3, 4, 4))),
                       error(lambda: nn.MaxPool3d(2)(torch.ones(3, 4, 4))),
                       error(lambda: nn.AdaptiveAvgPool3d((2, 2))(torch.ones(1, 2, 4, 4, 4))),
                       error(lambda: nn.CrossMapLRN2d(3)(torch.ones(2, 3, 4))),
                       error(lambda: nn.CrossMapLRN2d(1)(torch.ones(1, 3, 2, 2,
                                                              requires_grad=True)).sum().backward())],
            "lrn_node": nn.CrossMapLRN2d(3)(torch.ones(1, 3, 2, 2,
                                                       requires_grad=True)).grad_fn.name()}


@case("random")
def conv_default_initialisation(torch):
    nn = torch.nn
    torch.manual_seed(2)
    mods = [nn.Conv2d(2, 3, 3), nn.Conv1d(1, 2, 2, bias=False), nn.ConvTranspose2d(2, 1, 2),
            nn.BatchNorm1d(2), nn.LayerNorm(3), nn.GroupNorm(1, 2), nn.BatchNorm3d(3),
            nn.Conv3d(1, 2, (1, 2, 2)), nn.ConvTranspose3d(2, 1, 2)]
    return {"params": [[p.detach() for p in m.parameters()] for m in mods]}
