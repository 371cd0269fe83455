// Planning the gemm strategy (see gemm.h): which dots and convolutions it
// takes, the product's dimensions, the register tile and cache blocks, the
// depth groups, which operands are read in place or packed (at compile
// time for a constant B), the units of the parallel loop and the scratch
// they need.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "codegen/emit/parallel_loops.h"
#include "codegen/strategies/dot_site.h"
#include "codegen/strategies/gemm/gemm.h"
#include "codegen/strategies/gemm/pack.h"
#include "codegen/strategies/gemm/plan.h"
#include "compiler/support/check.h"
#include "compiler/support/status_macros.h"

namespace aotc::codegen {
namespace {

// Products with less work than this stay with the simpler loops.
constexpr int64_t kMinWork = int64_t{1} << 14;
// Fewer columns or a shallower contraction than this waste most of a
// register tile (a tile is never wider than the columns need).
constexpr int64_t kMinColumns = 8;
constexpr int64_t kMinDepth = 16;
// A grouped convolution's products are as wide (NHWC, unless interleaved)
// or as tall (feature-major) as a group's output features: with fewer than
// these the register tile is too idle to beat the element loops. (ResNeXt's
// 3x3 with 32 groups of 4 inputs at 56x56 on one thread, not interleaved:
// NHWC with 2 outputs per group 1.2 ms against 2.75 in the loops, with 1
// 1.23 against 1.37; NCHW with 2 1.48 against 1.46, with 4 1.47 against
// 5.56.)
constexpr int64_t kMinGroupColumns = 2;
// The shallowest depth slice a tiling takes.
constexpr int64_t kMinSliceDepth = 64;
constexpr int64_t kMinGroupRows = 4;

int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batch,
                              const std::vector<int64_t>& contract) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contract.begin(), contract.end(), d) == contract.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// The depth groups of a product (GemmPlan::groups), on a target with the
// instruction and 16-lane vectors: bf16 pairs for two bf16 operands into
// f32 or bf16, s8 quads for two s8 operands into s32.
DepthGroups ChooseDepthGroups(const GemmPlan& g, const TargetInfo& target) {
  const Instruction& dot = *g.site.dot;
  auto operands_are = [&](PrimitiveType t) {
    return dot.operand(0)->shape().element_type() == t &&
           dot.operand(1)->shape().element_type() == t;
  };
  if (target.vector_bytes != 64 || g.conv) return DepthGroups::kNone;
  if (target.bf16_pair_dot && g.type == PrimitiveType::kF32 &&
      (g.result == PrimitiveType::kF32 || g.result == PrimitiveType::kBF16) &&
      operands_are(PrimitiveType::kBF16)) {
    return DepthGroups::kBf16Pairs;
  }
  if (target.s8_quad_dot && g.type == PrimitiveType::kS32 &&
      operands_are(PrimitiveType::kS8)) {
    return DepthGroups::kS8Quads;
  }
  return DepthGroups::kNone;
}

// Whether an operand of a dot into `result` is computed in f32 (f64) without
// a rounding of its own: the evaluator converts operands to the result type
// first, so into f16 or bf16 only that type qualifies.
bool OperandComputesAs(PrimitiveType operand, PrimitiveType result) {
  if (result == PrimitiveType::kF64) return operand == PrimitiveType::kF64;
  // Exact in s32 sums that wrap as the evaluator's do.
  if (result == PrimitiveType::kS32) {
    return operand == PrimitiveType::kS8 || operand == PrimitiveType::kS32;
  }
  if (IsHalfFloat(result)) return operand == result;
  return operand == PrimitiveType::kF32 || operand == PrimitiveType::kBF16 ||
         operand == PrimitiveType::kF16;
}

bool FeatureMajor(const GemmPlan& g) { return g.conv && g.conv->feature_major; }
// A convolution whose A rows are read from the input (not feature-major).
bool ConvRows(const GemmPlan& g) { return g.conv && !g.conv->feature_major; }
bool Padded(const GemmPlan& g) { return FeatureMajor(g) && g.conv->padded; }
bool Grouped(const GemmPlan& g) { return g.conv && g.conv->groups > 1; }

