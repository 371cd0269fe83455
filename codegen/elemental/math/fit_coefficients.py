#!/usr/bin/env python3
"""Fits the polynomial coefficients and split constants of aotc's math library.

Writes codegen/elemental/math/math_coefficients.h (or the path given as the first
argument). Every polynomial is a weighted minimax fit found with the Remez
exchange algorithm in 50-digit arithmetic (mpmath); the weight makes the
minimised quantity the error that the polynomial contributes to the final
function value, relative or absolute as the emitter needs. Multi-word
constants (ln 2, pi/2, k*pi/4, 2/3) are cut from 50-digit values; the bits of
2/pi for the large-argument trig reduction come from a 1300-bit value.

Run: python3 codegen/elemental/math/fit_coefficients.py [output.h]   (about a minute)
"""

import struct
import sys
import textwrap

import mpmath as mp

mp.mp.dps = 50


def remez(f, w, a, b, degree, grid=2000, iterations=40):
    """Returns (coefficients, max error) of the degree-`degree` polynomial p
    minimising max |w(x) * (p(x) - f(x))| over [a, b]."""
    a, b = mp.mpf(a), mp.mpf(b)
    m = degree + 2
    # Start from Chebyshev points pulled slightly inside, so that no reference
    # point sits where a weight vanishes (0 for the relative weights).
    ref = [(a + b) / 2 - (b - a) / 2 *
           (mp.cos(mp.pi * (i + mp.mpf(0.5)) / m) * mp.mpf('0.999') -
            mp.mpf('0.0003')) for i in range(m)]
    gx = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (grid - 1))
          for i in range(grid)]
    gf = [f(x) for x in gx]
    gw = [w(x) for x in gx]
    best = None
    for _ in range(iterations):
        # Solve w(x_i) * (p(x_i) - f(x_i)) = (-1)^i * E on the reference.
        mat = mp.matrix(m, m)
        rhs = mp.matrix(m, 1)
        for i, x in enumerate(ref):
            wx = w(x)
            for k in range(degree + 1):
                mat[i, k] = wx * x**k
            mat[i, degree + 1] = (-1)**i
            rhs[i] = wx * f(x)
        sol = mp.lu_solve(mat, rhs)
        coeffs = [sol[k] for k in range(degree + 1)]
        level = abs(sol[degree + 1])
        err = [gw[i] * (horner(coeffs, gx[i]) - gf[i]) for i in range(grid)]
        worst = max(abs(e) for e in err)
        if best is None or worst < best[1]:
            best = (coeffs, worst)
        if worst - level < worst * mp.mpf('1e-6'):
            break
        # Exchange: local extrema of the error, one per run of equal sign,
        # trimmed from the ends to degree + 2 points.
        extrema = []
        for i in range(grid):
            left = abs(err[i - 1]) if i > 0 else -1
            right = abs(err[i + 1]) if i < grid - 1 else -1
            if abs(err[i]) >= left and abs(err[i]) >= right:
                extrema.append(i)
        runs = []
        for i in extrema:
            if runs and (err[i] > 0) == (err[runs[-1]] > 0):
                if abs(err[i]) > abs(err[runs[-1]]):
                    runs[-1] = i
            else:
                runs.append(i)
        while len(runs) > m:
            if abs(err[runs[0]]) < abs(err[runs[-1]]):
                runs.pop(0)
            else:
                runs.pop()
        if len(runs) < m:
            break
        ref = [gx[i] for i in runs]
    return best


def horner(coeffs, x):
    s = mp.mpf(0)
    for c in reversed(coeffs):
        s = s * x + c
    return s


def series(term, x, count=120):
    """sum_{k < count} term(k) * x^k, for functions whose closed form would
    cancel catastrophically near 0."""
    s = mp.mpf(0)
    xk = mp.mpf(1)
    for k in range(count):
        s += term(k) * xk
        xk *= x
    return s


def to_f32(v):
    return struct.unpack('f', struct.pack('f', float(v)))[0]


def split(v, bits):
    """v = hi + lo with hi holding `bits` significant bits, lo a double."""
    v = mp.mpf(v)
    e = int(mp.floor(mp.log(abs(v), 2)))
    scale = mp.mpf(2)**(bits - 1 - e)
    hi = mp.floor(v * scale + mp.mpf(0.5)) / scale
    return float(hi), v - hi


LN2 = mp.log(2)
S_MAX = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)   # |s| bound of the log reduction
Z_LOG = S_MAX**2 * mp.mpf('1.001')
Z_TRIG = (mp.pi / 4 * mp.mpf('1.0001'))**2
Z_ATAN = (mp.tan(mp.pi / 8) * mp.mpf('1.0001'))**2


