// Profile counters (see profile.h).
#include "codegen/emit/profile.h"

#include <cstdint>
#include <set>

#include "compiler/ir/computation.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen {
namespace {

double LeafBytes(const Shape& shape) {
  double bytes = 0;
  for (const Shape* leaf : shape.Leaves()) {
    if (leaf->IsArray()) bytes += static_cast<double>(leaf->ByteSize());
  }
  return bytes;
}

// Multiply-adds x 2 of one product or convolution; 0 for other opcodes.
double ProductFlops(const Instruction& inst) {
  if (inst.opcode() == Opcode::kDot) {
    double depth = 1;
    for (int64_t d : inst.dot_dnums().lhs_contracting) {
      depth *= static_cast<double>(inst.operand(0)->shape().dimensions(d));
    }
    return 2 * depth * static_cast<double>(inst.shape().ElementCount());
  }
  if (inst.opcode() == Opcode::kConvolution) {
    // Each output element takes one kernel column: the kernel's elements
    // over its output features (window x input features per group).
    const Shape& kernel = inst.operand(1)->shape();
    const int64_t outputs =
        kernel.dimensions(inst.conv_dnums().kernel_output_feature);
    if (outputs == 0) return 0;
    return 2 * static_cast<double>(kernel.ElementCount() / outputs) *
           static_cast<double>(inst.shape().ElementCount());
  }
  return 0;
}

// The products of `comp` and of the computations it calls (fusions inside
// custom fusions).
double ComputationFlops(const Computation& comp) {
  double flops = 0;
  for (const auto& inst : comp.instructions()) {
    flops += ProductFlops(*inst);
    if (inst->opcode() == Opcode::kFusion) {
      flops += ComputationFlops(*inst->fused_computation());
    }
  }
  return flops;
}

}  // namespace

RegionCost EstimateCost(const Instruction& inst) {
  RegionCost cost;
  cost.bytes = LeafBytes(inst.shape());
  // An operand read twice (x * x) is still read once.
  std::set<const Instruction*> seen;
  for (const Instruction* o : inst.operands()) {
    if (seen.insert(o).second) cost.bytes += LeafBytes(o->shape());
  }
  cost.flops = ProductFlops(inst);
  if (inst.opcode() == Opcode::kFusion) {
    cost.flops += ComputationFlops(*inst.fused_computation());
  }
  return cost;
}

ProfileCounters::ProfileCounters(llvm::Module& m, const std::string& name)
    : module_(m), symbol_(name + "_profile"), run_symbol_(name + "_run") {
  llvm::Type* i64 = llvm::Type::getInt64Ty(m.getContext());
  placeholder_ = new llvm::GlobalVariable(
      m, llvm::ArrayType::get(i64, 0), false,
      llvm::GlobalValue::ExternalLinkage, nullptr, symbol_ + ".placeholder");
}

int ProfileCounters::AddRegion(const Instruction& inst,
                               std::string_view strategy) {
  const RegionCost cost = EstimateCost(inst);
  ProfileRegion r;
  r.name = inst.name();
  r.computation = inst.parent() != nullptr ? inst.parent()->name() : "";
  r.strategy = std::string(strategy);
  r.flops = cost.flops;
  r.bytes = cost.bytes;
  regions_.push_back(std::move(r));
  return static_cast<int>(regions_.size());
}

llvm::Value* ProfileCounters::Now(llvm::IRBuilderBase& b) {
  const llvm::Triple triple(module_.getTargetTriple());
  if (triple.isX86() && triple.isArch64Bit()) {
    return b.CreateIntrinsic(llvm::Intrinsic::readcyclecounter, {}, {});
  }
  if (triple.isAArch64()) {
    return b.CreateIntrinsic(llvm::Intrinsic::readsteadycounter, {}, {});
  }
  llvm::FunctionCallee ticks = module_.getOrInsertFunction(
      "aotc_profile_ticks", llvm::FunctionType::get(b.getInt64Ty(), false));
  return b.CreateCall(ticks);
}

void ProfileCounters::Add(llvm::IRBuilderBase& b, int pair,
                          llvm::Value* start) {
  llvm::Value* elapsed = b.CreateSub(Now(b), start);
  llvm::Type* i64 = b.getInt64Ty();
  auto bump = [&](int slot, llvm::Value* amount) {
    llvm::Value* p = b.CreateConstInBoundsGEP1_64(i64, placeholder_, slot);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64, p), amount), p);
  };
  bump(2 * pair, elapsed);
  bump(2 * pair + 1, b.getInt64(1));
}

void ProfileCounters::Finish() {
  llvm::Type* type = llvm::ArrayType::get(
      llvm::Type::getInt64Ty(module_.getContext()), 2 * (regions_.size() + 1));
  auto* counters = new llvm::GlobalVariable(
      module_, type, false, llvm::GlobalValue::ExternalLinkage,
      llvm::Constant::getNullValue(type), symbol_);
  counters->setAlignment(llvm::Align(64));
  placeholder_->replaceAllUsesWith(counters);
  placeholder_->eraseFromParent();
  // NAME_profile_names: "NAME_run", then "instruction (strategy)".
  llvm::LLVMContext& ctx = module_.getContext();
  std::vector<llvm::Constant*> names;
  auto add_name = [&](const std::string& text) {
    llvm::Constant* data = llvm::ConstantDataArray::getString(ctx, text);
    auto* g = new llvm::GlobalVariable(module_, data->getType(), true,
                                       llvm::GlobalValue::PrivateLinkage,
                                       data, symbol_ + ".name");
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    names.push_back(g);
  };
  add_name(run_symbol_);
  for (const ProfileRegion& r : regions_) {
    add_name(r.name + " (" + r.strategy + ")");
  }
  auto* names_type =
      llvm::ArrayType::get(llvm::PointerType::getUnqual(ctx), names.size());
  new llvm::GlobalVariable(module_, names_type, true,
                           llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantArray::get(names_type, names),
                           symbol_ + "_names");
}

}  // namespace aotc::codegen
