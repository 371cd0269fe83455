// Tests of buffer assignment: live ranges, reuse, in-place results and
// their refusals, while buffers, side effects nothing reads, the peak
// against the no-reuse total, packing largest first, and scratch.
// Every expected offset and size is computed by hand in the comments.
#include "compiler/analysis/buffer_assignment.h"

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/pipelines.h"
#include "compiler/support/file_io.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ParseVerified;

const Buffer* FindBuffer(const BufferPlan& plan, std::string_view name,
                         Buffer::Role role = Buffer::Role::kValue) {
  for (const Buffer& b : plan.buffers) {
    if (b.instruction->name() == name && b.role == role) return &b;
  }
  return nullptr;
}

TEST(BufferAssignmentTest, DeadBuffersAreReusedAndTheRootIsWrittenInPlace) {
  // f32[100] is 400 bytes, 448 aligned to 64. e and l are both live until
  // s reads them, so they need two regions; later buffers reuse them.
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  p = f32[100] parameter(0)
  e = f32[100] exponential(p)
  l = f32[100] log(p)
  s = f32[100] add(e, l)
  t = f32[100] transpose(s), dimensions={0}
  n = f32[100] negate(t)
  ROOT r = f32[100] multiply(n, p)
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  // Schedule: p0 e1 l2 s3 t4 n5 r6; r writes the result directly.
  ASSERT_EQ(plan.schedule.size(), 7u);
  const Buffer* e = FindBuffer(plan, "e");
  const Buffer* l = FindBuffer(plan, "l");
  const Buffer* s = FindBuffer(plan, "s");
  const Buffer* t = FindBuffer(plan, "t");
  const Buffer* n = FindBuffer(plan, "n");
  ASSERT_TRUE(e && l && s && t && n);
  EXPECT_EQ(FindBuffer(plan, "r"), nullptr);
  EXPECT_EQ(e->start, 1);
  EXPECT_EQ(e->end, 3);
  EXPECT_EQ(l->end, 3);
  // s = add(e, l) is element-wise and e dies there: s overwrites e.
  EXPECT_EQ(s->in_place_of, 0);
  EXPECT_EQ(s->offset, e->offset);
  EXPECT_EQ(e->offset, 0);
  EXPECT_EQ(l->offset, 448);
  // t = transpose reads s at another index: no in place; l is dead by
  // then (end 3 < start 4), so t takes l's bytes.
  EXPECT_EQ(t->in_place_of, -1);
  EXPECT_EQ(t->offset, 448);
  // n = negate(t) overwrites t.
  EXPECT_EQ(n->offset, 448);
  EXPECT_GE(n->in_place_of, 0);
  EXPECT_EQ(plan.arena_bytes, 896);
  EXPECT_EQ(plan.unshared_bytes, 5 * 448);
  EXPECT_EQ(plan.result_index.at(m->entry()->root())[0], 0);
}

TEST(BufferAssignmentTest, NoInPlaceWhenTheOperandLivesOnOrShapesDiffer) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  p = f32[16] parameter(0)
  a = f32[16] exponential(p)
  b = f32[16] negate(a)
  c = f32[16] abs(a)
  d = f32[16] add(b, c)
  x = f32[4,4] reshape(d)
  y = f32[4,4]{0,1} copy(x)
  ROOT r = (f32[16], f32[4,4]{0,1}) tuple(d, y)
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  // b reads a, but a is still read by c: b gets bytes of its own.
  const Buffer* a = FindBuffer(plan, "a");
  const Buffer* b = FindBuffer(plan, "b");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->in_place_of, -1);
  EXPECT_NE(b->offset, a->offset);
  // d and y are root leaves written straight into the results.
  EXPECT_EQ(FindBuffer(plan, "d"), nullptr);
  EXPECT_EQ(FindBuffer(plan, "y"), nullptr);
  EXPECT_EQ(plan.result_index.at(m->entry()->FindInstruction("d"))[0], 0);
  EXPECT_EQ(plan.result_index.at(m->entry()->FindInstruction("y"))[0], 1);
}

