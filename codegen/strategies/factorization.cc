// triangular-solve by substitution and cholesky by Cholesky-Banachiewicz
// (see factorization.h).
#include "codegen/strategies/factorization.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "codegen/elemental/complex_ops.h"
#include "codegen/elemental/math/math_emitter.h"
#include "codegen/emit/ir_types.h"
#include "codegen/emit/module_context.h"
#include "compiler/ir/shape_inference.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

using llvm::Value;

// A value in double: the real part, and the imaginary part for complex
// types (null for real ones).
struct Num {
  Value *re;
  Value *im = nullptr;
};

// Arithmetic on Num, real or complex as the element type is.
class Arith {
public:
  Arith(llvm::IRBuilderBase &b, bool complex) : b_(b), complex_(complex) {}

  bool complex() const { return complex_; }
  Value *F(double v) { return llvm::ConstantFP::get(b_.getDoubleTy(), v); }
  Num Zero() { return {F(0), complex_ ? F(0) : nullptr}; }
  Num Sub(Num x, Num y) {
    if (!complex_)
      return {b_.CreateFSub(x.re, y.re)};
    return {b_.CreateFSub(x.re, y.re), b_.CreateFSub(x.im, y.im)};
  }
  Num Mul(Num x, Num y) {
    if (!complex_)
      return {b_.CreateFMul(x.re, y.re)};
    return {
        b_.CreateFSub(b_.CreateFMul(x.re, y.re), b_.CreateFMul(x.im, y.im)),
        b_.CreateFAdd(b_.CreateFMul(x.re, y.im), b_.CreateFMul(x.im, y.re))};
  }
  Num Conj(Num x) {
    if (!complex_)
      return x;
    return {x.re, b_.CreateFNeg(x.im)};
  }
  // Smith's division, which does not overflow |y|^2.
  Num Div(Num x, Num y) {
    if (!complex_)
      return {b_.CreateFDiv(x.re, y.re)};
    Value *wide_re = b_.CreateFCmpOGE(Abs(y.re), Abs(y.im));
    Value *big = b_.CreateSelect(wide_re, y.re, y.im);
    Value *small = b_.CreateSelect(wide_re, y.im, y.re);
    Value *r = b_.CreateFDiv(small, big);
    Value *d = b_.CreateFAdd(big, b_.CreateFMul(small, r));
    // |re| >= |im|: ((xr + xi r) + i (xi - xr r)) / d; else
    // ((xr r + xi) + i (xi r - xr)) / d.
    Value *re_num =
        b_.CreateSelect(wide_re, b_.CreateFAdd(x.re, b_.CreateFMul(x.im, r)),
                        b_.CreateFAdd(b_.CreateFMul(x.re, r), x.im));
    Value *im_num =
        b_.CreateSelect(wide_re, b_.CreateFSub(x.im, b_.CreateFMul(x.re, r)),
                        b_.CreateFSub(b_.CreateFMul(x.im, r), x.re));
    return {b_.CreateFDiv(re_num, d), b_.CreateFDiv(im_num, d)};
  }
  Value *Abs(Value *v) {
    return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  }

private:
  llvm::IRBuilderBase &b_;
  bool complex_;
};

// Batch matrices [..., r, c] of complex or real doubles in scratch.
struct Matrix {
  Value *base;
  int64_t cols;
  bool complex;
  Value *At(llvm::IRBuilderBase &b, Value *i, Value *j, int part) const {
    Value *e = b.CreateAdd(b.CreateMul(i, b.getInt64(cols)), j);
    if (complex)
      e = b.CreateAdd(b.CreateMul(e, b.getInt64(2)), b.getInt64(part));
    return b.CreateInBoundsGEP(b.getDoubleTy(), base, e);
  }
  Num Load(llvm::IRBuilderBase &b, Value *i, Value *j) const {
    Num v{b.CreateLoad(b.getDoubleTy(), At(b, i, j, 0))};
    if (complex)
      v.im = b.CreateLoad(b.getDoubleTy(), At(b, i, j, 1));
    return v;
  }
  void Store(llvm::IRBuilderBase &b, Value *i, Value *j, Num v) const {
    b.CreateStore(v.re, At(b, i, j, 0));
    if (complex)
      b.CreateStore(v.im, At(b, i, j, 1));
  }
};

