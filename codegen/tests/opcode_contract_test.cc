// The contract between opcode.def and the stages that rely on its
// properties: every opcode marked V evaluates in the reference evaluator,
// and every opcode marked G compiles inside a fusion (HasElementalForm,
// CheckSupported, then CompileModule at -O0), each on a small instance.
//
// Element-wise opcodes get an instance made from their arity and element
// types; every other opcode needs one in kInstances, and an opcode with a
// V or G property and no instance fails the test by name, so a new opcode
// cannot be marked without being shown to work.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codegen/compile.h"
#include "codegen/strategy.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/frontend/text/hlo_parser.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// An instance of an opcode: computations it calls (`called`, HLO text) and
// the body of a computation whose root applies it to parameters.
struct Instance {
  std::string called;
  std::string body;
};

constexpr char kAdd[] =
    "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n}\n";
constexpr char kGe[] =
    "ge {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT c = pred[] compare(a, b), direction=GE\n}\n";
constexpr char kLt[] =
    "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT c = pred[] compare(a, b), direction=LT\n}\n";
constexpr char kNeg[] =
    "neg {\n  a = f32[4] parameter(0)\n  ROOT n = f32[4] negate(a)\n}\n";
constexpr char kCond[] =
    "cond {\n  a = f32[4] parameter(0)\n  ROOT f = pred[] constant(false)\n}\n";

