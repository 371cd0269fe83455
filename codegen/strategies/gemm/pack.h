// The gemm strategy's packing: B's panels and a feature-major
// convolution's kernel rows, once per call in the prologue or at compile
// time for a constant B, A's rows of a block per depth slice, and the
// address of an operand read in place. Internal to the gemm strategy's
// files (plan.cc plans with it, gemm.cc emits with it); the convolution's
// own packing is in conv.cc.
#ifndef AOTC_CODEGEN_STRATEGIES_GEMM_PACK_H_
#define AOTC_CODEGEN_STRATEGIES_GEMM_PACK_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/ir/literal.h"

namespace aotc::codegen {

// The prologue: every batch's B into panels of nr columns at `bp`, panel q
// of batch bt at element ((bt * n_pad + q * nr) * k_pad), k_pad x nr with
// each column's depth groups side by side, zero beyond column n and depth
// k; with s8 quads then 128 times each column's sum at bp +
// packed_b_bytes (s32, batch x n_pad).
absl::Status PackB(const LoopArgs& a, const GemmPlan& p, llvm::Value* bp);

// The prologue of a feature-major convolution: its kernel into rows of K at
// `ka`, row i (output feature i) at element i * k, in the depth order of
// ConvGemm (a group's input features).
absl::Status PackKernelRows(const LoopArgs& a, const GemmPlan& p,
                            llvm::Value* ka);

// The constant operand packed at compile time into `p.prepacked`, in the
// layout the prologue writes: B's panels (PackB, zero-initialised so the
// padding is zero, and with s8 quads the column offsets), or a
// feature-major convolution's kernel rows (PackKernelRows); left unset for
// operands it cannot read.
void PackConstantB(GemmPlan& p, const Literal& rhs);

// A's rows [0, rows) of the block from row i0 of product `bt`, over the
// depth slice [pc, pc + kc), into kc-element rows at `ap` in the packed
// type; rows past m repeat row m - 1, depths past k are zero.
absl::Status PackA(const LoopArgs& a, const GemmPlan& p, llvm::Value* bt,
                   llvm::Value* i0, llvm::Value* rows, llvm::Value* pc,
                   llvm::Value* kc, llvm::Value* ap);

// The address in `operand` (A or B, read in place) of batch `bt`, depth `pc`
// (its one contracting dimension) and coordinates `free` of its free
// dimensions.
llvm::Value* InPlace(llvm::IRBuilderBase& b, const GemmPlan& p,
                     const IrArray& operand,
                     const std::vector<int64_t>& batch_dims, llvm::Value* bt,
                     const std::vector<int64_t>& contract_dims, llvm::Value* pc,
                     const std::vector<int64_t>& free_dims,
                     std::vector<llvm::Value*> free);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_GEMM_PACK_H_