// A running value of the loops (allocas, promoted by mem2reg).
class Acc {
public:
  Acc(llvm::IRBuilderBase &b, bool complex) : b_(b) {
    re_ = EntryAlloca(b, b.getDoubleTy(), "acc.re");
    if (complex)
      im_ = EntryAlloca(b, b.getDoubleTy(), "acc.im");
  }
  void Set(Num v) {
    b_.CreateStore(v.re, re_);
    if (im_ != nullptr)
      b_.CreateStore(v.im, im_);
  }
  Num Get() {
    Num v{b_.CreateLoad(b_.getDoubleTy(), re_)};
    if (im_ != nullptr)
      v.im = b_.CreateLoad(b_.getDoubleTy(), im_);
    return v;
  }

private:
  llvm::IRBuilderBase &b_;
  llvm::AllocaInst *re_;
  llvm::AllocaInst *im_ = nullptr;
};

// Element reads and writes of one batch matrix of an operand or the result.
class BatchIo {
public:
  BatchIo(const LoopArgs &a, std::vector<Value *> batch)
      : a_(a), b_(a.b), batch_(std::move(batch)) {}

  absl::StatusOr<Num> Read(int operand, Value *i, Value *j) {
    Index index;
    index.multi = batch_;
    index.multi.push_back(i);
    index.multi.push_back(j);
    ASSIGN_OR_RETURN(Value * v, a_.ops[operand][0](index));
    llvm::Type *f64 = b_.getDoubleTy();
    if (IsComplex(a_.inst.shape().element_type())) {
      return Num{b_.CreateFPExt(RealPart(b_, v), f64),
                 b_.CreateFPExt(ImagPart(b_, v), f64)};
    }
    return Num{b_.CreateFPExt(v, f64)};
  }
  void Write(Value *i, Value *j, Num v) {
    Index index;
    index.multi = batch_;
    index.multi.push_back(i);
    index.multi.push_back(j);
    const PrimitiveType t = a_.inst.shape().element_type();
    if (IsComplex(t)) {
      llvm::Type *part = ComputeType(b_.getContext(), ComplexComponentType(t));
      a_.out[0].Write(b_, index,
                      MakeComplex(b_, b_.CreateFPTrunc(v.re, part),
                                  b_.CreateFPTrunc(v.im, part)));
      return;
    }
    a_.out[0].Write(b_, index,
                    b_.CreateFPTrunc(v.re, ComputeType(b_.getContext(), t)));
  }

private:
  const LoopArgs &a_;
  llvm::IRBuilderBase &b_;
  std::vector<Value *> batch_;
};

// Emits `body` once per batch matrix of the result, with its batch
// coordinates.
absl::Status ForEachBatch(
    const LoopArgs &a,
    const std::function<absl::Status(const std::vector<Value *> &)> &body) {
  const Shape &s = a.inst.shape();
  std::vector<int64_t> batch(s.dimensions().begin(), s.dimensions().end() - 2);
  int64_t count = 1;
  for (int64_t d : batch)
    count *= d;
  return EmitForLoop(
      a.b, a.b.getInt64(0), a.b.getInt64(count), "batch", [&](Value *flat) {
        return body(batch.empty() ? std::vector<Value *>{}
                                  : UnflattenRowMajor(a.b, flat, batch));
      });
}

