// In-process linking and running of compiled objects (see jit_runner.h).
#include "codegen/jit/jit_runner.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "aotc/runtime.h"
#include "codegen/emit/layout_bytes.h"
#include "compiler/support/status_macros.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

namespace aotc::codegen {
namespace {

absl::Status FromLlvm(llvm::Error error, const char* what) {
  std::string text = llvm::toString(std::move(error));
  return absl::InternalError(absl::StrCat(what, ": ", text));
}

}  // namespace

// The buffer's end is as close to the following guard page as the alignment
// allows (less than 64 bytes of slack): a compiled model that reads or
// writes past any of its buffers faults at once instead of quietly touching
// other memory. Every run of the tests and of `aotc run` goes through here.
absl::StatusOr<LoadedModel::Buffer> LoadedModel::AllocateBuffer(int64_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t usable = static_cast<size_t>((std::max<int64_t>(bytes, 0) + 63) / 64 * 64);
  const size_t data_pages = (usable + page - 1) / page * page;
  const size_t length = data_pages + 2 * page;
  void* map = mmap(nullptr, length, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot map ", length, " bytes for a model buffer"));
  }
  char* base = static_cast<char*>(map);
  if (mprotect(base, page, PROT_NONE) != 0 ||
      mprotect(base + page + data_pages, page, PROT_NONE) != 0) {
    munmap(map, length);
    return absl::InternalError("cannot protect the guard pages of a buffer");
  }
  return LoadedModel::Buffer(base + page + data_pages - usable,
                             LoadedModel::BufferUnmapper{map, length});
}

namespace {

// The runtime functions compiled objects may call.
llvm::orc::SymbolMap RuntimeSymbols(llvm::orc::LLJIT& jit) {
  llvm::orc::SymbolMap map;
  auto add = [&](const char* name, auto* fn) {
    map[jit.mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(reinterpret_cast<void*>(fn)),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  add("aotc_parallel_for", &aotc_parallel_for);
  add("aotc_set_parallel_for", &aotc_set_parallel_for);
  add("aotc_status_message", &aotc_status_message);
  return map;
}

}  // namespace

Shape TensorShape(const TensorInfo& t) {
  Layout layout;
  layout.minor_to_major = t.minor_to_major;
  return Shape::ArrayWithLayout(t.type, t.dims, std::move(layout));
}

LoadedModel::~LoadedModel() = default;

absl::StatusOr<std::unique_ptr<LoadedModel>> LoadedModel::Load(
    const CompiledModel& model) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jit = llvm::orc::LLJITBuilder()
                 .setObjectLinkingLayerCreator(
                     [](llvm::orc::ExecutionSession& es, const llvm::Triple&)
                         -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                       return std::make_unique<llvm::orc::ObjectLinkingLayer>(es);
                     })
                 .create();
  if (!jit) return FromLlvm(jit.takeError(), "cannot start the in-memory linker");
  std::unique_ptr<LoadedModel> loaded(new LoadedModel());
  loaded->jit_ = std::move(*jit);
  loaded->signature_ = model.signature;
  llvm::orc::LLJIT& j = *loaded->jit_;
  llvm::orc::JITDylib& lib = j.getMainJITDylib();
  if (llvm::Error e = lib.define(llvm::orc::absoluteSymbols(RuntimeSymbols(j)))) {
    return FromLlvm(std::move(e), "cannot define the runtime symbols");
  }
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      j.getDataLayout().getGlobalPrefix());
  if (!process) return FromLlvm(process.takeError(), "cannot search this process");
  lib.addGenerator(std::move(*process));
  // Checked here so that a missing one is named plainly, not in a linker
  // error while the entry point is looked up.
  for (const std::string& name : model.signature.external_functions) {
    if (llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name) == nullptr) {
      return absl::NotFoundError(absl::StrCat(
          "external function '", name,
          "' (a custom-call target) is not defined in this process"));
    }
  }
  if (llvm::Error e = j.addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
          model.object, model.signature.name + ".o"))) {
    return FromLlvm(std::move(e), "cannot link the object");
  }
  auto symbol = j.lookup(model.signature.name + "_run_packed");
  if (!symbol) return FromLlvm(symbol.takeError(), "cannot find the entry point");
  loaded->run_packed_ = symbol->toPtr<PackedFn>();
  if (model.signature.profile) {
    auto counters = j.lookup(model.signature.name + "_profile");
    if (!counters) {
      return FromLlvm(counters.takeError(), "cannot find the profile counters");
    }
    loaded->profile_ = counters->toPtr<uint64_t*>();
  }
  return loaded;
}

int LoadedModel::RunPacked(const void* const* args, void* const* results,
                           void* temp) {
  return run_packed_(args, results, temp);
}