// The product's dimensions: a dot's, or a convolution's, one product per
// feature group (per batch element and group when feature-major, the group
// minor); false when the gemm does not take the convolution.
bool DescribeProduct(GemmPlan& g, const TargetInfo& target,
                     bool half_result) {
  const Instruction& dot = *g.site.dot;
  const PrimitiveType type = g.type;
  if (dot.opcode() != Opcode::kConvolution) {
    g.dims = DescribeDot(dot);
    return true;
  }
  // A convolution reads its input's rows in place, in the sums' type.
  if (half_result || type == PrimitiveType::kS32) return false;
  std::optional<ConvGemm> conv = DescribeConvolution(dot);
  if (!conv.has_value()) return false;
  g.conv = std::move(conv);
  const ConvGemm& c = *g.conv;
  if (c.feature_major) {
    if (c.window.empty()) return false;
    g.dims.batch = c.row_ext[0] * c.groups;
    g.dims.m = c.group_outputs;
    g.dims.n = c.positions;
  } else {
    // Groups of few features and few outputs whose outputs fit a vector
    // a whole number of times are interleaved (ConvGemm::interleave)
    // when the whole depth fits the shallowest slice.
    const int64_t lanes = target.vector_bytes / StorageBytes(type);
    if (c.groups > 1 && c.packed && lanes >= 2 * c.group_outputs &&
        lanes % c.group_outputs == 0 &&
        c.groups % (lanes / c.group_outputs) == 0 &&
        c.taps * c.features <= kMinSliceDepth) {
      g.conv->interleave = lanes / c.group_outputs;
    }
    g.dims.batch = c.groups / c.interleave;
    g.dims.m = c.row_ext[0] * c.positions;
    g.dims.n = c.interleave * c.group_outputs;
  }
  g.dims.k = c.taps * c.features;
  return true;
}

// Whether the product is large enough for the register tile to pay.
bool EnoughWork(const GemmPlan& g) {
  const GemmDims& d = g.dims;
  const bool grouped = Grouped(g);
  return d.m >= (grouped && FeatureMajor(g) ? kMinGroupRows : kGemmMinRows) &&
         d.n >= (grouped && ConvRows(g) ? kMinGroupColumns : kMinColumns) &&
         d.k >= kMinDepth && d.batch * d.m * d.n * d.k >= kMinWork;
}

