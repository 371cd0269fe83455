// The StableHLO parser's internal class, shared by the files that implement
// its parts: stablehlo_parser.cc (module, functions, regions, values),
// parse_types.cc (types, attribute values), parse_literal.cc (dense
// literals), parse_ops.cc (pretty and generic forms), build_ops.cc and
// build_compound_ops.cc (one builder per operation) and build_regions.cc
// (while, if, case).
//
// Recursive descent over MlirLexer with one token of lookahead (`tok_`).
// Every recursion that input controls is bounded: regions and attribute
// values by kMaxNesting, dense literals by kMaxRank.
#ifndef AOTC_COMPILER_FRONTEND_STABLEHLO_PARSER_H_
#define AOTC_COMPILER_FRONTEND_STABLEHLO_PARSER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/frontend/stablehlo/mlir_lexer.h"
#include "compiler/frontend/stablehlo/quant_type.h"
#include "compiler/ir/module.h"

namespace aotc::shlo {

struct DenseElement;
struct DenseText;

// Nesting limit of regions and of attribute values.
inline constexpr int kMaxNesting = 64;
// The largest tensor a splat literal (one element, or one element's hex
// bytes) may fill: a few bytes of input must not allocate gigabytes.
inline constexpr int64_t kMaxSplatBytes = int64_t{256} << 20;

struct NamedAttr;

// An attribute value as written: `1 : i64`, `array<i64: 1, 2>`,
// `dense<...> : tensor<...>`, `[..]`, `{..}`, `#stablehlo<precision HIGH>`,
// `#stablehlo.gather<k = v, ...>`, `#stablehlo.conv<[b, 0, f]x...>`, a type.
struct Attr {
  enum class Kind {
    kUnit,
    kInt,
    kFloat,
    kBool,
    kString,
    kArray,
    kList,
    kDict,
    kEnum,
    kDense,
    kType,
    kIdent,
    kConv
  };
  Kind kind = Kind::kUnit;
  Tok tok;                      // the first token, for errors
  int64_t i = 0;                // kInt, kBool (0 / 1)
  std::string s;                // kString, kEnum (the value), kIdent, kFloat
  std::vector<int64_t> ints;    // kArray (bools as 0 / 1)
  std::vector<Attr> list;       // kList
  std::vector<NamedAttr> dict;  // kDict
  std::shared_ptr<const Literal> literal;  // kDense
  Shape type;                              // kType, kDense
  ConvolutionDimensionNumbers conv;        // kConv
};

struct NamedAttr {
  std::string name;
  Attr value;
};

// Values captured by a while loop's regions from the enclosing function:
// they travel as extra elements of the loop state after the carried ones.
struct Captures {
  int64_t carried = 0;
  std::vector<Instruction*> outer;  // in the enclosing computation
  // The element (get-tuple-element of the state parameter) per region.
  std::map<std::pair<const Computation*, Instruction*>, Instruction*> inner;
};

// Names visible in one function or region.
struct Scope {
  Scope* parent = nullptr;
  Computation* comp = nullptr;
  std::unordered_map<std::string, std::vector<Instruction*>> values;
  Captures* captures = nullptr;  // may capture outer values (while)
  Instruction* state = nullptr;  // the tuple parameter when captures
};

// One operation as read, before it becomes instructions.
struct OpState {
  std::string name;  // "stablehlo.add"
  Tok name_tok;
  Location loc;
  std::vector<Instruction*> operands;
  std::vector<Tok> operand_toks;
  std::vector<NamedAttr> attrs;
  std::vector<Shape> result_types;
  // The quantization of each result type (empty when none is quantized).
  std::vector<std::optional<QuantType>> result_quants;
  std::vector<Computation*> regions;
  std::string callee;  // call, custom_call: the symbol
  Tok callee_tok;
  std::string result_name;  // the first result's name without '%'
  // while: the values its regions capture and what each region returns.
  std::unique_ptr<Captures> captures;
  // if / case: the values each branch captures.
  std::vector<std::unique_ptr<Captures>> branch_captures;
  std::vector<std::vector<Instruction*>> region_returns;
  std::vector<Tok> region_toks;
  // The built instruction is a tuple even for one result (while).
  bool tuple_result = false;

