// Running a compiled model inside this process, for `aotc run` and the
// end-to-end tests.
//
// The object file that `aotc compile` writes is linked in memory with LLVM's
// JITLink (through ORC's ObjectLinkingLayer), exactly as a system linker
// would link it into a program: the code that runs is the code that ships.
// memcpy/memset/memmove resolve to this process's C library and the aotc_*
// runtime functions to the runtime library linked into this process. The
// external functions of custom-calls (docs/codegen.md) resolve to symbols
// this process exports (a test binary linked with ENABLE_EXPORTS, or a
// shared library it loaded); loading fails with an error naming the first
// one that is missing.
#ifndef AOTC_CODEGEN_JIT_JIT_RUNNER_H_
#define AOTC_CODEGEN_JIT_JIT_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "codegen/compile.h"
#include "compiler/ir/literal.h"

namespace llvm::orc {
class LLJIT;
}

namespace aotc::codegen {

class LoadedModel {
 public:
  // Links `model.object` (compiled for this host) into memory.
  static absl::StatusOr<std::unique_ptr<LoadedModel>> Load(
      const CompiledModel& model);
  ~LoadedModel();

  // Calls NAME_run_packed with buffers in the physical layouts of the
  // signature; returns its status code.
  int RunPacked(const void* const* args, void* const* results, void* temp);

  // Runs the model on logical row-major literals, one per entry parameter
  // (a tuple literal for a tuple parameter, whose array leaves become the
  // arguments in signature order), and returns one literal per result.
  // Buffers are allocated here, 64-byte aligned, each ending at a guard page
  // (Buffer). Errors when the model returns a nonzero status.
  absl::StatusOr<std::vector<Literal>> Run(const std::vector<Literal>& args);

  // A buffer handed to the model: mapped between two guard pages, so that
  // any access past its end or before its first page faults.
  struct BufferUnmapper {
    void* map = nullptr;
    size_t length = 0;
    void operator()(char*) const;
  };
  using Buffer = std::unique_ptr<char[], BufferUnmapper>;
  // A zero-filled buffer of `bytes` (rounded up to 64), 64-byte aligned,
  // whose end touches an inaccessible page, with another before its first
  // page.
  static absl::StatusOr<Buffer> AllocateBuffer(int64_t bytes);

  // Prepared buffers for repeated timed runs of the same inputs. Prepare
  // poisons result and scratch buffers, so that a model which leaves part of
  // a result unwritten, or reads scratch before writing it, shows it: float
  // results and scratch hold all-ones bytes (a NaN in every float width,
  // never equal to a number), integer and pred results 0xAB bytes. Run (the
  // literal form) prepares a new session, so it poisons before every run;
  // a Session's repeated runs (timing) reuse the buffers as they are.
  static constexpr unsigned char kNaNPoison = 0xFF;
  static constexpr unsigned char kIntegerPoison = 0xAB;
  class Session {
   public:
    int Run();
    std::vector<Literal> Results() const;

   private:
    friend class LoadedModel;
    LoadedModel* model_ = nullptr;
    std::vector<Buffer> buffers_;
    std::vector<const void*> args_;
    std::vector<void*> results_;
    void* temp_ = nullptr;
  };
  absl::StatusOr<std::unique_ptr<Session>> Prepare(
      const std::vector<Literal>& args);

  const ModelSignature& signature() const { return signature_; }

  // The profile counters (NAME_profile, codegen/emit/profile.h) of a model
  // compiled with CompileOptions::profile, 2 * (regions + 1) of them; null
  // otherwise. Writable, so that a caller can reset them between runs.
  uint64_t* profile_counters() const { return profile_; }

 private:
  LoadedModel() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  using PackedFn = int (*)(const void* const*, void* const*, void*);
  PackedFn run_packed_ = nullptr;
  uint64_t* profile_ = nullptr;
  ModelSignature signature_;
};

// Shapes of the signature's tensors (dims, element type, layout).
Shape TensorShape(const TensorInfo& t);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_JIT_JIT_RUNNER_H_
