// The convolution kernel: general dimension numbers, window strides,
// padding (possibly negative), base (lhs) and window (rhs) dilation, window
// reversal, feature_group_count and batch_group_count.
//
// For output element (batch b, feature o, spatial position s):
//   feature group  g_f = o / (output_features / feature_group_count)
//   batch group    g_b = o / (output_features / batch_group_count)
//   out[b, o, s] = sum over window positions w (row-major over the spatial
//                  dimensions in dim_labels order) that land on an input
//                  element x(s, w), then over kernel input features z:
//     lhs[b + g_b * (input_batch / batch_group_count),
//         g_f * kernel_input_features + z, x(s, w)]
//     * rhs[z, o, w]              (w mirrored where rhs_reversal is set)
// The output batch size is input_batch / batch_group_count and the kernel's
// input feature size is input_features / feature_group_count, as in XLA.
// Products are summed in exactly that order; accumulation and mixed operand
// types follow linalg_internal.h.
#include <cstdint>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/linalg_internal.h"
#include "compiler/ir/native_type.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// Validated sizes and strides of one convolution.
struct ConvPlan {
  std::vector<WindowAxis> axes;
  std::vector<int64_t> result_dims;
  int64_t kernel_input_features = 0;
  int64_t output_feature_group_size = 0;  // output features per feature group
  int64_t output_batch_group_size = 0;    // output features per batch group
  int64_t batch_group_size = 0;           // input batches per batch group
  // The packing order of each operand (slowest first) and the strides of
  // the labelled dimensions in the packed layout.
  std::vector<int64_t> lhs_order, rhs_order;
  int64_t lhs_batch_stride = 0, lhs_feature_stride = 0;
  std::vector<int64_t> lhs_spatial_strides;
  int64_t rhs_in_stride = 0, rhs_out_stride = 0;
  std::vector<int64_t> rhs_spatial_strides;
};

absl::StatusOr<ConvPlan> PlanConvolution(const Instruction& inst,
                                         const Shape& lhs, const Shape& rhs) {
  const ConvolutionDimensionNumbers& dn = inst.conv_dnums();
  const size_t spatial = dn.input_spatial.size();
  if (dn.kernel_spatial.size() != spatial ||
      dn.output_spatial.size() != spatial) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("dim_labels give ", spatial, " input, ",
                     dn.kernel_spatial.size(), " kernel and ",
                     dn.output_spatial.size(), " output spatial dimensions"));
  }
  const int64_t rank = static_cast<int64_t>(spatial) + 2;
  if (lhs.rank() != rank || rhs.rank() != rank || !inst.shape().IsArray() ||
      inst.shape().rank() != rank) {
    return ErrorAt(inst.location(),
                   absl::StrCat("convolution with ", spatial,
                                " spatial dimensions needs rank ", rank,
                                " input, kernel and result, got ",
                                lhs.ToString(false), ", ", rhs.ToString(false),
                                " and ", inst.shape().ToString(false)));
  }
  std::vector<int64_t> lhs_dims = {dn.input_batch, dn.input_feature};
  lhs_dims.insert(lhs_dims.end(), dn.input_spatial.begin(),
                  dn.input_spatial.end());
  std::vector<int64_t> rhs_dims = {dn.kernel_input_feature,
                                   dn.kernel_output_feature};
  rhs_dims.insert(rhs_dims.end(), dn.kernel_spatial.begin(),
                  dn.kernel_spatial.end());
  std::vector<int64_t> out_dims = {dn.output_batch, dn.output_feature};
  out_dims.insert(out_dims.end(), dn.output_spatial.begin(),
                  dn.output_spatial.end());
  RETURN_IF_ERROR(CheckDimensionList(inst, "input dim_labels", lhs_dims, rank));
  RETURN_IF_ERROR(
      CheckDimensionList(inst, "kernel dim_labels", rhs_dims, rank));
  RETURN_IF_ERROR(
      CheckDimensionList(inst, "output dim_labels", out_dims, rank));

  const int64_t fgc = inst.feature_group_count();
  const int64_t bgc = inst.batch_group_count();
  if (fgc < 1 || bgc < 1) {
    return ErrorAt(inst.location(), absl::StrCat("feature_group_count ", fgc,
                                                 " and batch_group_count ", bgc,
                                                 " must be positive"));
  }
  const int64_t in_batch = lhs.dimensions(dn.input_batch);
  const int64_t in_features = lhs.dimensions(dn.input_feature);
  const int64_t k_in = rhs.dimensions(dn.kernel_input_feature);
  const int64_t k_out = rhs.dimensions(dn.kernel_output_feature);
  if (in_features % fgc != 0 || k_in != in_features / fgc || k_out % fgc != 0) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("feature_group_count ", fgc, " does not fit ", in_features,
                     " input features, ", k_in, " kernel input features and ",
                     k_out, " kernel output features"));
  }
  if (in_batch % bgc != 0 || k_out % bgc != 0) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("batch_group_count ", bgc, " does not divide ", in_batch,
                     " input batches and ", k_out, " kernel output features"));
  }
  std::vector<int64_t> in_spatial_sizes;
  for (int64_t d : dn.input_spatial)
    in_spatial_sizes.push_back(lhs.dimensions(d));
  ConvPlan plan;
  ASSIGN_OR_RETURN(plan.axes,
                   MakeWindowAxes(inst, inst.window(), in_spatial_sizes));
  for (size_t i = 0; i < spatial; ++i) {
    if (plan.axes[i].size != rhs.dimensions(dn.kernel_spatial[i])) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("window dimension ", i, " has size ", plan.axes[i].size,
                       " but kernel spatial dimension ", dn.kernel_spatial[i],
                       " has size ", rhs.dimensions(dn.kernel_spatial[i])));
    }
  }
  plan.result_dims.assign(rank, 0);
  plan.result_dims[dn.output_batch] = in_batch / bgc;
  plan.result_dims[dn.output_feature] = k_out;
  for (size_t i = 0; i < spatial; ++i) {
    plan.result_dims[dn.output_spatial[i]] = plan.axes[i].output_size;
  }
  plan.kernel_input_features = k_in;
  plan.output_feature_group_size = k_out / fgc;
  plan.output_batch_group_size = k_out / bgc;
  plan.batch_group_size = in_batch / bgc;
  // Both operands are packed with the features fastest, so that the inner
  // loop over input features reads contiguous memory.
  plan.lhs_order = {dn.input_batch};
  plan.lhs_order.insert(plan.lhs_order.end(), dn.input_spatial.begin(),
                        dn.input_spatial.end());
  plan.lhs_order.push_back(dn.input_feature);
  plan.rhs_order = {dn.kernel_output_feature};
  plan.rhs_order.insert(plan.rhs_order.end(), dn.kernel_spatial.begin(),
                        dn.kernel_spatial.end());
  plan.rhs_order.push_back(dn.kernel_input_feature);
  const std::vector<int64_t> ls =
      linalg::PermutedStrides(lhs.dimensions(), plan.lhs_order);
  const std::vector<int64_t> rs =
      linalg::PermutedStrides(rhs.dimensions(), plan.rhs_order);
  plan.lhs_batch_stride = ls[dn.input_batch];
  plan.lhs_feature_stride = ls[dn.input_feature];
  plan.rhs_in_stride = rs[dn.kernel_input_feature];
  plan.rhs_out_stride = rs[dn.kernel_output_feature];
  for (size_t i = 0; i < spatial; ++i) {
    plan.lhs_spatial_strides.push_back(ls[dn.input_spatial[i]]);
    plan.rhs_spatial_strides.push_back(rs[dn.kernel_spatial[i]]);
  }
  return plan;
}

