// StableHLO parser: builders of the operations with dimension numbers,
// windows or called computations: dot and dot_general, gather, scatter,
// reduce, map, sort, reduce_window, select_and_scatter and convolution.
// The attribute names are the generic form's (parse_ops.cc maps the pretty
// keywords to them).
#include "compiler/frontend/stablehlo/dot_algorithm.h"
#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

absl::StatusOr<Instruction*> OpBuilders::Dot(OpBuild& b) {
  // The older dot: a vector or matrix product over lhs's last and rhs's
  // first dimension.
  RETURN_IF_ERROR(b.reader.Operands(2));
  const Shape& lhs = b.op.operands[0]->shape();
  if (!lhs.IsArray() || lhs.rank() < 1 || lhs.rank() > 2) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "dot needs rank-1 or rank-2 operands");
  }
  Instruction* dot = b.Emit(Opcode::kDot, b.shape, b.op.operands);
  dot->mutable_attrs().dot_dnums.lhs_contracting = {lhs.rank() - 1};
  dot->mutable_attrs().dot_dnums.rhs_contracting = {0};
  RETURN_IF_ERROR(b.reader.Precision(&dot->mutable_attrs()));
  return dot;
}

absl::StatusOr<Instruction*> OpBuilders::DotGeneral(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  ASSIGN_OR_RETURN(const Attr* d, b.reader.Dnums("dot_dimension_numbers"));
  auto product = [d](OpBuild& b) -> absl::StatusOr<Instruction*> {
    Instruction* dot = b.Emit(Opcode::kDot, b.shape, b.op.operands);
    DotDimensionNumbers& dn = dot->mutable_attrs().dot_dnums;
    RETURN_IF_ERROR(
        b.reader.Field(*d, "lhs_batching_dimensions", &dn.lhs_batch));
    RETURN_IF_ERROR(
        b.reader.Field(*d, "rhs_batching_dimensions", &dn.rhs_batch));
    RETURN_IF_ERROR(
        b.reader.Field(*d, "lhs_contracting_dimensions", &dn.lhs_contracting));
    RETURN_IF_ERROR(
        b.reader.Field(*d, "rhs_contracting_dimensions", &dn.rhs_contracting));
    RETURN_IF_ERROR(b.reader.Precision(&dot->mutable_attrs()));
    return dot;
  };
  if (const Attr* algorithm = b.reader.Find("algorithm")) {
    return BuildDotWithAlgorithm(b, *algorithm, product);
  }
  return product(b);
}

absl::StatusOr<Instruction*> OpBuilders::Gather(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  ASSIGN_OR_RETURN(const Attr* d, b.reader.Dnums("dimension_numbers"));
  Instruction* g = b.Emit(Opcode::kGather, b.shape, b.op.operands);
  InstructionAttributes& a = g->mutable_attrs();
  GatherDimensionNumbers& dn = a.gather_dnums;
  RETURN_IF_ERROR(b.reader.Field(*d, "offset_dims", &dn.offset_dims));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "collapsed_slice_dims", &dn.collapsed_slice_dims));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "operand_batching_dims", &dn.operand_batching_dims));
  RETURN_IF_ERROR(b.reader.Field(*d, "start_indices_batching_dims",
                                 &dn.start_indices_batching_dims));
  RETURN_IF_ERROR(b.reader.Field(*d, "start_index_map", &dn.start_index_map));
  RETURN_IF_ERROR(
      b.reader.FieldInt(*d, "index_vector_dim", &dn.index_vector_dim));
  RETURN_IF_ERROR(b.reader.Ints("slice_sizes", &a.slice_sizes, true));
  a.indices_are_sorted = b.reader.Flag("indices_are_sorted");
  return g;
}

absl::StatusOr<Instruction*> OpBuilders::Scatter(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Regions(1));
  const size_t n = b.op.operands.size();
  if (n < 3 || n % 2 == 0) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "scatter needs N inputs, the indices and "
                            "N updates");
  }
  ASSIGN_OR_RETURN(const Attr* d, b.reader.Dnums("scatter_dimension_numbers"));
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* s = b.Emit(Opcode::kScatter, b.shape, b.op.operands);
  InstructionAttributes& a = s->mutable_attrs();
  ScatterDimensionNumbers& dn = a.scatter_dnums;
  RETURN_IF_ERROR(
      b.reader.Field(*d, "update_window_dims", &dn.update_window_dims));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "inserted_window_dims", &dn.inserted_window_dims));
  RETURN_IF_ERROR(
      b.reader.Field(*d, "input_batching_dims", &dn.input_batching_dims));
  RETURN_IF_ERROR(b.reader.Field(*d, "scatter_indices_batching_dims",
                                 &dn.scatter_indices_batching_dims));
  RETURN_IF_ERROR(b.reader.Field(*d, "scatter_dims_to_operand_dims",
                                 &dn.scatter_dims_to_operand_dims));
  RETURN_IF_ERROR(
      b.reader.FieldInt(*d, "index_vector_dim", &dn.index_vector_dim));
  a.indices_are_sorted = b.reader.Flag("indices_are_sorted");
  a.unique_indices = b.reader.Flag("unique_indices");
  s->set_called_computations({b.op.regions[0]});
  return s;
}

