// The fft strategy: radix 2 and Bluestein over complex double lines (see
// fft.h).
#include "codegen/strategies/fft.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codegen/elemental/complex_ops.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/module_context.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;
using Wide = std::complex<long double>;

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

int64_t NextPowerOfTwo(int64_t n) {
  int64_t m = 1;
  while (m < n)
    m *= 2;
  return m;
}

// The length of the radix-2 transforms a line of n needs.
int64_t RadixLength(int64_t n) {
  return n <= 1 || IsPowerOfTwo(n) ? n : NextPowerOfTwo(2 * n - 1);
}

int64_t AlignUp(int64_t bytes) {
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

// exp(sign 2 pi i r / n) at compile time; exact at the quarter turns, where
// the long double cosine of a rounded pi/2 would leave a tiny nonzero.
Wide Root(int64_t r, int64_t n, int sign) {
  r %= n;
  if ((4 * r) % n == 0) {
    constexpr long double kQuarter[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    const int q = static_cast<int>(4 * r / n);
    return {kQuarter[q][0], sign * kQuarter[q][1]};
  }
  const long double angle = sign * 2 * std::numbers::pi_v<long double> *
                            static_cast<long double>(r) / n;
  return {std::cos(angle), std::sin(angle)};
}

// The radix-2 transform of `x` (size a power of two) at compile time, for
// Bluestein's constant.
void CompileTimeFft(std::vector<Wide> &x) {
  const int64_t n = static_cast<int64_t>(x.size());
  for (int64_t i = 1, j = 0; i < n; ++i) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      std::swap(x[i], x[j]);
  }
  for (int64_t len = 2; len <= n; len *= 2) {
    for (int64_t i = 0; i < n; i += len) {
      for (int64_t j = 0; j < len / 2; ++j) {
        const Wide w = Root(j, len, -1);
        const Wide u = x[i + j], v = x[i + j + len / 2] * w;
        x[i + j] = u + v;
        x[i + j + len / 2] = u - v;
      }
    }
  }
}

Literal ComplexTable(const std::vector<Wide> &values) {
  Literal lit(Shape::Array(PrimitiveType::kC128,
                           {static_cast<int64_t>(values.size())}));
  auto data = lit.mutable_data<std::complex<double>>();
  for (size_t i = 0; i < values.size(); ++i) {
    data[i] = {static_cast<double>(values[i].real()),
               static_cast<double>(values[i].imag())};
  }
  return lit;
}

// A complex double array in memory: element i is the doubles 2i, 2i + 1.
struct ComplexArray {
  Value *base;
  Value *Part(llvm::IRBuilderBase &b, Value *i, int part) const {
    Value *at = b.CreateAdd(b.CreateMul(i, b.getInt64(2)), b.getInt64(part));
    return b.CreateInBoundsGEP(b.getDoubleTy(), base, at);
  }
  std::pair<Value *, Value *> Load(llvm::IRBuilderBase &b, Value *i) const {
    return {b.CreateLoad(b.getDoubleTy(), Part(b, i, 0)),
            b.CreateLoad(b.getDoubleTy(), Part(b, i, 1))};
  }
  void Store(llvm::IRBuilderBase &b, Value *i,
             std::pair<Value *, Value *> v) const {
    b.CreateStore(v.first, Part(b, i, 0));
    b.CreateStore(v.second, Part(b, i, 1));
  }
};

using Cx = std::pair<Value *, Value *>;

class FftEmitter {
public:
  FftEmitter(const LoopArgs &a, Value *work, Value *line)
      : a_(a), b_(a.b), work_{work}, line_{line} {}

  Cx Mul(Cx x, Cx y) {
    return {b_.CreateFSub(b_.CreateFMul(x.first, y.first),
                          b_.CreateFMul(x.second, y.second)),
            b_.CreateFAdd(b_.CreateFMul(x.first, y.second),
                          b_.CreateFMul(x.second, y.first))};
  }
  Cx Scale(Cx x, double s) {
    Value *f = llvm::ConstantFP::get(b_.getDoubleTy(), s);
    return {b_.CreateFMul(x.first, f), b_.CreateFMul(x.second, f)};
  }
  Value *I64(int64_t v) { return b_.getInt64(v); }

  // A table of compile-time constants.
  ComplexArray Table(const std::vector<Wide> &values) {
    return {a_.mc.ConstantGlobal(ComplexTable(values))};
  }

  // The radix-2 transform of line_[0, m), m a power of two; `inverse`
  // conjugates the twiddles (no division).
  void Radix2(int64_t m, bool inverse) {
    if (m <= 1)
      return;
    int log2m = 0;
    while ((int64_t{1} << log2m) < m)
      ++log2m;
    // The bit-reversal permutation: each pair swapped once, from its
    // smaller index.
    Literal rev(Shape::Array(PrimitiveType::kS64, {m}));
    auto r = rev.mutable_data<int64_t>();
    for (int64_t i = 0; i < m; ++i) {
      int64_t j = 0;
      for (int bit = 0; bit < log2m; ++bit)
        j |= ((i >> bit) & 1) << (log2m - 1 - bit);
      r[i] = j;
    }
    Value *rev_table = a_.mc.ConstantGlobal(rev);
    EmitForLoop(b_, I64(0), I64(m), "fft.bitrev", [&](Value *i) {
      Value *j = b_.CreateLoad(
          b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), rev_table, i));
      Value *before = b_.CreateICmpULT(i, j);
      const Cx xi = line_.Load(b_, i), xj = line_.Load(b_, j);
      line_.Store(b_, i,
                  {b_.CreateSelect(before, xj.first, xi.first),
                   b_.CreateSelect(before, xj.second, xi.second)});
      line_.Store(b_, j,
                  {b_.CreateSelect(before, xi.first, xj.first),
                   b_.CreateSelect(before, xi.second, xj.second)});
    });
    std::vector<Wide> w(m / 2);
    for (int64_t k = 0; k < m / 2; ++k)
      w[k] = Root(k, m, -1);
    const ComplexArray twiddles = Table(w);
    EmitForLoop(b_, I64(0), I64(log2m), "fft.stage", [&](Value *s) {
      Value *half = b_.CreateShl(I64(1), s);
      Value *len = b_.CreateShl(half, I64(1));
      // The twiddle of j in a block of len is table entry j * m / len.
      Value *step = b_.CreateLShr(I64(m), b_.CreateAdd(s, I64(1)));
      EmitForLoop(b_, I64(0), step, "fft.block", [&](Value *blk) {
        Value *base = b_.CreateMul(blk, len);
        EmitForLoop(b_, I64(0), half, "fft.butterfly", [&](Value *j) {
          Cx t = twiddles.Load(b_, b_.CreateMul(j, step));
          if (inverse)
            t.second = b_.CreateFNeg(t.second);
          Value *p = b_.CreateAdd(base, j);
          Value *q = b_.CreateAdd(p, half);
          const Cx u = line_.Load(b_, p);
          const Cx v = Mul(line_.Load(b_, q), t);
          line_.Store(b_, p,
                      {b_.CreateFAdd(u.first, v.first),
                       b_.CreateFAdd(u.second, v.second)});
          line_.Store(b_, q,
                      {b_.CreateFSub(u.first, v.first),
                       b_.CreateFSub(u.second, v.second)});
        });
      });
    });
  }

  // The unnormalized DFT of line_[0, n) in place (sign + for `inverse`).
  void Line(int64_t n, bool inverse) {
    if (n <= 1)
      return;
    if (IsPowerOfTwo(n))
      return Radix2(n, inverse);
    const int64_t m = RadixLength(n);
    const int sign = inverse ? 1 : -1;
    // chirp[k] = exp(sign pi i k^2 / n), k^2 taken mod 2n exactly.
    std::vector<Wide> chirp(n);
    for (int64_t k = 0; k < n; ++k) {
      const int64_t r =
          static_cast<int64_t>((static_cast<__int128>(k) * k) % (2 * n));
      chirp[k] = Root(r, 2 * n, sign);
    }
    // The transform of the filter conj(chirp[|k|]) on (-n, n), wrapped to
    // m, divided by m for the inverse transform below.
    std::vector<Wide> filter(m, Wide(0));
    for (int64_t k = 0; k < n; ++k) {
      filter[k] = std::conj(chirp[k]);
      if (k > 0)
        filter[m - k] = std::conj(chirp[k]);
    }
    CompileTimeFft(filter);
    for (Wide &f : filter)
      f /= static_cast<long double>(m);
    const ComplexArray c = Table(chirp);
    const ComplexArray f = Table(filter);
    EmitForLoop(b_, I64(0), I64(m), "fft.chirp", [&](Value *k) {
      // Zero past the line, the line times the chirp before it.
      Value *inside = b_.CreateICmpULT(k, I64(n));
      Value *kc = b_.CreateSelect(inside, k, I64(0));
      const Cx x = Mul(line_.Load(b_, b_.CreateSelect(inside, k, I64(0))),
                       c.Load(b_, kc));
      Value *zero = llvm::ConstantFP::get(b_.getDoubleTy(), 0.0);
      line_.Store(b_, k,
                  {b_.CreateSelect(inside, x.first, zero),
                   b_.CreateSelect(inside, x.second, zero)});
    });
    Radix2(m, false);
    EmitForLoop(b_, I64(0), I64(m), "fft.filter", [&](Value *k) {
      line_.Store(b_, k, Mul(line_.Load(b_, k), f.Load(b_, k)));
    });
    Radix2(m, true);
    EmitForLoop(b_, I64(0), I64(n), "fft.unchirp", [&](Value *k) {
      line_.Store(b_, k, Mul(line_.Load(b_, k), c.Load(b_, k)));
    });
  }

  // Transforms every line of work_ (row-major `dims`) along `axis`.
  void Pass(const std::vector<int64_t> &dims, int axis, bool inverse,
            bool normalize) {
    const int64_t n = dims[axis];
    int64_t inner = 1, outer = 1;
    for (size_t d = axis + 1; d < dims.size(); ++d)
      inner *= dims[d];
    for (int d = 0; d < axis; ++d)
      outer *= dims[d];
    EmitForLoop(b_, I64(0), I64(outer * inner), "fft.line", [&](Value *l) {
      Value *base = b_.CreateAdd(
          b_.CreateMul(b_.CreateUDiv(l, I64(inner)), I64(n * inner)),
          b_.CreateURem(l, I64(inner)));
      auto at = [&](Value *k) {
        return b_.CreateAdd(base, b_.CreateMul(k, I64(inner)));
      };
      EmitForLoop(b_, I64(0), I64(n), "fft.load",
                  [&](Value *k) { line_.Store(b_, k, work_.Load(b_, at(k))); });
      Line(n, inverse);
      EmitForLoop(b_, I64(0), I64(n), "fft.store", [&](Value *k) {
        Cx v = line_.Load(b_, k);
        if (normalize)
          v = Scale(v, 1.0 / static_cast<double>(n));
        work_.Store(b_, at(k), v);
      });
    });
  }

  // The operand element at row-major `flat` of `dims` as a complex double.
  absl::StatusOr<Cx> Operand(const std::vector<int64_t> &dims, Value *flat) {
    Index index;
    index.multi = UnflattenRowMajor(b_, flat, dims);
    ASSIGN_OR_RETURN(Value * v, a_.ops[0][0](index));
    const PrimitiveType t = a_.inst.operand(0)->shape().element_type();
    llvm::Type *f64 = b_.getDoubleTy();
    if (IsComplex(t)) {
      return Cx{b_.CreateFPExt(RealPart(b_, v), f64),
                b_.CreateFPExt(ImagPart(b_, v), f64)};
    }
    return Cx{b_.CreateFPExt(v, f64), llvm::ConstantFP::get(f64, 0.0)};
  }

  // result[flat] = v (complex) or its real part (real results).
  void Result(const std::vector<int64_t> &dims, Value *flat, Cx v) {
    Index index;
    index.multi = UnflattenRowMajor(b_, flat, dims);
    const PrimitiveType t = a_.inst.shape().element_type();
    if (IsComplex(t)) {
      llvm::Type *part = ComputeType(b_.getContext(), ComplexComponentType(t));
      a_.out[0].Write(b_, index,
                      MakeComplex(b_, b_.CreateFPTrunc(v.first, part),
                                  b_.CreateFPTrunc(v.second, part)));
      return;
    }
    a_.out[0].Write(b_, index,
                    b_.CreateFPTrunc(v.first, ComputeType(b_.getContext(), t)));
  }

  absl::Status Emit() {
    const Instruction &inst = a_.inst;
    const Shape &in = inst.operand(0)->shape();
    const Shape &out = inst.shape();
    const FftType type = inst.fft_type();
    const int rank = in.rank();
    const int count = static_cast<int>(inst.fft_length().size());
    std::vector<int64_t> dims = in.dimensions();
    const int64_t last = rank - 1;
    if (type == FftType::kRfft) {
      // Each innermost real line, transformed whole, keeps n/2+1 outputs.
      const int64_t n = dims.back(), h = out.dimensions(last);
      const int64_t lines = in.ElementCount() / n;
      RETURN_IF_ERROR(EmitForLoop(
          b_, I64(0), I64(lines), "fft.rline", [&](Value *l) -> absl::Status {
            RETURN_IF_ERROR(EmitForLoop(
                b_, I64(0), I64(n), "fft.rload", [&](Value *k) -> absl::Status {
                  ASSIGN_OR_RETURN(
                      Cx v,
                      Operand(dims, b_.CreateAdd(b_.CreateMul(l, I64(n)), k)));
                  line_.Store(b_, k, v);
                  return absl::OkStatus();
                }));
            Line(n, false);
            EmitForLoop(b_, I64(0), I64(h), "fft.rstore", [&](Value *k) {
              work_.Store(b_, b_.CreateAdd(b_.CreateMul(l, I64(h)), k),
                          line_.Load(b_, k));
            });
            return absl::OkStatus();
          }));
      dims.back() = h;
      for (int axis = rank - 2; axis >= rank - count; --axis) {
        Pass(dims, axis, false, false);
      }
    } else {
      RETURN_IF_ERROR(EmitForLoop(b_, I64(0), I64(in.ElementCount()),
                                  "fft.copy", [&](Value *i) -> absl::Status {
                                    ASSIGN_OR_RETURN(Cx v, Operand(dims, i));
                                    work_.Store(b_, i, v);
                                    return absl::OkStatus();
                                  }));
      const bool inverse = type != FftType::kFft;
      const int stop = type == FftType::kIrfft ? rank - 2 : rank - 1;
      for (int axis = stop; axis >= rank - count; --axis) {
        Pass(dims, axis, inverse, inverse);
      }
    }
    const std::vector<int64_t> out_dims = out.dimensions();
    if (type != FftType::kIrfft) {
      EmitForLoop(b_, I64(0), I64(out.ElementCount()), "fft.result",
                  [&](Value *i) { Result(out_dims, i, work_.Load(b_, i)); });
      return absl::OkStatus();
    }
    // The innermost lines of n/2+1, extended by X[n-k] = conj(X[k]).
    const int64_t n = out.dimensions(last), h = dims.back();
    EmitForLoop(
        b_, I64(0), I64(out.ElementCount() / n), "fft.irline", [&](Value *l) {
          Value *base = b_.CreateMul(l, I64(h));
          EmitForLoop(b_, I64(0), I64(n), "fft.irload", [&](Value *k) {
            Value *low = b_.CreateICmpULT(k, I64(h));
            Value *src = b_.CreateSelect(low, k, b_.CreateSub(I64(n), k));
            Cx v = work_.Load(b_, b_.CreateAdd(base, src));
            v.second = b_.CreateSelect(low, v.second, b_.CreateFNeg(v.second));
            line_.Store(b_, k, v);
          });
          Line(n, true);
          EmitForLoop(b_, I64(0), I64(n), "fft.irstore", [&](Value *k) {
            Result(out_dims, b_.CreateAdd(b_.CreateMul(l, I64(n)), k),
                   Scale(line_.Load(b_, k), 1.0 / n));
          });
        });
    return absl::OkStatus();
  }

