"""glibc's ``lgamma`` (before glibc 2.42's CORE-MATH version) of float64: the ``std::lgamma`` of
PyTorch's scalar code (polygamma's n! as exp(lgamma(n + 1))), and agrad's torch.lgamma of large
tensors (ops/special.py; Sleef's below). fdlibm's ``e_lgamma_r`` (argument reduction to [1.5, 2.5],
a polynomial around the minimum, Stirling's series from 8 on, the reflection formula for negative
numbers) and, for -28 < x < -2, glibc's expansion around the zeros of lgamma (``lgamma_neg``):
the same steps on numpy arrays, branch by branch, with numpy's float64 ``sin``/``cos`` (libm's)
and libm's ``log``/``log1p`` through Python's math module (20,000 values equal to libm's).
"""

from __future__ import annotations

import math

import numpy as np

_F64 = np.float64
_h = float.fromhex

# e_lgamma_r's coefficients (fdlibm)
_PI = 3.14159265358979311600e+00
_A = (7.72156649015328655494e-02, 3.22467033424113591611e-01, 6.73523010531292681824e-02,
      2.05808084325167332806e-02, 7.38555086081402883957e-03, 2.89051383673415629091e-03,
      1.19270763183362067845e-03, 5.10069792153511336608e-04, 2.20862790713908385557e-04,
      1.08011567247583939954e-04, 2.52144565451257326939e-05, 4.48640949618915160150e-05)
_TC = 1.46163214496836224576e+00
_TF = -1.21486290535849611461e-01
_TT = -3.63867699703950536541e-18
_T = (4.83836122723810047042e-01, -1.47587722994593911752e-01, 6.46249402391333854778e-02,
      -3.27885410759859649565e-02, 1.79706750811820387126e-02, -1.03142241298341437450e-02,
      6.10053870246291332635e-03, -3.68452016781138256760e-03, 2.25964780900612472250e-03,
      -1.40346469989232843813e-03, 8.81081882437654011382e-04, -5.38595305356740546715e-04,
      3.15632070903625950361e-04, -3.12754168375120860518e-04, 3.35529192635519073543e-04)
_U = (-7.72156649015328655494e-02, 6.32827064025093366517e-01, 1.45492250137234768737e+00,
      9.77717527963372745603e-01, 2.28963728064692451092e-01, 1.33810918536787660377e-02)
_V = (None, 2.45597793713041134822e+00, 2.12848976379893395361e+00, 7.69285150456672783825e-01,
      1.04222645593369134254e-01, 3.21709242282423911810e-03)
_S = (-7.72156649015328655494e-02, 2.14982415960608852501e-01, 3.25778796408930981787e-01,
      1.46350472652464452805e-01, 2.66422703033638609560e-02, 1.84028451407337715652e-03,
      3.19475326584100867617e-05)
_R = (None, 1.39200533467621045958e+00, 7.21935547567138069525e-01, 1.71933865632803078993e-01,
      1.86459191715652901344e-02, 7.77942496381893596434e-04, 7.32668430744625636189e-06)
_W = (4.18938533204672725052e-01, 8.33333333333329678849e-02, -2.77777777728775536470e-03,
      7.93650558643019558500e-04, -5.95187557450339963135e-04, 8.36339918996282139126e-04,
      -1.63092934096575273989e-03)