template <PrimitiveType R>
absl::StatusOr<Literal> ConvolutionTyped(const Instruction& inst,
                                         const Literal& lhs, const Literal& rhs,
                                         const ConvPlan& plan) {
  using linalg::Accum;
  std::vector<Accum<R>> a, b;
  static constexpr const char* kNames[2] = {"input", "kernel"};
  RETURN_IF_ERROR(linalg::LoadOperands<R>(inst, lhs, rhs, plan.lhs_order,
                                          plan.rhs_order, kNames, &a, &b));
  const ConvolutionDimensionNumbers& dn = inst.conv_dnums();
  const size_t spatial = plan.axes.size();
  Literal result(inst.shape());
  absl::Span<NativeType<R>> out = result.mutable_data<NativeType<R>>();
  std::vector<std::vector<WindowTap>> taps(spatial);
  int64_t out_index = 0;
  for (IndexWalker it(plan.result_dims, {}); !it.done(); it.Next()) {
    const std::vector<int64_t>& idx = it.index();
    const int64_t o = idx[dn.output_feature];
    const int64_t feature_group = o / plan.output_feature_group_size;
    const int64_t batch_group = o / plan.output_batch_group_size;
    const int64_t batch =
        idx[dn.output_batch] + batch_group * plan.batch_group_size;
    const int64_t lhs_base =
        batch * plan.lhs_batch_stride +
        feature_group * plan.kernel_input_features * plan.lhs_feature_stride;
    const int64_t rhs_base = o * plan.rhs_out_stride;
    for (size_t i = 0; i < spatial; ++i) {
      plan.axes[i].Taps(idx[dn.output_spatial[i]], &taps[i]);
    }
    Accum<R> acc{};
    RETURN_IF_ERROR(ForEachTapCombination(
        taps, [&](absl::Span<const size_t> pos) -> absl::Status {
          int64_t lhs_off = lhs_base;
          int64_t rhs_off = rhs_base;
          for (size_t i = 0; i < spatial; ++i) {
            const WindowTap& tap = taps[i][pos[i]];
            const WindowAxis& axis = plan.axes[i];
            const int64_t k =
                axis.reversal ? axis.size - 1 - tap.window : tap.window;
            lhs_off += tap.operand * plan.lhs_spatial_strides[i];
            rhs_off += k * plan.rhs_spatial_strides[i];
          }
          for (int64_t z = 0; z < plan.kernel_input_features; ++z) {
            acc = linalg::MultiplyAdd<R>(
                acc, a[lhs_off + z * plan.lhs_feature_stride],
                b[rhs_off + z * plan.rhs_in_stride]);
          }
          return absl::OkStatus();
        }));
    out[out_index++] = linalg::FromAccum<R>(acc);
  }
  return result;
}

}  // namespace

absl::StatusOr<Literal> EvalConvolution(const Instruction& inst,
                                        Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.size() != 2) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("convolution expects 2 operands, got ", operands.size()));
  }
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  ASSIGN_OR_RETURN(ConvPlan plan,
                   PlanConvolution(inst, lhs.shape(), rhs.shape()));
  const PrimitiveType type = inst.shape().element_type();
  RETURN_IF_ERROR(
      CheckResultArray(inst, "result", inst.shape(), type, plan.result_dims));
  absl::StatusOr<Literal> result;
  DispatchComputableType(type, [&]<PrimitiveType R>() {
    result = ConvolutionTyped<R>(inst, lhs, rhs, plan);
  });
  return result;
}

}  // namespace aotc::eval
