// EvalReduction: dispatch of reduce, reduce-window, select-and-scatter, sort
// and topk, and the reduce kernel itself.
//
// reduce applies its to_apply computation sequentially. For every result
// element the accumulators start from the init values and the reduced
// dimensions are visited in row-major order (ascending dimension number,
// whatever order `dimensions=` lists them in):
//   acc = to_apply(acc_0..acc_{N-1}, x_0..x_{N-1})
// This left-to-right order is the oracle's order; code generators that
// reassociate are compared against it within a tolerance. A result element
// type that differs from the accumulator's (a bf16 reduce with an f32
// reducer) gets the final accumulator converted once, as `convert` would.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/evaluator/kernel_util.h"
#include "compiler/evaluator/kernels.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/ir/opcode.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostic.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::eval {

absl::StatusOr<ReduceOperands> SplitReduceOperands(const Instruction& inst,
                                                   Operands operands) {
  RETURN_IF_ERROR(CheckArrayOperands(inst, operands));
  if (operands.empty() || operands.size() % 2 != 0) {
    return ErrorAt(inst.location(),
                   absl::StrCat("expected an even, non-zero number of operands "
                                "(inputs then init values), got ",
                                operands.size()));
  }
  ReduceOperands r;
  r.n = static_cast<int>(operands.size() / 2);
  for (int i = 0; i < r.n; ++i) {
    const Literal& input = *operands[i];
    const Literal& init = *operands[r.n + i];
    if (!input.shape().SameDimensions(operands[0]->shape())) {
      return ErrorAt(inst.location(),
                     absl::StrCat("input ", i, " has shape ",
                                  input.shape().ToString(false),
                                  ", expected the dimensions of input 0 (",
                                  operands[0]->shape().ToString(false), ")"));
    }
    if (!init.shape().IsScalar()) {
      return ErrorAt(
          inst.location(),
          absl::StrCat("init value ", i, " has shape ",
                       init.shape().ToString(false), ", expected a scalar"));
    }
    r.inputs.push_back(&input);
    r.inits.push_back(&init);
    r.acc_types.push_back(init.shape().element_type());
  }
  r.param_types = r.acc_types;
  for (const Literal* input : r.inputs) {
    r.param_types.push_back(input->shape().element_type());
  }
  return r;
}

absl::StatusOr<std::vector<Literal>> MakeReduceResults(
    const Instruction& inst, absl::Span<const PrimitiveType> acc_types,
    absl::Span<const int64_t> dims, bool exact_types) {
  const Shape& shape = inst.shape();
  const size_t n = acc_types.size();
  if ((n == 1) == shape.IsTuple() ||
      (n > 1 && static_cast<size_t>(shape.tuple_size()) != n)) {
    return ErrorAt(
        inst.location(),
        absl::StrCat("result has shape ", shape.ToString(false), ", expected ",
                     n == 1 ? std::string("an array")
                            : absl::StrCat("a tuple of ", n, " arrays")));
  }
  std::vector<const Shape*> arrays = ResultArrays(shape);
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) {
    const PrimitiveType type = exact_types || !arrays[i]->IsArray()
                                   ? acc_types[i]
                                   : arrays[i]->element_type();
    RETURN_IF_ERROR(CheckResultArray(
        inst,
        n == 1 ? std::string("result") : absl::StrCat("result element ", i),
        *arrays[i], type, dims));
    results.emplace_back(*arrays[i]);
  }
  return results;
}

Literal PackResults(std::vector<Literal> results) {
  if (results.size() == 1) return std::move(results[0]);
  return Literal::MakeTuple(std::move(results));
}

absl::StatusOr<Literal> EvalReduce(const Instruction& inst, Operands operands,
                                   const CallFn& call) {
  ASSIGN_OR_RETURN(ReduceOperands ops, SplitReduceOperands(inst, operands));
  const std::vector<int64_t>& in_dims = ops.inputs[0]->shape().dimensions();
  const int64_t rank = static_cast<int64_t>(in_dims.size());
  const std::vector<int64_t>& reduced_list = inst.dimensions();
  RETURN_IF_ERROR(CheckDimensionList(inst, "dimensions", reduced_list, rank));

  std::vector<bool> is_reduced(rank, false);
  for (int64_t d : reduced_list) is_reduced[d] = true;
  const std::vector<int64_t> strides = RowMajorStrides(in_dims);
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides;
  for (int64_t d = 0; d < rank; ++d) {
    (is_reduced[d] ? red_dims : kept_dims).push_back(in_dims[d]);
    (is_reduced[d] ? red_strides : kept_strides).push_back(strides[d]);
  }
  ASSIGN_OR_RETURN(std::vector<Literal> results,
                   MakeReduceResults(inst, ops.acc_types, kept_dims,
                                     /*exact_types=*/false));
  ASSIGN_OR_RETURN(const Computation* reducer,
                   ScalarComputation(inst, 0, "to_apply", ops.param_types));

  const int n = ops.n;
  ScalarArgs args(ops.param_types);
  int64_t out_index = 0;
  for (IndexWalker out(kept_dims, {kept_strides}); !out.done(); out.Next()) {
    for (int i = 0; i < n; ++i) args.LoadScalar(i, *ops.inits[i]);
    for (IndexWalker red(red_dims, {red_strides}); !red.done(); red.Next()) {
      const int64_t in_index = out.offset(0) + red.offset(0);
      for (int i = 0; i < n; ++i) args.Load(n + i, *ops.inputs[i], in_index);
      ASSIGN_OR_RETURN(Literal acc, CallScalar(inst, call, *reducer, "to_apply",
                                               args.operands(), ops.acc_types));
      for (int i = 0; i < n; ++i) args.LoadScalar(i, ScalarPart(acc, i));
    }
    for (int i = 0; i < n; ++i) {
      ConvertElementInto(args.arg(i), 0, results[i], out_index);
    }
    ++out_index;
  }
  return PackResults(std::move(results));
}

absl::StatusOr<Literal> EvalReduction(const Instruction& inst,
                                      Operands operands, const CallFn& call) {
  switch (inst.opcode()) {
    case Opcode::kReduce:
      return EvalReduce(inst, operands, call);
    case Opcode::kReduceWindow:
      return EvalReduceWindow(inst, operands, call);
    case Opcode::kSelectAndScatter:
      return EvalSelectAndScatter(inst, operands, call);
    case Opcode::kSort:
      return EvalSort(inst, operands, call);
    case Opcode::kTopK:
      return EvalTopK(inst, operands);
    default:
      break;
  }
  AOTC_CHECK(false, "EvalReduction called on an opcode it does not handle");
  return absl::InternalError("unreachable");
}

}  // namespace aotc::eval
