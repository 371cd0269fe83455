// Fusion regions as data, text and Graphviz.
#include "compiler/analysis/fusion_report.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/analysis/attention_pattern.h"
#include "compiler/analysis/epilogue_pattern.h"
#include "compiler/analysis/norm_pattern.h"
#include "compiler/support/strings.h"

namespace aotc {
namespace {

int64_t ArrayBytes(const Shape& shape) {
  int64_t bytes = 0;
  for (const Shape* leaf : shape.Leaves()) {
    if (leaf->IsArray()) bytes += leaf->ByteSize();
  }
  return bytes;
}

bool IsScalarConstant(const Instruction& inst) {
  return inst.opcode() == Opcode::kConstant && inst.shape().IsScalar();
}

// Graphviz string literal.
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

std::vector<FusionRegion> FusionRegions(const Module& module) {
  std::vector<FusionRegion> regions;
  for (const auto& comp : module.computations()) {
    if (comp->is_fusion_computation()) continue;
    for (const auto& inst : comp->instructions()) {
      if (inst->opcode() != Opcode::kFusion) continue;
      FusionRegion r;
      r.computation = comp->name();
      r.name = inst->name();
      r.kind = inst->fusion_kind();
      r.multi_output = inst->shape().IsTuple();
      r.pattern = DescribeProductEpilogue(*inst->fused_computation());
      if (inst->fusion_kind() == FusionKind::kCustom) {
        const Instruction& root = *inst->fused_computation()->root();
        if (auto a = MatchAttention(root)) {
          r.pattern = a->Describe();
        } else if (auto n = MatchNorm(root)) {
          r.pattern = n->Describe();
        }
      }
      for (const Instruction* o : inst->operands()) {
        r.bytes_read += ArrayBytes(o->shape());
      }
      r.bytes_written = ArrayBytes(inst->shape());
      for (const auto& f : inst->fused_computation()->instructions()) {
        // Parameters, scalar constants and the tuple of a multi-output
        // fusion move no data of their own.
        if (f->opcode() == Opcode::kParameter || IsScalarConstant(*f) ||
            f->opcode() == Opcode::kTuple) {
          continue;
        }
        r.absorbed.push_back(f->name());
        r.unfused_bytes += ArrayBytes(f->shape());
        for (const Instruction* o : f->operands()) {
          if (!IsScalarConstant(*o)) r.unfused_bytes += ArrayBytes(o->shape());
        }
      }
      regions.push_back(std::move(r));
    }
  }
  return regions;
}

std::string FusionReportToString(const std::vector<FusionRegion>& regions) {
  std::string out;
  int64_t moved = 0, unfused = 0;
  for (const FusionRegion& r : regions) {
    absl::StrAppend(&out, r.computation, "/", r.name, " (",
                    Sv(FusionKindName(r.kind)),
                    r.multi_output ? ", multi-output" : "", "): ",
                    r.absorbed.size(),
                    " instructions: ", absl::StrJoin(r.absorbed, ", "), "\n");
    if (!r.pattern.empty()) absl::StrAppend(&out, "  pattern: ", r.pattern, "\n");
    absl::StrAppend(&out, "  reads ", r.bytes_read, " bytes, writes ",
                    r.bytes_written, " bytes; unfused ", r.unfused_bytes,
                    " bytes; saves ", r.saved_bytes(), " bytes\n");
    moved += r.bytes_read + r.bytes_written;
    unfused += r.unfused_bytes;
  }
  absl::StrAppend(&out, regions.size(), " fused regions: ", moved,
                  " bytes moved against ", unfused, " unfused (saves ",
                  unfused - moved, ")\n");
  return out;
}

std::string ComputationToDot(const Computation& comp) {
  std::string out = absl::StrCat("digraph ", Quote(comp.name()), " {\n",
                                 "  node [shape=box, fontname=monospace];\n");
  std::map<const Instruction*, std::string> id;
  int next = 0;
  auto label = [](const Instruction& inst) {
    return Quote(absl::StrCat(inst.name(), "\\n", Sv(OpcodeName(inst.opcode())),
                              " ", inst.shape().ToString(false)));
  };
  for (const auto& inst : comp.instructions()) {
    id[inst.get()] = absl::StrCat("n", next++);
    if (inst->opcode() != Opcode::kFusion) {
      absl::StrAppend(&out, "  ", id[inst.get()], " [label=", label(*inst),
                      "];\n");
      continue;
    }
    // A cluster of the fused instructions and the edges between them.
    const std::string prefix = id[inst.get()];
    absl::StrAppend(&out, "  subgraph cluster_", prefix, " {\n    label=",
                    Quote(absl::StrCat(inst->name(), " (",
                                       Sv(FusionKindName(inst->fusion_kind())),
                                       ")")),
                    ";\n    style=filled; color=lightgrey;\n");
    std::map<const Instruction*, std::string> inner;
    int k = 0;
    for (const auto& f : inst->fused_computation()->instructions()) {
      if (f->opcode() == Opcode::kParameter) continue;
      inner[f.get()] = absl::StrCat(prefix, "_", k++);
      absl::StrAppend(&out, "    ", inner[f.get()], " [label=", label(*f),
                      "];\n");
    }
    for (const auto& f : inst->fused_computation()->instructions()) {
      for (const Instruction* o : f->operands()) {
        if (inner.count(o) && inner.count(f.get())) {
          absl::StrAppend(&out, "    ", inner[o], " -> ", inner[f.get()],
                          ";\n");
        }
      }
    }
    // The fusion's own node: its operands' edges end here, its users'
    // edges start here.
    absl::StrAppend(&out, "    ", prefix, " [label=", label(*inst),
                    ", shape=ellipse];\n");
    auto root = inner.find(inst->fused_computation()->root());
    if (root != inner.end()) {
      absl::StrAppend(&out, "    ", root->second, " -> ", prefix,
                      " [style=dashed];\n");
    }
    absl::StrAppend(&out, "  }\n");
  }
  for (const auto& inst : comp.instructions()) {
    for (const Instruction* o : inst->operands()) {
      absl::StrAppend(&out, "  ", id.at(o), " -> ", id.at(inst.get()), ";\n");
    }
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

}  // namespace aotc
