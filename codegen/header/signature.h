// The signature of a compiled model: its name, the C names, element types
// and layouts of its argument and result buffers, and the facts about the
// compiled object (scratch size, alignment, target) that the generated
// header and JSON description publish.
//
// BuildSignature derives everything from the module's entry computation:
//   - args: the array leaves of the entry parameters, in parameter-number
//     order and depth first inside a tuple parameter (an array parameter is
//     one leaf; a tuple without arrays gives none). A parameter's base name
//     is (1) its metadata op_name when that is a plain identifier (JAX puts
//     the Python argument name there: metadata={op_name="x"}), else (2) the
//     instruction name, sanitized ("Arg_0.1" -> "Arg_0_1"), else (3)
//     "arg<i>", i the position of its first argument, when sanitizing leaves
//     nothing that starts with a letter. An array parameter's argument takes
//     the base name; a tuple parameter's leaves append their tuple indices:
//     p = (f32[2], (s32[3], f32[])) gives p_0, p_1_0 and p_1_1.
//   - results: the array leaves of the entry root, depth first, named
//     "result0", "result1", ... (also when there is only one).
//   - donation: the pairs of input_output_alias (TensorInfo::aliased).
// Names are unique within the model across arguments and results, also in
// the upper-case macro and CamelCase constant spellings the header derives
// from them. A name that collides, is a keyword, has reserved underscores
// (see c_names.h), is "temp" or "constants" in any case (NAME_TEMP_BYTES,
// NAME_CONSTANTS_BYTES), names a <stdint.h>/<stddef.h> type or macro, or
// spells another tensor's index macro ("arg3", "result0") gets the first
// free suffix "_1", "_2", ...: two parameters with op_name "x" become "x" and
// "x_1", one with op_name "int" becomes "int_1".
//
// temp_bytes, target_triple, cpu, features and aotc_version are left for
// the caller (the code generator) to fill in.
#ifndef AOTC_CODEGEN_HEADER_SIGNATURE_H_
#define AOTC_CODEGEN_HEADER_SIGNATURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codegen/header/c_names.h"
#include "compiler/ir/module.h"
#include "compiler/ir/primitive_type.h"

namespace aotc::codegen {

struct TensorInfo {
  // C identifier, unique within the model (args and results share one
  // namespace).
  std::string name;
  // The HLO parameter instruction name, or "" for results.
  std::string hlo_name;
  // Arguments: the entry parameter number, and the tuple indices of this
  // leaf inside the parameter ({} for an array parameter). Results: -1, {}.
  int parameter = -1;
  std::vector<int64_t> leaf;
  PrimitiveType type = PrimitiveType::kInvalid;
  std::vector<int64_t> dims;
  // Physical layout of the buffer: minor_to_major[0] varies fastest.
  std::vector<int64_t> minor_to_major;
  int64_t element_count = 0;
  int64_t byte_size = 0;
  // Buffer donation (the module's input_output_alias): for an argument, the
  // result written into its buffer, for a result, the argument whose buffer
  // holds it; -1 for neither. Such a result has no buffer of its own.
  int aliased = -1;
};

// Bytes the compiled object occupies, by kind of section (ELF flags:
// executable; read-only data, which a firmware keeps in flash; writable
// data and zero-initialized data, none in a model object), and how many of
// the read-only bytes are in the --constants-section.
//
// constants_bytes is the size of the model's constant arrays (weights, and
// the tables aotc adds) as one section holds them, the alignment padding
// between arrays included: constants_section_bytes when there is a
// --constants-section, else what that section would hold. The literal pools
// LLVM makes for its instructions are not in it.
struct Footprint {
  int64_t text_bytes = 0;
  int64_t rodata_bytes = 0;
  int64_t data_bytes = 0;
  int64_t bss_bytes = 0;
  std::string constants_section;  // "" when the constants stay in .rodata
  int64_t constants_section_bytes = 0;
  int64_t constants_bytes = 0;
};

// One region of a model compiled with profile counters (codegen/emit/
// profile.h): an instruction with buffers of its own, its strategy, and its
// estimated work (EstimateCost).
struct ProfileRegion {
  std::string name;         // the instruction
  std::string computation;  // the computation it belongs to
  std::string strategy;
  double flops = 0;
  double bytes = 0;
};

struct ModelSignature {
  // C identifier; every emitted symbol and macro starts with it.
  std::string name;
  // "" or "a::b": the namespace of the generated C++ class.
  std::string cpp_namespace;
  std::vector<TensorInfo> args;
  std::vector<TensorInfo> results;
  // Number of entry parameters; differs from args.size() when some
  // parameter is a tuple.
  int num_parameters = 0;
  // Some entry parameter is a tuple, so args are parameter leaves and an
  // argument's position need not be its parameter number.
  bool tuple_parameters = false;
  // Scratch memory the compiled code needs; filled in by the code generator.
  int64_t temp_bytes = 0;
  // Section sizes of the object; filled in by the code generator.
  Footprint footprint;
  // Required alignment of the temp buffer, in bytes (a power of two).
  int64_t alignment = 64;
  // "(x: f32[4096,4096], y: f32[4096,4096]) -> f32[]", with argument names
  // (the leaves of tuple parameters listed one by one).
  std::string hlo_signature;
  std::string target_triple;
  std::string cpu;
  std::string features;
  // The ABI where the target has several (RISC-V "lp64d"), else "".
  std::string abi;
  std::string aotc_version;
  // The external C functions the compiled code calls (custom-calls, see
  // docs/codegen.md), sorted; filled in by the code generator.
  std::vector<std::string> external_functions;
  // Compiled with profile counters (NAME_profile), and their regions in
  // counter order; filled in by the code generator. profile_ticks_function:
  // the target has no counter the code reads itself, so it calls
  // aotc_profile_ticks(), which the program defines.
  bool profile = false;
  bool profile_ticks_function = false;
  std::vector<ProfileRegion> profile_regions;
};

// Builds the signature of `module`'s entry computation. `name` must be a
// valid C identifier without reserved underscores; `cpp_namespace` is "" or
// such identifiers joined by "::" (not starting with "std"). Errors
// (InvalidArgument, located at the offending parameter or root where
// possible): an invalid name or namespace, a module without entry, token or
// opaque parameters (also inside a tuple parameter), token or opaque
// results, element types without a C type (see CTypeName), and layouts with
// tiling or other extensions.
absl::StatusOr<ModelSignature> BuildSignature(const Module& module,
                                              std::string name,
                                              std::string cpp_namespace);

// The C type of one element in the generated interface: pred -> uint8_t,
// s8..s64 -> int8_t..int64_t, u8..u64 -> uint8_t..uint64_t, f16 and bf16 ->
// uint16_t (the raw bits), f32 -> float, f64 -> double, and c64 -> float,
// c128 -> double: a complex element is two of them, the real part first
// (the layout of C's float _Complex and C++'s std::complex<float>), so a
// c64[n] buffer holds 2n floats. nullopt for every other type (s1, u1,
// token...).
std::optional<std::string_view> CTypeName(PrimitiveType type);

// "result0" style spelling of a tensor's position: "arg<i>" / "result<i>".
std::string IndexName(bool is_result, int index);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_HEADER_SIGNATURE_H_
