// Negative tests of the HloModuleProto importer: every malformed proto gives
// one exact, located message and never a crash.
#include "compiler/frontend/proto/hlo_subset.pb.h"
#include "compiler/frontend/proto/proto_importer.h"
#include "compiler/frontend/proto/testing/proto_builder.h"
#include "gtest/gtest.h"

namespace aotc {
namespace {

using testing::ArrayShape;
using testing::F32;
using testing::ProtoBuilder;
using testing::TupleShape;

std::string ImportError(const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<Module>> m = ImportHloProto(bytes, "m.pb");
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : std::string(m.status().message());
}

TEST(ProtoImporterErrorTest, CorruptBytes) {
  // Field 1 claims 5 bytes but only 2 follow.
  EXPECT_EQ(ImportError(std::string("\x0a\x05"
                                    "ab",
                                    4)),
            "m.pb: error: failed to parse HloModuleProto");
  EXPECT_EQ(ImportError(std::string("\xff\xff\xff\xff", 4)),
            "m.pb: error: failed to parse HloModuleProto");
}

TEST(ProtoImporterErrorTest, NoComputations) {
  EXPECT_EQ(ImportError(""), "m.pb: error: HloModuleProto has no computations");
}

TEST(ProtoImporterErrorTest, UnknownOpcode) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  b.Add(c, "x", "frobnicate", F32({}));
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'x': unknown opcode 'frobnicate'");
}

TEST(ProtoImporterErrorTest, OperandIdNotFound) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({}));
  auto* n = b.Add(c, "n", "negate", F32({}), {x});
  n->set_operand_ids(0, 77);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'n': operand id 77 does not name an "
            "earlier instruction of computation 'main'");
}

TEST(ProtoImporterErrorTest, OperandDefinedLater) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* n = b.Add(c, "n", "negate", F32({}));
  auto* x = b.Parameter(c, "x", 0, F32({}));
  n->add_operand_ids(x->id());
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'n': operand id 2 does not name an "
            "earlier instruction of computation 'main'");
}

TEST(ProtoImporterErrorTest, UnknownPrimitiveType) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  xla::ShapeProto s = F32({2});
  s.set_element_type(99);
  b.Parameter(c, "x", 0, s);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'x': unknown element type number 99");
}

TEST(ProtoImporterErrorTest, DynamicDimension) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  xla::ShapeProto s = F32({2, 8});
  s.add_is_dynamic_dimension(false);
  s.add_is_dynamic_dimension(true);
  b.Parameter(c, "x", 0, s);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'x': dynamic dimensions are not "
            "supported: aotc compiles static shapes only");
}

TEST(ProtoImporterErrorTest, LiteralWithWrongElementCount) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* k = b.Add(c, "k", "constant", F32({2, 3}));
  *k->mutable_literal()->mutable_shape() = F32({2, 3});
  for (int i = 0; i < 5; ++i) k->mutable_literal()->add_f32s(i);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'k': literal of shape f32[2,3]{1,0} has "
            "5 values in f32s, expected 6");
}

TEST(ProtoImporterErrorTest, HugeLiteralShapeIsRefusedBeforeAllocation) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  // 4 GiB of u8 is under the buffer limit but would be a large allocation;
  // the 3 bytes present decide before anything is allocated.
  auto* k = b.Add(c, "k", "constant",
                  ArrayShape(PrimitiveType::kU8, {1 << 16, 1 << 16}));
  *k->mutable_literal()->mutable_shape() =
      ArrayShape(PrimitiveType::kU8, {1 << 16, 1 << 16});
  k->mutable_literal()->set_u8s("abc");
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'k': literal of shape "
            "u8[65536,65536]{1,0} has 3 bytes in u8s, expected "
            "4294967296");
}

TEST(ProtoImporterErrorTest, ShapeAboveTheBufferLimitIsRefused) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  // 2^20 * 2^20 u8 = 2^40 bytes, above the default 16 GiB limit.
  auto* k = b.Add(c, "k", "constant",
                  ArrayShape(PrimitiveType::kU8, {1 << 20, 1 << 20}));
  *k->mutable_literal()->mutable_shape() =
      ArrayShape(PrimitiveType::kU8, {1 << 20, 1 << 20});
  k->mutable_literal()->set_u8s("abc");
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'k': shape u8[1048576,1048576] needs "
            "1099511627776 bytes, more than the limit of 17179869184 bytes "
            "for one buffer (--max-buffer-bytes)");
}

TEST(ProtoImporterErrorTest, TupleShapesNestedTooDeep) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  xla::ShapeProto s = F32({});
  for (int i = 0; i < 70; ++i) s = TupleShape({s});
  b.Parameter(c, "x", 0, s);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'x': tuple shapes nested deeper than 64 "
            "levels");
}

// A length-delimited field: tag byte, varint length, body.
std::string LengthDelimited(char tag, const std::string& body) {
  std::string out(1, tag);
  uint64_t len = body.size();
  while (len >= 0x80) {
    out += static_cast<char>((len & 0x7f) | 0x80);
    len >>= 7;
  }
  out += static_cast<char>(len);
  return out + body;
}

