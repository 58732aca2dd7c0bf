"""Functions of session 29 that real scripts call: quantile/nanquantile, cdist, cov/corrcoef,
histc/histogram, tril/triu_indices, block_diag, cartesian_prod, combinations, renorm, ldexp,
addr, vander, unique_consecutive, nextafter, chain_matmul."""

from . import case, inp, val

NAN = float("nan")

QUANTILE = [
    case("quantile_scalar_q", "torch.quantile(a, 0.3)", a=inp(3, 4), second=True),
    case("quantile_tensor_q_dim", "torch.quantile(a, q, dim=1)", a=inp(3, 5), q=val([0.1, 0.5, 0.9], requires_grad=False)),
    case("quantile_dim0_keepdim", "a.quantile(0.75, 0, True)", a=inp(4, 3, dtype="float64")),
    case("quantile_lower", "torch.quantile(a, 0.4, dim=-1, interpolation='lower')", a=inp(2, 6)),
    case("quantile_midpoint", "torch.quantile(a, 0.4, interpolation='midpoint')", a=inp(2, 6)),
    case("quantile_nearest_ties", "torch.quantile(a, 0.5, dim=1, interpolation='nearest')", a=inp(3, 5, kind="ties"), numeric=False),
    case("nanquantile_nan_rows", "torch.nanquantile(a, 0.5, dim=1)", a=val([[1.0, NAN, 3.0, 2.0], [NAN, NAN, 0.5, -1.0]])),
    case("nanquantile_higher", "a.nanquantile(0.2, interpolation='higher')", a=inp(3, 3)),
]

CDIST = [
    case("cdist_p2_kernel", "torch.cdist(a, b)", a=inp(4, 3, dtype="float64"), b=inp(5, 3, dtype="float64")),
    case("cdist_p2_mm_path", "torch.cdist(a, b)", a=inp(27, 3, dtype="float64"), b=inp(4, 3, dtype="float64"),
         second=True),
    case("cdist_mm_forced_batched", "torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist')",
         a=inp(2, 1, 3, 4, dtype="float64"), b=inp(3, 5, 4, dtype="float64")),
    case("cdist_p1", "torch.cdist(a, b, p=1)", a=inp(2, 3, 4), b=inp(2, 2, 4)),
    case("cdist_p_general", "torch.cdist(a, b, p=3.0)", a=inp(3, 2, dtype="float64"), b=inp(4, 2, dtype="float64")),
    case("cdist_p_small", "torch.cdist(a, b, p=0.7)", a=inp(3, 2, dtype="float64"), b=inp(2, 2, dtype="float64")),
    case("cdist_inf", "torch.cdist(a, b, p=float('inf'))", a=inp(3, 4), b=inp(3, 4)),
    case("cdist_p0", "torch.cdist(a, b, 0)", a=inp(3, 2), b=inp(2, 2)),
]

COV = [
    case("cov_rows", "torch.cov(a)", a=inp(3, 5, dtype="float64"), second=True),
    case("cov_vector_correction0", "a.cov(correction=0)", a=inp(6, dtype="float64")),
    case("cov_fweights_aweights", "torch.cov(a, fweights=f, aweights=w)", a=inp(2, 4, dtype="float64"),
         f=val([1, 2, 0, 3]), w=inp(4, kind="positive", dtype="float64")),
    case("corrcoef_rows", "torch.corrcoef(a)", a=inp(3, 6, dtype="float64"), second=True),
    case("corrcoef_method", "a.corrcoef()", a=inp(2, 4)),
]

HIST = [
    case("histc_default_range", "torch.histc(a, 7)", a=inp(20, requires_grad=False)),
    case("histc_given_range", "a.histc(5, -1, 1)", a=inp(20, dtype="float64", requires_grad=False)),
    case("histogram_bins_weight_density", "torch.histogram(a, 6, weight=w, density=True)",
         a=inp(15, requires_grad=False), w=inp(15, kind="positive", requires_grad=False)),
    case("histogram_edges", "torch.histogram(a, e)", a=inp(15, requires_grad=False),
         e=val([-2.0, -0.5, 0.0, 0.25, 2.0], requires_grad=False)),
]

BLOCKS = [
    case("tril_indices_offset", "torch.tril_indices(4, 3, 1)"),
    case("triu_indices_int32", "torch.triu_indices(3, 5, -1, dtype=torch.int32)"),
    case("block_diag_mixed", "torch.block_diag(a, b, c)", a=inp(2, 3), b=inp(2), c=inp()),
    case("block_diag_empty_block", "torch.block_diag(a, b)", a=inp(2, 2, dtype="float64"), b=inp(0, 3, dtype="float64")),
    case("cartesian_prod_three", "torch.cartesian_prod(a, b, c)", a=inp(2), b=inp(3), c=inp(2)),
    case("combinations_pairs", "torch.combinations(a)", a=inp(4)),
    case("combinations_with_replacement", "torch.combinations(a, 3, with_replacement=True)", a=inp(3)),
]

