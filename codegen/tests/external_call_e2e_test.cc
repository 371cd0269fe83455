// End-to-end tests of the external-call strategy: the functions below are
// defined in this test binary (linked with ENABLE_EXPORTS, so the in-memory
// linker finds them in the process) and called by compiled models between
// fused loops, with the ABI of external_call.h: pointer arrays,
// the opaque string, a tuple result and a tuple operand, physical layouts,
// two targets in one model, a failing call that stops the run (also inside
// a while loop), and a target this process does not define. Expected
// values are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/strategy.h"
#include "codegen/tests/codegen_test_util.h"

namespace {

// What the functions saw, for the tests to check.
int g_scale_calls = 0;
std::string g_last_opaque;
bool g_last_opaque_terminated = false;
int g_ticks = 0;
int g_fail_at_tick = 0;  // 0: never

}  // namespace

// out[0] = in[0] * factor over f32[n], with opaque "FACTOR N".
extern "C" int ext_scale(void* const* outputs, const void* const* inputs,
                         const char* opaque, size_t opaque_len) {
  ++g_scale_calls;
  g_last_opaque.assign(opaque, opaque_len);
  g_last_opaque_terminated = opaque[opaque_len] == '\0';
  char* end = nullptr;
  const float factor = std::strtof(opaque, &end);
  const long n = std::strtol(end, nullptr, 10);
  const float* in = static_cast<const float*>(inputs[0]);
  float* out = static_cast<float*>(outputs[0]);
  for (long i = 0; i < n; ++i) out[i] = in[i] * factor;
  return 0;
}

// Two inputs, f32[4] x and s32[] k; a tuple of two results:
// (f32[2] {x0 * k, x1 * k}, s32[] x2 + x3 truncated). Records the opaque.
extern "C" int ext_split(void* const* outputs, const void* const* inputs,
                         const char* opaque, size_t opaque_len) {
  g_last_opaque.assign(opaque, opaque_len);
  g_last_opaque_terminated = opaque[opaque_len] == '\0';
  const float* x = static_cast<const float*>(inputs[0]);
  const int32_t k = *static_cast<const int32_t*>(inputs[1]);
  float* head = static_cast<float*>(outputs[0]);
  head[0] = x[0] * static_cast<float>(k);
  head[1] = x[1] * static_cast<float>(k);
  *static_cast<int32_t*>(outputs[1]) = static_cast<int32_t>(x[2] + x[3]);
  return 0;
}

// out = in + 1 on s32[]; fails (returns 7) on tick g_fail_at_tick.
extern "C" int ext_tick(void* const* outputs, const void* const* inputs,
                        const char*, size_t) {
  ++g_ticks;
  *static_cast<int32_t*>(outputs[0]) =
      *static_cast<const int32_t*>(inputs[0]) + 1;
  return g_ticks == g_fail_at_tick ? 7 : 0;
}

// The order the ordered-call functions ran in, one letter each.
std::string g_call_order;

// Appends 'a' and returns out[0] = in[0] + 1 over f32[4], plus s32[] 7 as
// a second result.
extern "C" int ext_ordered_a(void* const* outputs, const void* const* inputs,
                             const char*, size_t) {
  g_call_order += 'a';
  const float* in = static_cast<const float*>(inputs[0]);
  float* out = static_cast<float*>(outputs[0]);
  for (int i = 0; i < 4; ++i) out[i] = in[i] + 1;
  *static_cast<int32_t*>(outputs[1]) = 7;
  return 0;
}

// Appends 'b' followed by the first input element's value as a digit; no
// outputs.
extern "C" int ext_ordered_b(void* const*, const void* const* inputs,
                             const char*, size_t) {
  g_call_order += 'b';
  g_call_order += static_cast<char>(
      '0' + static_cast<int>(static_cast<const float*>(inputs[0])[0]));
  return 0;
}

// A kernel with a bug: out = 2 * in over f32[4], but it writes only the
// first two elements. Records the bytes it found in its output before
// writing, and the first value of its scratch-placed input when asked.
uint32_t g_skip_seen_bits[4] = {0, 0, 0, 0};
extern "C" int ext_double_first_half(void* const* outputs,
                                     const void* const* inputs, const char*,
                                     size_t) {
  const float* in = static_cast<const float*>(inputs[0]);
  float* out = static_cast<float*>(outputs[0]);
  std::memcpy(g_skip_seen_bits, out, sizeof(g_skip_seen_bits));
  for (int i = 0; i < 2; ++i) out[i] = 2 * in[i];
  return 0;
}