absl::Status EmitTriangularSolve(const LoopArgs &a) {
  llvm::IRBuilderBase &b = a.b;
  const Instruction &inst = a.inst;
  const Shape &bs = inst.shape();
  const int64_t m = bs.dimensions(bs.rank() - 2),
                n = bs.dimensions(bs.rank() - 1);
  const bool complex = IsComplex(bs.element_type());
  const bool left = inst.left_side();
  const bool unit = inst.unit_diagonal();
  const TransposeKind t = inst.transpose_a();
  const bool op_lower = inst.lower() == (t == TransposeKind::kNoTranspose);
  const int64_t steps = left ? m : n;
  Arith ar(b, complex);
  const Matrix x{a.scratch, n, complex};
  auto I = [&](int64_t v) { return b.getInt64(v); };
  // The s-th row (column) in substitution order.
  auto order = [&](Value *s) {
    const bool forward = left ? op_lower : !op_lower;
    return forward ? s : b.CreateSub(I(steps - 1), s);
  };
  return ForEachBatch(
      a, [&](const std::vector<Value *> &batch) -> absl::Status {
        BatchIo io(a, batch);
        auto op_a = [&](Value *i, Value *k) -> absl::StatusOr<Num> {
          if (t == TransposeKind::kNoTranspose)
            return io.Read(0, i, k);
          ASSIGN_OR_RETURN(Num v, io.Read(0, k, i));
          return t == TransposeKind::kAdjoint ? ar.Conj(v) : v;
        };
        RETURN_IF_ERROR(
            EmitBoxLoop(b, {m, n}, "trsm.load",
                        [&](const std::vector<Value *> &ij) -> absl::Status {
                          ASSIGN_OR_RETURN(Num v, io.Read(1, ij[0], ij[1]));
                          x.Store(b, ij[0], ij[1], v);
                          return absl::OkStatus();
                        }));
        Acc acc(b, complex);
        RETURN_IF_ERROR(EmitForLoop(
            b, I(0), I(steps), "trsm.step", [&](Value *s) -> absl::Status {
              Value *p = order(s);
              const int64_t other = left ? n : m;
              return EmitForLoop(
                  b, I(0), I(other), "trsm.col", [&](Value *o) -> absl::Status {
                    Value *i = left ? p : o;
                    Value *j = left ? o : p;
                    acc.Set(x.Load(b, i, j));
                    RETURN_IF_ERROR(EmitForLoop(
                        b, I(0), s, "trsm.sum", [&](Value *u) -> absl::Status {
                          Value *q = order(u);
                          Num term;
                          if (left) {
                            ASSIGN_OR_RETURN(Num aq, op_a(p, q));
                            term = ar.Mul(aq, x.Load(b, q, j));
                          } else {
                            ASSIGN_OR_RETURN(Num aq, op_a(q, p));
                            term = ar.Mul(x.Load(b, i, q), aq);
                          }
                          acc.Set(ar.Sub(acc.Get(), term));
                          return absl::OkStatus();
                        }));
                    Num v = acc.Get();
                    if (!unit) {
                      ASSIGN_OR_RETURN(Num d, op_a(p, p));
                      v = ar.Div(v, d);
                    }
                    x.Store(b, i, j, v);
                    return absl::OkStatus();
                  });
            }));
        return EmitBoxLoop(b, {m, n}, "trsm.store",
                           [&](const std::vector<Value *> &ij) -> absl::Status {
                             io.Write(ij[0], ij[1], x.Load(b, ij[0], ij[1]));
                             return absl::OkStatus();
                           });
      });
}