  const Attr* Find(std::string_view key) const;
};

// The block arguments of a region: its parameters (or, for a tuple-state
// region, the elements of its one parameter) in order.
struct BlockArg {
  std::string name;
  Shape shape;
  Tok tok;
  std::optional<QuantType> quant;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view filename);
  absl::StatusOr<std::unique_ptr<Module>> ParseModule();

 private:
  friend struct OpBuild;
  friend struct OpBuilders;

  // --- Tokens and errors (stablehlo_parser.cc).
  void Advance() { tok_ = lexer_.Next(); }
  Location LocationOf(const Tok& tok) const;
  absl::Status ErrorAt(const Tok& tok, std::string_view message) const;
  absl::Status Expected(std::string_view what) const;
  absl::Status Expect(TokKind kind, std::string_view what);
  bool Consume(TokKind kind);
  // Skips a balanced bracket group starting at tok_ ('(', '[', '{', '<').
  absl::Status SkipBalanced();
  // Skips a trailing `loc(...)`.
  absl::Status SkipLocation();

  // --- Structure (stablehlo_parser.cc).
  absl::Status ParseTopLevel();
  absl::Status ParseFunction();
  absl::Status ParseBody(Scope* scope, std::vector<Instruction*>* returned,
                         Tok* return_tok);
  // Parses one operation (results, op, operands, attributes, type) and
  // binds its results in `scope`. Sets *is_return for a terminator.
  absl::Status ParseOperation(Scope* scope, bool* is_return,
                              std::vector<Instruction*>* returned,
                              Tok* return_tok);
  // Parses `{ [^bb(args):] ops return }` into a new computation named
  // after `hint`. With `args` given (pretty forms), no block header is
  // read. With tuple_state, the arguments are elements of one tuple
  // parameter and values of enclosing scopes are captured into `captures`.
  // With `returned` given, the root is left for the caller to set and the
  // returned values are stored there.
  absl::StatusOr<Computation*> ParseRegion(
      Scope* parent, std::string_view hint, const std::vector<BlockArg>* args,
      Captures* captures, std::vector<Instruction*>* returned = nullptr);
  absl::StatusOr<std::vector<BlockArg>> ParseArgList();
  absl::StatusOr<Instruction*> ParseValueUse(Scope* scope);
  absl::StatusOr<Instruction*> LookupValue(Scope* scope, const Tok& tok);
  absl::StatusOr<Instruction*> Resolve(Scope* scope, std::string_view name,
                                       int64_t index, const Tok& tok);
  Computation* FunctionRef(std::string_view name, const Tok& tok);
  std::string RegionName(std::string_view hint);

  // --- Instructions (stablehlo_parser.cc).
  Instruction* Emit(Computation* comp, Opcode opcode, std::string_view name,
                    Shape shape, std::vector<Instruction*> operands,
                    const Location& loc);
  // The root of a computation returning `values`: the value itself, or a
  // tuple of them.
  Instruction* MakeRoot(Computation* comp, const std::vector<Instruction*>& v,
                        const Location& loc);
  // Results of an instruction producing `count` values: itself, or its
  // tuple elements (always with `tuple`).
  absl::StatusOr<std::vector<Instruction*>> Results(Instruction* inst,
                                                    size_t count, bool tuple,
                                                    const Location& loc);

