#include "tools/npy.h"

#include <gtest/gtest.h>

#include <cstring>

namespace aotc {
namespace {

// Builds a version 1.0 .npy file by hand: header dict padded to 64 bytes.
std::string MakeNpy(const std::string& dict, const std::string& data) {
  std::string header = dict;
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  return out + header + data;
}

std::string Floats(std::initializer_list<float> v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  return s;
}

TEST(NpyTest, ReadsFloatMatrix) {
  std::string file = MakeNpy(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
      Floats({1, 2, 3, 4, 5, 6}));
  auto lit = ReadNpy(file, "x.npy");
  ASSERT_TRUE(lit.ok()) << lit.status();
  EXPECT_EQ(lit->shape().ToString(false), "f32[2,3]");
  EXPECT_EQ(lit->Get<float>(4), 5.0f);
}

TEST(NpyTest, FortranOrderIsTransposedToRowMajor) {
  // Column-major storage of [[1,2,3],[4,5,6]] is 1,4,2,5,3,6.
  std::string file = MakeNpy(
      "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
      Floats({1, 4, 2, 5, 3, 6}));
  auto lit = ReadNpy(file, "x.npy");
  ASSERT_TRUE(lit.ok()) << lit.status();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(lit->Get<float>(i), i + 1.0f);
}

TEST(NpyTest, BigEndianInt32) {
  std::string file = MakeNpy("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                             std::string("\x00\x00\x01\x02\xff\xff\xff\xfe", 8));
  auto lit = ReadNpy(file, "x.npy");
  ASSERT_TRUE(lit.ok()) << lit.status();
  EXPECT_EQ(lit->Get<int32_t>(0), 0x0102);
  EXPECT_EQ(lit->Get<int32_t>(1), -2);
}

TEST(NpyTest, WriteThenReadEveryType) {
  for (PrimitiveType t :
       {PrimitiveType::kPred, PrimitiveType::kS8, PrimitiveType::kS16,
        PrimitiveType::kS32, PrimitiveType::kS64, PrimitiveType::kU8,
        PrimitiveType::kU16, PrimitiveType::kU32, PrimitiveType::kU64,
        PrimitiveType::kF16, PrimitiveType::kF32, PrimitiveType::kF64,
        PrimitiveType::kC64, PrimitiveType::kC128}) {
    Literal lit(Shape::Array(t, {3, 1}));
    for (int64_t i = 0; i < lit.raw_size(); ++i) {
      lit.mutable_raw()[i] = t == PrimitiveType::kPred ? i % 2 : static_cast<uint8_t>(i * 7);
    }
    auto bytes = WriteNpy(lit);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ((bytes->find('\n') + 1) % 64, 0u) << PrimitiveTypeName(t);
    auto back = ReadNpy(*bytes, "r.npy");
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(back->BitwiseEquals(lit)) << PrimitiveTypeName(t);
  }
}

TEST(NpyTest, WrittenHeaderIsNumpyCompatible) {
  Literal lit(Shape::Array(PrimitiveType::kF32, {4}));
  auto bytes = WriteNpy(lit);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  EXPECT_EQ(bytes->substr(10, dict.size()), dict);
  // 10-byte preamble + 58-byte dict + newline = 69, padded to 128; 4 floats.
  EXPECT_EQ(bytes->size(), 128u + 16u);
  Literal scalar(Shape::Scalar(PrimitiveType::kS64));
  EXPECT_NE(WriteNpy(scalar)->find("'shape': (), }"), std::string::npos);
}

TEST(NpyTest, Bf16ReadsFromUint16ForBf16Parameter) {
  std::string file = MakeNpy("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }",
                             std::string("\x80\x3f", 2));
  Shape bf16 = Shape::Array(PrimitiveType::kBF16, {1});
  auto lit = ReadNpyFor(file, "b.npy", bf16, "parameter 'b' (number 0)");
  ASSERT_TRUE(lit.ok()) << lit.status();
  EXPECT_EQ(lit->shape().element_type(), PrimitiveType::kBF16);
  EXPECT_EQ(lit->Get<uint16_t>(0), 0x3f80);
}

TEST(NpyTest, WrongDtypeOrShapeForParameter) {
  std::string file = MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                             std::string(8, '\0'));
  EXPECT_EQ(ReadNpyFor(file, "a.npy", Shape::Array(PrimitiveType::kF32, {2}),
                       "parameter 'x' (number 0)")
                .status()
                .message(),
            "a.npy: error: parameter 'x' (number 0) expects f32[2], the file "
            "holds s32[2]");
  EXPECT_EQ(ReadNpyFor(file, "a.npy", Shape::Array(PrimitiveType::kS32, {3}),
                       "parameter 'x' (number 0)")
                .status()
                .message(),
            "a.npy: error: parameter 'x' (number 0) expects s32[3], the file "
            "holds s32[2]");
}

TEST(NpyTest, NarrowTypesAreOneBytePerElement) {
  // s4 is written as int8 values, f8e4m3fn as its uint8 bits.
  Literal s4(Shape::Array(PrimitiveType::kS4, {3}));
  const uint8_t values[] = {0xf8, 0x07, 0xff};  // -8, 7, -1
  std::memcpy(s4.mutable_raw(), values, 3);
  auto file = WriteNpy(s4);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_NE(file->find("'descr': '|i1'"), std::string::npos);
  auto back = ReadNpyFor(*file, "q.npy", s4.shape(), "parameter 'q' (number 0)");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->BitwiseEquals(s4));
  Literal f8(Shape::Array(PrimitiveType::kF8E4M3FN, {1}));
  f8.mutable_raw()[0] = 0x7e;  // 448
  file = WriteNpy(f8);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_NE(file->find("'descr': '|u1'"), std::string::npos);
  // 8 is not an s4 value; 0x1f has a bit above f4e2m1fn's four.
  std::string bad = MakeNpy(
      "{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }",
      std::string("\x01\x08", 2));
  EXPECT_EQ(ReadNpyFor(bad, "q.npy", Shape::Array(PrimitiveType::kS4, {2}),
                       "parameter 'q' (number 0)")
                .status()
                .message(),
            "q.npy: error: element 1 (8) is out of range for s4");
  bad = MakeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }",
                std::string("\x1f", 1));
  EXPECT_EQ(ReadNpyFor(bad, "f.npy", Shape::Array(PrimitiveType::kF4E2M1FN, {1}),
                       "parameter 'f' (number 0)")
                .status()
                .message(),
            "f.npy: error: element 0 (31) is out of range for f4e2m1fn");
}

