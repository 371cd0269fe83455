// Module bookkeeping.
#include "compiler/ir/module.h"

#include <algorithm>

namespace aotc {

Computation* Module::AddComputation(std::unique_ptr<Computation> c) {
  c->set_parent(this);
  computations_.push_back(std::move(c));
  return computations_.back().get();
}

Computation* Module::AddComputationBefore(std::unique_ptr<Computation> c,
                                          const Computation* before) {
  c->set_parent(this);
  auto it = std::find_if(computations_.begin(), computations_.end(),
                         [&](const auto& p) { return p.get() == before; });
  AOTC_CHECK(it != computations_.end(), "computation not in this module");
  return computations_.insert(it, std::move(c))->get();
}

void Module::RemoveComputation(const Computation* c) {
  AOTC_CHECK(c != entry_, "removing the entry computation");
  auto it = std::find_if(computations_.begin(), computations_.end(),
                         [&](const auto& p) { return p.get() == c; });
  AOTC_CHECK(it != computations_.end(), "computation not in this module");
  computations_.erase(it);
}

Computation* Module::FindComputation(std::string_view name) const {
  for (const auto& c : computations_) {
    if (c->name() == name) return c.get();
  }
  return nullptr;
}

const std::string* Module::FindHeaderAttribute(std::string_view key) const {
  for (const auto& [k, v] : header_attributes_) {
    if (k == key) return &v;
  }
  return nullptr;
}

int64_t Module::instruction_count() const {
  int64_t n = 0;
  for (const auto& c : computations_) n += c->instruction_count();
  return n;
}

}  // namespace aotc
