// StableHLO parser: while, if and case, whose regions may use values of the
// enclosing function; HLO computations see only their parameters, so those
// values travel through tuples (Captures in parser.h).
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {

absl::StatusOr<Instruction*> Parser::BuildConditional(Scope* scope,
                                                      OpState& op) {
  // HLO's conditional passes each branch one operand: here the tuple of
  // the values that branch uses from the enclosing function. Each branch
  // returns a tuple of its results.
  Computation* comp = scope->comp;
  const Location& loc = op.loc;
  std::vector<Instruction*> operands = {op.operands[0]};
  for (size_t b = 0; b < op.regions.size(); ++b) {
    Computation* branch = op.regions[b];
    const Captures& captures = *op.branch_captures[b];
    const std::vector<Instruction*>& returned = op.region_returns[b];
    if (returned.size() != op.result_types.size()) {
      return ErrorAt(op.region_toks[b],
                     absl::StrCat("branch ", b, " returns ", returned.size(),
                                  " values, the operation has ",
                                  op.result_types.size(), " results"));
    }
    std::vector<Shape> shapes;
    for (Instruction* v : captures.outer) shapes.push_back(v->shape());
    Shape state = Shape::Tuple(shapes);
    branch->parameter(0)->mutable_shape() = state;
    std::vector<Shape> result_shapes;
    for (Instruction* v : returned) result_shapes.push_back(v->shape());
    branch->set_root(Emit(branch, Opcode::kTuple, "tuple",
                          Shape::Tuple(result_shapes), returned, loc));
    operands.push_back(Emit(comp, Opcode::kTuple,
                            absl::StrCat("branch", b, ".operand"), state,
                            captures.outer, loc));
  }
  op.tuple_result = true;
  Instruction* c =
      Emit(comp, Opcode::kConditional, InstName(op, Opcode::kConditional),
           Shape::Tuple(op.result_types), operands, loc);
  c->set_called_computations(op.regions);
  return c;
}

absl::StatusOr<Instruction*> Parser::BuildWhile(Scope* scope, OpState& op) {
  // HLO's while carries one value: a tuple of the loop values followed by
  // the values the regions captured, which the body passes on unchanged.
  Computation* comp = scope->comp;
  const Location& loc = op.loc;
  Captures& captures = *op.captures;
  Computation* cond = op.regions[0];
  Computation* body = op.regions[1];
  if (op.region_returns[0].size() != 1) {
    return ErrorAt(op.region_toks[0], "the condition must return one value");
  }
  if (op.region_returns[1].size() != op.operands.size()) {
    return ErrorAt(op.region_toks[1], absl::StrCat("the body returns ",
                                                   op.region_returns[1].size(),
                                                   " values, the "
                                                   "loop has ",
                                                   op.operands.size()));
  }
  std::vector<Instruction*> init = op.operands;
  init.insert(init.end(), captures.outer.begin(), captures.outer.end());
  std::vector<Shape> shapes;
  for (Instruction* v : init) shapes.push_back(v->shape());
  const Shape state = Shape::Tuple(shapes);
  std::vector<Instruction*> next = op.region_returns[1];
  for (size_t k = 0; k < captures.outer.size(); ++k) {
    auto it = captures.inner.find({body, captures.outer[k]});
    if (it != captures.inner.end()) {
      next.push_back(it->second);
      continue;
    }
    Instruction* element =
        Emit(body, Opcode::kGetTupleElement, "capture",
             captures.outer[k]->shape(), {body->parameter(0)}, loc);
    element->mutable_attrs().tuple_index =
        captures.carried + static_cast<int64_t>(k);
    next.push_back(element);
  }
  for (Computation* region : {cond, body}) {
    region->parameter(0)->mutable_shape() = state;
  }
  cond->set_root(op.region_returns[0][0]);
  body->set_root(Emit(body, Opcode::kTuple, "tuple", state, next, loc));
  Instruction* tuple =
      Emit(comp, Opcode::kTuple, "while.init", state, init, loc);
  op.tuple_result = true;
  Instruction* w = Emit(comp, Opcode::kWhile, InstName(op, Opcode::kWhile),
                        state, {tuple}, loc);
  w->set_called_computations({cond, body});
  return w;
}
}  // namespace aotc::shlo
