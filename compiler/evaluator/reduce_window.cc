// Windowed reductions: reduce-window and select-and-scatter.
//
// Both walk a window over a padded, possibly base-dilated operand. Window
// positions that fall into padding or into base-dilation holes are skipped:
// for reduce-window they contribute nothing (as if they held the init
// value), for select-and-scatter they can never be selected.
//
// reduce-window: for every output element the accumulators start from the
// init values and the window positions are visited in row-major order
// (dimension 0 slowest), acc = to_apply(acc_0..acc_{N-1}, x_0..x_{N-1}); a
// result type other than the accumulator's gets the final value converted.
//
// select-and-scatter: the result starts filled with the init value. For
// every source element (row-major) the window is scanned in row-major order;
// the first valid position is selected, and a later candidate replaces the
// current selection when select(selected, candidate) is false (so on ties the
// first position wins with `GE`/`LE` selectors). Then
//   result[selected] = scatter(result[selected], source[s])
// with the current result value first, as XLA's CPU backend calls it.
#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {
namespace {

// Fills taps[d] with the window taps of output index `out` along each axis.
void CollectTaps(const std::vector<WindowAxis>& axes,
                 const std::vector<int64_t>& out,
                 std::vector<std::vector<WindowTap>>* taps) {
  taps->resize(axes.size());
  for (size_t d = 0; d < axes.size(); ++d) axes[d].Taps(out[d], &(*taps)[d]);
}

// The row-major linear operand index of one tap combination.
int64_t TapOffset(const std::vector<std::vector<WindowTap>>& taps,
                  absl::Span<const size_t> pos,
                  const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < taps.size(); ++d) {
    offset += taps[d][pos[d]].operand * strides[d];
  }
  return offset;
}

std::vector<int64_t> OutputDims(const std::vector<WindowAxis>& axes) {
  std::vector<int64_t> dims;
  for (const WindowAxis& a : axes) dims.push_back(a.output_size);
  return dims;
}

}  // namespace

absl::StatusOr<Literal> EvalReduceWindow(const Instruction& inst,
                                         Operands operands,
                                         const CallFn& call) {
  ASSIGN_OR_RETURN(ReduceOperands ops, SplitReduceOperands(inst, operands));
  const std::vector<int64_t>& in_dims = ops.inputs[0]->shape().dimensions();
  ASSIGN_OR_RETURN(std::vector<WindowAxis> axes,
                   MakeWindowAxes(inst, inst.window(), in_dims));
  const std::vector<int64_t> out_dims = OutputDims(axes);
  ASSIGN_OR_RETURN(std::vector<Literal> results,
                   MakeReduceResults(inst, ops.acc_types, out_dims,
                                     /*exact_types=*/false));
  ASSIGN_OR_RETURN(const Computation* reducer,
                   ScalarComputation(inst, 0, "to_apply", ops.param_types));

  const int n = ops.n;
  const std::vector<int64_t> strides = RowMajorStrides(in_dims);
  ScalarArgs args(ops.param_types);
  std::vector<std::vector<WindowTap>> taps;
  int64_t out_index = 0;
  for (IndexWalker out(out_dims, {}); !out.done(); out.Next()) {
    for (int i = 0; i < n; ++i) args.LoadScalar(i, *ops.inits[i]);
    CollectTaps(axes, out.index(), &taps);
    RETURN_IF_ERROR(ForEachTapCombination(
        taps, [&](absl::Span<const size_t> pos) -> absl::Status {
          const int64_t in_index = TapOffset(taps, pos, strides);
          for (int i = 0; i < n; ++i)
            args.Load(n + i, *ops.inputs[i], in_index);
          ASSIGN_OR_RETURN(Literal acc,
                           CallScalar(inst, call, *reducer, "to_apply",
                                      args.operands(), ops.acc_types));
          for (int i = 0; i < n; ++i) args.LoadScalar(i, ScalarPart(acc, i));
          return absl::OkStatus();
        }));
    for (int i = 0; i < n; ++i) {
      ConvertElementInto(args.arg(i), 0, results[i], out_index);
    }
    ++out_index;
  }
  return PackResults(std::move(results));
}

absl::StatusOr<Literal> EvalSelectAndScatter(const Instruction& inst,
                                             Operands operands,
                                             const CallFn& call) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.size() != 3) {
    return ErrorAt(inst.location(),
                   absl::StrCat("expected 3 operands (operand, source, init "
                                "value), got ",
                                operands.size()));
  }
  const Literal& operand = *operands[0];
  const Literal& source = *operands[1];
  const Literal& init = *operands[2];
  if (!init.shape().IsScalar()) {
    return ErrorAt(inst.location(), absl::StrCat("init value has shape ",
                                                 init.shape().ToString(false),
                                                 ", expected a scalar"));
  }
  const PrimitiveType operand_type = operand.shape().element_type();
  const PrimitiveType source_type = source.shape().element_type();
  const PrimitiveType out_type = init.shape().element_type();
  const std::vector<int64_t>& dims = operand.shape().dimensions();
  ASSIGN_OR_RETURN(std::vector<WindowAxis> axes,
                   MakeWindowAxes(inst, inst.window(), dims));
  const std::vector<int64_t> window_out = OutputDims(axes);
  if (source.shape().dimensions() != window_out) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("source has shape ", source.shape().ToString(false),
                     ", expected dimensions [", absl::StrJoin(window_out, ","),
                     "] from the window"));
  }
  RETURN_IF_ERROR(
      CheckResultArray(inst, "result", inst.shape(), out_type, dims));
  const PrimitiveType select_types[] = {operand_type, operand_type};
  const PrimitiveType scatter_types[] = {out_type, source_type};
  ASSIGN_OR_RETURN(const Computation* select,
                   ScalarComputation(inst, 0, "select", select_types));
  ASSIGN_OR_RETURN(const Computation* scatter,
                   ScalarComputation(inst, 1, "scatter", scatter_types));

  Literal result(inst.shape());
  for (int64_t i = 0; i < result.element_count(); ++i) {
    CopyElement(init, 0, result, i);
  }
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  ScalarArgs select_args(select_types);
  ScalarArgs scatter_args(scatter_types);
  const PrimitiveType pred_type[] = {PrimitiveType::kPred};
  const PrimitiveType out_types[] = {out_type};
  std::vector<std::vector<WindowTap>> taps;
  int64_t source_index = 0;
  for (IndexWalker s(window_out, {}); !s.done(); s.Next(), ++source_index) {
    CollectTaps(axes, s.index(), &taps);
    int64_t selected = -1;
    RETURN_IF_ERROR(ForEachTapCombination(
        taps, [&](absl::Span<const size_t> pos) -> absl::Status {
          const int64_t candidate = TapOffset(taps, pos, strides);
          if (selected < 0) {
            selected = candidate;
            return absl::OkStatus();
          }
          select_args.Load(0, operand, selected);
          select_args.Load(1, operand, candidate);
          ASSIGN_OR_RETURN(Literal keep,
                           CallScalar(inst, call, *select, "select",
                                      select_args.operands(), pred_type));
          if (!PredValue(keep)) selected = candidate;
          return absl::OkStatus();
        }));
    if (selected < 0) continue;
    scatter_args.Load(0, result, selected);
    scatter_args.Load(1, source, source_index);
    ASSIGN_OR_RETURN(Literal value,
                     CallScalar(inst, call, *scatter, "scatter",
                                scatter_args.operands(), out_types));
    CopyElement(value, 0, result, selected);
  }
  return result;
}

}  // namespace aotc::eval
