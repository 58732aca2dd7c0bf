"""``Vectorized<double>::lgamma`` of PyTorch's AVX2 build: Sleef's ``lgammad4_u10`` (torch.lgamma's
kernel at every size and layout: at::vml's lgamma maps the vector code over the whole buffer).

Sleef's ``gammak`` gives log Gamma as a double-double sum ``clc`` plus the log of a double-double
ratio ``clln / clld``: for x >= 2.3 Stirling's series (a degree-22 polynomial in 1/x) after
shifting x below 7 up by 5 with the product x(x+1)...(x+4); between 0.5 and 1.1 and elsewhere
below 2.3, polynomials about 1 and 2; below 0.5 the reflection formula with sin(pi x) as a
double-double (``sinpik``). ``logk2`` is the log of a double-double. The steps of the AVX2 build
(every multiply-add Sleef writes fused), so the values are Sleef's bit for bit.
"""

from __future__ import annotations

import numpy as np

from ._sleef import (_dd_add2_dd_d, _dd_add2_dd_dd, _dd_add_dd_dd, _dd_div, _dd_mul_dd_d, _dd_mul_dd_dd, _dd_squ,
                     _fma)

_F64 = np.float64


def _dd_add2_d_d(x, y):  # ddadd2_vd2_vd_vd
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _dd_add2_d_dd(x, y):  # ddadd2_vd2_vd_vd2
    s = x + y[0]
    v = s - x
    return s, (x - (s - v)) + (y[0] - v) + y[1]


def _dd_mul_d_d(x, y):  # ddmul_vd2_vd_vd
    s = x * y
    return s, _fma(x, y, -s)


def _dd_normalize(x):
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def _sel(o, a, b):
    return np.where(o, a[0], b[0]), np.where(o, a[1], b[1])


def _ilogb(d):
    """vilogbk_vi_vd: the exponent of a positive normal d (tiny ones scaled first)."""
    _, e = np.frexp(d)
    return e.astype(np.int64) - 1


def logk2(d):
    """Sleef's logk2: log of a double-double (positive)."""
    e = _ilogb(d[0] * (1.0 / 0.75))
    m = (np.ldexp(d[0], -e), np.ldexp(d[1], -e))
    x = _dd_div(_dd_add2_dd_d(m, -1.0), _dd_add2_dd_d(m, 1.0))
    x2 = _dd_squ(x)
    t = np.full_like(x2[0], 0.13860436390467167910856)
    for c in (0.131699838841615374240845, 0.153914168346271945653214, 0.181816523941564611721589,
              0.22222224632662035403996, 0.285714285511134091777308, 0.400000000000914013309483,
              0.666666666666664853302393):
        t = _fma(t, x2[0], c)
    ln2 = _dd_mul_dd_d((np.full_like(t, 0.693147180559945286226764), np.full_like(t, 2.319046813846299558417771e-17)),
                       e.astype(_F64))
    return _dd_add2_dd_dd(ln2, _dd_add2_dd_dd((x[0] * 2, x[1] * 2), _dd_mul_dd_d(_dd_mul_dd_dd(x2, x), t)))


_SINPI_A = ((9.94480387626843774090208e-16, -2.02461120785182399295868e-14),
            (-3.89796226062932799164047e-13, 6.948218305801794613277840e-12),
            (1.150115825399960352669010e-10, -1.75724749952853179952664e-09),
            (-2.46113695010446974953590e-08, 3.133616889668683928784220e-07),
            (3.590860448590527540050620e-06, -3.65762041821615519203610e-05),
            (-0.000325991886927389905997954, 0.0024903945701927185027435600))


