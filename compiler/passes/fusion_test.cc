// Golden tests of fusion decisions: which instructions end up in which
// region and of what kind, and a negative test for every refusal rule.
#include "compiler/passes/fusion.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_test_util.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;
using testing::RunVerified;

// For each fusion instruction of the entry: "kind: member names sorted
// (parameters left out)".
std::vector<std::string> Regions(const Module& m) {
  std::vector<std::string> out;
  for (const auto& inst : m.entry()->instructions()) {
    if (inst->opcode() != Opcode::kFusion) continue;
    std::set<std::string> names;
    for (const auto& f : inst->fused_computation()->instructions()) {
      if (f->opcode() != Opcode::kParameter) names.insert(f->name());
    }
    std::string line(FusionKindName(inst->attrs().fusion_kind));
    line += ":";
    for (const std::string& n : names) line += " " + n;
    out.push_back(line);
  }
  return out;
}

// Opcode names of the entry's instructions, in order.
std::vector<std::string> EntryOpcodes(const Module& m) {
  std::vector<std::string> out;
  for (const auto& inst : m.entry()->instructions()) {
    out.emplace_back(OpcodeName(inst->opcode()));
  }
  return out;
}

std::unique_ptr<Module> Fused(std::string_view text) {
  std::unique_ptr<Module> m = ParseVerified(text);
  if (m == nullptr) return nullptr;
  FusionPass pass;
  RunVerified(pass, *m);
  return m;
}

TEST(FusionTest, RunningExampleBecomesOneInputFusion) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule jit_running_example

region_0.9 {
  Arg_0.10 = f32[] parameter(0)
  Arg_1.11 = f32[] parameter(1)
  ROOT add.12 = f32[] add(Arg_0.10, Arg_1.11)
}

ENTRY main.16 {
  Arg_0.1 = f32[64,32]{1,0} parameter(0)
  Arg_1.2 = f32[64,32]{1,0} parameter(1)
  multiply.3 = f32[64,32]{1,0} multiply(Arg_0.1, Arg_0.1)
  constant.4 = f32[] constant(3)
  broadcast.5 = f32[64,32]{1,0} broadcast(constant.4), dimensions={}
  multiply.6 = f32[64,32]{1,0} multiply(multiply.3, broadcast.5)
  add.7 = f32[64,32]{1,0} add(multiply.6, Arg_1.2)
  constant.8 = f32[] constant(0)
  reduce.13 = f32[] reduce(add.7, constant.8), dimensions={0,1}, to_apply=region_0.9
  constant.14 = f32[] constant(2048)
  ROOT divide.15 = f32[] divide(reduce.13, constant.14)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m),
            (std::vector<std::string>{
                "kInput: add.7 broadcast.5 constant.14 constant.4 constant.8 "
                "divide.15 multiply.3 multiply.6 reduce.13"}));
  EXPECT_EQ(EntryOpcodes(*m),
            (std::vector<std::string>{"parameter", "parameter", "fusion"}));
  // The fusion reads both inputs directly.
  const Instruction* root = m->entry()->root();
  ASSERT_EQ(root->operand_count(), 2);
  EXPECT_EQ(root->operand(0)->name(), "Arg_0.1");
  EXPECT_EQ(root->operand(1)->name(), "Arg_1.2");
}

TEST(FusionTest, CheapProducerIsDuplicatedIntoEveryConsumer) {
  // `m` has two users, each a region of its own (neither reads the other);
  // the multiply is cheap, so each region recomputes it and `m` is gone.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  m = f32[8] multiply(p, p)
  a = f32[8] add(m, p)
  s = f32[8] subtract(m, p)
  ROOT t = (f32[8], f32[8]) tuple(a, s)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a m", "kLoop: m s"}));
  EXPECT_EQ(m->entry()->FindInstruction("m"), nullptr);
}

// Cases whose whole check is the regions fusion forms: a module, and for
// each fusion of the entry "kind: member names sorted" (none: nothing fused).
struct RegionCase {
  std::string name;
  std::string hlo;
  std::vector<std::string> regions;
};