namespace aotc::codegen::testing {
namespace {

using P = PrimitiveType;

// A model compiled from `hlo` and linked, with a session on `args` that
// runs it as often as a test needs.
struct Prepared {
  std::unique_ptr<LoadedModel> model;
  std::unique_ptr<LoadedModel::Session> session;
};

absl::StatusOr<Prepared> Prepare(std::string_view hlo,
                                 const std::vector<Literal>& args) {
  ASSIGN_OR_RETURN(CompiledModel compiled, CompileText(hlo));
  Prepared p;
  ASSIGN_OR_RETURN(p.model, LoadedModel::Load(compiled));
  ASSIGN_OR_RETURN(p.session, p.model->Prepare(args));
  return p;
}

// t = x * y + 1 and r = (s - x) * s are element-wise, so fusion forms loops
// before and after the call.
constexpr const char* kScaleBetweenFusions = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  xy = f32[4] multiply(x, y)
  t = f32[4] add(xy, ones)
  s = f32[4] custom-call(t), custom_call_target="ext_scale", backend_config="2.5 4"
  d = f32[4] subtract(s, x)
  ROOT r = f32[4] multiply(d, s)
})";

TEST(ExternalCallE2eTest, ScaleBetweenFusedLoops) {
  // The custom-call is planned by the external-call strategy, and the
  // optimized module has fusions on both sides of it.
  auto module = LoadModuleFromString(kScaleBetweenFusions, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(OptimizeModule(**module, {}).ok());
  const Instruction* call = nullptr;
  for (const auto& inst : (*module)->entry()->instructions()) {
    if (inst->opcode() == Opcode::kCustomCall) call = inst.get();
  }
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->operand(0)->opcode(), Opcode::kFusion);
  ASSERT_EQ(call->users().size(), 1u);
  EXPECT_EQ(call->users()[0]->opcode(), Opcode::kFusion);
  auto plan = PlanInstruction(*call);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "external-call");

  // x = {1, 2, 3, 4}, y = {0.5, -1, 2, 0}: t = x*y + 1 = {1.5, -1, 7, 1};
  // s = 2.5 t = {3.75, -2.5, 17.5, 2.5}; d = s - x = {2.75, -4.5, 14.5,
  // -1.5}; r = d * s = {10.3125, 11.25, 253.75, -3.75}, all exact in f32.
  for (int opt : {0, 2}) {
    SCOPED_TRACE(::testing::Message() << "-O" << opt);
    g_scale_calls = 0;
    auto r = CompileAndRun(
        kScaleBetweenFusions,
        {Vec<P::kF32>({1, 2, 3, 4}), Vec<P::kF32>({0.5f, -1, 2, 0})}, opt,
        /*optimize=*/true);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(Values<P::kF32>((*r)[0]),
              (std::vector<float>{10.3125f, 11.25f, 253.75f, -3.75f}));
    EXPECT_EQ(g_scale_calls, 1);
    EXPECT_EQ(g_last_opaque, "2.5 4");
    EXPECT_TRUE(g_last_opaque_terminated);
  }
}

TEST(ExternalCallE2eTest, TwoTargetsTupleResultAndEscapedOpaque) {
  // s = 3 x = {3, -6, 1.5, 9}; (h, n) = ext_split(s, k = 2):
  // h = {6, -12}, n = trunc(1.5 + 9) = 10; root = (h * h, n) =
  // ({36, 144}, 10).
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  k = s32[] parameter(1)
  s = f32[4] custom-call(x), custom_call_target="ext_scale", opaque="3 4"
  p = (f32[2], s32[]) custom-call(s, k), custom_call_target="ext_split", opaque="a\"b\n"
  h = f32[2] get-tuple-element(p), index=0
  n = s32[] get-tuple-element(p), index=1
  hh = f32[2] multiply(h, h)
  ROOT out = (f32[2], s32[]) tuple(hh, n)
})";
  auto compiled = CompileText(hlo);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_EQ(compiled->signature.external_functions,
            (std::vector<std::string>{"ext_scale", "ext_split"}));
  auto loaded = LoadedModel::Load(*compiled);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto r = (*loaded)->Run({Vec<P::kF32>({1, -2, 0.5f, 3}), Scalar<P::kS32>(2)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{36, 144}));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{10}));
  // The escapes of the HLO string are decoded: 4 bytes, then the NUL.
  EXPECT_EQ(g_last_opaque, "a\"b\n");
  EXPECT_TRUE(g_last_opaque_terminated);
}