namespace {

// The leaf of parameter literal `param` that argument `t` takes, or an
// error when the literal has no such leaf.
absl::StatusOr<const Literal*> ArgumentLeaf(const Literal& param,
                                            const TensorInfo& t) {
  const Literal* leaf = &param;
  for (int64_t index : t.leaf) {
    if (!leaf->IsTuple() || index >= leaf->shape().tuple_size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "parameter ", t.parameter, " (", t.hlo_name, ") has no leaf {",
          absl::StrJoin(t.leaf, ","), "}: got ",
          param.shape().ToString(false)));
    }
    leaf = &leaf->tuple_elements()[index];
  }
  return leaf;
}

// Poison (see Prepare): all-ones bytes are a NaN in f16, bf16, f32, f64 and
// both parts of complex numbers; integers and pred get 0xAB, a value no
// zero-initialized buffer holds.
void PoisonResult(void* data, int64_t bytes, PrimitiveType type) {
  const bool floating = IsFloat(type) || IsComplex(type);
  if (bytes == 0) return;
  std::memset(data,
              floating ? LoadedModel::kNaNPoison
                       : LoadedModel::kIntegerPoison,
              static_cast<size_t>(bytes));
}

}  // namespace

absl::StatusOr<std::unique_ptr<LoadedModel::Session>> LoadedModel::Prepare(
    const std::vector<Literal>& args) {
  if (static_cast<int>(args.size()) != signature_.num_parameters) {
    return absl::InvalidArgumentError(
        absl::StrCat("the model takes ", signature_.num_parameters,
                     " parameters, got ", args.size()));
  }
  // Each argument of the signature is one array leaf of a parameter, in
  // order; every leaf of the given literals must be taken.
  std::vector<size_t> taken(args.size(), 0);
  auto session = std::make_unique<Session>();
  session->model_ = this;
  for (const TensorInfo& t : signature_.args) {
    ASSIGN_OR_RETURN(const Literal* leaf, ArgumentLeaf(args[t.parameter], t));
    ++taken[t.parameter];
    const Shape shape = TensorShape(t);
    if (!leaf->shape().Compatible(shape)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "argument ", session->args_.size(), " (", t.name, ") must be ",
          shape.ToString(false), ", got ", leaf->shape().ToString(false)));
    }
    const std::string bytes = PhysicalBytes(*leaf, shape);
    ASSIGN_OR_RETURN(Buffer buffer,
                     AllocateBuffer(static_cast<int64_t>(bytes.size())));
    std::memcpy(buffer.get(), bytes.data(), bytes.size());
    session->args_.push_back(buffer.get());
    session->buffers_.push_back(std::move(buffer));
  }
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].Leaves().size() != taken[k]) {
      return absl::InvalidArgumentError(
          absl::StrCat("parameter ", k, " must have ", taken[k],
                       " array leaves, got ", args[k].Leaves().size()));
    }
  }
  for (const TensorInfo& r : signature_.results) {
    // A donated result comes back in its argument's buffer.
    if (r.aliased >= 0) {
      session->results_.push_back(nullptr);
      continue;
    }
    ASSIGN_OR_RETURN(Buffer buffer, AllocateBuffer(r.byte_size));
    PoisonResult(buffer.get(), r.byte_size, TensorShape(r).element_type());
    session->results_.push_back(buffer.get());
    session->buffers_.push_back(std::move(buffer));
  }
  ASSIGN_OR_RETURN(Buffer temp, AllocateBuffer(signature_.temp_bytes));
  // Scratch is untyped: all-ones bytes are NaN for every float width, -1 for
  // integers, so a float read before its write poisons what follows.
  if (signature_.temp_bytes > 0) {
    std::memset(temp.get(), kNaNPoison, signature_.temp_bytes);
  }
  session->temp_ = temp.get();
  session->buffers_.push_back(std::move(temp));
  return session;
}

int LoadedModel::Session::Run() {
  return model_->RunPacked(args_.data(), results_.data(), temp_);
}

std::vector<Literal> LoadedModel::Session::Results() const {
  std::vector<Literal> out;
  const std::vector<TensorInfo>& results = model_->signature().results;
  for (size_t k = 0; k < results.size(); ++k) {
    const void* bytes =
        results[k].aliased >= 0 ? args_[results[k].aliased] : results_[k];
    out.push_back(LiteralFromPhysical(TensorShape(results[k]), bytes));
  }
  return out;
}

absl::StatusOr<std::vector<Literal>> LoadedModel::Run(
    const std::vector<Literal>& args) {
  ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Prepare(args));
  const int status = session->Run();
  if (status != 0) {
    return absl::InternalError(absl::StrCat(
        "the compiled model returned status ", status, ": ",
        aotc_status_message(status)));
  }
  return session->Results();
}

void LoadedModel::BufferUnmapper::operator()(char*) const {
  if (map != nullptr) munmap(map, length);
}

}  // namespace aotc::codegen
