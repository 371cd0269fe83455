# Prints the rows of complex_extremes_test_cases.h: expected values of
# complex functions at extreme operands, from mpmath at 4000 bits, rounded
# to the part type; signed zeros on branch cuts become offsets of 1e-1000
# to the side they name; values at infinite, NaN and zero operands are
# given by hand. Run: python3 complex_extremes_test_cases.py, then paste the
# rows into the header's table and clang-format it.
import math, struct, sys
from mpmath import mp, mpf, mpc
mp.prec = 4000
INF = float('inf'); NAN = float('nan')
DMAX = sys.float_info.max
FMAX = struct.unpack('<f', struct.pack('<I', 0x7f7fffff))[0]
def f32(v): return struct.unpack('<f', struct.pack('<f', v))[0] if math.isfinite(v) and abs(v) <= FMAX else (v if not math.isfinite(v) else math.copysign(INF, v))
def r32(v):
    try: return f32(float(v))
    except OverflowError: return math.copysign(INF, v)
def side(v):
    if v == 0: return mpf('-1e-1000') if math.copysign(1, v) < 0 else mpf('1e-1000')
    return mpf(v)
def cz(x, y): return mpc(side(x), side(y))
third = mpf(1)/3
F = {
 'log-plus-one': lambda z: mp.log(1 + z),
 'exponential-minus-one': lambda z: mp.expm1(z),
 'exponential': mp.exp, 'log': mp.log, 'sqrt': mp.sqrt,
 'rsqrt': lambda z: 1 / mp.sqrt(z), 'cbrt': lambda z: mp.power(z, third),
 'logistic': lambda z: 1 / (1 + mp.exp(-z)),
 'sign': lambda z: z / abs(z), 'tanh': mp.tanh, 'sine': mp.sin,
 'cosine': mp.cos, 'tan': mp.tan, 'asin': mp.asin, 'acos': mp.acos,
 'atanh': mp.atanh, 'asinh': mp.asinh, 'acosh': mp.acosh,
}
def tofloat(v, c64):
    v = float(v) if abs(v) < mpf(DMAX) * 2 else math.copysign(INF, float(mp.sign(v)))
    if abs(v) > DMAX: v = math.copysign(INF, v)
    return r32(v) if c64 else v
def fmt(v):
    if math.isnan(v): return 'kNaN'
    if math.isinf(v): return 'kInf' if v > 0 else '-kInf'
    if v == 0: return '-0.0' if math.copysign(1, v) < 0 else '0.0'
    return repr(v)
rows = []
def case(op, c64, x, y, ulps, w=None, expect=None, modulus=False):
    if c64: x, y = r32(x), r32(y)
    if w is not None and c64: w = (r32(w[0]), r32(w[1]))
    if expect is None:
        z = cz(x, y)
        if op == 'power':
            r = mp.power(z, mpc(side(w[0]) if w[0] != 0 else 0, w[1]))
        else:
            r = F[op](z)
        expect = (tofloat(r.real, c64), tofloat(r.imag, c64))
    u, v = w if w else (0.0, 0.0)
    rows.append('    {"%s", %s, %s, %s, %s, %s, %s, %s, %s, %s},' % (op, 'true' if c64 else 'false',
        fmt(x), fmt(y), fmt(u), fmt(v), fmt(expect[0]), fmt(expect[1]), ulps,
        'true' if modulus else 'false'))