# lgamma_neg's tables: the zeros of lgamma in (-28, -2) as a double pair, e, Stirling's
# coefficients, and polynomials for (|gamma(x)| - 1)(x - n)/(x - x0) on [-3, -2] in eighths
_ZEROS = np.array([[_h(a), _h(b)] for a, b in (
    ("-0x2.74ff92c01f0d8p+0", "-0x2.abec9f315f1ap-56"), ("-0x2.bf6821437b202p+0", "0x6.866a5b4b9be14p-56"),
    ("-0x3.24c1b793cb35ep+0", "-0xf.b8be699ad3d98p-56"), ("-0x3.f48e2a8f85fcap+0", "-0x1.70d4561291237p-56"),
    ("-0x4.0a139e1665604p+0", "0xf.3c60f4f21e7fp-56"), ("-0x4.fdd5de9bbabf4p+0", "0xa.ef2f55bf89678p-56"),
    ("-0x5.021a95fc2db64p+0", "-0x3.2a4c56e595394p-56"), ("-0x5.ffa4bd647d034p+0", "-0x1.7dd4ed62cbd32p-52"),
    ("-0x6.005ac9625f234p+0", "0x4.9f83d2692e9c8p-56"), ("-0x6.fff2fddae1bcp+0", "0xc.29d949a3dc03p-60"),
    ("-0x7.000cff7b7f87cp+0", "0x1.20bb7d2324678p-52"), ("-0x7.fffe5fe05673cp+0", "-0x3.ca9e82b522b0cp-56"),
    ("-0x8.0001a01459fc8p+0", "-0x1.f60cb3cec1cedp-52"), ("-0x8.ffffd1c425e8p+0", "-0xf.fc864e9574928p-56"),
    ("-0x9.00002e3bb47d8p+0", "-0x6.d6d843fedc35p-56"), ("-0x9.fffffb606bep+0", "0x2.32f9d51885afap-52"),
    ("-0xa.0000049f93bb8p+0", "-0x1.927b45d95e154p-52"), ("-0xa.ffffff9466eap+0", "0xe.4c92532d5243p-56"),
    ("-0xb.0000006b9915p+0", "-0x3.15d965a6ffea4p-52"), ("-0xb.fffffff708938p+0", "-0x7.387de41acc3d4p-56"),
    ("-0xc.00000008f76c8p+0", "0x8.cea983f0fdafp-56"), ("-0xc.ffffffff4f6ep+0", "0x3.09e80685a0038p-52"),
    ("-0xd.00000000b092p+0", "-0x3.09c06683dd1bap-52"), ("-0xd.fffffffff3638p+0", "0x3.a5461e7b5c1f6p-52"),
    ("-0xe.000000000c9c8p+0", "-0x3.a545e94e75ec6p-52"), ("-0xe.ffffffffff29p+0", "0x3.f9f399fb10cfcp-52"),
    ("-0xf.0000000000d7p+0", "-0x3.f9f399bd0e42p-52"), ("-0xf.fffffffffff28p+0", "-0xc.060c6621f513p-56"),
    ("-0x1.000000000000dp+4", "-0x7.3f9f399da1424p-52"), ("-0x1.0ffffffffffffp+4", "-0x3.569c47e7a93e2p-52"),
    ("-0x1.1000000000001p+4", "0x3.569c47e7a9778p-52"), ("-0x1.2p+4", "0xb.413c31dcbecdp-56"),
    ("-0x1.2p+4", "-0xb.413c31dcbeca8p-56"), ("-0x1.3p+4", "0x9.7a4da340a0ab8p-60"),
    ("-0x1.3p+4", "-0x9.7a4da340a0ab8p-60"), ("-0x1.4p+4", "0x7.950ae90080894p-64"),
    ("-0x1.4p+4", "-0x7.950ae90080894p-64"), ("-0x1.5p+4", "0x5.c6e3bdb73d5c8p-68"),
    ("-0x1.5p+4", "-0x5.c6e3bdb73d5c8p-68"), ("-0x1.6p+4", "0x4.338e5b6dfe14cp-72"),
    ("-0x1.6p+4", "-0x4.338e5b6dfe14cp-72"), ("-0x1.7p+4", "0x2.ec368262c7034p-76"),
    ("-0x1.7p+4", "-0x2.ec368262c7034p-76"), ("-0x1.8p+4", "0x1.f2cf01972f578p-80"),
    ("-0x1.8p+4", "-0x1.f2cf01972f578p-80"), ("-0x1.9p+4", "0x1.3f3ccdd165fa9p-84"),
    ("-0x1.9p+4", "-0x1.3f3ccdd165fa9p-84"), ("-0x1.ap+4", "0xc.4742fe35272dp-92"),
    ("-0x1.ap+4", "-0xc.4742fe35272dp-92"), ("-0x1.bp+4", "0x7.46ac70b733a8cp-96"),
    ("-0x1.bp+4", "-0x7.46ac70b733a8cp-96"), ("-0x1.cp+4", "0x4.2862898d42174p-100"))])
_E_HI, _E_LO = _h("0x2.b7e151628aed2p+0"), _h("0xa.6abf7158809dp-56")
_STIRLING = tuple(_h(c) for c in (
    "0x1.5555555555555p-4", "-0xb.60b60b60b60b8p-12", "0x3.4034034034034p-12", "-0x2.7027027027028p-12",
    "0x3.72a3c5631fe46p-12", "-0x7.daac36664f1f4p-12", "0x1.a41a41a41a41ap-8", "-0x7.90a1b2c3d4e6p-8",
    "0x2.dfd2c703c0dp-4", "-0x1.6476701181f3ap+0", "0xd.672219167003p+0", "-0x9.cd9292e6660d8p+4"))