const std::vector<RegionCase>& RegionCases() {
  static const auto* const kCases = new std::vector<RegionCase>{
    // The tuple needs m in a buffer anyway, so copying m into a's region
    // would only compute it twice.
    {"CheapProducerIsNotDuplicatedNextToAnUnfusibleUser",
     R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  m = f32[8] multiply(p, p)
  a = f32[8] add(m, p)
  ROOT t = (f32[8], f32[8]) tuple(a, m)
}
)",
     {}},
    {"ExpensiveProducerWithOneUserIsFused",
     R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  x = f32[8] exponential(p)
  ROOT a = f32[8] add(x, p)
}
)",
     {"kLoop: a x"}},
    // The broadcast does not read the expensive op directly: a cheap op and a
    // reshape sit in between. The exponential would still run once per element
    // of the broadcast, and the reduce (softmax's row maximum) once per element
    // of the row, so both stay outside the broadcast's group.
    {"ExpensiveProducerIsNotFusedIntoABroadcastThroughCheapOps",
     R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
ENTRY e {
  p = f32[8,16] parameter(0)
  init = f32[] constant(-inf)
  r = f32[8] reduce(p, init), dimensions={1}, to_apply=max
  x = f32[8] exponential(r)
  n = f32[8] negate(x)
  s = f32[8,1] reshape(n)
  t = f32[8] reshape(s)
  b = f32[8,16] broadcast(t), dimensions={0}
  ROOT a = f32[8,16] subtract(p, b)
}
)",
     {"kInput: init r x", "kLoop: a b n s t"}},
    {"CheapProducerIsFusedIntoAnExpandingBroadcast",
     R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  x = f32[8] negate(p)
  b = f32[8,16] broadcast(x), dimensions={0}
  q = f32[8,16] parameter(1)
  ROOT a = f32[8,16] add(b, q)
}
)",
     {"kLoop: a b x"}},
    {"ExpensiveProducerIsNotFusedIntoAnOverlappingReduceWindow",
     R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  p = f32[16] parameter(0)
  x = f32[16] exponential(p)
  i = f32[] constant(-inf)
  ROOT w = f32[14] reduce-window(x, i), window={size=3 stride=1}, to_apply=max
}
)",
     {}},
    {"ExpensiveProducerIsFusedIntoADisjointReduceWindow",
     R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  p = f32[16] parameter(0)
  x = f32[16] exponential(p)
  i = f32[] constant(-inf)
  ROOT w = f32[8] reduce-window(x, i), window={size=2 stride=2}, to_apply=max
}
)",
     {"kInput: i w x"}},
    {"AConvolutionDoesNotFuseIntoAReshape",
     R"(
HloModule m
ENTRY e {
  x = f32[1,6,3] parameter(0)
  k = f32[3,3,2] parameter(1)
  c = f32[1,4,2] convolution(x, k), window={size=3}, dim_labels=b0f_0io->b0f
  ROOT r = f32[8] reshape(c)
}
)",
     {}},
    {"DotWithSeveralUsersStaysOutside",
     R"(
HloModule m
ENTRY e {
  x = f32[4,8] parameter(0)
  w = f32[8,16] parameter(1)
  d = f32[4,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  n = f32[4,16] negate(d)
  a = f32[4,16] abs(d)
  ROOT t = (f32[4,16], f32[4,16]) tuple(n, a)
}
)",
     {}},
    // Index arithmetic (a convert and a clamp of the ids, as JAX emits it) is
    // cheap and fuses into the gather that reads it.
    {"IndexArithmeticIsFusedIntoAGather",
     R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = s64[4] parameter(1)
  i = s32[4] convert(ids)
  zero = s32[] constant(0)
  z = s32[4] broadcast(zero), dimensions={}
  c = s32[4] maximum(i, z)
  ROOT g = f32[4,3] gather(table, c), offset_dims={1},
      collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1,
      slice_sizes={1,3}
}
)",
     {"kLoop: c g i z zero"}},
  };
  return *kCases;
}

class FusionRegionTest : public ::testing::TestWithParam<RegionCase> {};

TEST_P(FusionRegionTest, FormsTheExpectedRegions) {
  std::unique_ptr<Module> m = Fused(GetParam().hlo);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), GetParam().regions);
}

INSTANTIATE_TEST_SUITE_P(
    FusionTest, FusionRegionTest, ::testing::ValuesIn(RegionCases()),
    [](const ::testing::TestParamInfo<RegionCase>& info) {
      return info.param.name;
    });