TEST(ExternalCallE2eTest, BackendConfigDictIsPassedVerbatim) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  k = s32[] parameter(1)
  ROOT p = (f32[2], s32[]) custom-call(x, k), custom_call_target="ext_split", backend_config={"k": 1}
})";
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 3, 4}), Scalar<P::kS32>(1)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{7}));
  EXPECT_EQ(g_last_opaque, R"({"k": 1})");
}

TEST(ExternalCallE2eTest, TupleOperandLeavesAndPhysicalLayouts) {
  // A tuple operand passes its leaves in order: ext_split(t = (x, k)) sees
  // inputs {x, k}: h = {1 * 3, 2 * 3} = {3, 6}, n = trunc(3 + 4) = 7.
  // ext_scale by 1 copies bytes: y = f32[2,2]{0,1} [[1, 2], [3, 4]] is
  // stored {1, 3, 2, 4}, so the row-major copy reads [[1, 3], [2, 4]].
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  k = s32[] parameter(1)
  y = f32[2,2]{0,1} parameter(2)
  t = (f32[4], s32[]) tuple(x, k)
  p = (f32[2], s32[]) custom-call(t), custom_call_target="ext_split"
  c = f32[2,2]{1,0} custom-call(y), custom_call_target="ext_scale", opaque="1 4"
  ROOT out = ((f32[2], s32[]), f32[2,2]{1,0}) tuple(p, c)
})";
  // Literals are logical; the runner stores y column-major.
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 3, 4}), Scalar<P::kS32>(3),
                               MakeArray<P::kF32>({2, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{3, 6}));
  EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{7}));
  EXPECT_EQ(Values<P::kF32>((*r)[2]), (std::vector<float>{1, 3, 2, 4}));
}

TEST(ExternalCallE2eTest, OperandLayoutConstraintsAreHonored) {
  // x = f32[2,2]{1,0} [[1, 2], [3, 4]] is constrained to {0,1}: the
  // function sees the column-major bytes {1, 3, 2, 4}, which ext_scale by 1
  // copies into the row-major result: [[1, 3], [2, 4]]. An operand already
  // in its constrained layout (y) is passed in place: 10 * {5, 6}.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[2,2]{1,0} parameter(0)
  y = f32[2]{0} parameter(1)
  c = f32[2,2]{1,0} custom-call(x), custom_call_target="ext_scale", opaque="1 4", operand_layout_constraints={f32[2,2]{0,1}}
  d = f32[2] custom-call(y), custom_call_target="ext_scale", opaque="10 2", operand_layout_constraints={f32[2]{0}}
  ROOT out = (f32[2,2]{1,0}, f32[2]) tuple(c, d)
})";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto c = PlanInstruction(*(*module)->entry()->root()->operand(0));
  auto d = PlanInstruction(*(*module)->entry()->root()->operand(1));
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_EQ(c->scratch_bytes, 64);  // 16 bytes, aligned
  EXPECT_EQ(d->scratch_bytes, 0);
  auto r = CompileAndRun(
      hlo, {MakeArray<P::kF32>({2, 2}, {1, 2, 3, 4}), Vec<P::kF32>({5, 6})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{1, 3, 2, 4}));
  EXPECT_EQ(Values<P::kF32>((*r)[1]), (std::vector<float>{50, 60}));
}