// The opcodes whose instance cannot be made from arity and element types.
const std::map<Opcode, Instance>& Instances() {
  static const auto* const kInstances = new std::map<Opcode, Instance>{
      {Opcode::kAddDependency,
       {"",
        "p = f32[4] parameter(0)\n  t = token[] after-all()\n"
        "  ROOT r = f32[4] add-dependency(p, t)"}},
      {Opcode::kAfterAll,
       {"",
        "p = f32[4] parameter(0)\n  t = token[] after-all()\n"
        "  ROOT r = f32[4] add-dependency(p, t)"}},
      {Opcode::kBitcast,
       {"", "p = f32[2,3] parameter(0)\n  ROOT r = f32[6] bitcast(p)"}},
      {Opcode::kBitcastConvert,
       {"", "p = f32[4] parameter(0)\n  ROOT r = s32[4] bitcast-convert(p)"}},
      {Opcode::kBroadcast,
       {"",
        "p = f32[3] parameter(0)\n"
        "  ROOT r = f32[2,3] broadcast(p), dimensions={1}"}},
      {Opcode::kCall,
       {kNeg,
        "p = f32[4] parameter(0)\n  ROOT r = f32[4] call(p), "
        "to_apply=neg"}},
      {Opcode::kCompare,
       {"",
        "p = f32[4] parameter(0)\n  q = f32[4] parameter(1)\n"
        "  ROOT r = pred[4] compare(p, q), direction=LT"}},
      {Opcode::kComplex,
       {"",
        "p = f32[4] parameter(0)\n  q = f32[4] parameter(1)\n"
        "  ROOT r = c64[4] complex(p, q)"}},
      {Opcode::kConcatenate,
       {"",
        "p = f32[2] parameter(0)\n  q = f32[3] parameter(1)\n"
        "  ROOT r = f32[5] concatenate(p, q), dimensions={0}"}},
      {Opcode::kConditional,
       {kNeg,
        "b = pred[] parameter(0)\n  p = f32[4] parameter(1)\n"
        "  ROOT r = f32[4] conditional(b, p, p), "
        "true_computation=neg, false_computation=neg"}},
      {Opcode::kConstant,
       {"",
        "p = f32[3] parameter(0)\n  c = f32[3] constant({1, 2, 3})\n"
        "  ROOT r = f32[3] add(p, c)"}},
      {Opcode::kConvolution,
       {"",
        "p = f32[1,5,2] parameter(0)\n  w = f32[3,2,4] parameter(1)\n"
        "  ROOT r = f32[1,3,4] convolution(p, w), window={size=3}, "
        "dim_labels=b0f_0io->b0f"}},
      {Opcode::kCustomCall,
       {"",
        "p = f32[2,5] parameter(0)\n  ROOT r = (f32[2,3], s32[2,3]) "
        "custom-call(p), custom_call_target=\"TopK\""}},
      {Opcode::kDot,
       {"",
        "p = f32[2,3] parameter(0)\n  q = f32[3,4] parameter(1)\n"
        "  ROOT r = f32[2,4] dot(p, q), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={0}"}},
      {Opcode::kDynamicSlice,
       {"",
        "p = f32[8] parameter(0)\n  i = s32[] parameter(1)\n"
        "  ROOT r = f32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}"}},
      {Opcode::kDynamicUpdateSlice,
       {"",
        "p = f32[8] parameter(0)\n  u = f32[4] parameter(1)\n"
        "  i = s32[] parameter(2)\n"
        "  ROOT r = f32[8] dynamic-update-slice(p, u, i)"}},
      {Opcode::kFusion,
       {kNeg,
        "p = f32[4] parameter(0)\n"
        "  ROOT r = f32[4] fusion(p), kind=kLoop, calls=neg"}},
      {Opcode::kGather,
       {"",
        "p = f32[5,3] parameter(0)\n  i = s32[2] parameter(1)\n"
        "  ROOT r = f32[2,3] gather(p, i), offset_dims={1}, "
        "collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={1,3}"}},
      {Opcode::kGetTupleElement,
       {"",
        "p = f32[4] parameter(0)\n  t = (f32[4], f32[4]) tuple(p, p)\n"
        "  ROOT r = f32[4] get-tuple-element(t), index=1"}},
      {Opcode::kIota, {"", "ROOT r = s32[2,3] iota(), iota_dimension=1"}},
      {Opcode::kIsFinite,
       {"", "p = f32[4] parameter(0)\n  ROOT r = pred[4] is-finite(p)"}},
      {Opcode::kMap,
       {kAdd,
        "p = f32[4] parameter(0)\n  q = f32[4] parameter(1)\n"
        "  ROOT r = f32[4] map(p, q), dimensions={0}, to_apply=add"}},
      {Opcode::kOptimizationBarrier,
       {"", "p = f32[4] parameter(0)\n  ROOT r = f32[4] opt-barrier(p)"}},
      {Opcode::kPad,
       {"",
        "p = f32[3] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[6] pad(p, z), padding=1_2"}},
      {Opcode::kParameter, {"", "ROOT p = f32[4] parameter(0)"}},
      {Opcode::kReal,
       {"", "p = c64[4] parameter(0)\n  ROOT r = f32[4] real(p)"}},
      {Opcode::kImag,
       {"", "p = c64[4] parameter(0)\n  ROOT r = f32[4] imag(p)"}},
      {Opcode::kReduce,
       {kAdd,
        "p = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[2] reduce(p, z), dimensions={1}, to_apply=add"}},
      {Opcode::kReducePrecision,
       {"",
        "p = f32[4] parameter(0)\n  ROOT r = f32[4] "
        "reduce-precision(p), exponent_bits=5, mantissa_bits=10"}},
      {Opcode::kReduceWindow,
       {kAdd,
        "p = f32[6] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[3] reduce-window(p, z), "
        "window={size=2 stride=2}, to_apply=add"}},
      {Opcode::kReshape,
       {"", "p = f32[2,3] parameter(0)\n  ROOT r = f32[3,2] reshape(p)"}},
      {Opcode::kReverse,
       {"",
        "p = f32[2,3] parameter(0)\n"
        "  ROOT r = f32[2,3] reverse(p), dimensions={1}"}},
      {Opcode::kScatter,
       {kAdd,
        "p = f32[5] parameter(0)\n  i = s32[2,1] parameter(1)\n"
        "  u = f32[2] parameter(2)\n  ROOT r = f32[5] scatter(p, i, u), "
        "update_window_dims={}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
        "to_apply=add"}},
      {Opcode::kSelect,
       {"",
        "b = pred[4] parameter(0)\n  p = f32[4] parameter(1)\n"
        "  q = f32[4] parameter(2)\n  ROOT r = f32[4] select(b, p, q)"}},
      {Opcode::kSelectAndScatter,
       {absl::StrCat(kGe, kAdd),
        "p = f32[4] parameter(0)\n  s = f32[2] parameter(1)\n"
        "  z = f32[] constant(0)\n  ROOT r = f32[4] select-and-scatter(p, s, "
        "z), window={size=2 stride=2}, select=ge, scatter=add"}},
      {Opcode::kSlice,
       {"",
        "p = f32[6] parameter(0)\n  ROOT r = f32[2] slice(p), "
        "slice={[1:5:2]}"}},
      {Opcode::kSort,
       {kLt,
        "p = f32[5] parameter(0)\n"
        "  ROOT r = f32[5] sort(p), dimensions={0}, to_apply=lt"}},
      {Opcode::kFft,
       {"",
        "p = c64[2,8] parameter(0)\n"
        "  ROOT r = c64[2,8] fft(p), fft_type=FFT, fft_length={8}"}},
      {Opcode::kTriangularSolve,
       {"",
        "a = f32[3,3] parameter(0)\n  b = f32[3,2] parameter(1)\n"
        "  ROOT r = f32[3,2] triangular-solve(a, b), left_side=true, "
        "lower=true"}},
      {Opcode::kCholesky,
       {"",
        "a = f64[3,3] parameter(0)\n"
        "  ROOT r = f64[3,3] cholesky(a), lower=true"}},
      {Opcode::kTopK,
       {"",
        "p = f32[2,5] parameter(0)\n"
        "  ROOT r = (f32[2,3], s32[2,3]) topk(p), k=3, largest=true"}},
      {Opcode::kTranspose,
       {"",
        "p = f32[2,3] parameter(0)\n"
        "  ROOT r = f32[3,2] transpose(p), dimensions={1,0}"}},
      {Opcode::kTuple,
       {"",
        "p = f32[4] parameter(0)\n  q = s32[2] parameter(1)\n"
        "  ROOT r = (f32[4], s32[2]) tuple(p, q)"}},
      {Opcode::kWhile,
       {absl::StrCat(kCond, kNeg),
        "p = f32[4] parameter(0)\n"
        "  ROOT r = f32[4] while(p), condition=cond, body=neg"}},
  };
  return *kInstances;
}