MORE = [
    case("renorm_rows", "torch.renorm(a, 2, 0, 1.5)", a=inp(3, 4, dtype="float64")),
    case("renorm_p1_method", "a.renorm(1, 1, 0.8)", a=inp(3, 4, dtype="float64")),
    case("ldexp_int_exponent", "torch.ldexp(a, e)", a=inp(2, 3), e=val([[1, -2, 0]]), numeric=False),
    case("ldexp_float_exponent", "torch.ldexp(a, e)", a=inp(4, dtype="float64"), e=inp(4, dtype="float64")),
    case("addr_scaled", "torch.addr(a, v, w, beta=0.5, alpha=2)", a=inp(3, 4), v=inp(3), w=inp(4)),
    case("addr_broadcast_self", "a.addr(v, w)", a=inp(4, dtype="float64"), v=inp(2, dtype="float64"),
         w=inp(4, dtype="float64")),
    case("nextafter_towards", "torch.nextafter(a, b)", a=inp(5), b=inp(5), numeric=False),
    case("chain_matmul_three", "torch.chain_matmul(a, b, c)", a=inp(2, 3), b=inp(3, 4), c=inp(4, 2)),
    case("unique_consecutive_values", "torch.unique_consecutive(a)", a=val([1, 1, 2, 2, 3, 1])),
]

PDIST_SHUFFLE = [  # session 30 (nnlosses): torch.pdist, channel_shuffle
    case("pdist_p2", "torch.pdist(a)", a=inp(5, 3)),
    case("pdist_p1_float64", "torch.pdist(a, 1)", a=inp(4, 9, dtype="float64")),
    case("pdist_inf", "torch.pdist(a, float('inf'))", a=inp(4, 3)),
    case("pdist_transposed", "torch.pdist(a.t())", a=inp(3, 4)),
    case("channel_shuffle_2", "F.channel_shuffle(a, 2)", a=inp(2, 4, 3), second=True),
    case("channel_shuffle_4d", "torch.channel_shuffle(a, 3)", a=inp(1, 6, 2, 2)),
    case("max_unpool2d", "F.max_unpool2d(a, i, 2, output_size=(5, 5))", a=inp(1, 2, 2, 2),
         i=val([[[[0, 3], [10, 19]], [[5, 7], [13, 24]]]]), second=True),
    case("max_unpool3d", "F.max_unpool3d(a, i, (1, 2, 2))", a=inp(1, 1, 2, 1, 2),
         i=val([[[[[0, 3]], [[5, 6]]]]])),
    case("max_unpool1d", "F.max_unpool1d(a, i, 2)", a=inp(2, 3), i=val([[1, 2, 5], [0, 3, 4]])),
    case("max_pool3d_with_indices", "F.max_pool3d_with_indices(a, 2)[0]", a=inp(1, 2, 2, 4)),
    case("affine_grid", "F.affine_grid(t, (1, 1, 2, 4), align_corners=False)",
         t=val([[[1.0, 0.25, 0.125], [-0.125, 0.75, 0.5]]], requires_grad=True)),
    case("grid_sample_bilinear", "F.grid_sample(a, g, align_corners=False)", a=inp(1, 2, 3, 4, dtype="float64"),
         g=inp(1, 2, 3, 2, dtype="float64")),
    case("grid_sample_border_nearest", "F.grid_sample(a, g, mode='nearest', padding_mode='border', align_corners=True)",
         a=inp(1, 2, 3, 4, dtype="float64"), g=inp(1, 2, 3, 2, dtype="float64")),
    case("grid_sample_3d", "F.grid_sample(a, g, padding_mode='reflection', align_corners=False)",
         a=inp(1, 2, 2, 3, 4, dtype="float64"), g=inp(1, 2, 2, 3, 3, dtype="float64")),
    case("embedding_bag_mean", "F.embedding_bag(i, w, o)", w=inp(5, 3, dtype="float64"), i=val([0, 2, 4, 1, 2, 3]),
         o=val([0, 2, 2, 5])),
    case("embedding_bag_max", "F.embedding_bag(i, w, mode='max')", w=inp(5, 3, dtype="float64"), i=val([[0, 2], [4, 1]])),
    case("embedding_bag_weighted", "F.embedding_bag(i, w, o, mode='sum', per_sample_weights=p)", w=inp(5, 3, dtype="float64"),
         i=val([0, 2, 4, 1]), o=val([0, 1]), p=inp(4, dtype="float64")),
]

CASES = QUANTILE + CDIST + COV + HIST + BLOCKS + MORE + PDIST_SHUFFLE