TEST(FusionTest, ProducerReachedThroughTooManyPathsStaysOutside) {
  // Four diamonds whose one side reverses: each level is read at two
  // indices, so a3 is evaluated twice per element of the root a4, a2 four
  // times, a1 eight (the limit), a0 sixteen.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  a0 = f32[8] negate(p)
  b0 = f32[8] reverse(a0), dimensions={0}
  c0 = f32[8] negate(a0)
  a1 = f32[8] add(b0, c0)
  b1 = f32[8] reverse(a1), dimensions={0}
  c1 = f32[8] negate(a1)
  a2 = f32[8] add(b1, c1)
  b2 = f32[8] reverse(a2), dimensions={0}
  c2 = f32[8] negate(a2)
  a3 = f32[8] add(b2, c2)
  b3 = f32[8] reverse(a3), dimensions={0}
  c3 = f32[8] negate(a3)
  ROOT a4 = f32[8] add(b3, c3)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m),
            (std::vector<std::string>{
                "kLoop: a1 a2 a3 a4 b0 b1 b2 b3 c0 c1 c2 c3"}));
  const Instruction* a0 = m->entry()->FindInstruction("a0");
  ASSERT_NE(a0, nullptr);
  EXPECT_EQ(a0->opcode(), Opcode::kNegate);
}

TEST(FusionTest, ElementwiseDiamondsAtTheRootIndexHaveNoPathLimit) {
  // The same diamonds without the reverse: every member is read at the
  // root's own index, where the emitter computes each value once, so a0's
  // sixteen paths cost one evaluation and the whole chain is one loop.
  // JAX's erfc expansion (exact GELU) reads x*x in a dozen Horner steps.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  a0 = f32[8] negate(p)
  b0 = f32[8] abs(a0)
  c0 = f32[8] negate(a0)
  a1 = f32[8] add(b0, c0)
  b1 = f32[8] abs(a1)
  c1 = f32[8] negate(a1)
  a2 = f32[8] add(b1, c1)
  b2 = f32[8] abs(a2)
  c2 = f32[8] negate(a2)
  a3 = f32[8] add(b2, c2)
  b3 = f32[8] abs(a3)
  c3 = f32[8] negate(a3)
  ROOT a4 = f32[8] add(b3, c3)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m),
            (std::vector<std::string>{
                "kLoop: a0 a1 a2 a3 a4 b0 b1 b2 b3 c0 c1 c2 c3"}));
}

TEST(FusionTest, DiamondsOverABranchingMemberKeepThePathLimit) {
  // The diamonds again, over a concatenate: its element code branches, and
  // a value asked for again in another basic block is computed again, so
  // every path counts and a0 (16 paths) stays outside with the concatenate.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  cat = f32[8] concatenate(p, q), dimensions={0}
  a0 = f32[8] negate(cat)
  b0 = f32[8] abs(a0)
  c0 = f32[8] negate(a0)
  a1 = f32[8] add(b0, c0)
  b1 = f32[8] abs(a1)
  c1 = f32[8] negate(a1)
  a2 = f32[8] add(b1, c1)
  b2 = f32[8] abs(a2)
  c2 = f32[8] negate(a2)
  a3 = f32[8] add(b2, c2)
  b3 = f32[8] abs(a3)
  c3 = f32[8] negate(a3)
  ROOT a4 = f32[8] add(b3, c3)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m),
            (std::vector<std::string>{
                "kLoop: a0 cat",
                "kLoop: a1 a2 a3 a4 b0 b1 b2 b3 c0 c1 c2 c3"}));
}

TEST(FusionTest, ADotBehindADuplicatedProducerIsNotComputedTwice) {
  // n is cheap and feeds two regions, so each region gets a copy of it;
  // the original n stays for the other region and reads the dot, so the
  // dot has a user outside either region and is computed once, unfused.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  x = f32[16,64] parameter(0)
  w = f32[64,32] parameter(1)
  d = f32[16,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  n = f32[16,32] negate(d)
  two = f32[] constant(2)
  b2 = f32[16,32] broadcast(two), dimensions={}
  m = f32[16,32] multiply(n, b2)
  e = f32[16,32] exponential(n)
  ROOT t = (f32[16,32], f32[16,32]) tuple(m, e)
}
)");
  ASSERT_NE(m, nullptr);
  int dots = 0;
  for (const auto& c : m->computations()) {
    for (const auto& inst : c->instructions()) {
      if (inst->opcode() == Opcode::kDot) ++dots;
    }
  }
  EXPECT_EQ(dots, 1);
  const Instruction* d = m->entry()->FindInstruction("d");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->opcode(), Opcode::kDot);
}

