// Compiles generated headers with the project's C and C++ compilers, as C99
// and C++17 under -Wall -Wextra -pedantic -Werror: translation units that
// check every macro value at compile time, instantiate the C++ class and use
// its accessors. One test also links the class against a stand-in NAME_run
// written in C and runs it, to check AllocateBuffers and the argument order.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "codegen/header/header_test_util.h"
#include "codegen/header/header_writer.h"
#include "compiler/frontend/load_module.h"
#include "compiler/support/strings.h"
#include "gtest/gtest.h"

namespace aotc::codegen {
namespace {

namespace fs = std::filesystem;

// A fresh directory for the current test (CTest runs tests in parallel).
fs::path TestDir() {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(AOTC_TEST_TMP_DIR) /
                 absl::StrCat(info->test_suite_name(), ".", info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteFile(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

// Runs `command`, sending its output to `log`; returns the exit status and
// reports the log on failure.
int RunCommand(const std::string& command, const fs::path& log) {
  int status = std::system(
      absl::StrCat(command, " > '", log.string(), "' 2>&1").c_str());
  if (status != 0) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    ADD_FAILURE() << "command failed (" << status << "): " << command << "\n"
                  << text;
  }
  return status;
}

constexpr const char* kStrict = "-Wall -Wextra -pedantic -Werror";

int CompileC(const fs::path& dir, const fs::path& source) {
  return RunCommand(
      absl::StrCat(AOTC_C_COMPILER, " -std=c99 ", kStrict, " -I '",
                   dir.string(), "' -c '", source.string(), "' -o '",
                   source.string(), ".o'"),
      dir / (source.filename().string() + ".log"));
}

int CompileCxx(const fs::path& dir, const fs::path& source) {
  return RunCommand(
      absl::StrCat(AOTC_CXX_COMPILER, " -std=c++17 ", kStrict, " -I '",
                   dir.string(), "' -c '", source.string(), "' -o '",
                   source.string(), ".o'"),
      dir / (source.filename().string() + ".log"));
}

ModelSignature RunningExample() {
  absl::StatusOr<std::unique_ptr<Module>> m =
      LoadModuleFromFile(AOTC_SOURCE_DIR "/samples/running_example.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return {};
  absl::StatusOr<ModelSignature> sig =
      BuildSignature(**m, "running_example", "");
  EXPECT_TRUE(sig.ok()) << sig.status();
  if (!sig.ok()) return {};
  sig->temp_bytes = 1000;
  sig->target_triple = "x86_64-unknown-linux-gnu";
  sig->cpu = "x86-64-v3";
  sig->features = "+avx2,+fma";
  sig->aotc_version = "0.1.0";
  return *sig;
}

// pred, f16 (with a permuted layout), s64 and u8 arguments; a nested tuple
// result; a namespace.
constexpr std::string_view kMixed = R"(HloModule mixed
ENTRY e {
  flags = pred[4] parameter(0), metadata={op_name="flags"}
  h = f16[2,3]{0,1} parameter(1), metadata={op_name="half"}
  count = s64[] parameter(2)
  bytes = u8[5] parameter(3), metadata={op_name="int"}
  c = f32[2,3] convert(h)
  n = pred[4] not(flags)
  inner = (pred[4], s64[]) tuple(n, count)
  ROOT t = (f32[2,3], (pred[4], s64[]), u8[5]) tuple(c, inner, bytes)
})";

ModelSignature Mixed() {
  ModelSignature sig = testing::SignatureOf(kMixed, "mixed", "acme::models");
  sig.temp_bytes = 256;
  return sig;
}

TEST(HeaderCompileTest, RunningExampleAsC99) {
  fs::path dir = TestDir();
  WriteFile(dir / "running_example.h", GenerateHeader(RunningExample()));
  // C99 has no _Static_assert: a negative array size fails instead.
  WriteFile(dir / "use.c", R"(#include "running_example.h"
#include "running_example.h"
#define CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
CHECK(temp, RUNNING_EXAMPLE_TEMP_BYTES == 1000);
CHECK(alignment, RUNNING_EXAMPLE_ALIGNMENT == 64);
CHECK(num_args, RUNNING_EXAMPLE_NUM_ARGS == 2);
CHECK(num_results, RUNNING_EXAMPLE_NUM_RESULTS == 1);
CHECK(x_elements, RUNNING_EXAMPLE_ARG0_ELEMENTS == 16777216);
CHECK(x_bytes, RUNNING_EXAMPLE_X_BYTES == 67108864);
CHECK(x_rank, RUNNING_EXAMPLE_X_RANK == 2);
CHECK(y_bytes, RUNNING_EXAMPLE_Y_BYTES == RUNNING_EXAMPLE_ARG1_BYTES);
CHECK(r_rank, RUNNING_EXAMPLE_RESULT0_RANK == 0);
CHECK(r_bytes, RUNNING_EXAMPLE_RESULT0_BYTES == 4);
static const int64_t x_dims[] = RUNNING_EXAMPLE_X_DIMS;
CHECK(x_dims_size, sizeof(x_dims) == 2 * sizeof(int64_t));
int call(const float* x, const float* y, float* out, void* temp) {
  const void* args[RUNNING_EXAMPLE_NUM_ARGS];
  void* results[RUNNING_EXAMPLE_NUM_RESULTS];
  int status = running_example_run(x, y, out, temp);
  if (status != 0) return status;
  args[0] = x;
  args[1] = y;
  results[0] = out;
  return running_example_run_packed(args, results, temp) + (int)x_dims[0];
}
)");
  EXPECT_EQ(CompileC(dir, dir / "use.c"), 0);
}

TEST(HeaderCompileTest, RunningExampleAsCxx17) {
  fs::path dir = TestDir();
  WriteFile(dir / "running_example.h", GenerateHeader(RunningExample()));
  WriteFile(dir / "use.cc", R"(#include "running_example.h"
#include "running_example.h"
static_assert(RunningExample::kTempBytes == 1000);
static_assert(RunningExample::kAlignment == 64);
static_assert(RunningExample::kNumArgs == 2 && RunningExample::kNumResults == 1);
static_assert(RunningExample::kXRank == 2);
static_assert(RunningExample::kXDims[0] == 4096 && RunningExample::kXDims[1] == 4096);
static_assert(RunningExample::kYElements == 16777216);
static_assert(RunningExample::kYBytes == 67108864);
static_assert(RunningExample::kResult0Rank == 0);
static_assert(RunningExample::kResult0Dims.size() == 0);
static_assert(RunningExample::kResult0Bytes == sizeof(float));
static_assert(!std::is_copy_constructible_v<RunningExample>);
int Use(const float* x, const float* y, void* temp) {
  RunningExample model(temp);
  model.set_x(x);
  model.set_y(y);
  float out = 0;
  model.set_result0(&out);
  float* r = model.result0();
  int status = model.Run();
  RunningExample owning;
  if (owning.AllocateBuffers() != 0) return -1;
  return status + static_cast<int>(*r) + static_cast<int>(*owning.result0());
}
)");
  EXPECT_EQ(CompileCxx(dir, dir / "use.cc"), 0);
}

TEST(HeaderCompileTest, MixedTypesAsC99) {
  fs::path dir = TestDir();
  WriteFile(dir / "mixed.h", GenerateHeader(Mixed()));
  WriteFile(dir / "use.c", R"(#include "mixed.h"
#define CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
CHECK(num_args, MIXED_NUM_ARGS == 4);
CHECK(num_results, MIXED_NUM_RESULTS == 4);
CHECK(flags_bytes, MIXED_FLAGS_BYTES == 4);
CHECK(half_bytes, MIXED_HALF_BYTES == 12);
CHECK(count_rank, MIXED_COUNT_RANK == 0);
CHECK(count_bytes, MIXED_ARG2_BYTES == 8);
CHECK(int_1_bytes, MIXED_INT_1_BYTES == 5);
CHECK(result0_elements, MIXED_RESULT0_ELEMENTS == 6);
CHECK(result2_bytes, MIXED_RESULT2_BYTES == 8);
static const int64_t half_dims[] = MIXED_HALF_DIMS;
static const int64_t result3_dims[] = MIXED_RESULT3_DIMS;
int call(void* temp) {
  uint8_t flags[MIXED_FLAGS_ELEMENTS] = {1, 0, 1, 0};
  uint16_t half[MIXED_HALF_ELEMENTS] = {0};
  int64_t count = 3;
  uint8_t bytes[MIXED_INT_1_ELEMENTS] = {0};
  float r0[MIXED_RESULT0_ELEMENTS];
  uint8_t r1[MIXED_RESULT1_ELEMENTS];
  int64_t r2;
  uint8_t r3[MIXED_RESULT3_ELEMENTS];
  return mixed_run(flags, half, &count, bytes, r0, r1, &r2, r3, temp) +
         (int)half_dims[0] + (int)result3_dims[0];
}
)");
  EXPECT_EQ(CompileC(dir, dir / "use.c"), 0);
}

TEST(HeaderCompileTest, MixedTypesAsCxx17) {
  fs::path dir = TestDir();
  WriteFile(dir / "mixed.h", GenerateHeader(Mixed()));
  WriteFile(dir / "use.cc", R"(#include "mixed.h"
#include <type_traits>
using acme::models::Mixed;
static_assert(Mixed::kFlagsDims.size() == 1 && Mixed::kFlagsDims[0] == 4);
static_assert(Mixed::kHalfDims[0] == 2 && Mixed::kHalfDims[1] == 3);
static_assert(Mixed::kCountRank == 0 && Mixed::kCountBytes == 8);
static_assert(Mixed::kInt1Bytes == 5);
static_assert(Mixed::kResult1Elements == 4 && Mixed::kResult3Bytes == 5);
static_assert(std::is_same_v<decltype(std::declval<Mixed&>().result0()), float*>);
static_assert(std::is_same_v<decltype(std::declval<Mixed&>().result1()), uint8_t*>);
static_assert(std::is_same_v<decltype(std::declval<Mixed&>().result2()), int64_t*>);
static_assert(std::is_same_v<decltype(std::declval<Mixed&>().result3()), uint8_t*>);
int Use() {
  Mixed model;
  uint8_t flags[4] = {1, 0, 1, 0};
  uint16_t half[6] = {};
  int64_t count = 0;
  uint8_t bytes[5] = {};
  model.set_flags(flags);
  model.set_half(half);
  model.set_count(&count);
  model.set_int_1(bytes);
  int64_t r2 = 0;
  model.set_result2(&r2);
  if (model.AllocateBuffers() != 0) return -1;
  return model.Run();
}
)");
  EXPECT_EQ(CompileCxx(dir, dir / "use.cc"), 0);
}

// A nested tuple parameter: its leaves are arguments p_0, p_1_0, p_1_1.
constexpr std::string_view kTuple = R"(HloModule tup
ENTRY e {
  p = (f32[2], (s32[3], f32[])) parameter(0)
  q = f32[2] parameter(1)
  a = f32[2] get-tuple-element(p), index=0
  ROOT r = f32[2] add(a, q)
})";

// A program defines the external functions the header declares: C rejects
// a definition whose type differs from the declaration, and so does C++
// for a function with C linkage.
TEST(HeaderCompileTest, ExternalFunctionsAsC99AndCxx17) {
  fs::path dir = TestDir();
  ModelSignature sig = RunningExample();
  sig.external_functions = {"my_op", "other_op"};
  WriteFile(dir / "running_example.h", GenerateHeader(sig));
  constexpr std::string_view kDefinitions = R"(#include "running_example.h"
int my_op(void* const* outputs, const void* const* inputs, const char* opaque,
          size_t opaque_len) {
  *(float*)outputs[0] = *(const float*)inputs[0];
  return opaque[opaque_len];
}
int other_op(void* const* outputs, const void* const* inputs,
             const char* opaque, size_t opaque_len) {
  return outputs == 0 || inputs == 0 || opaque == 0 || opaque_len > 0;
}
)";
  WriteFile(dir / "ops.c", kDefinitions);
  EXPECT_EQ(CompileC(dir, dir / "ops.c"), 0);
  WriteFile(dir / "ops.cc", kDefinitions);
  EXPECT_EQ(CompileCxx(dir, dir / "ops.cc"), 0);
}

TEST(HeaderCompileTest, TupleParameterAsC99AndCxx17) {
  fs::path dir = TestDir();
  WriteFile(dir / "tup.h",
            GenerateHeader(testing::SignatureOf(kTuple, "tup", "acme")));
  WriteFile(dir / "use.c", R"(#include "tup.h"
#define CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
CHECK(num_args, TUP_NUM_ARGS == 4);
CHECK(p_0_bytes, TUP_P_0_BYTES == 8);
CHECK(p_1_0_elements, TUP_P_1_0_ELEMENTS == 3 && TUP_ARG1_BYTES == 12);
CHECK(p_1_1_rank, TUP_P_1_1_RANK == 0);
CHECK(q_bytes, TUP_Q_BYTES == 8);
int call(void* temp) {
  float p_0[TUP_P_0_ELEMENTS] = {1, 2};
  int32_t p_1_0[TUP_P_1_0_ELEMENTS] = {3, 4, 5};
  float p_1_1 = 6;
  float q[TUP_Q_ELEMENTS] = {7, 8};
  float r[TUP_RESULT0_ELEMENTS];
  return tup_run(p_0, p_1_0, &p_1_1, q, r, temp);
}
)");
  EXPECT_EQ(CompileC(dir, dir / "use.c"), 0);
  WriteFile(dir / "use.cc", R"(#include "tup.h"
using acme::Tup;
static_assert(Tup::kNumArgs == 4);
static_assert(Tup::kP10Dims.size() == 1 && Tup::kP10Dims[0] == 3);
static_assert(Tup::kP11Rank == 0 && Tup::kP11Bytes == 4);
int Use() {
  Tup model;
  float p_0[2] = {};
  int32_t p_1_0[3] = {};
  float p_1_1 = 0;
  float q[2] = {};
  model.set_p_0(p_0);
  model.set_p_1_0(p_1_0);
  model.set_p_1_1(&p_1_1);
  model.set_q(q);
  if (model.AllocateBuffers() != 0) return -1;
  return model.Run();
}
)");
  EXPECT_EQ(CompileCxx(dir, dir / "use.cc"), 0);
}

// The stand-in mixed_run copies each argument into the result of the same
// kind and records what it saw, so that main() can check the pointers the
// class passed.
constexpr std::string_view kFakeRun = R"(#include "mixed.h"
#include <stdint.h>
#include <string.h>
const void* seen_temp;
int mixed_run(const uint8_t* flags, const uint16_t* half, const int64_t* count,
              const uint8_t* int_1, float* result0, uint8_t* result1,
              int64_t* result2, uint8_t* result3, void* temp) {
  int i;
  if (!flags || !half || !count || !int_1) return 1;
  if (!result0 || !result1 || !result2 || !result3) return 2;
  if (!temp) return 3;
  if ((uintptr_t)temp % MIXED_ALIGNMENT != 0) return 4;
  seen_temp = temp;
  memset(temp, 0xab, MIXED_TEMP_BYTES);
  for (i = 0; i < 6; ++i) result0[i] = (float)half[i];
  for (i = 0; i < 4; ++i) result1[i] = (uint8_t)!flags[i];
  *result2 = *count;
  memcpy(result3, int_1, MIXED_RESULT3_BYTES);
  return 0;
}
int mixed_run_packed(const void* const* args, void* const* results,
                     void* temp) {
  (void)args; (void)results; (void)temp;
  return 0;
}
)";

constexpr std::string_view kMain = R"(#include "mixed.h"
#include <cstdint>
#include <cstdio>
extern "C" const void* seen_temp;
#define EXPECT(cond) \
  if (!(cond)) { std::printf("failed: %s\n", #cond); return 1; }
int main() {
  std::uint8_t flags[4] = {1, 0, 1, 1};
  std::uint16_t half[6] = {1, 2, 3, 4, 5, 6};
  std::int64_t count = 42;
  std::uint8_t bytes[5] = {9, 8, 7, 6, 5};
  {
    acme::models::Mixed model;
    model.set_flags(flags);
    model.set_half(half);
    model.set_count(&count);
    model.set_int_1(bytes);
    EXPECT(model.Run() == 2);  // results still null
    std::int64_t r2 = -1;
    model.set_result2(&r2);
    EXPECT(model.AllocateBuffers() == 0);
    EXPECT(model.result2() == &r2);
    EXPECT(model.result0() != nullptr && model.result1() != nullptr);
    EXPECT(reinterpret_cast<std::uintptr_t>(model.result0()) % 64 == 0);
    EXPECT(reinterpret_cast<std::uintptr_t>(model.result3()) % 64 == 0);
    EXPECT(model.AllocateBuffers() == 0);  // a second call changes nothing
    EXPECT(model.result2() == &r2);
    EXPECT(model.Run() == 0);
    EXPECT(seen_temp != nullptr);
    EXPECT(model.result0()[5] == 6.0f);
    EXPECT(model.result1()[0] == 0 && model.result1()[1] == 1);
    EXPECT(r2 == 42);
    EXPECT(model.result3()[0] == 9 && model.result3()[4] == 5);
  }
  {
    alignas(64) static unsigned char scratch[256];
    acme::models::Mixed model(scratch + 8);
    model.set_flags(flags);
    model.set_half(half);
    model.set_count(&count);
    model.set_int_1(bytes);
    EXPECT(model.AllocateBuffers() == 0);
    EXPECT(model.Run() == 4);  // the caller's temp is misaligned
  }
  std::printf("ok\n");
  return 0;
}
)";

TEST(HeaderCompileTest, ClassDrivesARunFunction) {
  fs::path dir = TestDir();
  WriteFile(dir / "mixed.h", GenerateHeader(Mixed()));
  WriteFile(dir / "fake_run.c", kFakeRun);
  WriteFile(dir / "main.cc", kMain);
  ASSERT_EQ(CompileC(dir, dir / "fake_run.c"), 0);
  fs::path exe = dir / "main";
  ASSERT_EQ(RunCommand(absl::StrCat(AOTC_CXX_COMPILER, " -std=c++17 ", kStrict,
                                    " -I '", dir.string(), "' '",
                                    (dir / "main.cc").string(), "' '",
                                    (dir / "fake_run.c.o").string(), "' -o '",
                                    exe.string(), "'"),
                       dir / "link.log"),
            0);
  EXPECT_EQ(RunCommand(absl::StrCat("'", exe.string(), "'"), dir / "run.log"),
            0);
}

}  // namespace
}  // namespace aotc::codegen
