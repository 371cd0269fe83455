// Buffer places: rebasing pointers into task functions and alias scopes
// (see buffer_places.h).
#include "codegen/emit/buffer_places.h"

#include <limits>
#include <set>

#include "llvm/IR/MDBuilder.h"

namespace aotc::codegen {

using llvm::Value;

Value* BufferPlaces::Rebase(llvm::IRBuilderBase& b, Value* base, Value* params,
                            Value* results, Value* temp) const {
  if (llvm::isa<llvm::GlobalValue>(base)) return base;
  const Place& p = places_.at(base);
  llvm::Type* ptr = b.getPtrTy();
  switch (p.kind) {
    case Place::kParam:
      return b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, params, p.value));
    case Place::kResult:
      return b.CreateLoad(ptr,
                          b.CreateConstInBoundsGEP1_64(ptr, results, p.value));
    case Place::kTemp:
      return b.CreateInBoundsGEP(b.getInt8Ty(), temp, b.getInt64(p.value));
  }
  return nullptr;
}

std::optional<BufferPlaces::Extent> BufferPlaces::ExtentOf(
    const IrArray& a) const {
  auto it = places_.find(a.base());
  if (it == places_.end()) return std::nullopt;
  const Place& p = it->second;
  const int64_t bytes = a.shape().ByteSize();
  if (p.kind == Place::kTemp) return Extent{0, p.value, p.value + bytes};
  if (!is_entry_) return Extent{1, 0, std::numeric_limits<int64_t>::max()};
  const bool result = p.kind == Place::kResult;
  const int64_t space = result && p.donated_arg >= 0
                            ? 2 + 2 * p.donated_arg
                            : 2 + 2 * p.value + (result ? 1 : 0);
  return Extent{static_cast<int>(space), 0, bytes};
}

void BufferPlaces::SetAliasScopes(llvm::LLVMContext& ctx,
                                  std::string_view name,
                                  std::vector<IrArray>& out,
                                  std::vector<std::vector<IrArray>>& ins) const {
  // One scope per distinct extent; arrays over the same bytes share it.
  std::vector<Extent> extents;
  auto scope_index = [&](const IrArray& a) -> int {
    std::optional<Extent> e = ExtentOf(a);
    if (!e.has_value()) return -1;
    for (size_t i = 0; i < extents.size(); ++i) {
      if (extents[i] == *e) return static_cast<int>(i);
    }
    extents.push_back(*e);
    return static_cast<int>(extents.size() - 1);
  };
  std::vector<int> out_scope, in_scope;
  for (const IrArray& a : out) out_scope.push_back(scope_index(a));
  for (const auto& leaves : ins) {
    for (const IrArray& a : leaves) in_scope.push_back(scope_index(a));
  }
  if (extents.empty()) return;
  llvm::MDBuilder mdb(ctx);
  llvm::MDNode* domain = mdb.createAnonymousAliasScopeDomain(name);
  std::vector<llvm::MDNode*> scopes;
  for (size_t i = 0; i < extents.size(); ++i) {
    scopes.push_back(mdb.createAnonymousAliasScope(domain));
  }
  // The scopes of `against` whose extents do not overlap extent `i`.
  auto disjoint = [&](int i, const std::vector<int>& against) -> llvm::MDNode* {
    std::vector<llvm::Metadata*> list;
    std::set<int> added;
    for (int j : against) {
      if (j < 0 || extents[j].Overlaps(extents[i]) || !added.insert(j).second) {
        continue;
      }
      list.push_back(scopes[j]);
    }
    return list.empty() ? nullptr : llvm::MDNode::get(ctx, list);
  };
  std::vector<int> all = out_scope;
  all.insert(all.end(), in_scope.begin(), in_scope.end());
  for (size_t k = 0; k < out.size(); ++k) {
    const int i = out_scope[k];
    if (i < 0) continue;
    out[k].SetAliasScopes(llvm::MDNode::get(ctx, {scopes[i]}),
                          disjoint(i, all));
  }
  size_t n = 0;
  for (auto& leaves : ins) {
    for (IrArray& a : leaves) {
      const int i = in_scope[n++];
      if (i < 0) continue;
      a.SetAliasScopes(llvm::MDNode::get(ctx, {scopes[i]}),
                       disjoint(i, out_scope));
    }
  }
}

}  // namespace aotc::codegen
