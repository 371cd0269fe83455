// StableHLO parser: builders of the operations with dimension numbers,
// windows or called computations: dot and dot_general, gather, scatter,
// reduce, map, sort, reduce_window, select_and_scatter and convolution.
// The attribute names are the generic form's (parse_ops.cc maps the pretty
// keywords to them).
#include "compiler/frontend/stablehlo/op_reader.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

absl::StatusOr<Instruction*> Parser::BuildCompoundOp(Scope* scope, OpState& op,
                                                     std::string_view name,
                                                     const Shape& shape) {
  const OpReader reader(op);
  auto emit = [&](Opcode opcode, Shape s,
                  std::vector<Instruction*> args) -> Instruction* {
    return Emit(scope->comp, opcode, InstName(op, opcode), std::move(s),
                std::move(args), op.loc);
  };
  if (name == "dot") {
    // The older dot: a vector or matrix product over lhs's last and rhs's
    // first dimension.
    RETURN_IF_ERROR(reader.Operands(2));
    const Shape& lhs = op.operands[0]->shape();
    if (!lhs.IsArray() || lhs.rank() < 1 || lhs.rank() > 2) {
      return ErrorAt(op.name_tok, "dot needs rank-1 or rank-2 operands");
    }
    Instruction* dot = emit(Opcode::kDot, shape, op.operands);
    dot->mutable_attrs().dot_dnums.lhs_contracting = {lhs.rank() - 1};
    dot->mutable_attrs().dot_dnums.rhs_contracting = {0};
    RETURN_IF_ERROR(reader.Precision(&dot->mutable_attrs()));
    return dot;
  }
  if (name == "dot_general") {
    RETURN_IF_ERROR(reader.Operands(2));
    ASSIGN_OR_RETURN(const Attr* d, reader.Dnums("dot_dimension_numbers"));
    if (reader.Find("algorithm") != nullptr) {
      return ErrorAt(op.name_tok, "dot algorithms are not supported");
    }
    Instruction* dot = emit(Opcode::kDot, shape, op.operands);
    DotDimensionNumbers& dn = dot->mutable_attrs().dot_dnums;
    RETURN_IF_ERROR(reader.Field(*d, "lhs_batching_dimensions", &dn.lhs_batch));
    RETURN_IF_ERROR(reader.Field(*d, "rhs_batching_dimensions", &dn.rhs_batch));
    RETURN_IF_ERROR(
        reader.Field(*d, "lhs_contracting_dimensions", &dn.lhs_contracting));
    RETURN_IF_ERROR(
        reader.Field(*d, "rhs_contracting_dimensions", &dn.rhs_contracting));
    RETURN_IF_ERROR(reader.Precision(&dot->mutable_attrs()));
    return dot;
  }
  if (name == "gather") {
    RETURN_IF_ERROR(reader.Operands(2));
    ASSIGN_OR_RETURN(const Attr* d, reader.Dnums("dimension_numbers"));
    Instruction* g = emit(Opcode::kGather, shape, op.operands);
    InstructionAttributes& a = g->mutable_attrs();
    GatherDimensionNumbers& dn = a.gather_dnums;
    RETURN_IF_ERROR(reader.Field(*d, "offset_dims", &dn.offset_dims));
    RETURN_IF_ERROR(
        reader.Field(*d, "collapsed_slice_dims", &dn.collapsed_slice_dims));
    RETURN_IF_ERROR(
        reader.Field(*d, "operand_batching_dims", &dn.operand_batching_dims));
    RETURN_IF_ERROR(reader.Field(*d, "start_indices_batching_dims",
                                 &dn.start_indices_batching_dims));
    RETURN_IF_ERROR(reader.Field(*d, "start_index_map", &dn.start_index_map));
    RETURN_IF_ERROR(
        reader.FieldInt(*d, "index_vector_dim", &dn.index_vector_dim));
    RETURN_IF_ERROR(reader.Ints("slice_sizes", &a.slice_sizes, true));
    a.indices_are_sorted = reader.Flag("indices_are_sorted");
    return g;
  }
  if (name == "scatter") {
    RETURN_IF_ERROR(reader.Regions(1));
    const size_t n = op.operands.size();
    if (n < 3 || n % 2 == 0) {
      return ErrorAt(op.name_tok,
                     "scatter needs N inputs, the indices and "
                     "N updates");
    }
    ASSIGN_OR_RETURN(const Attr* d, reader.Dnums("scatter_dimension_numbers"));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* s = emit(Opcode::kScatter, shape, op.operands);
    InstructionAttributes& a = s->mutable_attrs();
    ScatterDimensionNumbers& dn = a.scatter_dnums;
    RETURN_IF_ERROR(
        reader.Field(*d, "update_window_dims", &dn.update_window_dims));
    RETURN_IF_ERROR(
        reader.Field(*d, "inserted_window_dims", &dn.inserted_window_dims));
    RETURN_IF_ERROR(
        reader.Field(*d, "input_batching_dims", &dn.input_batching_dims));
    RETURN_IF_ERROR(reader.Field(*d, "scatter_indices_batching_dims",
                                 &dn.scatter_indices_batching_dims));
    RETURN_IF_ERROR(reader.Field(*d, "scatter_dims_to_operand_dims",
                                 &dn.scatter_dims_to_operand_dims));
    RETURN_IF_ERROR(
        reader.FieldInt(*d, "index_vector_dim", &dn.index_vector_dim));
    a.indices_are_sorted = reader.Flag("indices_are_sorted");
    a.unique_indices = reader.Flag("unique_indices");
    s->set_called_computations({op.regions[0]});
    return s;
  }
  if (name == "reduce") {
    RETURN_IF_ERROR(reader.Regions(1));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* r = emit(Opcode::kReduce, shape, op.operands);
    RETURN_IF_ERROR(
        reader.Ints("dimensions", &r->mutable_attrs().dimensions, true));
    r->set_called_computations({op.regions[0]});
    return r;
  }
  if (name == "map") {
    RETURN_IF_ERROR(reader.Regions(1));
    Instruction* m = emit(Opcode::kMap, shape, op.operands);
    RETURN_IF_ERROR(
        reader.Ints("dimensions", &m->mutable_attrs().dimensions, false));
    m->set_called_computations({op.regions[0]});
    return m;
  }
  if (name == "sort") {
    RETURN_IF_ERROR(reader.Regions(1));
    if (op.operands.empty() || !op.operands[0]->shape().IsArray()) {
      return ErrorAt(op.name_tok, "sort needs array operands");
    }
    int64_t dimension = -1;
    RETURN_IF_ERROR(reader.OneInt("dimension", &dimension, false));
    if (dimension < 0) dimension += op.operands[0]->shape().rank();
    op.tuple_result = op.result_types.size() > 1;
    Instruction* s = emit(Opcode::kSort, shape, op.operands);
    s->mutable_attrs().dimensions = {dimension};
    s->mutable_attrs().is_stable = reader.Flag("is_stable");
    s->set_called_computations({op.regions[0]});
    return s;
  }
  if (name == "reduce_window" || name == "select_and_scatter") {
    const bool sas = name == "select_and_scatter";
    RETURN_IF_ERROR(reader.Regions(sas ? 2 : 1));
    std::vector<int64_t> sizes;
    RETURN_IF_ERROR(reader.Ints("window_dimensions", &sizes, true));
    op.tuple_result = op.result_types.size() > 1;
    Instruction* r =
        emit(sas ? Opcode::kSelectAndScatter : Opcode::kReduceWindow, shape,
             op.operands);
    RETURN_IF_ERROR(reader.Window(sizes, "window_strides", "base_dilations",
                                  "window_dilations",
                                  &r->mutable_attrs().window));
    r->set_called_computations(op.regions);
    return r;
  }
  if (name == "convolution") {
    RETURN_IF_ERROR(reader.Operands(2));
    const Attr* d = reader.Find("dimension_numbers");
    if (d == nullptr || d->kind != Attr::Kind::kConv) {
      return ErrorAt(op.name_tok, "convolution needs dimension numbers");
    }
    const Shape& kernel = op.operands[1]->shape();
    std::vector<int64_t> sizes;
    for (int64_t k : d->conv.kernel_spatial) {
      if (!kernel.IsArray() || k >= kernel.rank()) {
        return ErrorAt(d->tok, "kernel dimension labels exceed its rank");
      }
      sizes.push_back(kernel.dimensions(static_cast<int>(k)));
    }
    Instruction* c = emit(Opcode::kConvolution, shape, op.operands);
    InstructionAttributes& a = c->mutable_attrs();
    a.conv_dnums = d->conv;
    RETURN_IF_ERROR(reader.Window(sizes, "window_strides", "lhs_dilation",
                                  "rhs_dilation", &a.window));
    RETURN_IF_ERROR(
        reader.OneInt("feature_group_count", &a.feature_group_count, false));
    RETURN_IF_ERROR(
        reader.OneInt("batch_group_count", &a.batch_group_count, false));
    RETURN_IF_ERROR(reader.Precision(&a));
    return c;
  }
  return nullptr;
}

}  // namespace aotc::shlo