// The element type of an element-wise instance's operands.
std::string_view OperandType(Opcode op) {
  switch (OpcodeElementTypes(op)) {
    case ElementTypeClass::kInteger:
    case ElementTypeClass::kPredOrInteger:
      return "s32";
    default:
      return "f32";
  }
}

// The instance of `op`: from kInstances, else made for an element-wise
// opcode of fixed arity; null when there is none.
std::unique_ptr<Instance> InstanceOf(Opcode op) {
  if (auto it = Instances().find(op); it != Instances().end()) {
    return std::make_unique<Instance>(it->second);
  }
  if (!IsElementwise(op) || OpcodeArity(op) == kVariadic) return nullptr;
  const std::string type = absl::StrCat(Sv(OperandType(op)), "[4]");
  auto instance = std::make_unique<Instance>();
  std::vector<std::string> operands;
  for (int i = 0; i < OpcodeArity(op); ++i) {
    absl::StrAppend(&instance->body, "p", i, " = ", type, " parameter(", i,
                    ")\n  ");
    operands.push_back(absl::StrCat("p", i));
  }
  absl::StrAppend(&instance->body, "ROOT r = ", type, " ", Sv(OpcodeName(op)),
                  "(", absl::StrJoin(operands, ", "), ")");
  return instance;
}

absl::StatusOr<std::unique_ptr<Module>> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> m = ParseHloText(text, "c.hlo");
  if (!m.ok()) return m.status();
  if (absl::Status v = VerifyModule(**m); !v.ok()) return v;
  return m;
}

// The instance as a module whose entry computes it.
absl::StatusOr<std::unique_ptr<Module>> EntryModule(const Instance& instance) {
  return Parse(absl::StrCat("HloModule m\n\n", instance.called,
                            "\nENTRY e {\n  ", instance.body, "\n}\n"));
}

// The instance as the fused computation of a fusion the entry calls, with
// the kind fusion would give it.
absl::StatusOr<std::unique_ptr<Module>> FusionModule(const Instance& instance,
                                                     const Module& entry) {
  std::string kind = "kLoop";
  for (const auto& inst : entry.entry()->instructions()) {
    const Opcode op = inst->opcode();
    if (op == Opcode::kReduce || op == Opcode::kReduceWindow) kind = "kInput";
    if (op == Opcode::kDot || op == Opcode::kConvolution) kind = "kOutput";
  }
  std::string params;
  std::vector<std::string> args;
  for (const Instruction* p : entry.entry()->parameters()) {
    const int64_t n = p->parameter_number();
    absl::StrAppend(&params, "  arg", n, " = ", p->shape().ToString(),
                    " parameter(", n, ")\n");
    args.push_back(absl::StrCat("arg", n));
  }
  return Parse(absl::StrCat(
      "HloModule m\n\n", instance.called, "\nfused {\n  ", instance.body,
      "\n}\n\nENTRY e {\n", params,
      "  ROOT f = ", entry.entry()->root()->shape().ToString(), " fusion(",
      absl::StrJoin(args, ", "), "), kind=", kind, ", calls=fused\n}\n"));
}

