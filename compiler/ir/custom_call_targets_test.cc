// Tests of the custom-call target lists: the identity predicate (each
// condition, target, operand count and shape, decides on its own), the
// builtin targets and the device-only ones.
#include "compiler/ir/custom_call_targets.h"

#include <gtest/gtest.h>

#include <string>

#include "compiler/ir/computation.h"

namespace aotc {
namespace {

class IdentityCustomCallTest : public ::testing::Test {
 protected:
  Instruction* Param(int64_t number, Shape shape) {
    Instruction* p = comp_.AddInstruction(
        Instruction::Create(Opcode::kParameter, "p" + std::to_string(number),
                            std::move(shape), {}));
    p->mutable_attrs().parameter_number = number;
    return p;
  }
  Instruction* Call(std::string target, Shape shape,
                    std::vector<Instruction*> operands) {
    Instruction* c = comp_.AddInstruction(
        Instruction::Create(Opcode::kCustomCall, "c" + std::to_string(next_++),
                            std::move(shape), std::move(operands)));
    c->mutable_attrs().custom_call_target = std::move(target);
    return c;
  }
  Computation comp_{"c"};
  int next_ = 0;
};

TEST_F(IdentityCustomCallTest, EveryListedTargetAndTheShardyNamespace) {
  const Shape f4 = Shape::Array(PrimitiveType::kF32, {4});
  Instruction* x = Param(0, f4);
  for (const char* target :
       {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
        "annotate_device_placement", "MoveToHost", "MoveToDevice",
        "xla_mark_tensor", "xla.sdy.GlobalToLocalShape",
        "xla.sdy.FuncResultSharding"}) {
    EXPECT_TRUE(IsIdentityCustomCall(*Call(target, f4, {x}))) << target;
  }
  // Near misses: case matters, and the prefix needs its dot.
  for (const char* target : {"sharding", "xla.sdy", "xla_sdy.Foo", "TopK",
                             "AllocateBuffer", "MoveToHostX"}) {
    EXPECT_FALSE(IsIdentityCustomCall(*Call(target, f4, {x}))) << target;
  }
}

TEST_F(IdentityCustomCallTest, NeedsOneOperandOfTheSameShape) {
  const Shape f4 = Shape::Array(PrimitiveType::kF32, {4});
  Instruction* x = Param(0, f4);
  Instruction* y = Param(1, f4);
  EXPECT_FALSE(IsIdentityCustomCall(*Call("Sharding", f4, {})));
  EXPECT_FALSE(IsIdentityCustomCall(*Call("Sharding", f4, {x, y})));
  // SPMDFullToShardShape changes the shape when there are several devices.
  EXPECT_FALSE(IsIdentityCustomCall(*Call(
      "SPMDFullToShardShape", Shape::Array(PrimitiveType::kF32, {2}), {x})));
  EXPECT_FALSE(IsIdentityCustomCall(
      *Call("Sharding", Shape::Array(PrimitiveType::kS32, {4}), {x})));
  // A layout in another memory space is still the same value.
  Layout host;
  host.minor_to_major = {0};
  host.extension = "S(5)";
  EXPECT_TRUE(IsIdentityCustomCall(
      *Call("MoveToHost",
            Shape::ArrayWithLayout(PrimitiveType::kF32, {4}, host), {x})));
  // Tuples compare leaf by leaf.
  const Shape pair = Shape::Tuple({f4, Shape::Scalar(PrimitiveType::kS32)});
  Instruction* t = Param(2, pair);
  EXPECT_TRUE(IsIdentityCustomCall(*Call("Sharding", pair, {t})));
  // Not a custom-call at all.
  Instruction* n =
      comp_.AddInstruction(Instruction::Create(Opcode::kNegate, "n", f4, {x}));
  EXPECT_FALSE(IsIdentityCustomCall(*n));
}

TEST(CustomCallTargetsTest, BuiltinTargetsAreNeverExternal) {
  for (const char* target :
       {"TopK", "AllocateBuffer", "Sharding", "MoveToHost", "xla.sdy.x"}) {
    EXPECT_TRUE(IsBuiltinCustomCallTarget(target)) << target;
  }
  for (const char* target : {"my_op", "topk", "Allocate", ""}) {
    EXPECT_FALSE(IsBuiltinCustomCallTarget(target)) << target;
  }
}

TEST(CustomCallTargetsTest, DeviceOnlyTargetsNameTheirKind) {
  EXPECT_EQ(DeviceOnlyTargetKind("xla_python_cpu_callback"),
            "a Python callback");
  EXPECT_EQ(DeviceOnlyTargetKind("xla_ffi_python_cpu_callback"),
            "a Python callback");
  EXPECT_EQ(DeviceOnlyTargetKind("xla_python_gpu_callback"),
            "a Python callback");
  EXPECT_EQ(DeviceOnlyTargetKind("__cublas$gemm"), "a GPU target");
  EXPECT_EQ(DeviceOnlyTargetKind("__cudnn$convForward"), "a GPU target");
  EXPECT_EQ(DeviceOnlyTargetKind("__gpu$xla.gpu.triton"), "a GPU target");
  EXPECT_EQ(DeviceOnlyTargetKind("cu_threefry2x32"), "a GPU target");
  EXPECT_EQ(DeviceOnlyTargetKind("tpu_custom_call"), "a TPU target");
  EXPECT_EQ(DeviceOnlyTargetKind("MegaScaleAllReduce"), "a TPU target");
  // Host targets, including ones that merely mention a device.
  for (const char* target :
       {"my_op", "xla_cpu_thing", "gpu_like", "lapack_sgetrf_ffi", "python"}) {
    EXPECT_EQ(DeviceOnlyTargetKind(target), "") << target;
  }
}

}  // namespace
}  // namespace aotc
