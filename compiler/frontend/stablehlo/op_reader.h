// OpReader: typed access to the attributes, operands and regions of one
// operation as read (OpState), for the builders in build_ops.cc and
// build_compound_ops.cc. Every error is located: at the attribute's token
// when there is one, else at the operation's name.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_OP_READER_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_OP_READER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/frontend/stablehlo/parser.h"

namespace aotc::shlo {

// The integers of an attribute: `array<i64: ..>`, `[1, 2]`, an integer
// `dense<..>` or a single integer; an error located at `loc` otherwise.
absl::StatusOr<std::vector<int64_t>> IntsOf(const Attr& a, std::string_view key,
                                            const Location& loc);

class OpReader {
 public:
  explicit OpReader(const OpState& op) : op_(op) {}

  const Attr* Find(std::string_view key) const { return op_.Find(key); }
  // The integers of `key` into *out; absent: an error when `required`,
  // else *out is left alone.
  absl::Status Ints(std::string_view key, std::vector<int64_t>* out,
                    bool required) const;
  absl::Status OneInt(std::string_view key, int64_t* out, bool required) const;
  // A unit attribute or `key = true`.
  bool Flag(std::string_view key) const;
  absl::Status Regions(size_t n) const;
  absl::Status Operands(size_t n) const;
  // precision_config = [#stablehlo<precision HIGH>, ...] or the pretty
  // `precision = [HIGH, ...]`, lower case into attrs->operand_precision.
  absl::Status Precision(InstructionAttributes* attrs) const;
  // A window of `sizes` with the strides, dilations (under the given keys),
  // window_reversal and padding attributes.
  absl::Status Window(const std::vector<int64_t>& sizes,
                      std::string_view strides_key, std::string_view base_key,
                      std::string_view window_key,
                      std::vector<WindowDim>* out) const;
  // Dimension numbers: a #stablehlo.xxx<...> dictionary under `key`, and
  // its integer fields.
  absl::StatusOr<const Attr*> Dnums(std::string_view key) const;
  absl::Status Field(const Attr& dict, std::string_view key,
                     std::vector<int64_t>* out) const;
  absl::Status FieldInt(const Attr& dict, std::string_view key,
                        int64_t* out) const;

  Location At(const Tok& tok) const {
    return Location{op_.loc.file, tok.line, tok.column};
  }
  absl::Status Error(std::string_view message) const {
    return ErrorAt(At(op_.name_tok), message);
  }

 private:
  const OpState& op_;
};

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_OP_READER_H_
