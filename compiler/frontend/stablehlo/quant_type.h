// Uniform quantized element types of StableHLO (`!quant.uniform<...>`) as
// the front end keeps them beside the IR.
//
// aotc's IR has no quantized element type: a quantized tensor is an array
// of its storage type (i8, ui8, ...), and the quantization parameters live
// in the StableHLO parser, per value, while it builds the module. The
// builders of build_quantized.cc read them to lower quantized operations
// into arithmetic on the expressed type, so the evaluator and code
// generation see ordinary integer and float instructions.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_QUANT_TYPE_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_QUANT_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/primitive_type.h"

namespace aotc::shlo {

struct QuantType {
  PrimitiveType storage = PrimitiveType::kInvalid;    // s8, u8, s16, ...
  PrimitiveType expressed = PrimitiveType::kInvalid;  // f32, bf16, ...
  int64_t storage_min = 0;  // inclusive; the storage type's range by default
  int64_t storage_max = 0;
  // Per-axis quantization: the dimension whose slices have their own
  // parameters. Empty for per-tensor quantization (one scale).
  std::optional<int64_t> axis;
  // The scales as written (MLIR keeps them as f64; the spec converts them
  // to the expressed type where it uses them) and the zero points.
  std::vector<double> scales;
  std::vector<int64_t> zero_points;

  bool per_axis() const { return axis.has_value(); }
  // The same storage, expressed type, range, scales and zero points; the
  // axis is not compared (movement operations may move it).
  bool SameParameters(const QuantType& o) const;
  // `!quant.uniform<i8<-127:127>:f32:1, {0.1:-3,0.2:0}>`, for messages.
  std::string ToString() const;
};

// MLIR's spelling of an element type: i8, ui8, f32.
std::string MlirName(PrimitiveType type);

// The smallest and largest value of an integer storage type.
int64_t StorageTypeMin(PrimitiveType type);
int64_t StorageTypeMax(PrimitiveType type);

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_QUANT_TYPE_H_
