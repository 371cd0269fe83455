// Attribute structs of HLO instructions: the values behind `dimensions=`,
// `slice=`, `window=`, `dim_labels=`, dot/gather/scatter dimension numbers,
// comparison direction and so on. Field meanings follow XLA's xla_data.proto.
#ifndef AOTC_COMPILER_IR_ATTRIBUTES_H_
#define AOTC_COMPILER_IR_ATTRIBUTES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aotc {

struct SliceDim {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
  bool operator==(const SliceDim&) const = default;
};

struct PaddingDim {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
  bool operator==(const PaddingDim&) const = default;
};

struct WindowDim {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t pad_low = 0;
  int64_t pad_high = 0;
  int64_t window_dilation = 1;  // rhs_dilate
  int64_t base_dilation = 1;    // lhs_dilate
  bool reversal = false;        // rhs_reversal
  bool operator==(const WindowDim&) const = default;
};

struct ConvolutionDimensionNumbers {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;
  bool operator==(const ConvolutionDimensionNumbers&) const = default;
};

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
  std::vector<int64_t> lhs_batch;
  std::vector<int64_t> rhs_batch;
  bool operator==(const DotDimensionNumbers&) const = default;
};

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  bool operator==(const GatherDimensionNumbers&) const = default;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  bool operator==(const ScatterDimensionNumbers&) const = default;
};

enum class ComparisonDirection { kEq, kNe, kLt, kLe, kGt, kGe };
// kUnset: the text gave no `type=`; the comparison uses the default for the
// element type (FLOAT for floats, SIGNED / UNSIGNED for integers).
enum class ComparisonType { kUnset, kFloat, kTotalOrder, kSigned, kUnsigned };

std::string_view ComparisonDirectionName(ComparisonDirection d);  // "EQ"...
std::optional<ComparisonDirection> ComparisonDirectionFromName(
    std::string_view name);
std::string_view ComparisonTypeName(ComparisonType t);  // "FLOAT"...
std::optional<ComparisonType> ComparisonTypeFromName(std::string_view name);

enum class FusionKind { kLoop, kInput, kOutput, kCustom };
std::string_view FusionKindName(FusionKind k);  // "kLoop"...
std::optional<FusionKind> FusionKindFromName(std::string_view name);

// fft's fft_type: forward and inverse complex transforms, real to complex
// (the n/2+1 non-redundant outputs) and its inverse.
enum class FftType { kFft, kIfft, kRfft, kIrfft };
std::string_view FftTypeName(FftType t);  // "FFT"...
std::optional<FftType> FftTypeFromName(std::string_view name);

// triangular-solve's transpose_a: op(a) is a, its transpose or its
// conjugate transpose.
enum class TransposeKind { kNoTranspose, kTranspose, kAdjoint };
std::string_view TransposeKindName(TransposeKind t);  // "NO_TRANSPOSE"...
std::optional<TransposeKind> TransposeKindFromName(std::string_view name);

// The parts of `metadata={...}` that aotc uses in diagnostics; every other
// sub-attribute is kept as raw `key=value` text for printing.
struct OpMetadata {
  std::string op_type;
  std::string op_name;
  std::string source_file;
  int64_t source_line = 0;
  std::vector<std::pair<std::string, std::string>> other;  // key, raw value

  bool empty() const {
    return op_type.empty() && op_name.empty() && source_file.empty() &&
           source_line == 0 && other.empty();
  }
  bool operator==(const OpMetadata&) const = default;
};

}  // namespace aotc

#endif  // AOTC_COMPILER_IR_ATTRIBUTES_H_
