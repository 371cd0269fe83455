// Indices, arrays in memory, and loop nests for emitted code.
//
// An Index names one element of an array shape: its logical multi-index (one
// i64 per dimension) and, when known, its physical linear offset in a buffer
// laid out like `shape`. Element generators pass an Index through unchanged
// when they read an operand of the same dimensions and layout, so
// elementwise code addresses memory with the loop's linear counter and
// vectorizes; any other operand is addressed from the multi-index.
//
// Loops keep their induction variables in allocas; LLVM's mem2reg turns them
// into SSA form, which keeps the emitters simple and still optimizes fully.
#ifndef AOTC_CODEGEN_EMIT_IR_ARRAY_H_
#define AOTC_CODEGEN_EMIT_IR_ARRAY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/shape.h"
#include "compiler/support/check.h"
#include "llvm/IR/IRBuilder.h"

namespace aotc::codegen {

// Passing an index unchanged to an operand keeps `shape` pointing at the
// shape whose layout `linear` was computed for: an operand with other
// dimensions or another layout then falls back to the multi-index.
struct Index {
  std::vector<llvm::Value*> multi;   // i64, one per dimension
  llvm::Value* linear = nullptr;     // i64 physical offset, or null
  const Shape* shape = nullptr;      // the shape `linear` is valid for

  // True when `linear` addresses an array of shape `s` (same dims, layout).
  bool LinearValidFor(const Shape& s) const;
};

// Strides of each logical dimension in elements, for the shape's layout.
std::vector<int64_t> PhysicalStrides(const Shape& shape);

// A typed view of a buffer holding an array in the shape's physical layout.
class IrArray {
 public:
  IrArray() = default;
  IrArray(llvm::Value* base, const Shape* shape) : base_(base), shape_(shape) {}

  llvm::Value* base() const { return base_; }
  void set_base(llvm::Value* base) { base_ = base; }
  const Shape& shape() const { return *shape_; }

  // Physical element offset (i64) of `index`.
  llvm::Value* Offset(llvm::IRBuilderBase& b, const Index& index) const;
  llvm::Value* ElementPointer(llvm::IRBuilderBase& b, const Index& index) const;
  // Loads the element as a compute value.
  llvm::Value* Read(llvm::IRBuilderBase& b, const Index& index) const;
  // Stores a compute value.
  void Write(llvm::IRBuilderBase& b, const Index& index,
             llvm::Value* value) const;

  // Alias-scope metadata put on every load and store of this array (null:
  // none): the array's own scope, and the scopes of the arrays of the same
  // loop nest it cannot overlap.
  void SetAliasScopes(llvm::MDNode* scope, llvm::MDNode* noalias) {
    alias_scope_ = scope;
    noalias_ = noalias;
  }

 private:
  void Annotate(llvm::Instruction* access) const;

  llvm::Value* base_ = nullptr;
  const Shape* shape_ = nullptr;
  llvm::MDNode* alias_scope_ = nullptr;
  llvm::MDNode* noalias_ = nullptr;
};

// Emits `for (i = begin; i < end; ++i) body(i)` at the builder's insertion
// point; the builder ends after the loop. `begin`/`end` are i64. The first
// error of body stops the emission and is returned (the IR is then
// abandoned).
absl::Status EmitForLoop(llvm::IRBuilderBase& b, llvm::Value* begin,
                         llvm::Value* end, const std::string& name,
                         const std::function<absl::Status(llvm::Value*)>& body);

// The same loop for a body that cannot fail (index arithmetic, loads and
// stores): chosen when body returns void, so such loops need no status.
template <typename Body>
  requires std::is_void_v<std::invoke_result_t<Body&, llvm::Value*>>
void EmitForLoop(llvm::IRBuilderBase& b, llvm::Value* begin, llvm::Value* end,
                 const std::string& name, Body&& body) {
  const absl::Status status =
      EmitForLoop(b, begin, end, name, [&](llvm::Value* i) {
        body(i);
        return absl::OkStatus();
      });
  AOTC_CHECK(status.ok(), "a loop body without status failed");
}

// Emits `while (cond()) body()` at the builder's insertion point; cond
// returns an i1 and may add blocks of its own. The builder ends after the
// loop. The first error of cond or body is returned (the IR is then
// abandoned).
absl::Status EmitWhileLoop(llvm::IRBuilderBase& b, const std::string& name,
                           const std::function<absl::StatusOr<llvm::Value*>()>& cond,
                           const std::function<absl::Status()>& body);

// `lhs && rhs()` with rhs emitted in a block of its own that runs only when
// lhs (an i1) is true, so rhs may load what only lhs makes safe to load.
absl::StatusOr<llvm::Value*> EmitShortCircuitAnd(
    llvm::IRBuilderBase& b, llvm::Value* lhs,
    const std::function<absl::StatusOr<llvm::Value*>()>& rhs);

// The most major physical dimension of `shape` (rank >= 1) with more than
// one element, or the most major one if none has: the dimension a parallel
// loop that skips unit dimensions splits (ChooseParallelSplit), and whose
// loop EmitArrayLoop gives a chunk's range.
int64_t FirstWideDimension(const Shape& shape);

// Emits loops over every element of the array shape `shape` in physical
// order (outermost loop over the most major dimension) and calls body with
// an Index whose multi-index and linear offset are both valid for `shape`.
// With `outer_begin`/`outer_end` (i64, may be null), the outermost loop
// with more than one iteration (leading dimensions of one skipped; the
// outermost if none has more) runs over [outer_begin, outer_end) only: one
// chunk of a parallel loop.
// The first error of body stops the emission and is returned.
absl::Status EmitArrayLoop(
    llvm::IRBuilderBase& b, const Shape& shape, const std::string& name,
    const std::function<absl::Status(const Index&)>& body,
    llvm::Value* outer_begin = nullptr, llvm::Value* outer_end = nullptr);

// Emits loops over a box of `extents` in row-major order (dimension 0
// outermost) and calls body with the i64 counters. The first error of body
// stops the emission and is returned.
absl::Status EmitBoxLoop(
    llvm::IRBuilderBase& b, const std::vector<int64_t>& extents,
    const std::string& name,
    const std::function<absl::Status(const std::vector<llvm::Value*>&)>& body);

// The coordinates of the i64 `flat` in a row-major box of `extents` (the
// first coordinate slowest); `flat` must be inside the box.
std::vector<llvm::Value*> UnflattenRowMajor(llvm::IRBuilderBase& b,
                                            llvm::Value* flat,
                                            const std::vector<int64_t>& extents);

// An alloca in the function's entry block (so mem2reg can promote it).
llvm::AllocaInst* EntryAlloca(llvm::IRBuilderBase& b, llvm::Type* type,
                              const std::string& name);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_EMIT_IR_ARRAY_H_