TEST(FusionTest, ExpensiveProducerWithSeveralUsersIsNotDuplicated) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  x = f32[8] exponential(p)
  a = f32[8] add(x, p)
  s = f32[8] subtract(x, p)
  ROOT t = (f32[8], f32[8]) tuple(a, s)
}
)");
  ASSERT_NE(m, nullptr);
  // exponential is computed once, into a buffer; add and subtract each
  // have nothing to fuse and stay as they are.
  EXPECT_TRUE(Regions(*m).empty());
  EXPECT_NE(m->entry()->FindInstruction("x"), nullptr);
}

TEST(FusionTest, ExpensiveProducerIsNotFusedIntoAnExpandingBroadcast) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  x = f32[8] exponential(p)
  b = f32[8,16] broadcast(x), dimensions={0}
  q = f32[8,16] parameter(1)
  ROOT a = f32[8,16] add(b, q)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a b"}));
  const Instruction* x = m->entry()->FindInstruction("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->opcode(), Opcode::kExp);
  EXPECT_EQ(FusionRefusal(*x, *m->entry()->parameter(0)),
            "the consumer has no element-wise form");
}

TEST(FusionTest, NothingIsFusedIntoADotButItsEpilogueTakesTheDot) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  x = f32[4,8] parameter(0)
  w = f32[8,16] parameter(1)
  bias = f32[16] parameter(2)
  nx = f32[4,8] negate(x)
  d = f32[4,16] dot(nx, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[4,16] broadcast(bias), dimensions={1}
  a = f32[4,16] add(d, bb)
  zero = f32[] constant(0)
  z = f32[4,16] broadcast(zero), dimensions={}
  ROOT r = f32[4,16] maximum(a, z)
}
)");
  ASSERT_NE(m, nullptr);
  std::vector<std::string> regions = Regions(*m);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].substr(0, regions[0].find(' ')), "kOutput:");
  EXPECT_NE(regions[0].find(" d "), std::string::npos) << regions[0];
  EXPECT_EQ(regions[0].find(" nx"), std::string::npos) << regions[0];
  const Instruction* nx = m->entry()->FindInstruction("nx");
  ASSERT_NE(nx, nullptr);
  EXPECT_EQ(nx->opcode(), Opcode::kNegate);
}

TEST(FusionTest, AConvolutionEpilogueTakesTheConvolutionButNotItsInput) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  x = f32[1,6,6,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  bias = f32[8] parameter(2)
  nx = f32[1,6,6,3] negate(x)
  c = f32[1,4,4,8] convolution(nx, k), window={size=3x3},
      dim_labels=b01f_01io->b01f
  bb = f32[1,4,4,8] broadcast(bias), dimensions={3}
  a = f32[1,4,4,8] add(c, bb)
  zero = f32[] constant(0)
  z = f32[1,4,4,8] broadcast(zero), dimensions={}
  ROOT r = f32[1,4,4,8] maximum(a, z)
}
)");
  ASSERT_NE(m, nullptr);
  std::vector<std::string> regions = Regions(*m);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].substr(0, regions[0].find(' ')), "kOutput:");
  EXPECT_NE(regions[0].find(" c "), std::string::npos) << regions[0];
  EXPECT_EQ(regions[0].find(" nx"), std::string::npos) << regions[0];
  const Instruction* nx = m->entry()->FindInstruction("nx");
  ASSERT_NE(nx, nullptr);
  EXPECT_EQ(nx->opcode(), Opcode::kNegate);
}