  // --- Types, literals, attributes (parse_types.cc).
  bool AtType() const;
  absl::StatusOr<Shape> ParseType();
  absl::StatusOr<PrimitiveType> ParseElementType();
  // `!quant.uniform<...>` (parse_quant.cc), and the per-axis checks once
  // the tensor's shape is known.
  absl::StatusOr<QuantType> ParseQuantElementType();
  absl::Status CheckQuantShape(const QuantType& q, const Shape& shape,
                               const Tok& tok) const;
  // `T`, `T, T` or `(T, T) -> (T)`: the operand and result types of a
  // pretty operation. A single type list is the result type(s).
  absl::Status ParseOpTypes(std::vector<Shape>* operands,
                            std::vector<Shape>* results);
  absl::Status ParseOpTypesAfterColon(std::vector<Shape>* operands,
                                      std::vector<Shape>* results);
  absl::StatusOr<std::vector<Shape>> ParseTypeList();
  // With tok_ at ',': whether a type follows it.
  bool LookingAtTypeAfterComma();
  absl::StatusOr<Attr> ParseAttrValue(int depth);
  absl::Status ParseAttrDict(std::vector<NamedAttr>* attrs, TokKind close,
                             int depth);
  // dense<...> : tensor<...> (parse_literal.cc), in steps: the elements
  // as tokens (one, or nested lists), the size checks once the type is
  // known, then the bytes from a hex string or element by element.
  absl::StatusOr<Attr> ParseDense(int depth);
  absl::Status ParseDenseElement(DenseText* d);
  absl::Status ParseDenseLists(DenseText* d);
  absl::Status CheckDenseSize(const DenseText& d, const Shape& shape,
                              const Tok& type_tok) const;
  absl::Status FillDenseHex(const DenseText& d, const Shape& shape,
                            uint8_t* out) const;
  absl::Status DenseElementBytes(const DenseElement& e, PrimitiveType type,
                                 uint8_t* dst) const;
  absl::StatusOr<std::vector<int64_t>> ParseIntList();  // [1, 2]
  absl::StatusOr<int64_t> ParseInt();
  absl::StatusOr<ConvolutionDimensionNumbers> ParseConvDims();

  // --- Operations (parse_ops.cc).
  absl::Status ParseGenericOp(Scope* scope, OpState* op);
  absl::Status ParsePrettyOp(Scope* scope, OpState* op);
  // One operation, by its entry in the table of op_builders.h.
  absl::StatusOr<Instruction*> BuildOp(Scope* scope, OpState& op);
  absl::StatusOr<Instruction*> BuildWhile(Scope* scope, OpState& op);
  absl::Status ParsePrettyWhile(Scope* scope, OpState* op);
  absl::StatusOr<Instruction*> BuildConditional(Scope* scope, OpState& op);
  absl::Status ParsePrettyReduce(Scope* scope, OpState* op);
  absl::Status ParsePrettyConvolution(Scope* scope, OpState* op);
  absl::Status ParseChloOp(Scope* scope, OpState* op);
  absl::Status ParsePrettyScan(Scope* scope, OpState* op);
  absl::Status ParseOperandList(Scope* scope, OpState* op);
  // `, key = value` pairs of pretty forms, stored under `key`.
  absl::Status ParseKeywordAttrs(OpState* op);
  // A reducer computation applying one binary operation (`applies`).
  absl::StatusOr<Computation*> MakeApplyRegion(const Tok& op_tok,
                                               const std::vector<Shape>& args,
                                               const Location& loc);
  std::string InstName(const OpState& op, Opcode opcode) const;
  // Quantized values (build_quantized.cc): whether `op` has a quantized
  // operand or result, and a value's quantization (null when none).
  bool HasQuantizedValues(const OpState& op) const;
  const QuantType* QuantOf(const Instruction* v) const;

  std::shared_ptr<SourceFile> source_;
  MlirLexer lexer_;
  Tok tok_;
  int depth_ = 0;  // region nesting
  int64_t instruction_count_ = 0;
  std::string current_function_;
  int64_t region_counter_ = 0;

  struct Function {
    Computation* comp = nullptr;
    bool defined = false;
    bool is_public = false;
    Tok first_use;
  };
  std::map<std::string, Function> functions_;
  std::vector<std::string> function_order_;
  std::vector<std::unique_ptr<Computation>> owned_;
  std::unordered_map<const Computation*, std::unordered_set<std::string>>
      names_;
  std::string module_name_;

  // One entry per value type parsed (ParseType outside tuples), in order:
  // its quantization, if any. An operation's result types are the last it
  // parses; ParseOperation and ParseRegion cut the list back when done.
  std::vector<std::optional<QuantType>> type_quants_;
  // The quantization of every quantized value built so far.
  std::unordered_map<const Instruction*, QuantType> quant_of_;
};

// The magnitude and sign of an integer token's text (decimal or 0x hex);
// false when it is not an integer or does not fit 64 bits.
bool IntegerOf(std::string_view text, bool* negative, uint64_t* magnitude,
               bool* is_hex);

// Whether `name` ("stablehlo.add") is an operation the builders know.
bool IsKnownStableHloOp(std::string_view name);

}  // namespace aotc::shlo

#endif  // AOTC_COMPILER_FRONTEND_STABLEHLO_PARSER_H_