absl::Status EmitCholesky(const LoopArgs &a) {
  llvm::IRBuilderBase &b = a.b;
  const Shape &s = a.inst.shape();
  const int64_t n = s.dimensions(s.rank() - 1);
  const bool complex = IsComplex(s.element_type());
  const bool lower = a.inst.lower();
  Arith ar(b, complex);
  const Matrix l{a.scratch, n, complex};
  auto I = [&](int64_t v) { return b.getInt64(v); };
  return ForEachBatch(
      a, [&](const std::vector<Value *> &batch) -> absl::Status {
        BatchIo io(a, batch);
        // The lower triangle of the Hermitian matrix.
        auto at = [&](Value *i, Value *j) -> absl::StatusOr<Num> {
          if (lower)
            return io.Read(0, i, j);
          ASSIGN_OR_RETURN(Num v, io.Read(0, j, i));
          return ar.Conj(v);
        };
        llvm::AllocaInst *ok = EntryAlloca(b, b.getInt1Ty(), "chol.ok");
        b.CreateStore(b.getTrue(), ok);
        Acc acc(b, complex);
        // acc = v - sum_{q<j} l[i][q] conj(l[j][q]).
        auto reduce = [&](Num v, Value *i, Value *j) {
          acc.Set(v);
          EmitForLoop(b, I(0), j, "chol.sum", [&](Value *q) {
            acc.Set(ar.Sub(acc.Get(),
                           ar.Mul(l.Load(b, i, q), ar.Conj(l.Load(b, j, q)))));
          });
          return acc.Get();
        };
        RETURN_IF_ERROR(EmitForLoop(
            b, I(0), I(n), "chol.row", [&](Value *i) -> absl::Status {
              RETURN_IF_ERROR(EmitForLoop(
                  b, I(0), i, "chol.col", [&](Value *j) -> absl::Status {
                    ASSIGN_OR_RETURN(Num v, at(i, j));
                    l.Store(b, i, j, ar.Div(reduce(v, i, j), l.Load(b, j, j)));
                    return absl::OkStatus();
                  }));
              ASSIGN_OR_RETURN(Num d, at(i, i));
              if (complex)
                d.im = ar.F(0);
              Value *pivot = reduce(d, i, i).re;
              Value *positive = b.CreateFCmpOGT(pivot, ar.F(0));
              b.CreateStore(
                  b.CreateAnd(b.CreateLoad(b.getInt1Ty(), ok), positive), ok);
              Num root = ar.Zero();
              root.re = EmitSqrt(b, pivot);
              l.Store(b, i, i, root);
              return absl::OkStatus();
            }));
        Value *good = b.CreateLoad(b.getInt1Ty(), ok);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return EmitBoxLoop(
            b, {n, n}, "chol.store", [&](const std::vector<Value *> &ij) {
              // Result (i, j) is l[i][j] (lower) or conj(l[j][i]) (upper) in
              // the triangle, 0 outside it, NaN everywhere on failure.
              Value *r = lower ? ij[0] : ij[1];
              Value *c = lower ? ij[1] : ij[0];
              Value *inside = b.CreateICmpULE(c, r);
              Value *cc = b.CreateSelect(inside, c, I(0));
              Num v = l.Load(b, r, cc);
              if (!lower)
                v = ar.Conj(v);
              auto pick = [&](Value *part) {
                return b.CreateSelect(
                    good, b.CreateSelect(inside, part, ar.F(0)), ar.F(nan));
              };
              Num out{pick(v.re), complex ? pick(v.im) : nullptr};
              io.Write(ij[0], ij[1], out);
              return absl::OkStatus();
            });
      });
}

// Whether `inst` is `op` with a result shape inference agrees with.
bool Matches(const Instruction &inst, Opcode op) {
  if (inst.opcode() != op || !inst.shape().IsArray())
    return false;
  absl::StatusOr<Shape> expected = InferShape(inst);
  return expected.ok() && expected->SameDimensions(inst.shape()) &&
         expected->element_type() == inst.shape().element_type();
}

int64_t MatrixBytes(const Shape &s, int64_t rows, int64_t cols) {
  const int64_t per = IsComplex(s.element_type()) ? 16 : 8;
  const int64_t bytes = rows * cols * per;
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

} // namespace

std::optional<StrategyPlan> PlanTriangularSolve(const Instruction &inst) {
  if (!Matches(inst, Opcode::kTriangularSolve))
    return std::nullopt;
  const Shape &s = inst.shape();
  const int64_t m = s.dimensions(s.rank() - 2), n = s.dimensions(s.rank() - 1);
  StrategyPlan plan;
  plan.work_per_element = std::max<int64_t>(1, inst.left_side() ? m : n);
  plan.scratch_bytes = MatrixBytes(s, m, n);
  if (s.ElementCount() == 0) {
    plan.scratch_bytes = 0;
    plan.emit = [](const LoopArgs &) { return absl::OkStatus(); };
    return plan;
  }
  plan.emit = EmitTriangularSolve;
  return plan;
}

std::optional<StrategyPlan> PlanCholesky(const Instruction &inst) {
  if (!Matches(inst, Opcode::kCholesky))
    return std::nullopt;
  const Shape &s = inst.shape();
  const int64_t n = s.dimensions(s.rank() - 1);
  StrategyPlan plan;
  plan.work_per_element = std::max<int64_t>(1, n);
  plan.scratch_bytes = MatrixBytes(s, n, n);
  if (s.ElementCount() == 0) {
    plan.scratch_bytes = 0;
    plan.emit = [](const LoopArgs &) { return absl::OkStatus(); };
    return plan;
  }
  plan.emit = EmitCholesky;
  return plan;
}

} // namespace aotc::codegen