TEST(FusionTest, TwoConvolutionsSummedStayTwoFusions) {
  // A residual block's projection shortcut: relu(conv(x, k1) + conv(x, k2)).
  // The sum takes one convolution with it; the other stays a fusion root of
  // its own, so each product runs alone on the GEMM.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  x = f32[1,6,6,8] parameter(0)
  k1 = f32[1,1,8,16] parameter(1)
  k2 = f32[1,1,8,16] parameter(2)
  c1 = f32[1,6,6,16] convolution(x, k1), window={size=1x1}, dim_labels=b01f_01io->b01f
  c2 = f32[1,6,6,16] convolution(x, k2), window={size=1x1}, dim_labels=b01f_01io->b01f
  s = f32[1,6,6,16] add(c1, c2)
  zero = f32[] constant(0)
  z = f32[1,6,6,16] broadcast(zero), dimensions={}
  ROOT r = f32[1,6,6,16] maximum(s, z)
}
)");
  ASSERT_NE(m, nullptr);
  const std::vector<std::string> regions = Regions(*m);
  ASSERT_EQ(regions.size(), 1u);
  // Exactly one of the two convolutions joined the epilogue.
  const bool has_c1 = regions[0].find(" c1") != std::string::npos;
  const bool has_c2 = regions[0].find(" c2") != std::string::npos;
  EXPECT_NE(has_c1, has_c2) << regions[0];
  EXPECT_NE(m->entry()->FindInstruction(has_c1 ? "c2" : "c1"), nullptr);
}

TEST(FusionTest, AConvolutionDoesNotFuseIntoAReduction) {
  // relu(conv) then a global average pool, sum / count: the reduction
  // takes the relu but not the convolution.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[1,6,6,8] parameter(0)
  k = f32[1,1,8,16] parameter(1)
  c = f32[1,6,6,16] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f
  zero = f32[] constant(0)
  z = f32[1,6,6,16] broadcast(zero), dimensions={}
  r = f32[1,6,6,16] maximum(c, z)
  p = f32[1,16] reduce(r, zero), dimensions={1,2}, to_apply=add
  n = f32[] constant(36)
  nb = f32[1,16] broadcast(n), dimensions={}
  ROOT mean = f32[1,16] divide(p, nb)
}
)");
  ASSERT_NE(m, nullptr);
  const std::vector<std::string> regions = Regions(*m);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].substr(0, regions[0].find(' ')), "kInput:");
  EXPECT_NE(regions[0].find(" r "), std::string::npos) << regions[0];
  EXPECT_EQ(regions[0].find(" c "), std::string::npos) << regions[0];
  EXPECT_NE(m->entry()->FindInstruction("c"), nullptr);
}

TEST(FusionTest, ReduceOnlyFusesIntoASameShapedElementwiseConsumer) {
  // The reduce result is broadcast back (softmax's pattern): the broadcast
  // reads each reduced element 16 times, so the reduce stays a region of
  // its own with its producer.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[8,16] parameter(0)
  x = f32[8,16] exponential(p)
  z = f32[] constant(0)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  b = f32[8,16] broadcast(s), dimensions={0}
  ROOT d = f32[8,16] divide(x, b)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: b d"}));
  const Instruction* s = m->entry()->FindInstruction("s");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->opcode(), Opcode::kReduce);
  const Instruction* b = nullptr;
  for (const auto& f : m->entry()->root()->fused_computation()->instructions()) {
    if (f->name() == "b") b = f.get();
  }
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(FusionRefusal(*s, *b),
            "a reduce, reduce-window, dot or convolution only fuses into a "
            "same-shaped element-wise consumer");
}

TEST(FusionTest, MovementOpsAreFusedAsIndexArithmetic) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[4,6] parameter(0)
  t = f32[6,4] transpose(p), dimensions={1,0}
  r = f32[24] reshape(t)
  s = f32[12] slice(r), slice={[2:14]}
  v = f32[12] reverse(s), dimensions={0}
  c = f32[24] concatenate(v, v), dimensions={0}
  z = f32[] constant(0)
  d = f32[30] pad(c, z), padding=3_3
  i = s32[30] iota(), iota_dimension=0
  f = f32[30] convert(i)
  ROOT a = f32[30] add(d, f)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m),
            (std::vector<std::string>{"kLoop: a c d f i r s t v z"}));
  EXPECT_EQ(EntryOpcodes(*m),
            (std::vector<std::string>{"parameter", "fusion"}));
}