def sinpik(d):
    """Sleef's sinpik: sin(pi d) as a double-double."""
    u = d * 4.0
    q = (np.rint(u + 0.5).astype(np.int64)) & ~1
    o = (q & 2) == 2
    s = u - q.astype(_F64)
    t = s
    s = s * s
    s2 = _dd_mul_d_d(t, t)
    u = np.where(o, _SINPI_A[0][0], _SINPI_A[0][1])
    for a, b in _SINPI_A[1:]:
        u = _fma(u, s, np.where(o, a, b))
    x = _dd_add2_d_dd(u * s, (np.where(o, 0.0158543442438155018914259, -0.0807455121882807852484731),
                              np.where(o, -1.04693272280631521908845e-18, 3.61852475067037104849987e-18)))
    x = _dd_add2_dd_dd(_dd_mul_dd_dd(s2, x), (np.where(o, -0.308425137534042437259529, 0.785398163397448278999491),
                                               np.where(o, -1.95698492133633550338345e-17, 3.06287113727155002607105e-17)))
    x = _dd_mul_dd_dd(x, _sel(o, s2, (t, np.zeros_like(t))))
    x = _sel(o, _dd_add2_dd_d(x, 1.0), x)
    neg = (q & 4) == 4
    return np.where(neg, -x[0], x[0]), np.where(neg, -x[1], x[1])


# gammak's polynomial: (x >= 2.3, 0.5 <= x <= 1.1, otherwise) coefficients, highest first
_GAMMA_U = (
    (-156.801412704022726379848862, +0.2947916772827614196e+2, +0.7074816000864609279e-7),
    (+1.120804464289911606838558160000, +0.1281459691827820109e+3, +0.4009244333008730443e-6),
    (+13.39798545514258921833306020000, +0.2617544025784515043e+3, +0.1040114641628246946e-5),
    (-0.116546276599463200848033357000, +0.3287022855685790432e+3, +0.1508349150733329167e-5),
    (-1.391801093265337481495562410000, +0.2818145867730348186e+3, +0.1288143074933901020e-5),
    (+0.015056113040026424412918973400, +0.1728670414673559605e+3, +0.4744167749884993937e-6),
    (+0.179540117061234856098844714000, +0.7748735764030416817e+2, -0.6554816306542489902e-7),
    (-0.002481743600264997730942489280, +0.2512856643080930752e+2, -0.3189252471452599844e-6),
    (-0.029527880945699120504851034100, +0.5766792106140076868e+1, +0.1358883821470355377e-6),
    (+0.000540164767892604515196325186, +0.7270275473996180571e+0, -0.4343931277157336040e-6),
    (+0.006403362833808069794787256200, +0.8396709124579147809e-1, +0.9724785897406779555e-6),
    (-0.000162516262783915816896611252, -0.8211558669746804595e-1, -0.2036886057225966011e-5),
    (-0.001914438498565477526465972390, +0.6828831828341884458e-1, +0.4373363141819725815e-5),
    (+7.20489541602001055898311517e-05, -0.7712481339961671511e-1, -0.9439951268304008677e-5),
    (+0.000839498720672087279971000786, +0.8337492023017314957e-1, +0.2050727030376389804e-4),
    (-5.17179090826059219329394422e-05, -0.9094964931456242518e-1, -0.4492620183431184018e-4),
    (-0.000592166437353693882857342347, +0.1000996313575929358e+0, +0.9945751236071875931e-4),
    (+6.97281375836585777403743539e-05, -0.1113342861544207724e+0, -0.2231547599034983196e-3),
    (+0.000784039221720066627493314301, +0.1255096673213020875e+0, +0.5096695247101967622e-3),
    (-0.000229472093621399176949318732, -0.1440498967843054368e+0, -0.1192753911667886971e-2),
    (-0.002681327160493827160473958490, +0.1695571770041949811e+0, +0.2890510330742210310e-2),
    (+0.003472222222222222222175164840, -0.2073855510284092762e+0, -0.7385551028674461858e-2),
    (+0.083333333333333333335592087900, +0.2705808084277815939e+0, +0.2058080842778455335e-1))