TEST(ExternalCallE2eTest, FailureReturnsTheStatusAndStopsTheRun) {
  // ext_tick fails on its first call: the run returns
  // AOTC_ERROR_CUSTOM_CALL and the ext_scale after it (it reads j) never
  // runs. Once it succeeds: j = 1, xj = x + 1 = {2, 3, 4, 5}, s = 2 xj.
  const char* hlo = R"(HloModule m
ENTRY e {
  i = s32[] parameter(0)
  x = f32[4] parameter(1)
  j = s32[] custom-call(i), custom_call_target="ext_tick"
  jf = f32[] convert(j)
  jb = f32[4] broadcast(jf), dimensions={}
  xj = f32[4] add(x, jb)
  s = f32[4] custom-call(xj), custom_call_target="ext_scale", opaque="2 4"
  ROOT out = (s32[], f32[4]) tuple(j, s)
})";
  auto p = Prepare(hlo, {Scalar<P::kS32>(0), Vec<P::kF32>({1, 2, 3, 4})});
  ASSERT_TRUE(p.ok()) << p.status();
  LoadedModel::Session& session = *p->session;
  g_ticks = 0;
  g_fail_at_tick = 1;
  g_scale_calls = 0;
  EXPECT_EQ(session.Run(), AOTC_ERROR_CUSTOM_CALL);
  EXPECT_EQ(g_ticks, 1);
  EXPECT_EQ(g_scale_calls, 0);
  // The same session succeeds once the function does.
  g_fail_at_tick = 0;
  EXPECT_EQ(session.Run(), AOTC_OK);
  EXPECT_EQ(g_scale_calls, 1);
  EXPECT_EQ(Values<P::kF32>(session.Results()[1]),
            (std::vector<float>{4, 6, 8, 10}));
}

TEST(ExternalCallE2eTest, FailureInsideAWhileBodyLeavesTheLoop) {
  // i counts up through ext_tick while i < 5: five calls, result 5. With a
  // failure on the third call, the loop stops there.
  const char* hlo = R"(HloModule m
cond {
  c = s32[] parameter(0)
  five = s32[] constant(5)
  ROOT lt = pred[] compare(c, five), direction=LT
}
body {
  b = s32[] parameter(0)
  ROOT next = s32[] custom-call(b), custom_call_target="ext_tick"
}
ENTRY e {
  i = s32[] parameter(0)
  ROOT w = s32[] while(i), condition=cond, body=body
})";
  auto p = Prepare(hlo, {Scalar<P::kS32>(0)});
  ASSERT_TRUE(p.ok()) << p.status();
  LoadedModel::Session& session = *p->session;
  g_ticks = 0;
  g_fail_at_tick = 0;
  EXPECT_EQ(session.Run(), AOTC_OK);
  EXPECT_EQ(g_ticks, 5);
  EXPECT_EQ(Values<P::kS32>(session.Results()[0]), (std::vector<int32_t>{5}));
  g_ticks = 0;
  g_fail_at_tick = 3;
  EXPECT_EQ(session.Run(), AOTC_ERROR_CUSTOM_CALL);
  EXPECT_EQ(g_ticks, 3);
  g_fail_at_tick = 0;
}

TEST(ExternalCallE2eTest, CallsWhoseResultsNobodyReadsStillRun) {
  // A custom-call is a side effect: DCE keeps it and it runs even though
  // its result is unused, once in the entry and twice in the while body
  // (i = 0, 1 < 2), after optimization too.
  const char* hlo = R"(HloModule m
cond {
  c = s32[] parameter(0)
  two = s32[] constant(2)
  ROOT lt = pred[] compare(c, two), direction=LT
}
body {
  b = s32[] parameter(0)
  unused = s32[] custom-call(b), custom_call_target="ext_tick"
  one = s32[] constant(1)
  ROOT next = s32[] add(b, one)
}
ENTRY e {
  i = s32[] parameter(0)
  unused = s32[] custom-call(i), custom_call_target="ext_tick"
  ROOT w = s32[] while(i), condition=cond, body=body
})";
  for (bool optimize : {false, true}) {
    SCOPED_TRACE(optimize ? "optimized" : "as written");
    g_ticks = 0;
    g_fail_at_tick = 0;
    auto r = CompileAndRun(hlo, {Scalar<P::kS32>(0)}, 2, optimize);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(Values<P::kS32>((*r)[0]), (std::vector<int32_t>{2}));
    EXPECT_EQ(g_ticks, 3);
  }
}