def exp_q(r):
    return series(lambda k: 1 / mp.factorial(k + 2), r)


def expm1(r):
    return r * series(lambda k: 1 / mp.factorial(k + 1), r)


def log_g(z):
    return series(lambda k: mp.mpf(2) / (2 * k + 3), z, 200)


def log_tail(z):
    return series(lambda k: mp.mpf(2) / (2 * k + 5), z, 200)


def sin_s(z):
    return series(lambda k: (-1)**(k + 1) / mp.factorial(2 * k + 3), z)


def cos_c(z):
    return series(lambda k: (-1)**k / mp.factorial(2 * k + 4), z)


def atan_a(z):
    return series(lambda k: mp.mpf(-1)**(k + 1) / (2 * k + 3), z, 400)


def erf_over_x(z):
    return 2 / mp.sqrt(mp.pi) * series(
        lambda k: mp.mpf(-1)**k / (mp.factorial(k) * (2 * k + 1)), z, 160)


def tanh_t(z):
    if z == 0:
        return mp.mpf(-1) / 3
    x = mp.sqrt(z)
    return (mp.tanh(x) - x) / x**3


def erfc_scaled(x):
    return mp.erfc(x) * mp.exp(x * x)


def safe(weight):
    """A weight that is 0 at the origin (where it is a removable 0/0)."""
    return lambda x: weight(x) if x != 0 else mp.mpf(0)


def fits():
    """(name, comment, [(suffix, degree, f, w, a, b)]) for every polynomial."""
    h = LN2 / 2 * mp.mpf('1.0001')
    exp_w = safe(lambda r: r * r / abs(expm1(r)))
    log_w = lambda z: z / 2
    sin_w = safe(lambda z: z * mp.sqrt(z) / mp.sin(mp.sqrt(z)))
    cos_w = lambda z: z * z / mp.cos(mp.sqrt(z))
    atan_w = safe(lambda z: z * mp.sqrt(z) / mp.atan(mp.sqrt(z)))
    tanh_w = safe(lambda z: z * mp.sqrt(z) / mp.tanh(mp.sqrt(z)))
    erf_w = lambda z: mp.sqrt(z) / mp.erf(mp.sqrt(z)) if z != 0 else mp.mpf(1)
    return [
        ('kExpPoly', 'exp(r) = 1 + r + r^2 Q(r), expm1(r) = r + r^2 Q(r), '
         '|r| <= ln2/2; error relative to expm1(r)',
         [('F32', 5, exp_q, exp_w, -h, h), ('F64', 10, exp_q, exp_w, -h, h)]),
        ('kLogPoly', 'log(1+f) = 2s + s z G(z), s = f/(2+f), z = s^2; error '
         'relative to log(1+f)',
         [('F32', 2, log_g, log_w, 0, Z_LOG), ('F64', 6, log_g, log_w, 0,
                                                Z_LOG)]),
        ('kLogTailPoly', 'log(1+f) = 2s + (2/3)s^3 + s^5 T(z) (the '
         'double-double log of pow); error relative to log(1+f)',
         [('F64', 6, log_tail, lambda z: z * z / 2, 0, Z_LOG)]),
        ('kSinPoly', 'sin(r) = r + r z S(z), z = r^2, |r| <= pi/4; error '
         'relative to sin(r)',
         [('F32', 2, sin_s, sin_w, 0, Z_TRIG), ('F64', 5, sin_s, sin_w, 0,
                                                 Z_TRIG)]),
        ('kCosPoly', 'cos(r) = 1 - z/2 + z^2 C(z), z = r^2, |r| <= pi/4; '
         'error relative to cos(r)',
         [('F32', 2, cos_c, cos_w, 0, Z_TRIG), ('F64', 5, cos_c, cos_w, 0,
                                                 Z_TRIG)]),
        ('kAtanPoly', 'atan(u) = u + u z A(z), z = u^2, |u| <= tan(pi/8); '
         'error relative to atan(u)',
         [('F32', 4, atan_a, atan_w, 0, Z_ATAN), ('F64', 10, atan_a, atan_w,
                                                   0, Z_ATAN)]),
        ('kTanhPoly', 'tanh(x) = x + x z T(z), z = x^2, |x| < 0.55; error '
         'relative to tanh(x)',
         [('F32', 5, tanh_t, tanh_w, 0, mp.mpf('0.55')**2),
          ('F64', 10, tanh_t, tanh_w, 0, mp.mpf('0.55')**2)]),
        ('kErfSmallPoly', 'erf(x) = x + x P(x^2) below the first erf '
         'interval, P(x^2) = erf(x)/x - 1 (so that the leading 1 is exact); '
         'error relative to erf(x)',
         [('F32', 5, erf_over_x, erf_w, 0, mp.mpf('0.75')**2),
          ('F64', 11, erf_over_x, erf_w, 0, 1)]),
    ]