def _gammak(a):
    """Sleef's gammak: (clc, clln / clld) as double-doubles, log Gamma(a) = clc + log|clln / clld|."""
    zero = np.zeros_like(a)
    otiny = np.abs(a) < 1e-306
    oref = a < 0.5
    x = _sel(otiny, (zero, zero), _sel(oref, _dd_add2_d_d(np.ones_like(a), -a), (a, zero)))
    o0 = (0.5 <= x[0]) & (x[0] <= 1.1)
    o2 = 2.3 <= x[0]
    y = _dd_normalize(_dd_mul_dd_dd(_dd_add2_dd_d(x, 1.0), x))
    for k in (2.0, 3.0, 4.0):
        y = _dd_normalize(_dd_mul_dd_dd(_dd_add2_dd_d(x, k), y))
    o = o2 & (x[0] <= 7)
    clln = _sel(o, y, (np.ones_like(a), zero))
    x = _sel(o, _dd_add2_dd_d(x, 5.0), x)
    t = np.where(o2, 1.0 / x[0], _dd_normalize(_dd_add2_dd_d(x, np.where(o0, -1.0, -2.0)))[0])
    u = np.where(o2, _GAMMA_U[0][0], np.where(o0, _GAMMA_U[0][1], _GAMMA_U[0][2]))
    for c2, c0, c in _GAMMA_U[1:]:
        u = _fma(u, t, np.where(o2, c2, np.where(o0, c0, c)))
    y = _dd_mul_dd_dd(_dd_add2_dd_d(x, -0.5), logk2(x))
    y = _dd_add2_dd_dd(y, (-x[0], -x[1]))
    y = _dd_add2_dd_dd(y, (np.full_like(a, 0.91893853320467278056), np.full_like(a, -3.8782941580672414498e-17)))
    z = _dd_add2_dd_d(_dd_mul_d_d(u, t), np.where(o0, -0.4006856343865314862e+0, -0.6735230105319810201e-1))
    z = _dd_add2_dd_d(_dd_mul_dd_d(z, t), np.where(o0, +0.8224670334241132030e+0, +0.3224670334241132030e+0))
    z = _dd_add2_dd_d(_dd_mul_dd_d(z, t), np.where(o0, -0.5772156649015328655e+0, +0.4227843350984671345e+0))
    z = _dd_mul_dd_d(z, t)
    clc = _sel(o2, y, z)
    clld = _sel(o2, _dd_add2_dd_d(_dd_mul_d_d(u, t), 1.0), (np.ones_like(a), zero))
    y = clln
    log_pi = (np.full_like(a, 1.1447298858494001639), np.full_like(a, 1.026595116270782638e-17))
    clc = _sel(otiny, (np.full_like(a, 83.1776616671934334590333), np.full_like(a, 3.67103459631568507221878e-15)),
               _sel(oref, _dd_add2_dd_dd(log_pi, (-clc[0], -clc[1])), clc))
    clln = _sel(otiny, (np.ones_like(a), zero), _sel(oref, clln, clld))
    scaled = a * (1.0 / (1 << 28))
    whole = np.where(np.abs(scaled) < 2.0 ** 31, np.trunc(scaled), -2.0 ** 31)  # (cvttpd2dq)
    tt = a - (1 << 28) * whole
    x = _dd_mul_dd_dd(clld, sinpik(tt))
    clld = _sel(otiny, (a * float((1 << 60) * (1 << 60)), zero), _sel(oref, x, y))
    return clc, _dd_div(clln, clld)


def sleef_lgamma(a):
    """Sleef's lgammad4_u10 of a float64 array, bit for bit."""
    a = np.asarray(a, _F64)
    shape = a.shape
    a = a.reshape(-1)
    with np.errstate(all="ignore"):
        clc, ratio = _gammak(a)
        absr = (np.abs(ratio[0]), np.where(np.signbit(ratio[0]), -ratio[1], ratio[1]))
        y = _dd_add2_dd_dd(clc, logk2(absr))
        r = y[0] + y[1]
        bad = np.isinf(a) | ((a <= 0) & (a == np.trunc(a))) | (np.isfinite(a) & np.isnan(r))
        r = np.where(bad, np.inf, r)
    return r.reshape(shape)


