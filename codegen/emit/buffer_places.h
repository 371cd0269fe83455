// Where the buffers of one buffer function (`void f(params, results, temp)`,
// module_context.h) come from, so that code emitted elsewhere can use them:
//   - a parallel task function finds a buffer again from the three pointers
//     its context carries (Rebase);
//   - a loop nest learns which of the arrays it writes and reads can share
//     bytes, and tags its loads and stores with alias scopes that say so
//     (SetAliasScopes), so that LLVM may keep invariant loads out of loops
//     and vectorize.
#ifndef AOTC_CODEGEN_EMIT_BUFFER_PLACES_H_
#define AOTC_CODEGEN_EMIT_BUFFER_PLACES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "codegen/emit/ir_array.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen {

class BufferPlaces {
 public:
  // `is_entry`: the function is the model's entry, whose callers promise
  // that results overlap neither each other nor any argument
  // (docs/header.md). Inside a called computation, whose parameters and
  // results are its caller's buffers, any of them may overlap.
  explicit BufferPlaces(bool is_entry) : is_entry_(is_entry) {}

  // `ptr` is parameter leaf `index`'s pointer, result `index`'s pointer, or
  // temp + `index` bytes.
  void RecordParam(llvm::Value* ptr, int64_t index) {
    places_[ptr] = {Place::kParam, index};
  }
  // `donated_arg` >= 0: the result's buffer is that argument's (donation),
  // so the two are one space for alias scopes.
  void RecordResult(llvm::Value* ptr, int64_t index, int64_t donated_arg = -1) {
    places_[ptr] = {Place::kResult, index, donated_arg};
  }
  void RecordTemp(llvm::Value* ptr, int64_t offset) {
    places_[ptr] = {Place::kTemp, offset};
  }

  // The recorded pointer `base` (or a global, returned as it is) computed
  // again with `b` from another function's params, results and temp.
  llvm::Value* Rebase(llvm::IRBuilderBase& b, llvm::Value* base,
                      llvm::Value* params, llvm::Value* results,
                      llvm::Value* temp) const;

  // Gives the arrays a loop nest writes (`out`) and reads (`ins`) alias
  // scopes: a store to one output is known not to change an array it does
  // not overlap. Arrays over unrecorded pointers (constants) get none.
  void SetAliasScopes(llvm::LLVMContext& ctx, std::string_view name,
                      std::vector<IrArray>& out,
                      std::vector<std::vector<IrArray>>& ins) const;

 private:
  struct Place {
    enum Kind { kParam, kResult, kTemp } kind;
    int64_t value;
    int64_t donated_arg = -1;  // kResult
  };
  // A byte range in a space (temp, one parameter, one result).
  struct Extent {
    int space;
    int64_t begin;
    int64_t end;
    bool Overlaps(const Extent& o) const {
      return space == o.space && begin < o.end && o.begin < end;
    }
    bool operator==(const Extent& o) const {
      return space == o.space && begin == o.begin && end == o.end;
    }
  };
  std::optional<Extent> ExtentOf(const IrArray& a) const;

  bool is_entry_;
  std::map<llvm::Value*, Place> places_;
};

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_BUFFER_PLACES_H_