// The depth groups, the register tile and the cache blocks, the depth
// slices of a convolution and the row blocks.
void ChooseTiles(GemmPlan& g, const TargetInfo& target) {
  const GemmDims& d = g.dims;
  const bool feature_major = FeatureMajor(g);
  const bool conv_rows = ConvRows(g);
  const bool padded = Padded(g);
  const bool grouped = Grouped(g);
  const int eb = StorageBytes(g.type);
  g.groups = ChooseDepthGroups(g, target);
  g.k_pad = RoundUp(d.k, g.group());
  // The packed operands' element bytes.
  const int op_bytes = StorageBytes(PackedType(g));
  // A convolution's depth slices stay within one tap's features when its
  // rows, or its padded planes, are read in place. Narrow products (a
  // grouped convolution's, a dot's few columns) take a tile no wider than
  // their columns.
  g.tiling = ChooseGemmTiling(
      eb, target, d.m,
      (conv_rows && !g.conv->packed) || padded ? g.conv->features : g.k_pad,
      op_bytes, d.n);
  GemmTiling& t = g.tiling;
  // Slices of whole groups.
  t.kc = std::max<int64_t>(g.group(), t.kc / g.group() * g.group());
  if (feature_major) {
    // The units split the positions; one block of rows takes every output
    // feature whose kernel slice fits in half of L2, so that each panel of
    // B is packed once.
    t.mc = std::min(RoundUp(std::max<int64_t>(t.mr, target.l2_bytes / 2 / (t.kc * eb)),
                            t.mr),
                    RoundUp(d.m, t.mr));
  }
  if (g.conv && g.conv->packed) {
    ConvGemm& c = *g.conv;
    const int64_t run = c.row_runs ? c.kernel_ext.back() : 1;
    c.taps_per_slice = std::max<int64_t>(1, t.kc / (c.features * run)) * run;
    t.kc = c.taps_per_slice * c.features;
    c.all_groups = grouped && c.taps_per_slice >= c.taps;
    AOTC_CHECK(c.all_groups || c.interleave == 1,
               "interleaved groups are packed all at once");
    if (c.all_groups) {
      // Every group's rows of a block in half of L2.
      t.mc = std::min(t.mc, RoundUp(std::max<int64_t>(
                                        t.mr, target.l2_bytes / 2 /
                                                  (c.groups * d.k * eb)),
                                    t.mr));
    }
  } else if (conv_rows || padded) {
    g.conv->chunks = (g.conv->features + t.kc - 1) / t.kc;
  }
  if (conv_rows) {
    g.row_info_bytes =
        AlignUp(t.mc * (1 + static_cast<int64_t>(g.conv->window.size())) * 8);
  }
  g.n_pad = RoundUp(d.n, t.nr());
  g.blocks = (d.m + t.mc - 1) / t.mc;
  if (padded) {
    // A plane holds the last panel's columns at the last tap's offset.
    ConvGemm& c = *g.conv;
    int64_t last_tap = 0, pitch = 1;
    for (size_t i = c.window.size(); i-- > 0;) {
      last_tap += (c.kernel_ext[i] - 1) * c.window[i].window_dilation * pitch;
      pitch *= c.padded_ext[i];
    }
    c.plane = RoundUp(std::max(pitch, g.n_pad + last_tap), 16);
  }
  // A block of rows for every group in turn, in one slot: the block's input
  // rows stay in cache, its window origins are found once, and the slots
  // are as many as the blocks, not groups times blocks.
  g.batch_in_unit = grouped && conv_rows;
}

// A constant B packed at compile time, and which operands are read in
// place.
void ChooseOperandReads(GemmPlan& g, const Instruction& inst,
                        const TargetInfo& target) {
  const Instruction& dot = *g.site.dot;
  const GemmDims& d = g.dims;
  GemmTiling& t = g.tiling;
  const int op_bytes = StorageBytes(PackedType(g));
  const Instruction* rhs = inst.operand(g.site.rhs);
  if (rhs->opcode() == Opcode::kConstant) {
    PackConstantB(g, rhs->literal());
  }
  // A's rows can be read in place when its one contracting dimension is the
  // most minor and it holds the result's type.
  const Shape& lhs = dot.operand(0)->shape();
  // With bf16 pairs the operand is bf16 and its rows hold whole pairs; s8
  // quads offset A, so it is always packed.
  g.direct_a = !g.conv && d.lhs_contract.size() == 1 && lhs.rank() > 0 &&
               lhs.layout().minor_to_major[0] == d.lhs_contract[0] &&
               lhs.element_type() == PackedType(g) &&
               g.groups != DepthGroups::kS8Quads && g.k_pad == d.k;
  // Rows a multiple of 4 KiB apart fall into a few sets of L1 and L2, too
  // few for a block's rows to stay cached while every panel of B reads
  // them: such an A is packed into contiguous rows instead.
  if (g.direct_a && !d.lhs_free.empty()) {
    // The stride of A's most minor free dimension: its rows' distance.
    int64_t row_bytes = StorageBytes(lhs.element_type());
    for (int64_t dim : lhs.layout().minor_to_major) {
      if (dim == d.lhs_free.back()) break;
      row_bytes *= lhs.dimensions(dim);
    }
    if (row_bytes % 4096 == 0 && d.m > t.mc) g.direct_a = false;
  }
  const Shape& rhs_shape = dot.operand(1)->shape();
  g.direct_b = !g.conv && g.prepacked == nullptr && g.blocks == 1 &&
               g.groups == DepthGroups::kNone && d.rhs_free.size() == 1 &&
               d.rhs_contract.size() == 1 && rhs_shape.rank() >= 2 &&
               rhs_shape.layout().minor_to_major[0] == d.rhs_free[0] &&
               rhs_shape.layout().minor_to_major[1] == d.rhs_contract[0] &&
               rhs_shape.element_type() == g.type && d.n % t.nr() == 0;
  if (g.direct_b) {
    // B's panels come from L2 whatever the slice depth (rows n apart), so
    // the slice only has to keep the tile's mr rows of A in half of L1:
    // deeper slices load and store the accumulators less often.
    t.kc = std::min(g.k_pad, std::max(t.kc, target.l1_bytes / 2 / (t.mr * op_bytes)));
  }
}