TEST(FusionTest, FusesInsideWhileBodiesButNotInsideReducers) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  n = f32[] negate(a)
  ROOT s = f32[] add(n, b)
}
cond {
  st = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  k = s32[] constant(3)
  ROOT lt = pred[] compare(i, k), direction=LT
}
body {
  st = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  v = f32[8] get-tuple-element(st), index=1
  e = f32[8] negate(v)
  a = f32[8] abs(e)
  ROOT t = (s32[], f32[8]) tuple(i1, a)
}
ENTRY e {
  p = f32[8] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[8]) tuple(z, p)
  w = (s32[], f32[8]) while(init), condition=cond, body=body
  v = f32[8] get-tuple-element(w), index=1
  zero = f32[] constant(0)
  ROOT r = f32[] reduce(v, zero), dimensions={0}, to_apply=add
}
)");
  ASSERT_NE(m, nullptr);
  const Computation* body = m->FindComputation("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->root()->operand(1)->opcode(), Opcode::kFusion);
  // i1 = add(i, one) has nothing but a constant to take in.
  EXPECT_EQ(body->root()->operand(0)->opcode(), Opcode::kAdd);
  const Computation* add = m->FindComputation("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->instruction_count(), 4);
}

TEST(FusionTest, HalfPrecisionBitcastConvertIsNotFused) {
  // Fused, f16 and bf16 would pass through float and lose NaN payloads;
  // the s32 <-> f32 one keeps every bit and fuses.
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = s16[10] parameter(0)
  b = bf16[10] bitcast-convert(p)
  n = bf16[10] negate(b)
  q = s32[10] parameter(1)
  f = f32[10] bitcast-convert(q)
  a = f32[10] abs(f)
  ROOT t = (bf16[10], f32[10]) tuple(n, a)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a f"}));
  EXPECT_NE(m->entry()->FindInstruction("b"), nullptr);
}

// An embedding lookup and the add after it become one loop nest: the
// gathered rows never go through a buffer.
TEST(FusionTest, GatherIsFusedIntoItsElementwiseConsumer) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = s32[4] parameter(1)
  g = f32[4,3] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  pos = f32[4,3] parameter(2)
  ROOT a = f32[4,3] add(g, pos)
}
)");
  ASSERT_NE(m, nullptr);
  FusionPass pass;
  EXPECT_TRUE(RunVerified(pass, *m));
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a g"}));
  EXPECT_EQ(EntryOpcodes(*m),
            (std::vector<std::string>{"parameter", "parameter", "parameter",
                                      "fusion"}));
}

// Under an expanding broadcast each gathered element would be computed
// again (index vector read, operand read at an unpredictable address) for
// every copy; the gather keeps its buffer and the broadcast reads it.
TEST(FusionTest, GatherIsNotFusedIntoAnExpandingBroadcast) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = s32[4] parameter(1)
  g = f32[4,3] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  n = f32[4,3] negate(g)
  b = f32[4,3,8] broadcast(n), dimensions={0,1}
  q = f32[4,3,8] parameter(2)
  ROOT a = f32[4,3,8] add(b, q)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a b n"}));
  const Instruction* g = m->entry()->FindInstruction("g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->opcode(), Opcode::kGather);
}

TEST(FusionTest, GatherIsNotFusedDirectlyIntoAnExpandingBroadcast) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  table = f32[5,3] parameter(0)
  ids = s32[4] parameter(1)
  g = f32[4,3] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  ROOT b = f32[4,3,8] broadcast(g), dimensions={0,1}
}
)");
  ASSERT_NE(m, nullptr);
  const Computation& e = *m->entry();
  EXPECT_EQ(FusionRefusal(*e.FindInstruction("g"), *e.FindInstruction("b")),
            "a gather would read its indices and operand again for every "
            "element the consumer reads repeatedly");
  FusionPass pass;
  EXPECT_FALSE(RunVerified(pass, *m));
}

// A gather may read one operand element for many result elements: an
// expensive operand stays outside, computed once into a buffer.
TEST(FusionTest, ExpensiveProducerIsNotFusedIntoAGather) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[5,3] parameter(0)
  table = f32[5,3] exponential(p)
  ids = s32[4] parameter(1)
  g = f32[4,3] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  pos = f32[4,3] parameter(2)
  ROOT a = f32[4,3] add(g, pos)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Regions(*m), (std::vector<std::string>{"kLoop: a g"}));
  const Instruction* table = m->entry()->FindInstruction("table");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->opcode(), Opcode::kExp);
}

TEST(FusionTest, SecondRunChangesNothing) {
  std::unique_ptr<Module> m = Fused(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  x = f32[8] exponential(p)
  ROOT a = f32[8] add(x, p)
}
)");
  ASSERT_NE(m, nullptr);
  FusionPass pass;
  EXPECT_FALSE(RunVerified(pass, *m));
}

}  // namespace
}  // namespace aotc