TEST(BufferAssignmentTest, AScatterUpdatesTheOperandItKills) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[8,4] parameter(0)
  i = s32[3,1] parameter(1)
  u = f32[3,4] parameter(2)
  x = f32[8,4] exponential(p)
  s = f32[8,4] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  kept = f32[8,4] exponential(p)
  t = f32[8,4] scatter(kept, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  n = f32[8,4] negate(kept)
  st = f32[8,4] add(s, t)
  ROOT r = f32[8,4] add(st, n)
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  const Buffer* x = FindBuffer(plan, "x");
  const Buffer* s = FindBuffer(plan, "s");
  const Buffer* t = FindBuffer(plan, "t");
  const Buffer* kept = FindBuffer(plan, "kept");
  ASSERT_TRUE(x && s && t && kept);
  // x dies at s: s takes its bytes. kept is still read by n: t copies it.
  EXPECT_GE(s->in_place_of, 0);
  EXPECT_EQ(s->offset, x->offset);
  EXPECT_EQ(t->in_place_of, -1);
  EXPECT_NE(t->offset, kept->offset);
}

TEST(BufferAssignmentTest, WhileOwnsStateNextAndPredicateBuffers) {
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
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
  ROOT t = (s32[], f32[8]) tuple(i1, v)
}
ENTRY e {
  p = f32[8] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[8]) tuple(z, p)
  w = (s32[], f32[8]) while(init), condition=cond, body=body
  ROOT v = f32[8] get-tuple-element(w), index=1
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  // z (a scalar constant) owns 4 bytes; the while's leaf 1 is the root's
  // result; its leaf 0 and both "next" leaves and the predicate are
  // scratch.
  const Instruction* w = m->entry()->FindInstruction("w");
  EXPECT_EQ(plan.leaf_buffers.at(w)[1], -1);
  EXPECT_EQ(plan.result_index.at(w)[1], 0);
  ASSERT_NE(FindBuffer(plan, "w", Buffer::Role::kWhileNext), nullptr);
  const Buffer* pred = FindBuffer(plan, "w", Buffer::Role::kWhilePredicate);
  ASSERT_NE(pred, nullptr);
  EXPECT_EQ(pred->size, 1);
  // z (64) + w leaf 0 (64) + two next leaves (64 + 64) + pred (64): all
  // live at the while, so nothing is shared.
  EXPECT_EQ(plan.arena_bytes, 5 * 64);
  EXPECT_EQ(plan.unshared_bytes, 5 * 64);
}

TEST(BufferAssignmentTest, GeluMlpSamplePeakIsBelowTheNoReuseTotal) {
  absl::StatusOr<std::string> text =
      ReadFile(std::string(AOTC_SOURCE_DIR) + "/samples/gelu_mlp.hlo");
  ASSERT_TRUE(text.ok()) << text.status();
  std::unique_ptr<Module> m = ParseVerified(*text);
  ASSERT_NE(m, nullptr);
  OptimizeOptions unfused;
  unfused.fusion = false;
  ASSERT_TRUE(OptimizeModule(*m, unfused).ok());
  const BufferPlan plan = AssignBuffers(*m->entry());
  EXPECT_GT(plan.unshared_bytes, 0);
  EXPECT_LT(plan.arena_bytes, plan.unshared_bytes);
  // With fusion the hidden layer is the only temporary: f32[8,32].
  std::unique_ptr<Module> fused = ParseVerified(*text);
  ASSERT_NE(fused, nullptr);
  ASSERT_TRUE(OptimizeModule(*fused, {}).ok());
  const BufferPlan fused_plan = AssignBuffers(*fused->entry());
  EXPECT_EQ(fused_plan.arena_bytes, 8 * 32 * 4);
}

TEST(BufferAssignmentTest, RunningExampleNeedsNoTemporaryOfInputSize) {
  absl::StatusOr<std::string> text =
      ReadFile(std::string(AOTC_SOURCE_DIR) + "/samples/running_example.hlo");
  ASSERT_TRUE(text.ok()) << text.status();
  std::unique_ptr<Module> m = ParseVerified(*text);
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(OptimizeModule(*m, {}).ok());
  const BufferPlan plan = AssignBuffers(*m->entry());
  for (const Buffer& b : plan.buffers) {
    EXPECT_LT(b.size, int64_t{4096} * 4096 * 4) << b.instruction->name();
  }
  // The only temporary: the 4096 row partial sums of the split reduction.
  EXPECT_EQ(plan.arena_bytes, 4096 * 4);
}