// The bytes the prologue packs once: B's panels (and s8 quads' column
// offsets), or a feature-major convolution's kernel rows and padded planes.
void SizeOnceBytes(GemmPlan& g) {
  const GemmDims& d = g.dims;
  const int eb = StorageBytes(g.type);
  const int op_bytes = StorageBytes(PackedType(g));
  g.packed_b_bytes =
      g.direct_b ? 0 : AlignUp(d.batch * g.n_pad * g.k_pad * op_bytes);
  if (FeatureMajor(g)) {
    // The kernel's rows unless packed at compile time, then any padded
    // planes.
    g.once_bytes = g.prepacked != nullptr ? 0 : AlignUp(KernelRows(g) * d.k * eb);
    if (Padded(g)) {
      g.conv->planes_at = g.once_bytes;
      g.once_bytes += AlignUp(d.batch * g.conv->features * g.conv->plane * eb);
    }
  } else if (g.prepacked == nullptr && !g.direct_b) {
    g.once_bytes = g.packed_b_bytes + (g.groups == DepthGroups::kS8Quads
                                           ? AlignUp(d.batch * g.n_pad * 4)
                                           : 0);
  }
}

// The units of the parallel loop, `plan`'s loop shape. Fewer than kMinUnits
// blocks of rows: columns are split too, if the units can then run in
// parallel. A feature-major convolution's units always split the
// positions, into groups whose B panels and accumulators fit in a quarter
// of L2.
void SplitUnits(GemmPlan& g, const TargetInfo& target, StrategyPlan& plan) {
  constexpr int64_t kMinUnits = 4;
  const GemmDims& d = g.dims;
  const GemmTiling& t = g.tiling;
  const bool feature_major = FeatureMajor(g);
  const int eb = StorageBytes(g.type);
  const int64_t panels = g.n_pad / t.nr();
  const int64_t fm_panels = std::clamp<int64_t>(
      target.l2_bytes / 4 / ((t.kc + t.mc) * t.nr() * eb), 1, panels);
  for (const bool split_columns : {true, false}) {
    g.col_groups = 1;
    if (feature_major) {
      g.col_groups = (panels + fm_panels - 1) / fm_panels;
    } else if (split_columns && g.units() < kMinUnits) {
      g.col_groups = std::min(panels, (kMinUnits + g.units() - 1) / g.units());
    }
    g.group_panels = (panels + g.col_groups - 1) / g.col_groups;
    g.col_groups = (panels + g.group_panels - 1) / g.group_panels;
    plan.own_loop_shape = std::make_shared<const Shape>(
        Shape::Array(PrimitiveType::kF32, {g.units()}));
    plan.loop_shape = plan.own_loop_shape.get();
    plan.work_per_element =
        t.mc * g.ldc() * d.k * (g.batch_in_unit ? d.batch : 1);
    g.parallel = ChooseParallelSplit(plan).has_value();
    if (g.parallel || g.col_groups == 1 || feature_major) break;
  }
}

// A unit's slot (its packed part, C and row origins) and the scratch.
void SizeScratch(GemmPlan& g, StrategyPlan& plan) {
  const GemmDims& d = g.dims;
  const GemmTiling& t = g.tiling;
  const bool conv_rows = ConvRows(g);
  const int eb = StorageBytes(g.type);
  const int op_bytes = StorageBytes(PackedType(g));
  g.pack_bytes = FeatureMajor(g) ? (Padded(g) ? 0 : AlignUp(t.kc * g.ldc() * eb))
                 : conv_rows && g.conv->all_groups
                     ? AlignUp(g.conv->groups * t.mc * d.k * eb)
                 : g.direct_a || (conv_rows && !g.conv->packed)
                     ? 0
                     : AlignUp(t.mc * t.kc * op_bytes);
  g.slot_bytes = g.pack_bytes + AlignUp(t.mc * g.ldc() * eb) + g.row_info_bytes;
  plan.scratch_bytes =
      g.once_bytes + (g.parallel ? g.units() : 1) * g.slot_bytes;
}