for c64 in (False, True):
    big = 1e20 if c64 else 1e200
    huge = 1e38 if c64 else 1e300
    tiny = 1e-38 if c64 else 1e-300
    M = FMAX if c64 else DMAX
    sub = 1e-45 if c64 else 5e-324
    over = 89.0 if c64 else 710.0
    # log1p
    for z in [(big, big), (huge, huge), (M, M), (-huge, 0.0), (-huge, -0.0), (tiny, tiny),
              (-1.0, 1e-10 if not c64 else 1e-5), (-2.0, 0.0), (-2.0, -0.0), (sub, 0.0), (0.0, sub),
              (1e-5, 1e-5), (-0.5, 0.25)]:
        case('log-plus-one', c64, z[0], z[1], 4)
    case('log-plus-one', c64, INF, 1.0, 0, expect=(INF, 0.0))
    case('log-plus-one', c64, -INF, 1.0, 0, expect=(INF, r32(math.pi) if c64 else math.pi))
    case('log-plus-one', c64, NAN, INF, 0, expect=(INF, NAN))
    case('log-plus-one', c64, 1.0, NAN, 0, expect=(NAN, NAN))
    # expm1
    for z in [(over, 0.0), (over - 1, 1.0), (over, 1.0), (tiny, tiny), (0.0, 1e-20), (1e-10 if not c64 else 1e-4, 1e-5),
              (-huge, 1.0), (2.0, 3.0), (-1e-5, 0.0)]:
        case('exponential-minus-one', c64, z[0], z[1], 4)
    case('exponential-minus-one', c64, INF, 0.0, 0, expect=(INF, 0.0))
    case('exponential-minus-one', c64, -INF, 1.0, 0, expect=(-1.0, 0.0))
    case('exponential-minus-one', c64, -INF, INF, 0, expect=(-1.0, 0.0))
    # exp
    for z in [(over, 1.0), (over - 1, -2.0), (1000.0, 0.0), (-1000.0, 1.0), (-(over + 30), 0.5), (tiny, tiny)]:
        case('exponential', c64, z[0], z[1], 4)
    case('exponential', c64, INF, 0.0, 0, expect=(INF, 0.0))
    case('exponential', c64, -INF, INF, 0, expect=(0.0, 0.0))
    # log
    for z in [(huge, huge), (M, M), (tiny, tiny), (sub, sub), (-huge, 0.0), (-huge, -0.0), (1.0, sub)]:
        case('log', c64, z[0], z[1], 4)
    case('log', c64, 0.0, 0.0, 0, expect=(-INF, 0.0))
    case('log', c64, -0.0, 0.0, 0, expect=(-INF, r32(math.pi) if c64 else math.pi))
    # sqrt
    for z in [(sub, sub), (sub, 0.0), (3 * sub, sub), (tiny, tiny), (-huge, 0.0), (-huge, -0.0), (M, M), (-M, M),
              (-4.0, 0.0), (-4.0, -0.0), (huge, -tiny)]:
        case('sqrt', c64, z[0], z[1], 4)
    case('sqrt', c64, INF, NAN, 0, expect=(INF, NAN))
    case('sqrt', c64, -INF, 1.0, 0, expect=(0.0, INF))
    case('sqrt', c64, 1.0, INF, 0, expect=(INF, INF))
    # rsqrt
    for z in [(huge, huge), (tiny, tiny), (-4.0, 0.0), (-4.0, -0.0), (M, 0.0)]:
        case('rsqrt', c64, z[0], z[1], 4)
    # power
    P = [((huge, huge), (0.5, 0.0)), ((-8.0, 0.0), (1/3, 0.0)), ((2.0, 3.0), (1.5, -0.5)),
         ((-huge, 0.0), (0.5, 0.0)), ((-huge, -0.0), (0.5, 0.0)), ((1e19 if c64 else 1e150, 0.0), (2.0, 0.0)),
         ((tiny, 0.0), (0.5, 0.0)), ((M, M), (0.25, 0.0)), ((1.5, 0.5), (40.0 if c64 else 300.0, 0.0))]
    for z, w in P:
        case('power', c64, z[0], z[1], 16, w=w, modulus=True)
    # cbrt
    for z in [(-8.0, 0.0), (-8.0, -0.0), (huge, huge), (M, M), (sub, 0.0), (-27.0, 0.0), (0.0, 8.0), (tiny, -tiny)]:
        case('cbrt', c64, z[0], z[1], 4)
    case('cbrt', c64, INF, 0.0, 0, expect=(INF, 0.0))
    case('cbrt', c64, 0.0, 0.0, 0, expect=(0.0, 0.0))
    # logistic
    neg = -100.0 if c64 else -720.0
    for z in [(neg, 0.0), (neg, 1.0), (-neg, 1.0), (huge, 0.0), (-huge, 0.0), (0.0, 0.0), (tiny, tiny), (-1.0, 2.0)]:
        case('logistic', c64, z[0], z[1], 4)
    # sign
    for z in [(huge, huge), (M, M), (sub, sub), (tiny, 0.0), (3.0, -4.0), (-M, sub)]:
        case('sign', c64, z[0], z[1], 4)
    case('sign', c64, 0.0, 0.0, 0, expect=(0.0, 0.0))
    case('sign', c64, INF, 1.0, 0, expect=(1.0, 0.0))
    case('sign', c64, -INF, INF, 1, expect=(-r32(0.5**0.5) if c64 else -0.5**0.5, r32(0.5**0.5) if c64 else 0.5**0.5))
    case('sign', c64, -INF, NAN, 0, expect=(NAN, NAN))
    # tanh, sin, cos, tan
    for z in [(huge, 1.0), (-huge, -1.0), (-(40.0 if c64 else 400.0), 1.0), (tiny, tiny), (0.5, 1.5707963), (30.0, 2.0)]:
        case('tanh', c64, z[0], z[1], 4)
    hy = 89.0 if c64 else 711.0
    for op in ('sine', 'cosine'):
        for z in [(1e-5, hy), (1e-5, -hy), (2.0, hy - 2), (tiny, tiny), (0.0, 50.0 if c64 else 500.0), (3.0, 0.0)]:
            case(op, c64, z[0], z[1], 4)
    for z in [(1.0, 40.0 if c64 else 400.0), (tiny, tiny), (1.0, -(40.0 if c64 else 400.0)), (1.5, 1e-10)]:
        case('tan', c64, z[0], z[1], 4)
    # the inverse functions, cuts included
    for op in ('asin', 'acos', 'atanh'):
        for z in [(2.0, 0.0), (2.0, -0.0), (-2.0, 0.0), (-2.0, -0.0), (huge, huge), (tiny, tiny), (-huge, tiny), (0.5, 0.0)]:
            case(op, c64, z[0], z[1], 4)
    for z in [(0.0, 2.0), (-0.0, 2.0), (0.0, -2.0), (-0.0, -2.0), (huge, huge), (tiny, tiny), (-huge, -tiny)]:
        case('asinh', c64, z[0], z[1], 4)
    for z in [(0.5, 0.0), (-2.0, 0.0), (-2.0, -0.0), (huge, huge), (tiny, tiny), (2.0, 0.0)]:
        case('acosh', c64, z[0], z[1], 4)
    # C99 Annex G's values at infinite and NaN parts, where it fixes them.
    pi = r32(math.pi) if c64 else math.pi
    q = r32(math.pi / 4) if c64 else math.pi / 4
    h = r32(math.pi / 2) if c64 else math.pi / 2
    for op, x, y, want in [
            ('sine', 0.0, INF, (0.0, INF)), ('sine', INF, 0.0, (NAN, 0.0)),
            ('cosine', 0.0, INF, (INF, 0.0)), ('cosine', INF, 0.0, (NAN, 0.0)),
            ('tanh', INF, 1.0, (1.0, 0.0)), ('tanh', -INF, -1.0, (-1.0, 0.0)),
            ('tanh', NAN, 0.0, (NAN, 0.0)), ('exponential', NAN, 0.0, (NAN, 0.0)),
            ('log', INF, NAN, (INF, NAN)), ('sqrt', NAN, INF, (INF, INF)),
            ('asin', INF, INF, (q, INF)), ('acos', INF, INF, (q, -INF)),
            ('asinh', INF, INF, (INF, q)), ('acosh', INF, INF, (INF, q)),
            ('atanh', INF, 1.0, (0.0, h)), ('atanh', 1.0, INF, (0.0, h)),
            ('acos', -INF, 1.0, (pi, -INF))]:
        case(op, c64, x, y, 0, expect=want)
print('\n'.join(rows))
