// The optimization pipeline: which passes, in which order, and why.
#include "compiler/passes/pipelines.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/algebraic_simplifier.h"
#include "compiler/passes/call_inliner.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/cse.h"
#include "compiler/passes/custom_call_simplifier.h"
#include "compiler/passes/dce.h"
#include "compiler/passes/fusion.h"
#include "compiler/passes/multi_output_fusion.h"
#include "compiler/passes/reduction_splitting.h"
#include "compiler/passes/token_elimination.h"
#include "compiler/passes/transcendental_expander.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

// Dead-code elimination once more at the end, under its own name, for
// what fusion left unused.
class CleanupPass : public DeadCodeElimination {
 public:
  std::string_view name() const override { return "cleanup"; }
};

PassPipeline BuildPipeline(bool strict_fp) {
  PassPipeline pipeline("optimize");
  // Annotation custom-calls go first: as side effects they would keep
  // what they touch from being merged or removed, and code generation
  // refuses them. Then inlining exposes calls' bodies to everything after
  // it, algebraic rewrites and folding make the graph smaller, CSE merges
  // what they made identical, and DCE drops the rest.
  pipeline.AddPass<CustomCallSimplifier>();
  // Tokens only order side effects, which code generation runs in
  // definition order anyway: they go before anything could move a call.
  pipeline.AddPass<TokenElimination>();
  // Inverse and hyperbolic functions become the element-wise operations
  // code generation has, before anything simplifies or fuses them.
  pipeline.AddPass<TranscendentalExpander>();
  pipeline.AddPass<CallInliner>();
  pipeline.AddPass<AlgebraicSimplifier>();
  pipeline.AddPass<ConstantFolding>();
  pipeline.AddPass<CommonSubexpressionElimination>();
  pipeline.AddPass<DeadCodeElimination>();
  // Splitting comes before fusion so that the partial reduction fuses with
  // its producers; fusion sees the simplified graph; clean-up runs last.
  pipeline.AddPass<ReductionSplitting>(strict_fp);
  pipeline.AddPass<FusionPass>();
  pipeline.AddPass<MultiOutputFusion>();
  pipeline.AddPass<CleanupPass>();
  return pipeline;
}

}  // namespace

std::vector<std::string> OptimizationPassNames() {
  return BuildPipeline(false).PassNames();
}

absl::StatusOr<std::vector<PassTiming>> OptimizeModule(
    Module& module, const OptimizeOptions& options) {
  PassPipeline pipeline = BuildPipeline(options.strict_fp);
  const std::vector<std::string> names = pipeline.PassNames();
  for (const std::string& d : options.disabled) {
    if (std::find(names.begin(), names.end(), d) == names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown pass '", d, "' (passes: ",
                       absl::StrJoin(names, ", "), ")"));
    }
  }
  PipelineOptions po;
  po.verify_after_each = options.verify_after_each;
  po.disabled = options.disabled;
  if (!options.fusion) {
    po.disabled.insert("fusion");
    po.disabled.insert("multi-output-fusion");
  }
  po.after_pass = options.after_pass;
  RETURN_IF_ERROR(pipeline.Run(module, po).status());
  return pipeline.timings();
}

}  // namespace aotc