_POLY = tuple(tuple(_h(c) for c in group.split()) for group in (
    """-0x1.0b71c5c54d42fp+0 -0xc.73a1dc05f3758p-4 -0x1.ec84140851911p-4 -0xe.37c9da23847e8p-4
    -0x1.03cd87cdc0ac6p-4 -0xe.ae9aedce12eep-4 0x9.b11a1780cfd48p-8 -0xe.f25fc460bdebp-4 0x2.6e984c61ca912p-4
    -0xf.83fea1c6d35p-4 0x4.760c8c8909758p-4""",
    """-0xf.2930890d7d678p-4 -0xc.a5cfde054eaa8p-4 0x3.9c9e0fdebd99cp-4 -0x1.02a5ad35619d9p+0
    0x9.6e9b1167c164p-4 -0x1.4d8332eba090ap+0 0x1.1c0c94b1b2b6p+0 -0x1.c9a70d138c74ep+0 0x1.d7d9cf1d4c196p+0
    -0x2.91fbf4cd6abacp+0 0x2.f6751f74b8ff8p+0 -0x3.e1bb7b09e3e76p+0""",
    """-0xd.7d28d505d618p-4 -0xe.69649a3040958p-4 0xb.0d74a2827cd6p-4 -0x1.924b09228a86ep+0
    0x1.d49b12bcf6175p+0 -0x3.0898bb530d314p+0 0x4.207a6be8fda4cp+0 -0x6.39eef56d4e9p+0 0x8.e2e42acbccec8p+0
    -0xd.0d91c1e596a68p+0 0x1.2e20d7099c585p+4 -0x1.c4eb6691b4ca9p+4 0x2.96a1a11fd85fep+4""",
    """-0xb.74ea1bcfff948p-4 -0x1.2a82bd590c376p+0 0x1.88020f828b81p+0 -0x3.32279f040d7aep+0
    0x5.57ac8252ce868p+0 -0x9.c2aedd093125p+0 0x1.12c132716e94cp+4 -0x1.ea94dfa5c0a6dp+4 0x3.66b61abfe858cp+4
    -0x6.0cfceb62a26e4p+4 0xa.beeba09403bd8p+4 -0x1.3188d9b1b288cp+8 0x2.37f774dd14c44p+8 -0x3.fdf0a64cd7136p+8""",
    """-0x3.d10108c27ebbp-4 0x1.cd557caff7d2fp+0 0x3.819b4856d36cep+0 0x6.8505cbacfc42p+0 0xb.c1b2e6567a4dp+0
    0x1.50a53a3ce6c73p+4 0x2.57adffbb1ec0cp+4 0x4.2b15549cf400cp+4 0x7.698cfd82b3e18p+4 0xd.2decde217755p+4
    0x1.7699a624d07b9p+8 0x2.98ecf617abbfcp+8 0x4.d5244d44d60b4p+8 0x8.e962bf7395988p+8""",
    """-0x6.b5d252a56e8a8p-4 0x1.28d60383da3a6p+0 0x1.db6513ada89bep+0 0x2.e217118fa8c02p+0
    0x4.450112c651348p+0 0x6.4af990f589b8cp+0 0x9.2db5963d7a238p+0 0xd.62c03647da19p+0 0x1.379f81f6416afp+4
    0x1.c5618b4fdb96p+4 0x2.9342d0af2ac4ep+4 0x3.d9cdf56d2b186p+4 0x5.ab9f91d5a27a4p+4""",
    """-0x8.a41b1e4f36ff8p-4 0xc.da87d3b69dbe8p-4 0x1.1474ad5c36709p+0 0x1.761ecb90c8c5cp+0
    0x1.d279bff588826p+0 0x2.4e5d003fb36a8p+0 0x2.d575575566842p+0 0x3.85152b0d17756p+0 0x4.5213d921ca13p+0
    0x5.55da7dfcf69c4p+0 0x6.acef729b9404p+0 0x8.483cc21dd0668p+0""",
    """-0xa.046d667e468f8p-4 0x9.70b88dcc006cp-4 0xa.a8a39421c94dp-4 0xd.2f4d1363f98ep-4 0xd.ca9aa19975b7p-4
    0xf.cf09c2f54404p-4 0x1.04b1365a9adfcp+0 0x1.22b54ef213798p+0 0x1.2c52c25206bf5p+0 0x1.4aa3d798aace4p+0
    0x1.5c3f278b504e3p+0 0x1.7e08292cc347bp+0"""))
