// Shape inference for dot (general dimension numbers) and convolution.
//
// Both may mix operand precisions (bf16 x bf16 -> f32), so the result
// element type is the declared one; the dimensions are inferred. A dot result
// lists the batch dimensions, then the lhs free dimensions, then the rhs free
// dimensions, each group in operand order.
#include <algorithm>

#include "compiler/ir/shape_inference_internal.h"
#include "compiler/support/status_macros.h"

namespace aotc::shape_internal {
namespace {

// Dimensions of `shape` listed in neither `a` nor `b`, in order.
std::vector<int64_t> FreeDims(const Shape& shape, absl::Span<const int64_t> a,
                              absl::Span<const int64_t> b) {
  std::vector<int64_t> dims;
  for (int i = 0; i < shape.rank(); ++i) {
    bool used = std::find(a.begin(), a.end(), i) != a.end() ||
                std::find(b.begin(), b.end(), i) != b.end();
    if (!used) dims.push_back(shape.dimensions(i));
  }
  return dims;
}

absl::Status CheckPairedSizes(const Shape& lhs, absl::Span<const int64_t> l,
                              const Shape& rhs, absl::Span<const int64_t> r,
                              std::string_view kind) {
  if (l.size() != r.size()) {
    return ShapeError("dot has ", l.size(), " lhs ", Sv(kind),
                      " dimensions but ", r.size(), " rhs ", Sv(kind),
                      " dimensions");
  }
  for (size_t i = 0; i < l.size(); ++i) {
    if (lhs.dimensions(l[i]) != rhs.dimensions(r[i])) {
      return ShapeError("dot ", Sv(kind),
                        " dimension sizes differ: lhs "
                        "dimension ",
                        l[i], " has size ", lhs.dimensions(l[i]),
                        ", rhs dimension ", r[i], " has size ",
                        rhs.dimensions(r[i]));
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> Concat(int64_t a, int64_t b,
                            const std::vector<int64_t>& rest) {
  std::vector<int64_t> all = {a, b};
  all.insert(all.end(), rest.begin(), rest.end());
  return all;
}

}  // namespace

absl::StatusOr<Shape> InferDotShape(const Instruction& inst) {
  ASSIGN_OR_RETURN(const Shape* lhs, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* rhs, ArrayOperand(inst, 1));
  const DotDimensionNumbers& dn = inst.dot_dnums();
  std::vector<int64_t> lhs_used = dn.lhs_batch;
  lhs_used.insert(lhs_used.end(), dn.lhs_contracting.begin(),
                  dn.lhs_contracting.end());
  std::vector<int64_t> rhs_used = dn.rhs_batch;
  rhs_used.insert(rhs_used.end(), dn.rhs_contracting.begin(),
                  dn.rhs_contracting.end());
  RETURN_IF_ERROR(
      CheckDistinctDimensions(lhs_used, lhs->rank(), "lhs dot dimension"));
  RETURN_IF_ERROR(
      CheckDistinctDimensions(rhs_used, rhs->rank(), "rhs dot dimension"));
  RETURN_IF_ERROR(
      CheckPairedSizes(*lhs, dn.lhs_batch, *rhs, dn.rhs_batch, "batch"));
  RETURN_IF_ERROR(CheckPairedSizes(*lhs, dn.lhs_contracting, *rhs,
                                   dn.rhs_contracting, "contracting"));
  std::vector<int64_t> dims;
  for (int64_t d : dn.lhs_batch) dims.push_back(lhs->dimensions(d));
  for (int64_t d : FreeDims(*lhs, dn.lhs_batch, dn.lhs_contracting)) {
    dims.push_back(d);
  }
  for (int64_t d : FreeDims(*rhs, dn.rhs_batch, dn.rhs_contracting)) {
    dims.push_back(d);
  }
  return Shape::Array(DeclaredElementType(inst, lhs->element_type()), dims);
}

absl::StatusOr<Shape> InferConvolutionShape(const Instruction& inst) {
  RETURN_IF_ERROR(ExpectOperandCount(inst, 2));
  ASSIGN_OR_RETURN(const Shape* lhs, ArrayOperand(inst, 0));
  ASSIGN_OR_RETURN(const Shape* rhs, ArrayOperand(inst, 1));
  const ConvolutionDimensionNumbers& dn = inst.conv_dnums();
  const std::vector<WindowDim>& window = inst.window();
  size_t spatial = dn.input_spatial.size();
  if (dn.kernel_spatial.size() != spatial ||
      dn.output_spatial.size() != spatial || window.size() != spatial) {
    return ShapeError(
        "convolution has ", spatial, " input, ", dn.kernel_spatial.size(),
        " kernel and ", dn.output_spatial.size(),
        " output spatial dimensions and a window of rank ", window.size());
  }
  int rank = static_cast<int>(spatial) + 2;
  for (int i = 0; i < 2; ++i) {
    const Shape& s = i == 0 ? *lhs : *rhs;
    if (s.rank() != rank) {
      return ShapeError("operand ", i, " has shape ", ShapeText(s),
                        ", expected rank ", rank, " for ", spatial,
                        " spatial dimensions");
    }
  }
  RETURN_IF_ERROR(CheckDistinctDimensions(
      Concat(dn.input_batch, dn.input_feature, dn.input_spatial), rank,
      "convolution input dimension"));
  RETURN_IF_ERROR(CheckDistinctDimensions(
      Concat(dn.kernel_input_feature, dn.kernel_output_feature,
             dn.kernel_spatial),
      rank, "convolution kernel dimension"));
  RETURN_IF_ERROR(CheckDistinctDimensions(
      Concat(dn.output_batch, dn.output_feature, dn.output_spatial), rank,
      "convolution output dimension"));
  int64_t fgc = inst.feature_group_count();
  int64_t bgc = inst.batch_group_count();
  if (fgc < 1 || bgc < 1 || (fgc > 1 && bgc > 1)) {
    return ShapeError("convolution has feature_group_count ", fgc,
                      " and batch_group_count ", bgc,
                      "; both must be at least 1 and at most one above 1");
  }
  int64_t input_batch = lhs->dimensions(dn.input_batch);
  int64_t input_features = lhs->dimensions(dn.input_feature);
  int64_t kernel_input = rhs->dimensions(dn.kernel_input_feature);
  int64_t kernel_output = rhs->dimensions(dn.kernel_output_feature);
  if (input_features % fgc != 0 || input_features / fgc != kernel_input) {
    return ShapeError("convolution input feature size ", input_features,
                      " does not match kernel input feature size ",
                      kernel_input, " times feature_group_count ", fgc);
  }
  if (kernel_output % fgc != 0 || kernel_output % bgc != 0) {
    return ShapeError("convolution kernel output feature size ", kernel_output,
                      " is not divisible by the group count ",
                      fgc > 1 ? fgc : bgc);
  }
  if (input_batch % bgc != 0) {
    return ShapeError("convolution input batch size ", input_batch,
                      " is not divisible by batch_group_count ", bgc);
  }
  std::vector<int64_t> dims(rank);
  dims[dn.output_batch] = input_batch / bgc;
  dims[dn.output_feature] = kernel_output;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t kernel_size = rhs->dimensions(dn.kernel_spatial[i]);
    if (window[i].size != kernel_size) {
      return ShapeError("window dimension ", i, " has size ", window[i].size,
                        " but kernel spatial dimension ", dn.kernel_spatial[i],
                        " has size ", kernel_size);
    }
    ASSIGN_OR_RETURN(dims[dn.output_spatial[i]],
                     WindowedOutputSize(lhs->dimensions(dn.input_spatial[i]),
                                        window[i], static_cast<int>(i)));
  }
  return Shape::Array(DeclaredElementType(inst, lhs->element_type()), dims);
}

}  // namespace aotc::shape_internal
