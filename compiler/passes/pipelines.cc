// The optimization pipeline: which passes, in which order, and why; and the
// registry that builds any list of them by name.
#include "compiler/passes/pipelines.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/algebraic_simplifier.h"
#include "compiler/passes/attention_fusion.h"
#include "compiler/passes/call_inliner.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/cse.h"
#include "compiler/passes/custom_call_simplifier.h"
#include "compiler/passes/dce.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/multi_output_fusion.h"
#include "compiler/passes/norm_fusion.h"
#include "compiler/passes/reduction_splitting.h"
#include "compiler/passes/token_elimination.h"
#include "compiler/passes/transcendental_expander.h"
#include "compiler/support/status_macros.h"

namespace aotc {
namespace {

// Dead-code elimination once more at the end, under its own name, for
// what fusion left unused.
class CleanupPass : public DeadCodeElimination {
 public:
  std::string_view name() const override { return "cleanup"; }
};

// What a pass's constructor may take from the options.
struct PassConfig {
  bool strict_fp = false;
};

// Makes a fresh pass; the pass's name() is its name in the registry.
using PassFactory = std::unique_ptr<Pass> (*)(const PassConfig&);

template <typename P>
std::unique_ptr<Pass> Make(const PassConfig&) {
  return std::make_unique<P>();
}

std::unique_ptr<Pass> MakeReductionSplitting(const PassConfig& config) {
  return std::make_unique<ReductionSplitting>(config.strict_fp);
}

// The registry: every pass of the optimization pipeline, in the order the
// whole pipeline runs them.
constexpr PassFactory kPipeline[] = {
    // Annotation custom-calls go first: as side effects they would keep
    // what they touch from being merged or removed, and code generation
    // refuses them. Then inlining exposes calls' bodies to everything after
    // it, algebraic rewrites and folding make the graph smaller, CSE merges
    // what they made identical, and DCE drops the rest.
    Make<CustomCallSimplifier>,
    // Tokens only order side effects, which code generation runs in
    // definition order anyway: they go before anything could move a call.
    Make<TokenElimination>,
    // Inverse and hyperbolic functions become the element-wise operations
    // code generation has, before anything simplifies or fuses them.
    Make<TranscendentalExpander>,
    Make<CallInliner>,
    Make<AlgebraicSimplifier>,
    Make<ConstantFolding>,
    Make<CommonSubexpressionElimination>,
    Make<DeadCodeElimination>,
    // Attention is grouped whole while its softmax's reductions are still
    // whole (splitting would break them up) and before fusion takes its
    // pieces apart.
    Make<AttentionFusion>,
    // Row normalisations likewise: their sums are whole rows, and fusion
    // would give each sum a pass over memory of its own.
    Make<NormFusion>,
    // Splitting comes before fusion so that the partial reduction fuses with
    // its producers; fusion sees the simplified graph; clean-up runs last.
    MakeReductionSplitting,
    Make<FusionPass>,
    Make<MultiOutputFusion>,
    Make<CleanupPass>,
};

// The registry's pass called `name`, or null.
std::unique_ptr<Pass> MakePass(std::string_view name,
                               const PassConfig& config) {
  for (PassFactory make : kPipeline) {
    std::unique_ptr<Pass> pass = make(config);
    if (pass->name() == name) return pass;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> OptimizationPassNames() {
  std::vector<std::string> names;
  for (PassFactory make : kPipeline) names.emplace_back(make({})->name());
  return names;
}

absl::Status CheckPassName(std::string_view name) {
  const std::vector<std::string> names = OptimizationPassNames();
  if (std::find(names.begin(), names.end(), name) != names.end()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown pass '", std::string(name), "' (passes: ",
      absl::StrJoin(names, ", "), ")"));
}

absl::StatusOr<PassPipeline> BuildPassPipeline(
    const std::vector<std::string>& names, bool strict_fp) {
  PassConfig config;
  config.strict_fp = strict_fp;
  PassPipeline pipeline("optimize");
  if (names.empty()) {
    for (PassFactory make : kPipeline) pipeline.AddPass(make(config));
    return pipeline;
  }
  for (const std::string& name : names) {
    std::unique_ptr<Pass> pass = MakePass(name, config);
    if (pass == nullptr) return CheckPassName(name);
    pipeline.AddPass(std::move(pass));
  }
  return pipeline;
}

absl::StatusOr<std::vector<PassTiming>> OptimizeModule(
    Module& module, const OptimizeOptions& options) {
  for (const std::string& d : options.disabled) {
    RETURN_IF_ERROR(CheckPassName(d));
  }
  ASSIGN_OR_RETURN(PassPipeline pipeline,
                   BuildPassPipeline(options.passes, options.strict_fp));
  PipelineOptions po;
  po.verify_after_each = options.verify_after_each;
  po.after_pass = options.after_pass;
  std::vector<PassTiming> timings;
  if (!options.composite_kernels.empty()) {
    PassPipeline bind("composite-kernels");
    CompositeKernels& pass =
        bind.AddPass<CompositeKernels>(options.composite_kernels);
    RETURN_IF_ERROR(bind.Run(module, po).status());
    if (options.unbound_composite) {
      for (const std::string& name : pass.unbound()) {
        options.unbound_composite(name);
      }
    }
    timings = bind.timings();
  }
  po.disabled = options.disabled;
  if (!options.fusion) {
    // Every pass that groups instructions into fusions.
    for (const char* name : {"attention-fusion", "norm-fusion", "fusion",
                             "multi-output-fusion"}) {
      po.disabled.insert(name);
    }
  }
  RETURN_IF_ERROR(pipeline.Run(module, po).status());
  timings.insert(timings.end(), pipeline.timings().begin(),
                 pipeline.timings().end());
  return timings;
}

}  // namespace aotc
