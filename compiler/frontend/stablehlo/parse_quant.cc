// StableHLO parser: uniform quantized element types,
// `!quant.uniform<i8<-127:127>:f32:1, {0.1:-3, 0.2}>`, checked against the
// constraints of the StableHLO spec's "Types" section (C1-C13).
//
// A quantized tensor becomes an array of its storage type; the parameters
// are recorded per parsed type in type_quants_ (parser.h) for the op or
// argument that owns the type.
#include <cmath>

#include "absl/strings/numbers.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/frontend/stablehlo/quant_type.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

absl::StatusOr<QuantType> Parser::ParseQuantElementType() {
  const Tok start = tok_;
  Advance();  // !quant.uniform
  RETURN_IF_ERROR(Expect(TokKind::kLess, "'<' after '!quant.uniform'"));
  QuantType q;
  const Tok storage_tok = tok_;
  ASSIGN_OR_RETURN(q.storage, ParseElementType());
  if (!IsInteger(q.storage) || BitWidth(q.storage) > 32) {
    return ErrorAt(storage_tok,
                   "the storage type of a quantized type must be an integer "
                   "type of at most 32 bits");
  }
  q.storage_min = StorageTypeMin(q.storage);
  q.storage_max = StorageTypeMax(q.storage);
  if (tok_.Is(TokKind::kLess)) {
    const Tok range_tok = tok_;
    Advance();
    ASSIGN_OR_RETURN(q.storage_min, ParseInt());
    RETURN_IF_ERROR(Expect(TokKind::kColon, "':' in the storage range"));
    ASSIGN_OR_RETURN(q.storage_max, ParseInt());
    RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the storage range"));
    if (q.storage_min < StorageTypeMin(q.storage) ||
        q.storage_max > StorageTypeMax(q.storage) ||
        q.storage_min >= q.storage_max) {
      return ErrorAt(
          range_tok,
          absl::StrCat("storage range <", q.storage_min, ":", q.storage_max,
                       "> is not an increasing range inside ",
                       MlirName(q.storage), "'s [",
                       StorageTypeMin(q.storage), ", ",
                       StorageTypeMax(q.storage), "]"));
    }
  }
  RETURN_IF_ERROR(Expect(TokKind::kColon, "':' before the expressed type"));
  const Tok expressed_tok = tok_;
  ASSIGN_OR_RETURN(q.expressed, ParseElementType());
  if (!IsRealFloat(q.expressed) ||
      BitWidth(q.storage) >= BitWidth(q.expressed)) {
    return ErrorAt(expressed_tok,
                   "the expressed type of a quantized type must be f16, bf16, "
                   "f32 or f64 and wider than its storage type");
  }
  if (Consume(TokKind::kColon)) {
    const Tok axis_tok = tok_;
    ASSIGN_OR_RETURN(int64_t axis, ParseInt());
    if (axis < 0) {
      return ErrorAt(axis_tok, "the quantization dimension must not be "
                               "negative");
    }
    q.axis = axis;
  }
  RETURN_IF_ERROR(Expect(TokKind::kComma, "',' before the scales"));
  const bool braced = Consume(TokKind::kLBrace);
  if (q.per_axis() && !braced) {
    return Expected("'{' before the per-axis scales");
  }
  while (true) {
    const Tok scale_tok = tok_;
    if (!tok_.Is(TokKind::kFloat) && !tok_.Is(TokKind::kInt)) {
      return Expected("a scale like 0.5");
    }
    double scale = 0;
    if (!absl::SimpleAtod(std::string(tok_.text), &scale) || !(scale > 0) ||
        !std::isfinite(scale)) {
      return ErrorAt(scale_tok, absl::StrCat("scale ", DescribeTok(scale_tok),
                                             " is not a finite positive "
                                             "number"));
    }
    Advance();
    int64_t zero_point = 0;
    if (Consume(TokKind::kColon)) {
      const Tok zp_tok = tok_;
      ASSIGN_OR_RETURN(zero_point, ParseInt());
      if (zero_point < q.storage_min || zero_point > q.storage_max) {
        return ErrorAt(zp_tok, absl::StrCat("zero point ", zero_point,
                                            " is outside the storage range [",
                                            q.storage_min, ", ", q.storage_max,
                                            "]"));
      }
    }
    q.scales.push_back(scale);
    q.zero_points.push_back(zero_point);
    if (!braced || !Consume(TokKind::kComma)) break;
  }
  if (braced) RETURN_IF_ERROR(Expect(TokKind::kRBrace, "'}' after the scales"));
  if (!q.per_axis() && q.scales.size() != 1) {
    return ErrorAt(start, "a per-tensor quantized type has one scale");
  }
  RETURN_IF_ERROR(Expect(TokKind::kGreater, "'>' closing the quantized type"));
  return q;
}

absl::Status Parser::CheckQuantShape(const QuantType& q, const Shape& shape,
                                     const Tok& tok) const {
  if (!q.per_axis()) return absl::OkStatus();
  if (*q.axis >= shape.rank()) {
    return ErrorAt(tok, absl::StrCat("quantization dimension ", *q.axis,
                                     " is not below the rank ", shape.rank()));
  }
  if (static_cast<int64_t>(q.scales.size()) != shape.dimensions(*q.axis)) {
    return ErrorAt(tok, absl::StrCat("per-axis quantization has ",
                                     q.scales.size(), " scales for dimension ",
                                     *q.axis, " of size ",
                                     shape.dimensions(*q.axis)));
  }
  return absl::OkStatus();
}

}  // namespace aotc::shlo