#: each interval's polynomial padded with zeros to one length (highest degree first for Horner)
_POLY_DEG = np.array([len(p) - 1 for p in _POLY])
_POLY_TABLE = np.array([list(reversed(p)) + [0.0] * (14 - len(p)) for p in _POLY])


def log(x):
    """glibc's log, element by element through Python's math module (libm's own)."""
    return _log_each(x)


def each(fn, np_fn):
    """fn (a math-module function: libm's double one) over an array, element by element; numpy's
    answer where math refuses (a pole, an infinity)."""
    def one(v):
        try:
            return fn(v)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(np_fn(v))
    vec = np.frompyfunc(one, 1, 1)

    def run(x):
        x = np.asarray(x, _F64)
        return np.asarray(vec(x), dtype=object).astype(_F64) if x.size else x.copy()
    return run


_log1p_each = each(math.log1p, np.log1p)
_log_each = each(math.log, np.log)


def log1p(x):
    """glibc's log1p (fdlibm's: not correctly rounded), element by element through Python's math."""
    return _log1p_each(x)


def _hi_word(x):
    return (x.view(np.int64) >> 32).astype(np.int64) & 0x7FFFFFFF


def _two_prod(a, b):
    """mul_split: a * b as hi + lo exactly (Dekker's splitting)."""
    p = a * b
    ta = 134217729.0 * a
    ah = ta - (ta - a)
    al = a - ah
    tb = 134217729.0 * b
    bh = tb - (tb - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _sin_pi(x):
    """fdlibm's sin_pi(x) for negative x: sin(pi * x) reduced by |x| mod 2, signed."""
    ix = _hi_word(x)
    small = ix < 0x3FD00000
    y = -x
    z = np.floor(y)
    frac = z != y
    yh = y * 0.5
    yr = 2.0 * (yh - np.floor(yh))
    n = np.where(frac, (yr * 4.0).astype(np.int64) if yr.size else yr.astype(np.int64), 0)
    # an integer: y is its parity (0 or 1), n four times that (2**52 and beyond: even)
    parity = np.where(ix >= 0x43400000, 0, np.fmod(np.where(ix < 0x43400000, z, 0.0), 2.0)).astype(np.int64)
    y = np.where(frac, yr, parity.astype(_F64))
    n = np.where(frac, n, parity << 2)
    r = np.where(n == 0, np.sin(_PI * y),
                 np.where(n <= 2, np.cos(_PI * (0.5 - y)),
                          np.where(n <= 4, np.sin(_PI * (1.0 - y)),
                                   np.where(n <= 6, -np.cos(_PI * (y - 1.5)), np.sin(_PI * (y - 2.0))))))
    return np.where(small, np.sin(_PI * x), -r)


def _positive(x):
    """e_lgamma_r's result for 2**-70 <= x (finite), without the reflection."""
    ix = _hi_word(x)
    lx = x.view(np.int64) & 0xFFFFFFFF
    r = np.zeros_like(x)
    with np.errstate(all="ignore"):
        below2 = ix < 0x40000000
        small = ix <= 0x3FECCCCC
        y = np.where(small, np.where(ix >= 0x3FE76944, 1.0 - x, np.where(ix >= 0x3FCDA661, x - (_TC - 1.0), x)),
                     np.where(ix >= 0x3FFBB4C3, 2.0 - x, np.where(ix >= 0x3FF3B4C4, x - _TC, x - 1.0)))
        case = np.where(small, np.where(ix >= 0x3FE76944, 0, np.where(ix >= 0x3FCDA661, 1, 2)),
                        np.where(ix >= 0x3FFBB4C3, 0, np.where(ix >= 0x3FF3B4C4, 1, 2)))
        r0 = np.where(small, -log(x), 0.0)
        a = _A
        z = y * y
        p1 = a[0] + z * (a[2] + z * (a[4] + z * (a[6] + z * (a[8] + z * a[10]))))
        p2 = z * (a[1] + z * (a[3] + z * (a[5] + z * (a[7] + z * (a[9] + z * a[11])))))
        c0 = r0 + ((y * p1 + p2) - 0.5 * y)
        t = _T
        w = z * y
        q1 = t[0] + w * (t[3] + w * (t[6] + w * (t[9] + w * t[12])))
        q2 = t[1] + w * (t[4] + w * (t[7] + w * (t[10] + w * t[13])))
        q3 = t[2] + w * (t[5] + w * (t[8] + w * (t[11] + w * t[14])))
        c1 = r0 + (_TF + (z * q1 - (_TT - w * (q2 + y * q3))))
        u, v = _U, _V
        s1 = y * (u[0] + y * (u[1] + y * (u[2] + y * (u[3] + y * (u[4] + y * u[5])))))
        s2 = 1.0 + y * (v[1] + y * (v[2] + y * (v[3] + y * (v[4] + y * v[5]))))
        c2 = r0 + (-0.5 * y + s1 / s2)
        low = np.where(case == 0, c0, np.where(case == 1, c1, c2))
        one_or_two = (((ix - 0x3FF00000) | lx) == 0) | (((ix - 0x40000000) | lx) == 0)
        low = np.where(one_or_two, 0.0, low)
        # 2 <= x < 8: lgamma(2 + s) by a rational function, then log of the product (s+2)...(s+i-1)
        mid = ~below2 & (ix < 0x40200000)
        xi = np.where(mid, x, 2.0)
        i = np.trunc(xi)
        y = xi - i
        s, q = _S, _R
        p = y * (s[0] + y * (s[1] + y * (s[2] + y * (s[3] + y * (s[4] + y * (s[5] + y * s[6]))))))
        qq = 1.0 + y * (q[1] + y * (q[2] + y * (q[3] + y * (q[4] + y * (q[5] + y * q[6])))))
        rm = 0.5 * y + p / qq
        zp = np.ones_like(x)
        for k in (7, 6, 5, 4, 3):
            zp = np.where(i >= k, zp * (y + (k - 1.0)), zp)
        rm = np.where(i >= 3, rm + log(zp), rm)
        # 8 <= x < 2**58: Stirling's series; beyond, x (log x - 1)
        big = ix >= 0x40200000
        xb = np.where(big, x, 8.0)
        lt = log(xb)
        zz = 1.0 / xb
        yy = zz * zz
        wq = _W
        ww = wq[0] + zz * (wq[1] + yy * (wq[2] + yy * (wq[3] + yy * (wq[4] + yy * (wq[5] + yy * wq[6])))))
        rb = np.where(ix < 0x43900000, (xb - 0.5) * (lt - 1.0) + ww, xb * (lt - 1.0))
        r = np.where(below2, low, np.where(mid, rm, rb))
    return r


def _lgamma_product(t, x, x_eps, n):
    """lgamma_product: prod over i < n of (1 + t / (x + x_eps + i)), minus 1, as a double pair."""
    ret = np.zeros_like(t)
    ret_eps = np.zeros_like(t)
    for i in range(int(n.max()) if n.size else 0):
        on = i < n
        xi = x + i
        quot = t / xi
        mhi, mlo = _two_prod(quot, xi)
        quot_lo = (t - mhi - mlo) / xi - t * x_eps / (xi * xi)
        rhi, rlo = _two_prod(ret, quot)
        rpq = ret + quot
        rpq_eps = (ret - rpq) + quot
        nret = rpq + rhi
        nret_eps = (rpq - nret) + rhi
        new_eps = ret_eps + (rpq_eps + nret_eps + rlo + ret_eps * quot + quot_lo + quot_lo * (ret + ret_eps))
        ret_eps = np.where(on, new_eps, ret_eps)
        ret = np.where(on, nret, ret)
    return ret + ret_eps


def _lg_sinpi(x):
    return np.where(x <= 0.25, np.sin(np.pi * x), np.cos(np.pi * (0.5 - x)))


def _lg_cospi(x):
    return np.where(x <= 0.25, np.cos(np.pi * x), np.sin(np.pi * (0.5 - x)))


def _lgamma_neg(x):
    """glibc's lgamma_neg: lgamma of -28 < x < -2 expanded around the zero of lgamma in x's
    half-integer interval (x not an integer)."""
    i = np.floor(-2.0 * x).astype(np.int64)
    xn = np.where(i & 1 == 0, -i // 2, (-i - 1) // 2).astype(_F64)
    i = i - 4
    x0_hi = _ZEROS[i, 0]
    x0_lo = _ZEROS[i, 1]
    xdiff = x - x0_hi - x0_lo
    # -3 < x < -2: a polynomial for the adjusted gamma function
    j = np.clip(np.floor(-8.0 * x).astype(np.int64) - 16, 0, 7)
    xm = (-33 - 2 * j) * 0.0625
    x_adj = x - xm
    coeffs = _POLY_TABLE[j]
    deg = _POLY_DEG[j]
    g = coeffs[:, 0].copy()
    for k in range(1, 14):
        g = np.where(k <= deg, g * x_adj + coeffs[:, k], g)
    near = log1p(g * xdiff / (x - xn))
    # else: log(sinpi(x0) / sinpi(x)) + log(gamma(1 - x0) / gamma(1 - x))
    x_idiff = np.abs(xn - x)
    x0_idiff = np.abs(xn - x0_hi - x0_lo)
    by_log = log(_lg_sinpi(x0_idiff) / _lg_sinpi(x_idiff))
    x0diff2 = np.where(i & 1 == 0, xdiff, -xdiff) * 0.5
    sx0d2 = _lg_sinpi(x0diff2)
    cx0d2 = _lg_cospi(x0diff2)
    cot = _lg_cospi(x_idiff) / _lg_sinpi(x_idiff)
    by_log1p = log1p(2 * sx0d2 * (-sx0d2 + cx0d2 * cot))
    log_sinpi_ratio = np.where(x0_idiff < x_idiff * 0.5, by_log, by_log1p)
    y0 = 1 - x0_hi
    y0_eps = -x0_hi + (1 - y0) - x0_lo
    y = 1 - x
    y_eps = -x + (1 - y)
    n_up = np.where(i < 6, (7 - i) // 2, 0)
    up = n_up.astype(_F64)
    ny0 = y0 + up
    y0_eps = y0 - (ny0 - up) + y0_eps
    y0 = ny0
    ny = y + up
    y_eps = y - (ny - up) + y_eps
    y = ny
    prodm1 = _lgamma_product(xdiff, y - up, y_eps, n_up)
    log_gamma_adj = np.where(i < 6, -log1p(prodm1), 0.0)
    log_gamma_high = (xdiff * log1p((y0 - _E_HI - _E_LO + y0_eps) / _E_HI)
                      + (y - 0.5 + y_eps) * log1p(xdiff / y) + log_gamma_adj)
    y0r = 1 / y0
    yr = 1 / y
    y0r2 = y0r * y0r
    yr2 = yr * yr
    rdiff = -xdiff / (y * y0)
    dlast = rdiff
    elast = rdiff * yr * (yr + y0r)
    bterm = [dlast * _STIRLING[0]]
    for c in _STIRLING[1:]:
        dnext = dlast * y0r2 + elast
        elast = elast * yr2
        bterm.append(dnext * c)
        dlast = dnext
    low = np.zeros_like(x)
    for b in reversed(bterm):
        low = low + b
    far = log_sinpi_ratio + (log_gamma_high + low)
    return np.where(i < 2, near, far)


def lgamma64(a):
    """glibc's lgamma of a float64 array."""
    x = np.asarray(a, _F64)
    shape = x.shape
    x = x.reshape(-1)
    out = np.empty_like(x)
    with np.errstate(all="ignore"):
        ix = _hi_word(x)
        done = np.zeros(x.shape, bool)
        nonfinite = ix >= 0x7FF00000
        out[nonfinite] = x[nonfinite] * x[nonfinite]
        done |= nonfinite
        zero = ~done & (x == 0)
        out[zero] = np.inf
        done |= zero
        tiny = ~done & (ix < 0x3B900000)
        out[tiny] = -log(np.abs(x[tiny]))
        done |= tiny
        neg = ~done & (x < 0)
        huge = neg & (ix >= 0x43300000)
        out[huge] = np.inf
        done |= huge
        mid_neg = neg & ~huge & (x < -2.0) & (x > -28.0)
        if mid_neg.any():
            xm = x[mid_neg]
            whole = np.floor(-2.0 * xm) == -2.0 * xm
            whole &= np.floor(-2.0 * xm).astype(np.int64) & 1 == 0
            res = np.full(xm.shape, np.inf)
            if (~whole).any():
                res[~whole] = _lgamma_neg(xm[~whole])
            out[mid_neg] = res
        done |= mid_neg
        refl = neg & ~done
        rest = ~done
        xs = x[rest]
        r = np.empty_like(xs)
        if xs.size:
            negs = refl[rest]
            t = _sin_pi(np.where(negs, xs, -1.5))
            nadj = log(_PI / np.abs(t * xs))
            r = _positive(np.abs(xs))
            r = np.where(negs, np.where(t == 0, np.inf, nadj - r), r)
        out[rest] = r
    return out.reshape(shape)