TEST(ProtoImporterErrorTest, NestingBeyondTheParserLimitFailsCleanly) {
  // 5000 nested tuple shapes written by hand (ShapeProto field 2 =
  // element_type TUPLE, field 4 = tuple_shapes): parsing must stop at the
  // recursion limit instead of exhausting the stack.
  std::string shape;
  for (int i = 0; i < 5000; ++i) {
    shape = std::string("\x10\x0d") + LengthDelimited('\x22', shape);
  }
  // HloInstructionProto: name = 1, opcode = 2, shape = 3; computation:
  // name = 1, instructions = 2; module: name = 1, computations = 3.
  std::string instruction = LengthDelimited('\x0a', "x") +
                            LengthDelimited('\x12', "parameter") +
                            LengthDelimited('\x1a', shape);
  std::string computation =
      LengthDelimited('\x0a', "main") + LengthDelimited('\x12', instruction);
  std::string module =
      LengthDelimited('\x0a', "m") + LengthDelimited('\x1a', computation);
  EXPECT_EQ(ImportError(module), "m.pb: error: failed to parse HloModuleProto");
}

TEST(ProtoImporterErrorTest, CallCycle) {
  ProtoBuilder b("m");
  auto* f = b.Computation("f");
  auto* g = b.Computation("g");
  b.Parameter(f, "fx", 0, F32({}));
  auto* fc = b.Add(f, "fc", "call", F32({}), {f->mutable_instructions(0)});
  b.Parameter(g, "gx", 0, F32({}));
  auto* gc = b.Add(g, "gc", "call", F32({}), {g->mutable_instructions(0)});
  fc->add_called_computation_ids(g->id());
  gc->add_called_computation_ids(f->id());
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: computation 'f' calls itself through a cycle");
}

TEST(ProtoImporterErrorTest, UnknownCalledComputation) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({}));
  b.Add(c, "call", "call", F32({}), {x})->add_called_computation_ids(5);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'call': called computation id 5 does "
            "not exist");
}

TEST(ProtoImporterErrorTest, WhileNeedsTwoComputations) {
  ProtoBuilder b("m");
  auto* body = b.Computation("body");
  b.Parameter(body, "bx", 0, F32({}));
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({}));
  b.Add(c, "w", "while", F32({}), {x})->add_called_computation_ids(body->id());
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: instruction 'w': while calls 1 computations, "
            "expected 2 (body, condition)");
}

TEST(ProtoImporterErrorTest, RootIdNotFound) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  b.Parameter(c, "x", 0, F32({}));
  c->set_root_id(42);
  EXPECT_EQ(ImportError(b.Bytes()),
            "m.pb: error: computation 'main': root id 42 does not name one of "
            "its instructions");
}

TEST(ProtoImporterErrorTest, UnknownComparisonDirection) {
  ProtoBuilder b("m");
  auto* c = b.Computation("main");
  auto* x = b.Parameter(c, "x", 0, F32({}));
  b.Add(c, "cmp", "compare", ArrayShape(PrimitiveType::kPred, {}), {x, x})
      ->set_comparison_direction("XX");
  EXPECT_EQ(
      ImportError(b.Bytes()),
      "m.pb: error: instruction 'cmp': unknown comparison direction 'XX'");
}

// Every truncation and many single-byte corruptions of a module using most
// features end in a module or a clean error, never a crash.
TEST(ProtoImporterErrorTest, CorruptedBytesNeverCrash) {
  ProtoBuilder b("m");
  auto* add = b.Computation("add");
  auto* a = b.Parameter(add, "a", 0, F32({}));
  auto* bb = b.Parameter(add, "b", 1, F32({}));
  b.Add(add, "s", "add", F32({}), {a, bb});
  auto* c = b.Computation("main");
  auto* x =
      b.Parameter(c, "x", 0, ArrayShape(PrimitiveType::kF32, {2, 3}, {0, 1}));
  auto* k = b.Add(c, "k", "constant", TupleShape({F32({2}), F32({})}));
  *k->mutable_literal()->mutable_shape() = TupleShape({F32({2}), F32({})});
  auto* k0 = k->mutable_literal()->add_tuple_literals();
  *k0->mutable_shape() = F32({2});
  k0->add_f32s(1);
  k0->add_f32s(2);
  auto* k1 = k->mutable_literal()->add_tuple_literals();
  *k1->mutable_shape() = F32({});
  k1->add_f32s(0);
  auto* init = b.Add(c, "init", "get-tuple-element", F32({}), {k});
  init->set_tuple_index(1);
  auto* r = b.Add(c, "r", "reduce", F32({3}), {x, init});
  r->add_dimensions(0);
  r->add_called_computation_ids(add->id());
  r->mutable_metadata()->set_source_file("f.py");
  r->mutable_sharding()->set_type(2);
  r->mutable_sharding()->add_tuple_shardings()->set_type(0);
  b.SetEntry(c);
  const std::string bytes = b.Bytes();
  ASSERT_TRUE(ImportHloProto(bytes, "m.pb").ok());
  int imported = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    imported += ImportHloProto(bytes.substr(0, i), "m.pb").ok();
    for (int flip : {0x01, 0x04, 0x10, 0x80, 0xff}) {
      std::string corrupt = bytes;
      corrupt[i] = static_cast<char>(corrupt[i] ^ flip);
      imported += ImportHloProto(corrupt, "m.pb").ok();
    }
  }
  // Some corruptions only change a value (a name, a number) and still import.
  EXPECT_GT(imported, 0);
}

}  // namespace
}  // namespace aotc
