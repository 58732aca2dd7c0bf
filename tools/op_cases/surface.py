"""torch.* functions of issue 10 (session 30) that record nodes: fill, rsub, ..."""

from . import case, inp, val

FORMS = [
    case("torch_fill_number", "torch.fill(a, 2.5)", a=inp(2, 3), second=True, numeric=False),
    case("torch_fill_tensor_value", "torch.fill(a, v)", a=inp(2, 3), v=inp(), second=True, numeric=False),
    case("torch_rsub_tensor_alpha", "torch.rsub(a, b, alpha=-1.5)", a=inp(2, 3), b=inp(3), second=True),
    case("torch_rsub_number_alpha", "torch.rsub(a, 2.0, 3)", a=inp(2, 3, dtype="float64"), second=True),
]

COPIES = [
    case("view_copy_shape", "torch.view_copy(a, (3, 4))", a=inp(2, 6), second=True),
    case("permute_copy_dims", "torch.permute_copy(a, (2, 0, 1))", a=inp(2, 3, 4), second=True),
    case("transpose_copy_dims", "torch.transpose_copy(a, 0, 1)", a=inp(2, 3)),
    case("t_copy_matrix", "torch.t_copy(a)", a=inp(2, 3)),
    case("unsqueeze_copy_dim", "torch.unsqueeze_copy(a, 1)", a=inp(2, 3)),
    case("squeeze_copy_all", "torch.squeeze_copy(a)", a=inp(2, 1, 3)),
    case("squeeze_copy_dim", "torch.squeeze_copy(a, 1)", a=inp(2, 1, 3)),
    case("squeeze_copy_dims", "torch.squeeze_copy(a, (0, 1))", a=inp(1, 1, 3)),
    case("select_copy_index", "torch.select_copy(a, 1, 2)", a=inp(2, 3)),
    case("slice_copy_step", "torch.slice_copy(a, 1, 0, 5, 2)", a=inp(2, 5)),
    case("diagonal_copy_offset", "torch.diagonal_copy(a, 1)", a=inp(3, 4), second=True),
    case("expand_copy_size", "torch.expand_copy(a, (2, 3, 4))", a=inp(3, 1)),
    case("alias_copy_tensor", "torch.alias_copy(a)", a=inp(2, 3)),
    case("split_copy_even", "torch.split_copy(a, 2, 1)", a=inp(2, 4), second=True),
    case("split_with_sizes_copy_sizes", "torch.split_with_sizes_copy(a, [1, 3], 1)", a=inp(2, 4)),
    case("unbind_copy_dim", "torch.unbind_copy(a, 1)", a=inp(2, 3), second=True),
    case("unfold_copy_windows", "torch.unfold_copy(a, 1, 2, 1)", a=inp(2, 4)),
    case("narrow_copy_range", "torch.narrow_copy(a, 1, 1, 2)", a=inp(2, 4)),
]

SCATTERS = [
    case("select_scatter_row", "torch.select_scatter(a, b, 0, 1)", a=inp(3, 4), b=inp(4), second=True),
    case("slice_scatter_step", "torch.slice_scatter(a, b, 1, 0, 4, 2)", a=inp(3, 4), b=inp(3, 2), second=True),
    case("diagonal_scatter_offset", "torch.diagonal_scatter(a, b, 1)", a=inp(3, 4), b=inp(3), second=True),
    case("put_indices", "torch.put(a, i, b)", a=inp(3, 4), i=val([0, 5, -1], dtype="int64"), b=inp(3), second=True),
    case("put_accumulate", "torch.put(a, i, b, accumulate=True)", a=inp(3, 4), i=val([2, 2, 7], dtype="int64"), b=inp(3)),
]

STRIDED = [
    case("as_strided_windows", "torch.as_strided(a, (3, 3), (1, 1))", a=inp(2, 3), second=True),
    case("as_strided_copy_offset", "torch.as_strided_copy(a, (2, 2), (3, 1), 1)", a=inp(2, 3)),
]

REDUCES = [
    case("scatter_reduce_sum_exclude", "torch.scatter_reduce(a, 1, i, b, 'sum', include_self=False)", a=inp(2, 4),
         i=val([[0, 1, 0], [3, 3, 2]], dtype="int64"), b=inp(2, 3), second=True),
    case("scatter_reduce_mean", "a.scatter_reduce(1, i, b, 'mean')", a=inp(2, 4), i=val([[0, 1, 0], [3, 3, 2]], dtype="int64"),
         b=inp(2, 3), second=True),
    case("scatter_reduce_amax", "a.scatter_reduce(0, i, b, 'amax')", a=inp(3, 2, dtype="float64"),
         i=val([[0, 1], [2, 2], [0, 0]], dtype="int64"), b=inp(3, 2, dtype="float64")),
    case("scatter_reduce_prod", "torch.scatter_reduce(a, 0, i, b, 'prod')", a=inp(4, dtype="float64"),
         i=val([0, 1, 0, 3], dtype="int64"), b=inp(4, dtype="float64"), second=True),
]

REDUCES += [
    case("index_reduce_mean_exclude", "a.index_reduce(0, i, b, 'mean', include_self=False)", a=inp(3, 2),
         i=val([0, 2, 0], dtype="int64"), b=inp(3, 2), second=True),
    case("index_reduce_prod", "torch.index_reduce(a, 1, i, b, 'prod')", a=inp(2, 3, dtype="float64"),
         i=val([1, 1], dtype="int64"), b=inp(2, 2, dtype="float64")),
]

CASES = FORMS + COPIES + SCATTERS + STRIDED + REDUCES