private:
  const LoopArgs &a_;
  llvm::IRBuilderBase &b_;
  ComplexArray work_;
  ComplexArray line_;
};

// Bytes of the working copy: the complex shape the passes run on.
int64_t WorkElements(const Instruction &inst) {
  const Shape &in = inst.operand(0)->shape();
  return inst.fft_type() == FftType::kRfft ? inst.shape().ElementCount()
                                           : in.ElementCount();
}

} // namespace

std::optional<StrategyPlan> PlanFft(const Instruction &inst) {
  if (inst.opcode() != Opcode::kFft || !inst.shape().IsArray() ||
      inst.operand_count() != 1 || !inst.operand(0)->shape().IsArray()) {
    return std::nullopt;
  }
  absl::StatusOr<Shape> expected = InferShape(inst);
  if (!expected.ok() || !expected->SameDimensions(inst.shape())) {
    return std::nullopt;
  }
  const Shape &in = inst.operand(0)->shape();
  const int rank = in.rank();
  int64_t longest = 1, work = 1;
  const std::vector<int64_t> &len = inst.fft_length();
  for (size_t i = 0; i < len.size(); ++i) {
    const int64_t n = inst.fft_type() == FftType::kIrfft && i + 1 == len.size()
                          ? len[i]
                          : in.dimensions(rank - len.size() + i);
    longest = std::max(longest, RadixLength(n));
    int64_t log2 = 1;
    while ((int64_t{1} << log2) < RadixLength(n))
      ++log2;
    work += 4 * log2;
  }
  StrategyPlan plan;
  plan.work_per_element = work;
  const bool empty = inst.shape().ElementCount() == 0 || in.ElementCount() == 0;
  const int64_t work_bytes = AlignUp(WorkElements(inst) * 16);
  plan.scratch_bytes = empty ? 0 : work_bytes + AlignUp(longest * 16);
  plan.emit = [work_bytes, empty](const LoopArgs &a) -> absl::Status {
    if (empty)
      return absl::OkStatus();
    Value *line = a.b.CreateInBoundsGEP(a.b.getInt8Ty(), a.scratch,
                                        a.b.getInt64(work_bytes));
    FftEmitter emitter(a, a.scratch, line);
    return emitter.Emit();
  };
  return plan;
}

} // namespace aotc::codegen
