// General matrix products on a register-blocked microkernel.
//
// A dot (or a fusion of one with an element-wise epilogue, row_dot.h's
// DotSite) is seen as `batch` independent products C[M,N] = A[M,K] B[K,N]:
// the batch dimensions, the free dimensions of each operand and the
// contracting dimensions are flattened in order, wherever they sit in the
// operands' shapes and layouts. Packing reads the operands through their
// element generators, so no transpose is ever materialised:
//
//   prologue (once):  B -> Bp, panels of NR columns, each K x NR contiguous
//                     (zero beyond N); skipped when B is a constant, whose
//                     panels are packed at compile time into a global, or
//                     when one block takes all rows and B's rows can be the
//                     panels' rows in place (GemmPlan::direct_b)
//   per unit, a block of MC rows and a group of NR panels (the parallel
//   loop; each task of it has a scratch slot of its own, which its units
//   use one after another):
//     for each KC-slice of K:
//       A's rows over the slice: read in place when the operand's rows are
//       contiguous along k, else packed into the slot (rows past M repeat
//       the last one; their results are never written)
//       for each NR panel, for each MR rows:
//         microkernel: the MR x NR tile of C in registers,
//                      C += A rows * Bp panel, one rank-1 update per k
//     epilogue: C's rows -> the output through the fusion's root
//
// A convolution is the same product with A's rows read from the input
// (docs/codegen.md, "implicit GEMM"), or for a feature-major input the
// transposed product, the kernel as A and the input packed per unit into
// B's panels: see ConvGemm in plan.h.
// C is a scratch tile of MC x (group width) accumulators per unit. Each element of
// C sums its products in increasing k from zero, as the evaluator does;
// with CompileOptions::strict_fp each product is rounded before the add
// (the evaluator's numbers bit for bit), otherwise the kernel uses fused
// multiply-adds where the target has them.
//
// The register tile comes from the target (target_info.h): NR is a few
// vectors wide, no more than N fills, and MR rows are chosen so that the
// MR x NR accumulators, one row of B and one broadcast of A fit in the
// vector registers; M's last M mod MR rows get a kernel that many rows
// tall. KC keeps a KC x NR panel of B in L1; MC keeps a KC x MC block of
// A in L2.
#ifndef AOTC_CODEGEN_STRATEGIES_GEMM_GEMM_H_
#define AOTC_CODEGEN_STRATEGIES_GEMM_GEMM_H_

#include <cstdint>
#include <optional>

#include "codegen/backend/target_info.h"
#include "codegen/strategy.h"

namespace aotc::codegen {

// The register tile and cache blocks of the microkernel.
struct GemmTiling {
  int mr = 1;       // rows of the register tile
  int vectors = 1;  // vectors across the register tile
  int lanes = 1;    // elements per vector
  int64_t kc = 1;   // depth of a K slice
  int64_t mc = 1;   // rows of a block (a multiple of mr)
  int64_t nr() const { return int64_t{vectors} * lanes; }
};

// The tiling for elements of `element_bytes` bytes on `target`, for a
// product of `m` rows and depth `k`; the cache blocks hold packed operands
// of `packed_bytes` per element (0: element_bytes; 2 for bf16 pairs). With
// `max_columns` (0: any) the tile is no wider than needed for that many
// columns: vectors of as few lanes (at least 16 bytes) and as few of them
// as cover the columns.
GemmTiling ChooseGemmTiling(int element_bytes, const TargetInfo& target,
                            int64_t m, int64_t k, int packed_bytes = 0,
                            int64_t max_columns = 0);

// The "gemm" strategy (strategy.h): a dot with f32 or f64 results whose
// operands compute in the result's type (f16 and bf16 operands widen to
// f32 when packed, or multiply as bf16 pairs where the target has
// vdpbf16ps), or with f16 / bf16 results and operands, summed in f32 and
// rounded once, or with s32 results of s8 / s32 operands (exact, wrapping;
// s8 quads on vpdpbusd where the target has it); any dimension numbers, at least kGemmMinRows rows and
// enough work; fewer rows go to the row-dot, which streams the weights once.
// Also a convolution with one batch group and no input dilation, of one
// feature group or several of at least two input features each and two
// output features (NHWC; one when groups are interleaved) or four
// (feature-major), one product per group or set of interleaved groups:
// NHWC-like inputs (features the most minor dimension) as output positions
// times output features, feature-major ones (NCHW) transposed.
std::optional<StrategyPlan> PlanGemm(const Instruction& inst,
                                     const TargetInfo& target);

inline constexpr int64_t kGemmMinRows = 8;

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_GEMM_GEMM_H_
