// Splitting a module into partitions by whole functions (see
// module_split.h).
#include "codegen/backend/module_split.h"

#include <algorithm>
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace aotc::codegen {
namespace {

// Calls `visit` for every global value that `user`'s operands name, through
// constant expressions and aggregates (each constant looked at once).
template <typename Visit>
void ForEachGlobalOperand(const llvm::User& user,
                          absl::flat_hash_set<const llvm::Constant*>& seen,
                          const Visit& visit) {
  for (const llvm::Use& use : user.operands()) {
    const auto* c = llvm::dyn_cast<llvm::Constant>(use.get());
    if (c == nullptr) continue;
    if (const auto* gv = llvm::dyn_cast<llvm::GlobalValue>(c)) {
      visit(gv);
      continue;
    }
    if (!seen.insert(c).second) continue;
    ForEachGlobalOperand(*c, seen, visit);
  }
}

// The global values a definition refers to, in operand order.
std::vector<const llvm::GlobalValue*> References(const llvm::GlobalValue& gv) {
  std::vector<const llvm::GlobalValue*> out;
  absl::flat_hash_set<const llvm::Constant*> seen;
  auto add = [&](const llvm::GlobalValue* g) { out.push_back(g); };
  if (const auto* f = llvm::dyn_cast<llvm::Function>(&gv)) {
    for (const llvm::BasicBlock& bb : *f) {
      for (const llvm::Instruction& inst : bb) {
        ForEachGlobalOperand(inst, seen, add);
      }
    }
  } else if (const auto* v = llvm::dyn_cast<llvm::GlobalVariable>(&gv)) {
    ForEachGlobalOperand(*v, seen, add);
  }
  return out;
}

constexpr const char* kCompilerUsed = "llvm.compiler.used";

// The members of llvm.compiler.used (aotc's trig functions list their vector
// variants there, which nothing calls until the loop vectorizer runs).
std::vector<llvm::GlobalValue*> CompilerUsed(llvm::Module& m) {
  std::vector<llvm::GlobalValue*> out;
  llvm::GlobalVariable* used = m.getNamedGlobal(kCompilerUsed);
  if (used == nullptr || !used->hasInitializer()) return out;
  absl::flat_hash_set<const llvm::Constant*> seen;
  ForEachGlobalOperand(*used, seen, [&](const llvm::GlobalValue* g) {
    out.push_back(const_cast<llvm::GlobalValue*>(g));
  });
  return out;
}

// Union-find over the defined functions.
class Clusters {
 public:
  explicit Clusters(int n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int Find(int a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }
  // The smaller index stays the root, so roots follow module order.
  void Join(int a, int b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    parent_[b] = a;
  }

 private:
  std::vector<int> parent_;
};

bool IsSplittable(const llvm::Module& m) {
  if (!m.alias_empty() || !m.ifunc_empty() || !m.getModuleInlineAsm().empty()) {
    return false;
  }
  for (const llvm::GlobalVariable& g : m.globals()) {
    // llvm.used and the like; llvm.compiler.used is rebuilt per partition.
    if (g.hasAppendingLinkage() && g.getName() != kCompilerUsed) return false;
  }
  // A comdat group must stay in one object section group, which the split
  // does not track.
  for (const llvm::GlobalValue& g : m.global_values()) {
    if (g.hasComdat()) return false;
  }
  return true;
}

}  // namespace

int64_t CountInstructions(const llvm::Module& m) {
  int64_t n = 0;
  for (const llvm::Function& f : m) n += f.getInstructionCount();
  return n;
}

int PartitionCount(const llvm::Module& m) {
  if (!IsSplittable(m)) return 1;
  const int64_t parts = CountInstructions(m) / kInstructionsPerPartition;
  return static_cast<int>(std::clamp<int64_t>(parts, 1, kMaxPartitions));
}

ModulePartitions SplitModule(llvm::Module& m, int partitions) {
  // Clusters of functions that must stay together.
  std::vector<llvm::Function*> functions;
  absl::flat_hash_map<const llvm::GlobalValue*, int> function_index;
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    function_index[&f] = static_cast<int>(functions.size());
    functions.push_back(&f);
  }
  Clusters clusters(static_cast<int>(functions.size()));
  std::vector<std::vector<const llvm::GlobalValue*>> references;
  for (size_t i = 0; i < functions.size(); ++i) {
    references.push_back(References(*functions[i]));
    for (const llvm::BasicBlock& bb : *functions[i]) {
      for (const llvm::Instruction& inst : bb) {
        const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
        if (call == nullptr) continue;
        auto it = function_index.find(call->getCalledFunction());
        if (it == function_index.end()) continue;
        if (functions[it->second]->hasFnAttribute(llvm::Attribute::NoInline)) {
          continue;
        }
        clusters.Join(static_cast<int>(i), it->second);
      }
    }
  }
  // Clusters largest first (ties in module order), each to the partition
  // with the fewest instructions so far (ties to the lower index).
  std::vector<int64_t> cluster_size(functions.size(), 0);
  for (size_t i = 0; i < functions.size(); ++i) {
    cluster_size[clusters.Find(static_cast<int>(i))] +=
        functions[i]->getInstructionCount();
  }
  std::vector<int> roots;
  for (size_t i = 0; i < functions.size(); ++i) {
    if (clusters.Find(static_cast<int>(i)) == static_cast<int>(i)) {
      roots.push_back(static_cast<int>(i));
    }
  }
  std::stable_sort(roots.begin(), roots.end(), [&](int a, int b) {
    return cluster_size[a] > cluster_size[b];
  });
  const int count =
      std::max(1, std::min(partitions, static_cast<int>(roots.size())));
  ModulePartitions out;
  out.instructions.assign(count, 0);
  std::vector<int> partition_of_root(functions.size(), -1);
  for (int root : roots) {
    const int p = static_cast<int>(
        std::min_element(out.instructions.begin(), out.instructions.end()) -
        out.instructions.begin());
    partition_of_root[root] = p;
    out.instructions[p] += cluster_size[root];
  }
  absl::flat_hash_map<const llvm::GlobalValue*, int> partition;
  for (size_t i = 0; i < functions.size(); ++i) {
    partition[functions[i]] = partition_of_root[clusters.Find(static_cast<int>(i))];
  }
  // A global variable goes with its first user; unused ones to partition 0.
  for (size_t i = 0; i < functions.size(); ++i) {
    // By value: try_emplace may rehash before it reads a reference into the
    // map.
    const int p = partition.at(functions[i]);
    for (const llvm::GlobalValue* g : references[i]) {
      if (llvm::isa<llvm::GlobalVariable>(g) && !g->isDeclaration()) {
        partition.try_emplace(g, p);
      }
    }
  }
  llvm::GlobalVariable* used = m.getNamedGlobal(kCompilerUsed);
  for (llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() && &g != used) partition.try_emplace(&g, 0);
  }
  // Locals that a definition in another partition names become hidden
  // externals (in module order, for a stable list).
  absl::flat_hash_set<const llvm::GlobalValue*> crossing;
  auto note_crossings = [&](const llvm::GlobalValue& from) {
    const int p = partition.at(&from);
    for (const llvm::GlobalValue* g : References(from)) {
      auto it = partition.find(g);
      if (it != partition.end() && it->second != p && g->hasLocalLinkage()) {
        crossing.insert(g);
      }
    }
  };
  for (llvm::Function* f : functions) note_crossings(*f);
  for (llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() && &g != used) note_crossings(g);
  }
  // Every partition keeps the compiler-used values (declared where they are
  // not defined), since calls to them may appear in any of them later.
  const std::vector<llvm::GlobalValue*> compiler_used = CompilerUsed(m);
  for (llvm::GlobalValue* g : compiler_used) {
    if (g->hasLocalLinkage() && partition.contains(g)) crossing.insert(g);
  }
  int unnamed = 0;
  for (llvm::GlobalValue& g : m.global_values()) {
    if (!crossing.contains(&g)) continue;
    if (!g.hasName()) g.setName(absl::StrCat("aotc.split.", unnamed++));
    out.original_linkage.push_back(g.getLinkage());
    g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    g.setVisibility(llvm::GlobalValue::HiddenVisibility);
    g.setDSOLocal(true);
    out.externalized.push_back(g.getName().str());
  }
  for (int p = 0; p < count; ++p) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(m, map, [&](const llvm::GlobalValue* g) {
          auto it = partition.find(g);
          return it != partition.end() && it->second == p;
        });
    // The partition's own llvm.compiler.used, over its copies (definitions
    // or declarations) of the members, which keeps them past the erasure
    // below and through the pipeline.
    if (llvm::GlobalVariable* copy = part->getNamedGlobal(kCompilerUsed)) {
      copy->eraseFromParent();
    }
    std::vector<llvm::GlobalValue*> kept;
    for (const llvm::GlobalValue* g : compiler_used) {
      kept.push_back(part->getNamedValue(g->getName()));
    }
    if (!kept.empty()) llvm::appendToCompilerUsed(*part, kept);
    // Declarations of what this partition does not use would still appear
    // in its assembly (a hidden one as a .hidden directive).
    std::vector<llvm::GlobalValue*> unused;
    for (llvm::GlobalValue& g : part->global_values()) {
      if (g.isDeclaration() && g.use_empty()) unused.push_back(&g);
    }
    for (llvm::GlobalValue* g : unused) g->eraseFromParent();
    std::string bitcode;
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*part, os);
    os.flush();
    out.bitcode.push_back(std::move(bitcode));
  }
  return out;
}

}  // namespace aotc::codegen