TEST(ExternalCallE2eTest, TokensOrderCallsAndPassNoPointers) {
  // b1 and b2 read nothing of each other; only tokens order them after a.
  // a's inputs are x alone and its outputs (f32[4], s32[]) without the
  // token; b's input is one f32[4] (v, then x). Expected order: a, then b
  // with v[0] = x[0] + 1 = 3, then b with x[0] = 2: "ab3b2". The root is
  // (v + x, w) = ({5, 1, 1, 1}, 7).
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  t0 = token[] after-all()
  a = (f32[4], token[], s32[]) custom-call(x, t0), custom_call_target="ext_ordered_a", custom_call_has_side_effect=true
  v = f32[4] get-tuple-element(a), index=0
  ta = token[] get-tuple-element(a), index=1
  w = s32[] get-tuple-element(a), index=2
  b1 = token[] custom-call(ta, v), custom_call_target="ext_ordered_b", custom_call_has_side_effect=true
  b2 = token[] custom-call(x, b1), custom_call_target="ext_ordered_b", custom_call_has_side_effect=true
  vd = f32[4] add-dependency(v, b2)
  s = f32[4] add(vd, x)
  ROOT r = (f32[4], s32[]) tuple(s, w)
})";
  for (int opt : {0, 2}) {
    SCOPED_TRACE(::testing::Message() << "-O" << opt);
    g_call_order.clear();
    auto r = CompileAndRun(hlo, {Vec<P::kF32>({2, 0, 0, 0})}, opt,
                           /*optimize=*/true);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(g_call_order, "ab3b2");
    EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{5, 1, 1, 1}));
    EXPECT_EQ(Values<P::kS32>((*r)[1]), (std::vector<int32_t>{7}));
  }
}

TEST(ExternalCallE2eTest, AReturnedTokenIsALocatedError) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  a = (f32[4], token[]) custom-call(x), custom_call_target="ext_ordered_a"
  v = f32[4] get-tuple-element(a), index=0
  t = token[] get-tuple-element(a), index=1
  ROOT r = (f32[4], token[]) tuple(v, t)
})";
  auto compiled = CompileText(hlo, 2, /*optimize=*/true);
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find(
                "test.hlo:4:3: error: 'a' carries a token: code generation "
                "supports tokens only as operands and results of custom-calls"),
            std::string::npos)
      << compiled.status();
}

TEST(ExternalCallE2eTest, MissingFunctionIsNamedWhenLoading) {
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="ext_not_defined_anywhere"
})";
  auto p = Prepare(hlo, {Vec<P::kF32>({1, 2, 3, 4})});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "external function 'ext_not_defined_anywhere' (a custom-call "
            "target) is not defined in this process");
}

