// StableHLO parser: the builders of fft, triangular_solve and cholesky.
//
// Each maps to the HLO opcode of the same meaning; the builders translate
// the attribute encodings: `fft_type = #stablehlo<fft_type FFT>` (the
// pretty `type = FFT`), `fft_length = array<i64: ..>` (pretty `length`),
// `transpose_a = #stablehlo<transpose ADJOINT>` and the booleans
// left_side, lower and unit_diagonal. The verifier checks the shapes
// afterwards, as for every operation.
#include <optional>

#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"

namespace aotc::shlo {
namespace {

// The enum value of the first of `keys` present, or null.
const Attr *FindEither(const OpReader &r, std::string_view a,
                       std::string_view b) {
  const Attr *v = r.Find(a);
  return v != nullptr ? v : r.Find(b);
}

} // namespace

absl::StatusOr<Instruction *> OpBuilders::Fft(OpBuild &b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  const Attr *t = FindEither(b.reader, "fft_type", "type");
  if (t == nullptr)
    return b.reader.Error("'fft' needs attribute 'fft_type'");
  std::optional<FftType> type = FftTypeFromName(t->s);
  if (!type.has_value()) {
    return b.parser.ErrorAt(t->tok,
                            absl::StrCat("unknown fft type '", t->s, "'"));
  }
  std::vector<int64_t> length;
  const char *key = b.reader.Find("fft_length") ? "fft_length" : "length";
  RETURN_IF_ERROR(b.reader.Ints(key, &length, true));
  Instruction *f = b.Emit(Opcode::kFft, b.shape, b.op.operands);
  f->mutable_attrs().fft_type = *type;
  f->mutable_attrs().fft_length = std::move(length);
  return f;
}

absl::StatusOr<Instruction *> OpBuilders::TriangularSolve(OpBuild &b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  TransposeKind transpose = TransposeKind::kNoTranspose;
  if (const Attr *t = b.reader.Find("transpose_a")) {
    std::optional<TransposeKind> kind = TransposeKindFromName(t->s);
    if (!kind.has_value()) {
      return b.parser.ErrorAt(
          t->tok, absl::StrCat("unknown transpose kind '", t->s, "'"));
    }
    transpose = *kind;
  }
  Instruction *s = b.Emit(Opcode::kTriangularSolve, b.shape, b.op.operands);
  InstructionAttributes &a = s->mutable_attrs();
  a.left_side = b.reader.Flag("left_side");
  a.lower = b.reader.Flag("lower");
  a.unit_diagonal = b.reader.Flag("unit_diagonal");
  a.transpose_a = transpose;
  return s;
}

absl::StatusOr<Instruction *> OpBuilders::Cholesky(OpBuild &b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  Instruction *c = b.Emit(Opcode::kCholesky, b.shape, b.op.operands);
  c->mutable_attrs().lower = b.reader.Flag("lower");
  return c;
}

} // namespace aotc::shlo