# ---------------------------------------------------------------------------
# float32: Sleef's lgammaf8_u10 (gammafk in float pairs, Vectorized<float>::lgamma and float16's)
# ---------------------------------------------------------------------------

_F32 = np.float32


def _pair(d):
    """vcast_vf2_d: a double constant as a float pair."""
    hi = _F32(d)
    return hi, _F32(d - float(hi))


def _full(like, v):
    return np.full(like.shape, v, _F32)


def _sel3(o2, o0, a, b, c):
    return np.where(o2, _F32(a), np.where(o0, _F32(b), _F32(c)))


def logk2f(d):
    """Sleef's logk2f: log of a float pair (positive)."""
    _, e = np.frexp(d[0] * _F32(1.0 / 0.75))
    e = e.astype(np.int64) - 1
    m = (np.ldexp(d[0], -e).astype(_F32), np.ldexp(d[1], -e).astype(_F32))
    x = _dd_div(_dd_add2_dd_d(m, _F32(-1)), _dd_add2_dd_d(m, _F32(1)))
    x2 = _dd_squ(x)
    t = _full(x2[0], 0.2392828464508056640625)
    for c in (0.28518211841583251953125, 0.400005877017974853515625, 0.666666686534881591796875):
        t = _fma(t, x2[0], _full(t, c))
    s = _dd_mul_dd_d((_full(t, 0.69314718246459960938), _full(t, -1.904654323148236017e-09)), e.astype(_F32))
    s = _dd_add_dd_dd(s, (x[0] * _F32(2), x[1] * _F32(2)))
    return _dd_add_dd_dd(s, _dd_mul_dd_d(_dd_mul_dd_dd(x2, x), t))


def sinpifk(d):
    """Sleef's sinpifk: sin(pi d) as a float pair."""
    u = d * _F32(4)
    q = np.trunc(u).astype(np.int64)
    q = (q + np.where(q < 0, 0, 1)) & ~1
    o = (q & 2) == 2
    s = u - q.astype(_F32)
    t = s
    s = s * s
    s2 = _dd_mul_d_d(t, t)
    u = np.where(o, _F32(-0.2430611801e-7), _F32(+0.3093842054e-6))
    u = _fma(u, s, np.where(o, _F32(+0.3590577080e-5), _F32(-0.3657307388e-4)))
    u = _fma(u, s, np.where(o, _F32(-0.3259917721e-3), _F32(+0.2490393585e-2)))
    x = _dd_add2_d_dd(u * s, (np.where(o, _F32(0.015854343771934509277), _F32(-0.080745510756969451904)),
                              np.where(o, _F32(4.4940051354032242811e-10), _F32(-1.3373665339076936258e-09))))
    x = _dd_add2_dd_dd(_dd_mul_dd_dd(s2, x), (np.where(o, _F32(-0.30842512845993041992), _F32(0.78539818525314331055)),
                                               np.where(o, _F32(-9.0728339030733922277e-09), _F32(-2.1857338617566484855e-08))))
    x = _dd_mul_dd_dd(x, _sel(o, s2, (t, np.zeros_like(t))))
    x = _sel(o, _dd_add2_dd_d(x, _F32(1)), x)
    neg = (q & 4) == 4
    return np.where(neg, -x[0], x[0]), np.where(neg, -x[1], x[1])


