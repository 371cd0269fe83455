// Inline LLVM IR for transcendental, rounding and 16-bit float conversions.
//
// Compiled models may call no libm function, so every elementwise math op is
// emitted as plain IR: a range reduction, a polynomial fitted by
// fit_coefficients.py, and selects for the special values. The IR has no
// branches (except EmitFmod's loop and the rare path of sin, cos and tan,
// which LLVM's vectorizer if-converts) and calls only llvm.fabs, llvm.copysign,
// llvm.sqrt and llvm.fmuladd, so LLVM's loop vectorizer can vectorize loops
// that contain it and no backend turns it into a library call. The exact
// algorithms, domains and measured errors are in docs/math.md.
//
// Each one-value emitter takes a float or double value, scalar or fixed
// vector, and returns a value of the same type; results follow C's functions
// (NaN in gives NaN, signed zeros and infinities as C99 Annex F says). The
// emitters set no fast-math flags and rely on the target not contracting a
// separate fmul and fadd into a fused multiply-add (LLVM's default).
#ifndef AOTC_CODEGEN_ELEMENTAL_MATH_MATH_EMITTER_H_
#define AOTC_CODEGEN_ELEMENTAL_MATH_MATH_EMITTER_H_

#include "compiler/ir/minifloat.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Value.h"

namespace aotc::codegen {

llvm::Value* EmitExp(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitExpm1(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitLog(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitLog1p(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitTanh(llvm::IRBuilderBase& b, llvm::Value* x);
// 1 / (1 + exp(-x)), computed so that neither tail overflows.
llvm::Value* EmitLogistic(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitErf(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitSqrt(llvm::IRBuilderBase& b, llvm::Value* x);
// 1 / sqrt(x): rsqrt(+0) = +inf, rsqrt(-0) = -inf.
llvm::Value* EmitRsqrt(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitCbrt(llvm::IRBuilderBase& b, llvm::Value* x);
// sin, cos and tan are accurate for every finite x: |x| >= 2^23 takes an
// exact reduction behind a branch (the only one besides EmitFmod's loop).
llvm::Value* EmitSin(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitCos(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitTan(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitFloor(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitCeil(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitTrunc(llvm::IRBuilderBase& b, llvm::Value* x);
// C's round(): halfway cases away from zero.
llvm::Value* EmitRoundHalfAwayFromZero(llvm::IRBuilderBase& b, llvm::Value* x);
// C's nearbyint() in the default rounding mode: halfway cases to even.
llvm::Value* EmitRoundHalfEven(llvm::IRBuilderBase& b, llvm::Value* x);

llvm::Value* EmitPow(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y);
llvm::Value* EmitAtan2(llvm::IRBuilderBase& b, llvm::Value* y, llvm::Value* x);
// Exact remainder with the sign of x, as C's fmod. Emits a loop (one per
// vector lane), so a loop around it does not vectorize.
llvm::Value* EmitFmod(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y);

// Complex values are <2 x float> / <2 x double> vectors, real part first
// (c64 / c128 compute values). complex.cc follows the evaluator's std::complex
// (GCC's multiply and divide, glibc's functions) including its special
// values: products and quotients that come out NaN + NaNi are recomputed
// (Annex G), so x / 0 is an infinity for x != 0; division scales (Smith's
// algorithm for double, float operands divide in double) so that no
// intermediate overflows. abs is hypot without overflow and has a real
// result; sign(z) = z / |z| (0 for 0).
llvm::Value* EmitComplexMultiply(llvm::IRBuilderBase& b, llvm::Value* x,
                                 llvm::Value* y);
llvm::Value* EmitComplexDivide(llvm::IRBuilderBase& b, llvm::Value* x,
                               llvm::Value* y);
llvm::Value* EmitComplexPow(llvm::IRBuilderBase& b, llvm::Value* x,
                            llvm::Value* y);
llvm::Value* EmitComplexAbs(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexSign(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexExp(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexExpm1(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexLog(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexLog1p(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexSqrt(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexRsqrt(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexTanh(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexLogistic(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexSin(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexCos(llvm::IRBuilderBase& b, llvm::Value* z);
llvm::Value* EmitComplexTan(llvm::IRBuilderBase& b, llvm::Value* z);
// The principal cube root z^(1/3) (XLA's definition), 0 for 0.
llvm::Value* EmitComplexCbrt(llvm::IRBuilderBase& b, llvm::Value* z);

// 16-bit floats are stored as their i16 bits. The narrowing conversions round
// to nearest even, turn overflow into infinity and keep NaN a NaN with its
// sign: f16 NaNs become 0x7e00 with that sign, a float's bf16 NaN keeps its
// top payload bits with the quiet bit set, a double's becomes 0x7fc0 with the
// sign. The double conversions round once. Scalars or fixed vectors.
llvm::Value* EmitHalfToFloat(llvm::IRBuilderBase& b, llvm::Value* bits);
llvm::Value* EmitFloatToHalf(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitDoubleToHalf(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitBF16ToFloat(llvm::IRBuilderBase& b, llvm::Value* bits);
llvm::Value* EmitFloatToBF16(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* EmitDoubleToBF16(llvm::IRBuilderBase& b, llvm::Value* x);

// The 8-, 6- and 4-bit float formats are stored as their bits in the low
// bits of an i8 (zeros above). Decoding gives the exact float, a NaN as the
// quiet NaN with the encoding's sign (the fnuz NaN 0x80 as +NaN). Encoding a
// float or double rounds once to nearest even with DoubleToMinifloat's
// rules (compiler/ir/minifloat.h): overflow to inf, NaN or the largest
// finite value as the format has them, no negative zero in fnuz formats,
// negative values NaN in f8e8m0fnu. Scalars or fixed vectors.
llvm::Value* EmitMinifloatToFloat(llvm::IRBuilderBase& b, llvm::Value* bits,
                                  const MinifloatFormat& format);
llvm::Value* EmitToMinifloat(llvm::IRBuilderBase& b, llvm::Value* x,
                             const MinifloatFormat& format);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_ELEMENTAL_MATH_MATH_EMITTER_H_