TEST(ExternalCallE2eTest, TheEvaluatorCannotCheckAnExternalCall) {
  auto module = LoadModuleFromString(kScaleBetweenFusions, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto r = EvaluateModule(
      **module, {Vec<P::kF32>({1, 2, 3, 4}), Vec<P::kF32>({1, 2, 3, 4})});
  ASSERT_FALSE(r.ok());
  const std::string message(r.status().message());
  EXPECT_EQ(message.substr(0, message.find('\n')),
            "test.hlo:9:3: error: custom-call target 'ext_scale' is not "
            "supported by the reference evaluator, which cannot run external "
            "functions");
}

TEST(ExternalCallE2eTest, RefusedTargetsAreLocatedErrors) {
  auto error = [](const std::string& target, const std::string& extra = "") {
    return UnverifiedCompileError(
        "HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n"
        "  ROOT y = f32[4] custom-call(x), custom_call_target=\"" +
        target + "\"" + extra + "\n}\n");
  };
  const std::string prefix = "test.hlo:4:8: error: custom-call target '";
  EXPECT_EQ(error("xla_ffi_python_cpu_callback"),
            prefix +
                "xla_ffi_python_cpu_callback' is a Python callback, "
                "which cannot run in ahead-of-time compiled host code");
  EXPECT_EQ(error("__cudnn$convForward"),
            prefix +
                "__cudnn$convForward' is a GPU target, which cannot run "
                "in ahead-of-time compiled host code");
  EXPECT_EQ(error("2op"),
            prefix +
                "2op' is not a C identifier (or is a C or C++ keyword), "
                "so it cannot name an external function");
  EXPECT_EQ(error("aotc_parallel_for"),
            prefix +
                "aotc_parallel_for' uses the prefix 'aotc_' of the aotc "
                "runtime");
  EXPECT_EQ(error("memcpy"),
            prefix +
                "memcpy' is a C library function that compiled code "
                "calls");
  EXPECT_EQ(error("m_run_packed"),
            prefix +
                "m_run_packed' is an entry point of the compiled model "
                "itself");
  EXPECT_EQ(error("my_op", ", operand_layout_constraints={f32[4], f32[4]}"),
            prefix + "my_op' has 2 operand layout constraints for 1 operands");
  EXPECT_EQ(error("my_op", ", operand_layout_constraints={f32[2]}"),
            prefix +
                "my_op' constrains operand 0 of shape f32[4]{0} to "
                "f32[2]{0}");
  EXPECT_EQ(error("my_op", ", output_to_operand_aliasing={{}: (0, {})}"),
            prefix +
                "my_op' has output_to_operand_aliasing, which external "
                "calls do not support");
  // A builtin target with the wrong operands keeps its own refusal: it is
  // never an external function.
  EXPECT_EQ(error("AllocateBuffer"),
            "test.hlo:4:8: error: 'custom-call' (AllocateBuffer) is not "
            "supported yet by code generation");
}

TEST(ExternalCallE2eTest, AllocateBufferIsScratchTheProgramWrites) {
  // b = AllocateBuffer f32[6]; x = {1, 2, 3, 4} written at 2 and read back:
  // the slice [2, 6) is x whatever b held.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  b = f32[6] custom-call(), custom_call_target="AllocateBuffer"
  i = s32[] constant(2)
  u = f32[6] dynamic-update-slice(b, x, i)
  ROOT r = f32[4] slice(u), slice={[2:6]}
})";
  auto module = LoadModuleFromString(hlo, "test.hlo");
  ASSERT_TRUE(module.ok()) << module.status();
  auto plan = PlanInstruction(*(*module)->entry()->FindInstruction("b"));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->name, "allocate-buffer");
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 3, 4})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<P::kF32>((*r)[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ExternalCallE2eTest, PoisonedBuffersExposeAnUnwrittenResult) {
  // ext_double_first_half should compute {2, 4, 0, 0} from {1, 2, 0, 0} but
  // leaves elements 2 and 3 as it found them. In zero-filled buffers the bug
  // would hide (the expected values there are 0); the runner poisons result
  // and scratch buffers (jit_runner.h), so the kernel finds NaN bytes in
  // its output, wherever it lives, and the comparison catches both elements.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="ext_double_first_half"
})";
  const Literal expected = Vec<P::kF32>({2, 4, 0, 0});
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(::testing::Message() << "run " << run);
    std::memset(g_skip_seen_bits, 0, sizeof(g_skip_seen_bits));
    auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 0, 0})});
    ASSERT_TRUE(r.ok()) << r.status();
    for (uint32_t bits : g_skip_seen_bits) EXPECT_EQ(bits, 0xFFFFFFFFu);
    const std::vector<float> got = Values<P::kF32>((*r)[0]);
    EXPECT_EQ(got[0], 2.0f);
    EXPECT_EQ(got[1], 4.0f);
    EXPECT_TRUE(std::isnan(got[2]));
    EXPECT_TRUE(std::isnan(got[3]));
    const Comparison c =
        CompareLiterals((*r)[0], expected, DefaultTolerance(P::kF32));
    EXPECT_EQ(c.mismatches, 2);
  }
}

TEST(ExternalCallE2eTest, PoisonedScratchReachesAKernelThatReadsIt) {
  // The call's operand t = x + 1 lives in scratch; its output too, before
  // the final add. The output buffer a kernel gets is scratch the model has
  // not written yet: the poison, all-ones bytes.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  t = f32[4] add(x, ones)
  s = f32[4] custom-call(t), custom_call_target="ext_double_first_half"
  ROOT r = f32[4] add(s, x)
})";
  std::memset(g_skip_seen_bits, 0, sizeof(g_skip_seen_bits));
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 3, 4})}, 2,
                         /*optimize=*/true);
  ASSERT_TRUE(r.ok()) << r.status();
  for (uint32_t bits : g_skip_seen_bits) EXPECT_EQ(bits, 0xFFFFFFFFu);
  // s = {4, 6, NaN, NaN}; r = s + x = {5, 8, NaN, NaN}.
  const std::vector<float> got = Values<P::kF32>((*r)[0]);
  EXPECT_EQ(got[0], 5.0f);
  EXPECT_EQ(got[1], 8.0f);
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_TRUE(std::isnan(got[3]));
}

TEST(ExternalCallE2eTest, IntegerResultsArePoisonedWithAB) {
  // An s32 result the kernel never writes keeps 0xABABABAB.
  const char* hlo = R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = (f32[4], s32[]) custom-call(x), custom_call_target="ext_double_first_half"
})";
  auto r = CompileAndRun(hlo, {Vec<P::kF32>({1, 2, 0, 0})});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(static_cast<uint32_t>((*r)[1].Get<int32_t>(0)), 0xABABABABu);
}

}  // namespace
}  // namespace aotc::codegen::testing
