// Writes NAME.json.
//
// nlohmann::ordered_json keeps keys in insertion order, which is the order
// docs/header.md documents, rather than sorting them.
#include "codegen/header/model_json.h"

#include "codegen/header/header_writer.h"
#include "compiler/analysis/buffer_assignment.h"
#include "compiler/analysis/fusion_report.h"
#include "nlohmann/json.hpp"

namespace aotc::codegen {
namespace {

using Json = nlohmann::ordered_json;

// Version of the JSON layout; bumped when a field changes meaning or goes.
constexpr int kFormatVersion = 1;

// `with_leaf`: add the parameter number and leaf path (arguments of a model
// with tuple parameters; array-only models keep the format they always had).
Json TensorJson(const TensorInfo& t, bool with_leaf) {
  Json j;
  j["name"] = t.name;
  j["hlo_name"] = t.hlo_name;
  if (with_leaf) {
    j["parameter"] = t.parameter;
    j["leaf"] = t.leaf;
  }
  j["element_type"] = std::string(PrimitiveTypeName(t.type));
  j["c_type"] = std::string(CTypeName(t.type).value_or(""));
  j["dims"] = t.dims;
  j["minor_to_major"] = t.minor_to_major;
  j["element_count"] = t.element_count;
  j["byte_size"] = t.byte_size;
  // Donation (input_output_alias): present only where it applies.
  if (t.aliased >= 0) {
    j[t.hlo_name.empty() ? "in_argument" : "donated_to_result"] = t.aliased;
  }
  return j;
}

Json TensorListJson(const std::vector<TensorInfo>& tensors, bool with_leaf) {
  Json list = Json::array();
  for (const TensorInfo& t : tensors) list.push_back(TensorJson(t, with_leaf));
  return list;
}

Json FusionJson(const Module& module) {
  Json regions = Json::array();
  for (const FusionRegion& r : FusionRegions(module)) {
    regions.push_back(Json{{"computation", r.computation},
                           {"name", r.name},
                           {"kind", std::string(FusionKindName(r.kind))},
                           {"multi_output", r.multi_output},
                           {"absorbed", r.absorbed},
                           {"bytes_read", r.bytes_read},
                           {"bytes_written", r.bytes_written},
                           {"unfused_bytes", r.unfused_bytes},
                           {"saved_bytes", r.saved_bytes()}});
  }
  return regions;
}

Json MemoryJson(const Module& module) {
  const BufferPlan plan = AssignBuffers(*module.entry());
  Json buffers = Json::array();
  for (const Buffer& b : plan.buffers) {
    Json j{{"instruction", b.instruction->name()},
           {"leaf", b.leaf},
           {"bytes", b.size},
           {"offset", b.offset},
           {"live", Json::array({b.start, b.end})}};
    if (b.in_place_of >= 0) {
      j["in_place_of"] = plan.buffers[b.in_place_of].instruction->name();
    }
    buffers.push_back(std::move(j));
  }
  return Json{{"entry_peak_bytes", plan.arena_bytes},
              {"entry_unshared_bytes", plan.unshared_bytes},
              {"buffers", std::move(buffers)}};
}

}  // namespace

std::string GenerateJson(const ModelSignature& sig, const Module* module) {
  Json j;
  j["format_version"] = kFormatVersion;
  j["name"] = sig.name;
  j["aotc_version"] = sig.aotc_version;
  j["target_triple"] = sig.target_triple;
  j["cpu"] = sig.cpu;
  j["features"] = sig.features;
  j["abi"] = sig.abi;
  j["hlo_signature"] = sig.hlo_signature;
  j["symbols"] =
      Json{{"run", RunSymbol(sig)}, {"run_packed", RunPackedSymbol(sig)}};
  j["header"] = sig.name + ".h";
  j["cpp_class"] = sig.cpp_namespace.empty()
                       ? CppClassName(sig)
                       : sig.cpp_namespace + "::" + CppClassName(sig);
  j["external_functions"] = sig.external_functions;
  j["temp_bytes"] = sig.temp_bytes;
  j["alignment"] = sig.alignment;
  const Footprint& f = sig.footprint;
  j["footprint"] = Json{{"text_bytes", f.text_bytes},
                        {"rodata_bytes", f.rodata_bytes},
                        {"data_bytes", f.data_bytes},
                        {"bss_bytes", f.bss_bytes},
                        {"temp_bytes", sig.temp_bytes},
                        {"constants_section", f.constants_section},
                        {"constants_section_bytes", f.constants_section_bytes},
                        {"constants_bytes", f.constants_bytes}};
  j["args"] = TensorListJson(sig.args, sig.tuple_parameters);
  j["results"] = TensorListJson(sig.results, false);
  if (sig.profile) {
    // Region k is counter pair k + 1 of NAME_profile.
    Json regions = Json::array();
    for (const ProfileRegion& r : sig.profile_regions) {
      regions.push_back(Json{{"name", r.name},
                             {"computation", r.computation},
                             {"strategy", r.strategy},
                             {"flops", r.flops},
                             {"bytes", r.bytes}});
    }
    j["profile"] = Json{{"counters", sig.name + "_profile"},
                        {"names", sig.name + "_profile_names"},
                        {"regions", std::move(regions)}};
  }
  if (module != nullptr) {
    j["fusion"] = FusionJson(*module);
    j["memory"] = MemoryJson(*module);
  }
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace aotc::codegen