// The first instruction of `comp` with opcode `op`.
const Instruction* Find(const Computation& comp, Opcode op) {
  for (const auto& inst : comp.instructions()) {
    if (inst->opcode() == op) return inst.get();
  }
  return nullptr;
}

TEST(OpcodeContractTest, EveryMarkedOpcodeHasAnInstance) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (!IsEvaluable(op) && !HasProperty(op, kPropElementalForm)) continue;
    std::unique_ptr<Instance> instance = InstanceOf(op);
    if (instance == nullptr) {
      ADD_FAILURE() << OpcodeName(op)
                    << " is marked V or G in opcode.def but has no instance "
                       "in this test's table";
      continue;
    }
    absl::StatusOr<std::unique_ptr<Module>> m = EntryModule(*instance);
    ASSERT_TRUE(m.ok()) << OpcodeName(op) << ": " << m.status();
    EXPECT_NE(Find(*(*m)->entry(), op), nullptr) << OpcodeName(op);
  }
}

TEST(OpcodeContractTest, EvaluableOpcodesEvaluate) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (!IsEvaluable(op)) continue;
    std::unique_ptr<Instance> instance = InstanceOf(op);
    if (instance == nullptr) continue;  // EveryMarkedOpcodeHasAnInstance
    absl::StatusOr<std::unique_ptr<Module>> m = EntryModule(*instance);
    ASSERT_TRUE(m.ok()) << OpcodeName(op) << ": " << m.status();
    std::vector<Literal> args;
    for (const Instruction* p : (*m)->entry()->parameters()) {
      args.emplace_back(p->shape());
    }
    absl::StatusOr<Literal> value = EvaluateModule(**m, args);
    EXPECT_TRUE(value.ok()) << OpcodeName(op) << ": " << value.status();
  }
}

TEST(OpcodeContractTest, ElementFormOpcodesCompileInsideAFusion) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (!HasProperty(op, kPropElementalForm)) continue;
    std::unique_ptr<Instance> instance = InstanceOf(op);
    if (instance == nullptr) continue;  // EveryMarkedOpcodeHasAnInstance
    absl::StatusOr<std::unique_ptr<Module>> entry = EntryModule(*instance);
    ASSERT_TRUE(entry.ok()) << OpcodeName(op) << ": " << entry.status();
    absl::StatusOr<std::unique_ptr<Module>> m =
        FusionModule(*instance, **entry);
    ASSERT_TRUE(m.ok()) << OpcodeName(op) << ": " << m.status();
    const Instruction* fusion = (*m)->entry()->root();
    const Instruction* inst = Find(*fusion->fused_computation(), op);
    ASSERT_NE(inst, nullptr) << OpcodeName(op);
    EXPECT_TRUE(codegen::HasElementalForm(*inst)) << OpcodeName(op);
    absl::Status supported = codegen::CheckSupported(**m);
    EXPECT_TRUE(supported.ok()) << OpcodeName(op) << ": " << supported;
    if (!supported.ok()) continue;
    codegen::CompileOptions options;
    options.name = "m";
    options.opt_level = 0;
    options.compile_threads = 1;
    absl::StatusOr<codegen::CompiledModel> compiled =
        codegen::CompileModule(**m, options);
    ASSERT_TRUE(compiled.ok()) << OpcodeName(op) << ": " << compiled.status();
    EXPECT_FALSE(compiled->object.empty()) << OpcodeName(op);
  }
}

// Fusion takes the L opcodes as loop members: each has an element form.
TEST(OpcodeContractTest, LoopMembersHaveAnElementForm) {
  for (int i = 0; i < NumOpcodes(); ++i) {
    const Opcode op = static_cast<Opcode>(i);
    if (!HasProperty(op, kPropLoopMember)) continue;
    EXPECT_TRUE(HasProperty(op, kPropElementalForm)) << OpcodeName(op);
    EXPECT_FALSE(IsElementwise(op)) << OpcodeName(op) << " is E already";
  }
}

}  // namespace
}  // namespace aotc
