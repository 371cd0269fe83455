// Module bookkeeping.
#include "compiler/ir/module.h"

namespace aotc {

Computation* Module::AddComputation(std::unique_ptr<Computation> c) {
  c->set_parent(this);
  computations_.push_back(std::move(c));
  return computations_.back().get();
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