// The prologue that packs the operand once (none when it is packed at
// compile time or B is read in place) and the emitter of the units.
void SetEmitters(const std::shared_ptr<const GemmPlan>& g, StrategyPlan& plan) {
  if (Padded(*g)) {
    plan.prologue = [g](const LoopArgs& a) -> absl::Status {
      if (g->prepacked == nullptr) {
        RETURN_IF_ERROR(PackKernelRows(a, *g, a.scratch));
      }
      if (a.ins == nullptr) {
        return absl::InternalError("gemm: a convolution's input is not in memory");
      }
      PadInputPlanes(a.b, *g, (*a.ins)[g->site.lhs][0],
                     a.b.CreateInBoundsGEP(a.b.getInt8Ty(), a.scratch,
                                           a.b.getInt64(g->conv->planes_at)));
      return absl::OkStatus();
    };
  } else if (g->prepacked == nullptr && FeatureMajor(*g)) {
    plan.prologue = [g](const LoopArgs& a) { return PackKernelRows(a, *g, a.scratch); };
  } else if (g->prepacked == nullptr && !g->direct_b) {
    plan.prologue = [g](const LoopArgs& a) { return PackB(a, *g, a.scratch); };
  }
  plan.emit = [g](const LoopArgs& a) { return EmitGemm(a, *g); };
}

}  // namespace

GemmDims DescribeDot(const Instruction& dot) {
  const DotDimensionNumbers& dn = dot.dot_dnums();
  const Shape& lhs = dot.operand(0)->shape();
  const Shape& rhs = dot.operand(1)->shape();
  GemmDims g;
  g.lhs_batch = dn.lhs_batch;
  g.rhs_batch = dn.rhs_batch;
  g.lhs_contract = dn.lhs_contracting;
  g.rhs_contract = dn.rhs_contracting;
  g.lhs_free = FreeDims(lhs.rank(), g.lhs_batch, g.lhs_contract);
  g.rhs_free = FreeDims(rhs.rank(), g.rhs_batch, g.rhs_contract);
  auto extents = [](const Shape& s, const std::vector<int64_t>& dims,
                    int64_t* product) {
    std::vector<int64_t> e;
    for (int64_t d : dims) {
      e.push_back(s.dimensions(d));
      *product *= s.dimensions(d);
    }
    return e;
  };
  g.batch_ext = extents(lhs, g.lhs_batch, &g.batch);
  g.m_ext = extents(lhs, g.lhs_free, &g.m);
  g.n_ext = extents(rhs, g.rhs_free, &g.n);
  g.k_ext = extents(lhs, g.lhs_contract, &g.k);
  return g;
}


PrimitiveType PackedType(const GemmPlan& p) {
  switch (p.groups) {
    case DepthGroups::kBf16Pairs:
      return PrimitiveType::kBF16;
    case DepthGroups::kS8Quads:
      return PrimitiveType::kS8;
    case DepthGroups::kNone:
      break;
  }
  return p.type;
}