TEST(NpyTest, MalformedFiles) {
  EXPECT_EQ(ReadNpy("hello", "h.npy").status().message(),
            "h.npy: error: not a .npy file (missing \\x93NUMPY magic)");
  std::string good = MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                             Floats({1, 2}));
  EXPECT_EQ(ReadNpy(good.substr(0, good.size() - 1), "t.npy").status().message(),
            "t.npy: error: data holds 7 bytes, shape f32[2] needs 8");
  EXPECT_EQ(ReadNpy(good.substr(0, 20), "t.npy").status().message(),
            "t.npy: error: truncated .npy header");
  EXPECT_EQ(ReadNpy(MakeNpy("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }", ""),
                    "u.npy")
                .status()
                .message(),
            "u.npy: error: unsupported .npy dtype '<U5'");
  EXPECT_EQ(ReadNpy(MakeNpy("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (4294967296, 4294967296), }",
                            ""),
                    "big.npy")
                .status()
                .message(),
            "big.npy: error: shape f32[4294967296,4294967296] has more elements "
            "than fit in 64 bits");
  EXPECT_EQ(ReadNpy(MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }",
                            "\x02"),
                    "p.npy")
                .status()
                .message(),
            "p.npy: error: bool element 0 is neither 0 nor 1");
}

}  // namespace
}  // namespace aotc