_GAMMAF_U = (
    (+0.000839498720672087279971000786, +0.9435157776e+0, +0.1102489550e-3),
    (-5.17179090826059219329394422e-05, +0.8670063615e+0, +0.8160019934e-4),
    (-0.000592166437353693882857342347, +0.4826702476e+0, +0.1528468856e-3),
    (+6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (+0.000784039221720066627493314301, +0.1013825238e+0, +0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e+0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, +0.1697509140e+0, +0.2891599433e-2),
    (+0.003472222222222222222175164840, -0.2072454542e+0, -0.7385451812e-2),
    (+0.083333333333333333335592087900, +0.2705872357e+0, +0.2058077045e-1))


def _gammafk(a):
    zero = np.zeros_like(a)
    one = np.ones_like(a)
    otiny = np.abs(a) < _F32(1e-30)
    oref = a < _F32(0.5)
    x = _sel(otiny, (zero, zero), _sel(oref, _dd_add2_d_d(one, -a), (a, zero)))
    o0 = (_F32(0.5) <= x[0]) & (x[0] <= _F32(1.2))
    o2 = _F32(2.3) <= x[0]
    y = _dd_normalize(_dd_mul_dd_dd(_dd_add2_dd_d(x, _F32(1)), x))
    y = _dd_normalize(_dd_mul_dd_dd(_dd_add2_dd_d(x, _F32(2)), y))
    o = o2 & (x[0] <= _F32(7))
    clln = _sel(o, y, (one, zero))
    x = _sel(o, _dd_add2_dd_d(x, _F32(3)), x)
    t = np.where(o2, _F32(1) / x[0], _dd_normalize(_dd_add2_dd_d(x, np.where(o0, _F32(-1), _F32(-2))))[0])
    u = _sel3(o2, o0, *_GAMMAF_U[0])
    for c in _GAMMAF_U[1:]:
        u = _fma(u, t, _sel3(o2, o0, *c))
    y = _dd_mul_dd_dd(_dd_add2_dd_d(x, _F32(-0.5)), logk2f(x))
    y = _dd_add2_dd_dd(y, (-x[0], -x[1]))
    y = _dd_add2_dd_dd(y, tuple(_full(a, v) for v in _pair(0.91893853320467278056)))
    z = _dd_add2_dd_d(_dd_mul_d_d(u, t), np.where(o0, _F32(-0.400686534596170958447352690395e+0),
                                                  _F32(-0.673523028297382446749257758235e-1)))
    z = _dd_add2_dd_d(_dd_mul_dd_d(z, t), np.where(o0, _F32(+0.822466960142643054450325495997e+0),
                                                   _F32(+0.322467033928981157743538726901e+0)))
    z = _dd_add2_dd_d(_dd_mul_dd_d(z, t), np.where(o0, _F32(-0.577215665946766039837398973297e+0),
                                                   _F32(+0.422784335087484338986941629852e+0)))
    z = _dd_mul_dd_d(z, t)
    clc = _sel(o2, y, z)
    clld = _sel(o2, _dd_add2_dd_d(_dd_mul_d_d(u, t), _F32(1)), (one, zero))
    y = clln
    log_pi = tuple(_full(a, v) for v in _pair(1.1447298858494001639))
    clc = _sel(otiny, tuple(_full(a, v) for v in _pair(41.58883083359671856503)),
               _sel(oref, _dd_add2_dd_dd(log_pi, (-clc[0], -clc[1])), clc))
    clln = _sel(otiny, (one, zero), _sel(oref, clln, clld))
    scaled = a * _F32(1.0 / (1 << 12))
    whole = np.where(np.abs(scaled) < 2.0 ** 31, np.trunc(scaled), _F32(-2.0 ** 31)).astype(_F32)
    tt = a - _F32(1 << 12) * whole
    x = _dd_mul_dd_dd(clld, sinpifk(tt))
    clld = _sel(otiny, (a * _F32((1 << 30) * float(1 << 30)), zero), _sel(oref, x, y))
    return clc, _dd_div(clln, clld)


def sleef_lgammaf(a):
    """Sleef's lgammaf8_u10 of a float32 array, bit for bit."""
    a = np.asarray(a, _F32)
    shape = a.shape
    a = a.reshape(-1)
    with np.errstate(all="ignore"):
        clc, ratio = _gammafk(a)
        absr = (np.abs(ratio[0]), np.where(np.signbit(ratio[0]), -ratio[1], ratio[1]))
        y = _dd_add2_dd_dd(clc, logk2f(absr))
        r = y[0] + y[1]
        bad = np.isinf(a) | ((a <= 0) & (a == np.trunc(a))) | (np.isfinite(a) & np.isnan(r))
        r = np.where(bad, _F32(np.inf), r)
    return r.astype(_F32, copy=False).reshape(shape)