# erf(x) = 1 - exp(-x^2) G(x - center) on [lo, hi); error absolute in erf.
ERF_INTERVALS = {
    'F32': [('0.75', '4', 10)],
    'F64': [('1', '2', 14), ('2', '3.5', 12), ('3.5', '6', 9)],
}


def cbrt_guess_offsets():
    """Offsets K for the cube-root guess bits(y) = bits(x) / 3 + K (f32) and
    hi32(y) = hi32(x) / 3 + K (f64, upper 32 bits), each the value near the
    exponent-only guess (2/3) * bias * 2^mantissa that minimises the guess's
    largest relative error over a period [1, 8)."""
    xs = [2**(k / 3000.0) for k in range(9000)]

    def f2b(x):
        return struct.unpack('<I', struct.pack('<f', x))[0]

    def b2f(b):
        return struct.unpack('<f', struct.pack('<I', b))[0]

    def d2b(x):
        return struct.unpack('<Q', struct.pack('<d', x))[0]

    def b2d(b):
        return struct.unpack('<d', struct.pack('<Q', b))[0]

    def worst32(k):
        return max(abs(b2f(f2b(x) // 3 + k) / x**(1 / 3) - 1) for x in xs)

    def worst64(k):
        return max(abs(b2d(((d2b(x) >> 32) // 3 + k) << 32) / x**(1 / 3) - 1)
                   for x in xs)

    base32 = (2 * 127 << 23) // 3
    base64 = (2 * 1023 << 20) // 3
    k32 = min((base32 - d * 1024 for d in range(0, 1000, 8)), key=worst32)
    k64 = min((base64 - d * 128 for d in range(0, 1000, 8)), key=worst64)
    return (k32, worst32(k32)), (k64, worst64(k64))


# The large-argument reduction of sin, cos and tan (trig.cc) reads a window
# of 2/pi's bits that starts at bit E - 1 for x = m 2^E; E reaches 971 for
# DBL_MAX and the window is 192 bits, so about 1170 bits are needed. Two zero
# words in front let the window start before the binary point for small E.
TWO_OVER_PI_PAD_WORDS = 2
TWO_OVER_PI_WORDS = 40


def two_over_pi_words():
    """2/pi * 2^-64 in 32-bit words, most significant first (truncated)."""
    bits = 32 * TWO_OVER_PI_WORDS
    with mp.workprec(bits + 64):
        v = (2 / mp.pi) * mp.mpf(2)**(-32 * TWO_OVER_PI_PAD_WORDS)
        n = int(mp.floor(v * mp.mpf(2)**bits))
    return [(n >> (32 * (TWO_OVER_PI_WORDS - 1 - i))) & 0xffffffff
            for i in range(TWO_OVER_PI_WORDS)]


def emit_words(out, name, comment, words):
    out.extend(textwrap.wrap(f'{comment}.', 77, initial_indent='// ',
                             subsequent_indent='// '))
    out.append(f'inline constexpr uint32_t {name}[] = {{')
    for i in range(0, len(words), 4):
        out.append('    ' + ' '.join(f'0x{w:08x},' for w in words[i:i + 4]))
    out.append('};')
    out.append('')


def literal(v, f32):
    v = to_f32(v) if f32 else float(v)
    return float.hex(v)


def emit_array(out, name, comment, values, f32, error=None):
    out.extend(textwrap.wrap(f'{comment}.', 77, initial_indent='// ',
                             subsequent_indent='// '))
    if error is not None:
        out.append(f'// Minimax error 2^{float(mp.log(error, 2)):.1f}.')
    out.append(f'inline constexpr double {name}[] = {{')
    for v in values:
        out.append(f'    {literal(v, f32)},')
    out.append('};')
    out.append('')


def main():
    path = 'codegen/elemental/math/math_coefficients.h'
    if len(sys.argv) > 1:
        path = sys.argv[1]
    out = [
        '// Polynomial coefficients and split constants of the math emitters.',
        '//',
        '// Generated by codegen/elemental/math/fit_coefficients.py (weighted Remez fits',
        '// in 50-digit arithmetic); rerun it instead of editing. Coefficients',
        '// are listed from the constant term up. F32 tables hold values that',
        '// are exact in float.',
        '#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_COEFFICIENTS_H_',
        '#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_COEFFICIENTS_H_',
        '',
        '#include <cstdint>',
        '',
        'namespace aotc::codegen::math_internal {',
        '',
    ]
    for name, comment, variants in fits():
        for suffix, degree, f, w, a, b in variants:
            coeffs, error = remez(f, w, a, b, degree)
            if name == 'kErfSmallPoly':
                coeffs[0] -= 1
            print(f'{name}{suffix}: degree {degree}, error 2^'
                  f'{float(mp.log(error, 2)):.1f}', file=sys.stderr)
            emit_array(out, name + suffix, comment, coeffs, suffix == 'F32',
                       error)
    for suffix, intervals in ERF_INTERVALS.items():
        out.append(f'// erf(x) = 1 - exp(-x^2) G(x - center) on [lo, hi); '
                   f'{suffix} intervals.')
        out.append(f'inline constexpr double kErfBounds{suffix}[] = {{')
        for lo, hi, _ in intervals:
            out.append(f'    {literal(mp.mpf(lo), False)},')
        out.append(f'    {literal(mp.mpf(intervals[-1][1]), False)},')
        out.append('};')
        out.append('')
        for i, (lo, hi, degree) in enumerate(intervals):
            lo, hi = mp.mpf(lo), mp.mpf(hi)
            c = (lo + hi) / 2
            coeffs, error = remez(lambda t: erfc_scaled(t + c),
                                  lambda t: mp.exp(-(t + c)**2), lo - c,
                                  hi - c, degree)
            print(f'kErfPoly{suffix}_{i}: degree {degree}, error 2^'
                  f'{float(mp.log(error, 2)):.1f}', file=sys.stderr)
            emit_array(out, f'kErfPoly{suffix}_{i}',
                       f'G on [{mp.nstr(lo, 3)}, {mp.nstr(hi, 3)}), '
                       f'centre {mp.nstr(c, 4)}; error absolute in erf',
                       coeffs, suffix == 'F32', error)

    # ln 2 split so that n * hi is exact for every exponent n the emitters
    # use (|n| < 2^8 for f32, < 2^11 for f64).
    for suffix, bits, f32 in (('F32', 16, True), ('F64', 42, False)):
        hi, lo = split(LN2, bits)
        emit_array(out, 'kLn2' + suffix, 'ln 2 = hi + lo, hi with '
                   f'{bits} significant bits', [hi, lo], f32)
    # pi/2 in four pieces: n * piece is exact for |n| < 2^23 (30-bit pieces).
    pieces = []
    rest = mp.pi / 2
    for _ in range(3):
        hi, rest = split(rest, 30)
        pieces.append(hi)
    pieces.append(rest)
    emit_array(out, 'kPio2Pieces', 'pi/2 = sum of the pieces, the first '
               'three with 30 significant bits', pieces, False)
    emit_words(out, 'kTwoOverPiBits', 'The binary expansion of 2/pi * 2^-64 '
               '(two zero words, then the bits of 2/pi after the binary '
               'point), truncated to 1280 bits, most significant word first; '
               'from a 1344-bit mpmath value of 2/pi',
               two_over_pi_words())
    for suffix, f32 in (('F32', True), ('F64', False)):
        his, los = [], []
        for j in range(5):
            v = j * mp.pi / 4
            hi = to_f32(v) if f32 else float(v)
            his.append(hi)
            los.append(v - hi)
        emit_array(out, 'kQuarterPiHi' + suffix, 'j*pi/4 rounded, j = 0..4',
                   his, f32)
        emit_array(out, 'kQuarterPiLo' + suffix, 'j*pi/4 minus the rounded '
                   'value', los, f32)
    for suffix, (k, worst) in zip(('F32', 'F64'), cbrt_guess_offsets()):
        out.append(f'// Cube-root guess offset; the guess is within '
                   f'{100 * worst:.1f}% of cbrt(x).')
        out.append(f'inline constexpr int64_t kCbrtGuess{suffix} = {hex(k)};')
        out.append('')
    two_thirds = mp.mpf(2) / 3
    emit_array(out, 'kTwoThirds', '2/3 = hi + lo',
               [float(two_thirds), two_thirds - float(two_thirds)], False)
    out.append('}  // namespace aotc::codegen::math_internal')
    out.append('')
    out.append('#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_COEFFICIENTS_H_')
    with open(path, 'w') as fh:
        fh.write('\n'.join(out))


if __name__ == '__main__':
    main()