GemmTiling ChooseGemmTiling(int element_bytes, const TargetInfo& target,
                            int64_t m, int64_t k, int packed_bytes,
                            int64_t max_columns) {
  if (packed_bytes == 0) packed_bytes = element_bytes;
  GemmTiling t;
  t.lanes = target.vector_bytes >= 2 * element_bytes
                ? target.vector_bytes / element_bytes
                : 1;
  // Narrow products take narrower vectors, down to 16 bytes: more of their
  // lanes are columns of the product, and the narrower multiply-adds issue
  // more per cycle.
  while (max_columns > 0 && t.lanes / 2 >= max_columns &&
         t.lanes * element_bytes > 16) {
    t.lanes /= 2;
  }
  // The tile that keeps the FMA units busiest on the product's columns,
  // among those whose accumulators, a row of B and a broadcast fit in the
  // registers: with as many loads as multiply-adds issued per cycle, a
  // depth step of mr * vectors multiply-adds and mr + vectors loads runs
  // at min(1, multiply-adds / loads) of the FMA peak, times the share of
  // the last panel's columns that are real (AVX2: a 4 x 24 tile wastes a
  // ninth of a 64-column product, 6 x 16 nothing). The loads per
  // multiply-add (reuse) weigh lightly beyond that, for the traffic from
  // L2 (a wider panel reads A's block fewer times).
  double best = 0;
  for (int vectors = 1; vectors <= 4; ++vectors) {
    // No more vectors than the columns fill.
    if (max_columns > 0 && (vectors - 1) * t.lanes >= max_columns) break;
    const int mr = std::min(16, (target.vector_registers - vectors - 1) / vectors);
    if (mr < 1) continue;
    const double reuse = double(mr) * vectors / (mr + vectors);
    const int64_t nr = int64_t{vectors} * t.lanes;
    const double used =
        max_columns > 0 ? double(max_columns) / RoundUp(max_columns, nr) : 1.0;
    const double issue = std::min(1.0, reuse);
    const double score = used * issue * std::sqrt(std::sqrt(reuse));
    if (score > best) {
      best = score;
      t.mr = mr;
      t.vectors = vectors;
    }
  }
  // B's kc x nr panel stays in L1 while the block's mr-panels of A stream
  // past it: half of L1, or three quarters with 16 registers, whose tile is
  // narrower (AVX2: 4 x 24, so A's rows take 4 KiB at kc = 256). The depth
  // is then split into slices of equal depth, a multiple of the kernel's
  // unroll, rather than full slices and a shallow last one.
  const int64_t nr_bytes = t.nr() * packed_bytes;
  const int64_t l1_share = target.vector_registers <= 16 ? target.l1_bytes * 3 / 4
                                                         : target.l1_bytes / 2;
  const int64_t kc_max = std::clamp<int64_t>(l1_share / nr_bytes, kMinSliceDepth, 512);
  const int64_t slices = (k + kc_max - 1) / kc_max;
  t.kc = std::min(RoundUp((k + slices - 1) / slices, 4), k);
  int64_t mc = std::max<int64_t>(t.mr, target.l2_bytes / 2 / (t.kc * packed_bytes));
  // Enough blocks for a few threads when the rows allow it.
  mc = std::min(mc, std::max<int64_t>(64, (m + 3) / 4));
  t.mc = std::min(RoundUp(mc, t.mr), RoundUp(m, t.mr));
  return t;
}

std::optional<StrategyPlan> PlanGemm(const Instruction& inst,
                                     const TargetInfo& target) {
  std::optional<DotSite> site = MatchDotSite(inst);
  if (!site.has_value()) return std::nullopt;
  const Instruction& dot = *site->dot;
  const PrimitiveType result = dot.shape().element_type();
  const bool half_result = IsHalfFloat(result);
  const PrimitiveType type = half_result ? PrimitiveType::kF32 : result;
  if ((type != PrimitiveType::kF32 && type != PrimitiveType::kF64 &&
       type != PrimitiveType::kS32) ||
      !OperandComputesAs(dot.operand(0)->shape().element_type(), result) ||
      !OperandComputesAs(dot.operand(1)->shape().element_type(), result)) {
    return std::nullopt;
  }
  auto g = std::make_shared<GemmPlan>();
  g->site = *site;
  g->type = type;
  g->result = result;
  if (!DescribeProduct(*g, target, half_result) || !EnoughWork(*g)) {
    return std::nullopt;
  }
  ChooseTiles(*g, target);
  ChooseOperandReads(*g, inst, target);
  SizeOnceBytes(*g);
  StrategyPlan plan;
  SplitUnits(*g, target, plan);
  SizeScratch(*g, plan);
  SetEmitters(g, plan);
  return plan;
}

}  // namespace aotc::codegen