absl::StatusOr<Instruction*> OpBuilders::Reduce(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Regions(1));
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* r = b.Emit(Opcode::kReduce, b.shape, b.op.operands);
  RETURN_IF_ERROR(
      b.reader.Ints("dimensions", &r->mutable_attrs().dimensions, true));
  r->set_called_computations({b.op.regions[0]});
  return r;
}

absl::StatusOr<Instruction*> OpBuilders::Map(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Regions(1));
  Instruction* m = b.Emit(Opcode::kMap, b.shape, b.op.operands);
  RETURN_IF_ERROR(
      b.reader.Ints("dimensions", &m->mutable_attrs().dimensions, false));
  m->set_called_computations({b.op.regions[0]});
  return m;
}

absl::StatusOr<Instruction*> OpBuilders::Sort(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Regions(1));
  if (b.op.operands.empty() || !b.op.operands[0]->shape().IsArray()) {
    return b.parser.ErrorAt(b.op.name_tok, "sort needs array operands");
  }
  int64_t dimension = -1;
  RETURN_IF_ERROR(b.reader.OneInt("dimension", &dimension, false));
  if (dimension < 0) dimension += b.op.operands[0]->shape().rank();
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* s = b.Emit(Opcode::kSort, b.shape, b.op.operands);
  s->mutable_attrs().dimensions = {dimension};
  s->mutable_attrs().is_stable = b.reader.Flag("is_stable");
  s->set_called_computations({b.op.regions[0]});
  return s;
}

// reduce_window and select_and_scatter.
absl::StatusOr<Instruction*> OpBuilders::Windowed(OpBuild& b) {
  const bool sas = b.name == "select_and_scatter";
  RETURN_IF_ERROR(b.reader.Regions(sas ? 2 : 1));
  std::vector<int64_t> sizes;
  RETURN_IF_ERROR(b.reader.Ints("window_dimensions", &sizes, true));
  b.op.tuple_result = b.op.result_types.size() > 1;
  Instruction* r = b.Emit(b.opcode, b.shape, b.op.operands);
  RETURN_IF_ERROR(b.reader.Window(sizes, "window_strides", "base_dilations",
                                  "window_dilations",
                                  &r->mutable_attrs().window));
  r->set_called_computations(b.op.regions);
  return r;
}

absl::StatusOr<Instruction*> OpBuilders::Convolution(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(2));
  const Attr* d = b.reader.Find("dimension_numbers");
  if (d == nullptr || d->kind != Attr::Kind::kConv) {
    return b.parser.ErrorAt(b.op.name_tok,
                            "convolution needs dimension numbers");
  }
  const Shape& kernel = b.op.operands[1]->shape();
  std::vector<int64_t> sizes;
  for (int64_t k : d->conv.kernel_spatial) {
    if (!kernel.IsArray() || k >= kernel.rank()) {
      return b.parser.ErrorAt(d->tok,
                              "kernel dimension labels exceed its rank");
    }
    sizes.push_back(kernel.dimensions(static_cast<int>(k)));
  }
  Instruction* c = b.Emit(Opcode::kConvolution, b.shape, b.op.operands);
  InstructionAttributes& a = c->mutable_attrs();
  a.conv_dnums = d->conv;
  RETURN_IF_ERROR(b.reader.Window(sizes, "window_strides", "lhs_dilation",
                                  "rhs_dilation", &a.window));
  RETURN_IF_ERROR(
      b.reader.OneInt("feature_group_count", &a.feature_group_count, false));
  RETURN_IF_ERROR(
      b.reader.OneInt("batch_group_count", &a.batch_group_count, false));
  RETURN_IF_ERROR(b.reader.Precision(&a));
  return c;
}

}  // namespace aotc::shlo
