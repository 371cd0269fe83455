// The plan the gemm strategy's files share: plan.cc makes it (PlanGemm),
// gemm.cc emits the blocked loops from it, pack.cc (pack.h) packs the
// operands, microkernel.cc builds the register-tiled microkernel and
// conv.cc is the convolution side. Internal to those files; what the
// strategy registry needs is in gemm.h.
#ifndef AOTC_CODEGEN_STRATEGIES_GEMM_PLAN_H_
#define AOTC_CODEGEN_STRATEGIES_GEMM_PLAN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "codegen/emit/ir_array.h"
#include "codegen/emit/module_context.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/gemm.h"

namespace aotc::codegen {

// The dot's dimensions grouped into batch, rows (lhs free), columns (rhs
// free) and depth (contracting), each group flattened row-major in the
// order HLO gives them: the dot's result is [batch..., rows..., columns...].
struct GemmDims {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_free, rhs_free;
  std::vector<int64_t> lhs_contract, rhs_contract;
  std::vector<int64_t> batch_ext, m_ext, n_ext, k_ext;
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

// The groups of `dot` (a kDot).
GemmDims DescribeDot(const Instruction& dot);

// A convolution as a product (the "implicit GEMM"): row m of A is output
// position (n, s...) flattened over [batch, output spatial...]; depth k is
// kernel tap t (row-major over the kernel's spatial dimensions) then input
// feature c, k = t * features + c, the evaluator's order; column j is the
// output feature. A[m, k] is the input at (n, s_i * stride_i - pad_low_i +
// w_i * dilation_i, c), zero outside; B[k, j] is the kernel at (w or its
// reversal, c, j). Each depth slice stays within one tap, so a row of A
// over the slice is a contiguous run of input features, read in place.
//
// With feature groups each group g is a product of its own, one of the
// product's batch: its A reads input features [g * features, (g + 1) *
// features), its B kernel output features [g * group_outputs, (g + 1) *
// group_outputs), and its column j is output feature g * group_outputs + j.
struct ConvGemm {
  ConvolutionDimensionNumbers dn;
  std::vector<WindowDim> window;
  std::vector<int64_t> in_ext;      // input spatial sizes
  std::vector<int64_t> row_ext;     // [batch, output spatial sizes...]
  std::vector<int64_t> kernel_ext;  // kernel spatial sizes
  int64_t features = 1;             // input features (of one group)
  int64_t groups = 1;               // feature_group_count
  int64_t group_outputs = 1;        // output features of one group
  int64_t taps = 1;                 // product of kernel_ext
  int64_t chunks = 1;               // depth slices per tap
  // With few input features A is packed instead: each depth slice holds
  // whole taps, `taps_per_slice` of them.
  bool packed = false;
  int64_t taps_per_slice = 1;
  // Grouped, packed, and one slice holds every tap: a block's rows are
  // packed for every group at once, row r of group g's A at element
  // (r * groups + g) * k, so that each tap's input features are read as one
  // run (PackConvGroups).
  bool all_groups = false;
  // With all_groups and few output features per group, `interleave` groups
  // whose output features fill one vector are one product (a "set"): the
  // product's batch is the sets, its columns the set's interleave *
  // group_outputs output features, and row r of set s holds, for each depth
  // k, the set's groups' values side by side: element ((r * sets + s) * k +
  // kk) * interleave + j for group s * interleave + j. The microkernel
  // spreads each depth's interleave values over their groups' lanes, so a
  // multiply-add does useful work in every lane (PackConvGroups packs it).
  int64_t interleave = 1;
  // The taps along the innermost spatial axis read neighbouring input
  // positions (dilation 1, positions one feature run apart), so a kernel
  // row's features form one run of memory.
  bool row_runs = false;
  // The input's features are not its most minor dimension (NCHW): the
  // product is transposed, C^T = W X, so that the positions, which lie
  // side by side in the input, are the columns the microkernel's vectors
  // run along. Row i of A is output feature i, the kernel over depth k in
  // the order above, packed once into rows of K (at compile time when the
  // kernel is a constant); the product's batch is the convolution's batch
  // and column j an output position flattened over the output spatial
  // sizes. B[k, j] is the input at position j's window tap, zero outside,
  // packed per unit and depth slice into the unit's nr-panels (an im2col
  // of one block at a time, see PackConvPanels). With feature groups the
  // batch is (batch, group), group minor, and group g's rows are kernel
  // rows [g * group_outputs, (g + 1) * group_outputs).
  bool feature_major = false;
  int64_t positions = 1;  // output positions per batch: the product's n
  // A feature-major 1x1 convolution whose positions are the input's, in
  // order: B's depth row k is feature k's plane itself, read in place.
  bool pointwise = false;
  // A feature-major convolution of stride 1, no negative padding and one
  // feature group (not pointwise): the prologue copies the input once into zero-padded
  // planes, one per batch and feature, `plane` elements apart (padded_ext,
  // the padded spatial sizes, row-major, then zeros). Column j then runs
  // over column_ext, the output's first spatial size and the padded sizes
  // of the others, and depth row (tap, c) of B at column j is plane c at
  // j plus the tap's offset in the plane: B's panels are read in place,
  // `plane` apart along one tap's features, so each depth slice stays
  // within a tap. The columns past the output's sizes are computed and
  // dropped (positions, the product's n, counts them).
  bool padded = false;
  std::vector<int64_t> padded_ext;
  std::vector<int64_t> column_ext;
  int64_t plane = 0;
  int64_t planes_at = 0;  // the planes' byte offset in scratch
};

// How the microkernel multiplies: one depth per step in the sums' type
// (operands widened when packed), or a group of depths per instruction:
// bf16 pairs into f32 (vdpbf16ps, TargetInfo::bf16_pair_dot), s8 quads into
// s32 (vpdpbusd, TargetInfo::s8_quad_dot: A is offset by +128 to unsigned
// and 128 times B's column sums taken off in the epilogue).
enum class DepthGroups { kNone, kBf16Pairs, kS8Quads };

inline int DepthGroupSize(DepthGroups g) {
  return g == DepthGroups::kBf16Pairs ? 2 : g == DepthGroups::kS8Quads ? 4 : 1;
}

// Everything the emitters need, fixed at planning time.
struct GemmPlan {
  DotSite site;
  GemmDims dims;
  GemmTiling tiling;
  PrimitiveType type = PrimitiveType::kF32;  // of the sums: f32, f64 or s32
  // The dot's element type: `type`, or f16 / bf16 whose f32 sums the
  // epilogue rounds once, as the evaluator does.
  PrimitiveType result = PrimitiveType::kF32;
  int64_t n_pad = 0;          // n rounded up to nr
  // Operands multiplied in groups of depths by one instruction: A and B are
  // packed in their own narrow type, B's panels with each column's `group`
  // depths side by side, and K is padded with zeros to k_pad, a multiple of
  // the group.
  DepthGroups groups = DepthGroups::kNone;
  int64_t k_pad = 0;          // k, rounded up to group()
  int group() const { return DepthGroupSize(groups); }
  // Units of the parallel loop: (batch, block of rows, group of columns).
  // Few blocks of rows (a batch of 64) are split by columns too, each
  // group of `group_panels` nr-panels a unit of its own.
  int64_t col_groups = 1;
  int64_t group_panels = 1;
  int64_t units() const {
    return (batch_in_unit ? 1 : dims.batch) * blocks * col_groups;
  }
  int64_t ldc() const { return group_panels * tiling.nr(); }  // C slot width
  int64_t blocks = 0;         // row blocks per batch
  // Each unit runs the whole batch, one product after another, in its one
  // slot: a grouped convolution's, whose groups are many small products
  // over the same rows (and the same window origins).
  bool batch_in_unit = false;
  // The operand the prologue packs once into scratch (B, or a
  // feature-major convolution's kernel, its A); 0 when packed at compile
  // time into `prepacked`.
  int64_t once_bytes = 0;
  int64_t slot_bytes = 0;     // one unit's packed operand, C and row origins
  // The part of a slot packed per depth slice: A's rows, or a
  // feature-major convolution's B panels.
  int64_t pack_bytes = 0;
  bool parallel = false;      // units run as parallel tasks (a slot each)
  bool direct_a = false;      // A's rows are contiguous along k: no packing
  // B's panels are read in place, nothing packed: the operand's rows along
  // its one free dimension are contiguous, its one contracting dimension
  // next (row stride n), N a multiple of nr, and its rows serve one block
  // of rows only, so packing them would cost as much as the product reads.
  bool direct_b = false;
  // The operand packed once, when it is a constant: B's panels, or a
  // feature-major convolution's kernel rows.
  std::shared_ptr<const Literal> prepacked;
  // s8 quads: 128 times each column's sum of B (s32, batch x n_pad), when B
  // is constant; else computed by the prologue after the packed B.
  std::shared_ptr<const Literal> column_offsets;
  int64_t packed_b_bytes = 0;  // of the packed B in scratch, before those
  std::optional<ConvGemm> conv;              // set for a convolution
  int64_t row_info_bytes = 0;  // a convolution's per-row origins in a slot
};

// The packed operands' element type: the sums' type, or with depth groups
// the narrow one (bf16; s8, which A holds offset by 128 as u8) (plan.cc).
PrimitiveType PackedType(const GemmPlan& p);

// The rows of a feature-major convolution's packed kernel: every output
// feature, each group's product taking group_outputs of them.
inline int64_t KernelRows(const GemmPlan& p) {
  return p.conv->groups * p.dims.m;
}

// The loops of the plan's units over [a.begin, a.end) (gemm.cc): each
// unit's depth slices, its tiles on the microkernel, its epilogue.
absl::Status EmitGemm(const LoopArgs& a, const GemmPlan& p);

// The microkernel, one function per tile and element type:
//   void kernel(ptr rows, ptr b, i64 ldb, i64 kc, ptr c, i64 ldc,
//               i1 accumulate)
// C[0..mr, 0..nr) (row stride ldc) = (accumulate ? C : 0) + A * B-panel,
// where row r of A is the kc contiguous elements at rows[r] (a packed
// panel's row, or the operand itself) and the B-panel is kc rows of nr
// contiguous elements, ldb apart (nr for a packed panel). With depth groups
// (16 lanes of f32 or s32 sums) A and B are packed narrow, kc is a multiple
// of the group and each step is one group of depths: a 32-bit broadcast of
// A's group against B's row of nr groups (group * ldb narrow elements),
// through vdpbf16ps (bf16 pairs) or vpdpbusd (u8 quads of A, s8 of B).
// (microkernel.cc). `interleave` groups of a grouped convolution
// share the tile's lanes, lanes / interleave each (1: none).
llvm::Function* Microkernel(ModuleContext& mc, llvm::Type* elem,
                            const GemmTiling& t, bool strict,
                            DepthGroups groups, int64_t interleave);

// The convolution side of the implicit GEMM (conv.cc).

// A read-only row of `count` zeros: what a convolution's A row reads where
// the window falls outside the input.
llvm::Value* ZeroRow(ModuleContext& mc, llvm::Type* elem, int64_t count);

// For each row r of the block (clamped to m - 1): the element offset of the
// window's origin in the input, o = n * stride_n + sum_i origin_i *
// stride_i (signed), then origin_i = s_i * stride - pad_low per spatial
// axis; 1 + spatial i64 values per row at `info`.
void FillRowOrigins(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, llvm::Value* i0, llvm::Value* panels,
                    llvm::Value* info);

// Row r of A over the depth slice [tap, feature c0...) (c0 counted from the
// input's first feature, the group's offset included): the input's feature
// run at the window position, or the zero row where it falls outside.
llvm::Value* ConvRowPointer(llvm::IRBuilderBase& b, const GemmPlan& p,
                            const IrArray& input, llvm::Value* info,
                            llvm::Value* r,
                            const std::vector<llvm::Value*>& tap_at,
                            llvm::Value* c0, llvm::Value* zeros);

// A convolution's window offset of kernel tap `tap` (row-major over the
// kernel's spatial dimensions) per spatial axis: w_i * dilation_i.
std::vector<llvm::Value*> WindowOffsets(llvm::IRBuilderBase& b,
                                        const ConvGemm& c, llvm::Value* tap);

// A convolution with few input features, its depth slice [pc, pc + kc) of
// whole taps packed for `rows` rows into kc-element rows at `ap`, the
// group's features from input feature `feature0` (see PackConvTaps in
// conv.cc).
void PackConvTaps(llvm::IRBuilderBase& b, const GemmPlan& p,
                  const IrArray& input, llvm::Value* row_info,
                  llvm::Value* zeros, llvm::Value* ap, llvm::Value* pc,
                  llvm::Value* kc, llvm::Value* rows, llvm::Value* feature0);

// A grouped convolution's A for every group (ConvGemm::all_groups), the
// whole depth, for `rows` rows at `ap`: each row's taps read as runs of all
// the input's features (the zero row outside the input), each group's part
// copied to its row.
void PackConvGroups(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, llvm::Value* row_info,
                    llvm::Value* zeros, llvm::Value* ap, llvm::Value* rows);

// A feature-major convolution's B over the depth slice [pc, pc + kc) for
// input batch `image`, the group's features from input feature `feature0`,
// and the unit's nr-panels [q0, q1): panel q at element (q - q0) * kc * nr
// of `dst`, kc rows of nr positions, zeros where a window tap falls outside
// the input and past the last position.
void PackConvPanels(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, llvm::Value* image,
                    llvm::Value* feature0, llvm::Value* q0, llvm::Value* q1,
                    llvm::Value* pc, llvm::Value* kc, llvm::Value* dst);

// A padded convolution's input copied into its zero-padded planes at
// `dst` (see ConvGemm::padded), every batch and feature.
void PadInputPlanes(llvm::IRBuilderBase& b, const GemmPlan& p,
                    const IrArray& input, llvm::Value* dst);

// A padded convolution's offset of kernel tap `tap` in a plane:
// sum_i w_i * dilation_i * (the padded sizes' row-major stride of axis i).
llvm::Value* PlaneTapOffset(llvm::IRBuilderBase& b, const ConvGemm& c,
                            llvm::Value* tap);

// A pointwise convolution's B panel `jq` from input feature `feature` of
// input batch `image`, in place: the input at position jq * nr of the
// feature's plane, its rows PointwiseRowStride apart. Only whole panels
// (positions / nr of them) are read so; the last one is packed.
llvm::Value* PointwisePanel(llvm::IRBuilderBase& b, const GemmPlan& p,
                            const IrArray& input, llvm::Value* image,
                            llvm::Value* feature, llvm::Value* jq);
int64_t PointwiseRowStride(const GemmPlan& p, const IrArray& input);

// The convolutions the gemm takes: one batch group, one feature group or
// several of more than one input feature each (depthwise ones are the
// depthwise strategy's), no input dilation, operands of the result's type.
// With the input's features the most minor dimension a row of A over one
// tap's features is a run of memory, read in place; with fewer than 8
// input features (per group) a slice would be too shallow, so A is packed,
// whole taps per slice. Any other layout is feature-major (see ConvGemm).
std::optional<ConvGemm> DescribeConvolution(const Instruction& conv);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_STRATEGIES_GEMM_PLAN_H_
