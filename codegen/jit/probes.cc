// Machine bounds measured in process (see probes.h).
#include "codegen/jit/probes.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "codegen/backend/llvm_pipeline.h"
#include "codegen/backend/target_info.h"
#include "codegen/backend/target_machine.h"
#include "codegen/jit/jit_runner.h"
#include "compiler/support/status_macros.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace aotc::codegen {
namespace {

constexpr int kChains = 12;
constexpr char kProbeName[] = "aotc_fma_probe";

// i32 aotc_fma_probe_run_packed(ptr args, ptr results, ptr temp): *args[0]
// iterations of kChains independent acc = acc * m + a on <lanes x float>,
// whose lane sum it stores to *results[0] (so nothing is dead).
void EmitProbe(llvm::Module& m, int lanes) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  auto* f = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, ptr},
                              false),
      llvm::GlobalValue::ExternalLinkage,
      std::string(kProbeName) + "_run_packed", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Type* vec = llvm::FixedVectorType::get(b.getFloatTy(), lanes);
  llvm::Value* n =
      b.CreateLoad(b.getInt64Ty(), b.CreateLoad(ptr, f->getArg(0)));
  llvm::Value* out = b.CreateLoad(ptr, f->getArg(1));
  llvm::Value* mul = llvm::ConstantFP::get(vec, 0.999999);
  llvm::Value* add = llvm::ConstantFP::get(vec, 1e-6);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  auto* loop = llvm::BasicBlock::Create(ctx, "loop", f);
  auto* done = llvm::BasicBlock::Create(ctx, "done", f);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(b.getInt64(0), entry);
  std::vector<llvm::PHINode*> acc;
  std::vector<llvm::Value*> next;
  for (int c = 0; c < kChains; ++c) {
    acc.push_back(b.CreatePHI(vec, 2));
    acc.back()->addIncoming(llvm::ConstantFP::get(vec, 1.0 + c), entry);
  }
  for (int c = 0; c < kChains; ++c) {
    next.push_back(
        b.CreateIntrinsic(llvm::Intrinsic::fma, {vec}, {acc[c], mul, add}));
  }
  llvm::Value* i_next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(i_next, loop);
  for (int c = 0; c < kChains; ++c) acc[c]->addIncoming(next[c], loop);
  b.CreateCondBr(b.CreateICmpULT(i_next, n), loop, done);
  b.SetInsertPoint(done);
  llvm::Value* sum = next[0];
  for (int c = 1; c < kChains; ++c) sum = b.CreateFAdd(sum, next[c]);
  llvm::Value* total = b.CreateExtractElement(sum, uint64_t{0});
  for (int l = 1; l < lanes; ++l) {
    total = b.CreateFAdd(total, b.CreateExtractElement(sum, l));
  }
  b.CreateStore(total, out);
  b.CreateRet(b.getInt32(0));
}

}  // namespace

absl::StatusOr<double> MeasureFmaPeakGflops() {
  InitializeLlvmTargets();
  ASSIGN_OR_RETURN(const ResolvedTarget host, ResolveTarget("", "", ""));
  ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm,
                   CreateTargetMachine(host, true, 2));
  const TargetInfo info = DescribeTarget(*tm);
  const int lanes = std::max(1, info.vector_bytes / 4);
  llvm::LLVMContext ctx;
  llvm::Module m(kProbeName, ctx);
  m.setTargetTriple(host.triple);
  m.setDataLayout(tm->createDataLayout());
  EmitProbe(m, lanes);
  for (llvm::Function& f : m) {
    f.addFnAttr("target-cpu", host.cpu);
    if (!host.features.empty()) f.addFnAttr("target-features", host.features);
  }
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (llvm::verifyModule(m, &os)) {
    return absl::InternalError("internal error: invalid FMA probe: " + errors);
  }
  CompiledModel probe;
  probe.signature.name = kProbeName;
  ASSIGN_OR_RETURN(probe.object,
                   EmitFile(m, *tm, llvm::CodeGenFileType::ObjectFile));
  ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> loaded,
                   LoadedModel::Load(probe));
  // 2M iterations: about 10 ms at 100 GFLOP/s with 16 lanes.
  int64_t iterations = 2'000'000;
  float sink = 0;
  const void* args[] = {&iterations};
  void* results[] = {&sink};
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    loaded->RunPacked(args, results, nullptr);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    const double flops =
        2.0 * kChains * lanes * static_cast<double>(iterations);
    if (seconds > 0) best = std::max(best, flops / seconds / 1e9);
  }
  return best;
}

double MeasureReadBandwidthGBps() {
  // 256 MiB: beyond the last-level cache of any current core.
  const size_t count = (size_t{256} << 20) / sizeof(uint64_t);
  std::vector<uint64_t> data(count, 1);
  double best = 0;
  uint64_t sink = 0;
  for (int pass = 0; pass < 4; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = 0; i < count; i += 4) {
      s0 += data[i];
      s1 += data[i + 1];
      s2 += data[i + 2];
      s3 += data[i + 3];
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    sink += s0 + s1 + s2 + s3;
    // The first pass warms the page tables and the TLB: only later ones
    // count.
    if (pass > 0 && seconds > 0) {
      best = std::max(
          best, static_cast<double>(count * sizeof(uint64_t)) / seconds / 1e9);
    }
  }
  // Keeps the sums (and so the reads) alive.
  static volatile uint64_t keep;
  keep = sink;
  return best;
}

}  // namespace aotc::codegen