TEST(BufferAssignmentTest, LargestFirstPacksTighterThanFirstFit) {
  // Schedule: p0 q1 s2 x3 y4 z5 r6. x (64 bytes) lives 3..4, y (640) 4..6,
  // z (128) 5..6; r is the result. In definition order x takes 0, y 64 and
  // z, too big for x's 64 dead bytes, 704: 832 bytes. Largest first, y
  // takes 0, z 640 and x, which overlaps y but not z, 640 too: 768, the
  // most that is ever live at once (y and z at 5 and 6).
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  p = f32[16] parameter(0)
  q = f32[144] parameter(1)
  s = f32[32] parameter(2)
  x = f32[16] exponential(p)
  y = f32[160] concatenate(x, q), dimensions={0}
  z = f32[32] exponential(s)
  ROOT r = f32[192] concatenate(y, z), dimensions={0}
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  const Buffer* x = FindBuffer(plan, "x");
  const Buffer* y = FindBuffer(plan, "y");
  const Buffer* z = FindBuffer(plan, "z");
  ASSERT_TRUE(x && y && z);
  EXPECT_EQ(x->start, 3);
  EXPECT_EQ(x->end, 4);
  EXPECT_EQ(z->start, 5);
  EXPECT_EQ(y->offset, 0);
  EXPECT_EQ(z->offset, 640);
  EXPECT_EQ(x->offset, 640);
  EXPECT_EQ(plan.arena_bytes, 768);
  EXPECT_EQ(plan.unshared_bytes, 64 + 640 + 128);
}

TEST(BufferAssignmentTest, ScratchLivesWhereItsInstructionRuns) {
  // Schedule: p0 e1 t2 r3; e (448 bytes) lives 1..2, t 2..3, r is the
  // result. 448 bytes of scratch for r fit in e's dead bytes at 0: the
  // arena stays 896. The same scratch for t, where e and t are both live,
  // needs a third region: 1344.
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  p = f32[100] parameter(0)
  e = f32[100] exponential(p)
  t = f32[100] transpose(e), dimensions={0}
  ROOT r = f32[100] negate(t)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(AssignBuffers(*m->entry()).arena_bytes, 896);
  for (const std::string& name : {"r", "t"}) {
    SCOPED_TRACE(name);
    int asked = 0;
    const BufferPlan plan =
        AssignBuffers(*m->entry(), [&](const Instruction& inst) -> int64_t {
          ++asked;
          return inst.name() == name ? 400 : 0;
        });
    EXPECT_EQ(asked, 4);
    const Buffer* scratch = FindBuffer(plan, name, Buffer::Role::kScratch);
    ASSERT_NE(scratch, nullptr);
    const int64_t at = name == "r" ? 3 : 2;
    EXPECT_EQ(scratch->start, at);
    EXPECT_EQ(scratch->end, at);
    ASSERT_EQ(plan.scratch_buffer.count(scratch->instruction), 1u);
    if (name == "r") {
      EXPECT_EQ(scratch->offset, FindBuffer(plan, "e")->offset);
      EXPECT_EQ(plan.arena_bytes, 896);
    } else {
      EXPECT_EQ(plan.arena_bytes, 1344);
    }
  }
}

TEST(BufferAssignmentTest, SideEffectsAreScheduledThoughNothingReadsThem) {
  // c (a custom-call: a side effect) and the negate it reads are scheduled
  // although the root does not depend on them; d (dead, pure) is not. c's
  // buffer lives only at c itself. Schedule: p0 n1 c2 r3.
  std::unique_ptr<Module> m = ParseVerified(R"(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  n = f32[4] negate(p)
  c = f32[4] custom-call(n), custom_call_target="log_it"
  d = f32[4] exponential(p)
  ROOT r = f32[4] add(p, p)
}
)");
  ASSERT_NE(m, nullptr);
  const BufferPlan plan = AssignBuffers(*m->entry());
  ASSERT_EQ(plan.schedule.size(), 4u);
  EXPECT_EQ(plan.schedule[1]->name(), "n");
  EXPECT_EQ(plan.schedule[2]->name(), "c");
  EXPECT_EQ(FindBuffer(plan, "d"), nullptr);
  const Buffer* c = FindBuffer(plan, "c");
  const Buffer* n = FindBuffer(plan, "n");
  ASSERT_TRUE(c && n);
  EXPECT_EQ(c->start, 2);
  EXPECT_EQ(c->end, 2);
  EXPECT_EQ(n->end, 2);
}

}  // namespace
}  // namespace aotc
