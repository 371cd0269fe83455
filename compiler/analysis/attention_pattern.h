// Recognises attention, softmax(scale * Q K^T [masked]) V, in the
// decomposed form exporters write, so that it can be computed block by
// block with an online softmax (the `attention-fusion` pass groups it, the
// `attention` codegen strategy computes it) instead of materialising the
// scores.
//
// The match starts at the second product, O = dot(P, V) (or dot(V, P)), and
// walks up:
//
//   P = E / broadcast(L)      or  E * broadcast(1 / L)
//   L = reduce-add(E) over the key dimension, init 0
//   E = exp(X - broadcast(M))
//   M = reduce-max(X) over the key dimension, init -inf or the lowest
//       finite value (optionally maximum(M, -inf))
//   X = S with, in any order, multiplies or divides by scalar constants
//       (the scale) and select(mask, ., fill) with fill -inf or at most
//       -1e30 (a causal mask: compare of iotas, key <= query + offset)
//   S = dot(Q, K) (or dot(K, Q)): one contracting dimension of size > 1,
//       the head dimension
//
// Between any two of these, "views" may sit: reshapes that only add or
// remove dimensions of size 1, float-to-float converts (bf16 scores rounded
// and widened back), copies. A transpose never: it could swap the query and
// key dimensions. The key dimension is the one the softmax reduces; the
// operand of S whose free dimension it is, is K. Every other dimension of
// size > 1 is a batch dimension of both products or a query row dimension
// (several of them: grouped-query heads, K and V shared by the group). So
// every value of the pattern is indexed by roles: batch b_i, query row
// r_j, key, head (the contracting dimension of S) and value (V's free
// dimension); dimensions of size 1 have no role. Q, K, V and every float
// value of the pattern are f32, bf16 or f16 (the online softmax computes in
// f32; an f64 attention stays decomposed).
#ifndef AOTC_COMPILER_ANALYSIS_ATTENTION_PATTERN_H_
#define AOTC_COMPILER_ANALYSIS_ATTENTION_PATTERN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/instruction.h"
#include "compiler/ir/primitive_type.h"

namespace aotc {

// Which dimension of an operand (or of the result) holds each role; -1
// where it has none (a dimension of size 1, or a role the operand does not
// vary along: V shared by query heads has no dimension for them).
struct AttentionDims {
  std::vector<int64_t> batch;  // per batch role
  std::vector<int64_t> rows;   // per query row role
  int64_t key = -1;
  int64_t head = -1;
  int64_t value = -1;
};

// One step of the decomposition's element-wise chain from the scores S to
// the scaled, masked scores X: a rounding to `type` (an operation's result
// type, or a convert's), a multiply or divide by `constant`, or the mask.
struct AttentionStep {
  enum Kind { kRound, kMultiply, kDivide, kMask } kind = kRound;
  PrimitiveType type = PrimitiveType::kF32;
  double constant = 0;
};

// Where the decomposition rounds between its operations: each list holds
// the types a value passes through (operations' results and converts), in
// order, so that code which reproduces them gets the decomposition's
// numbers to within its sums' order.
struct AttentionRounding {
  std::vector<AttentionStep> scores;        // S (its own type first) to X
  PrimitiveType subtract = PrimitiveType::kF32;  // X - M
  PrimitiveType exp = PrimitiveType::kF32;       // E
  std::vector<PrimitiveType> e_to_sum;      // E to the sum's operand
  PrimitiveType sum = PrimitiveType::kF32;       // L
  std::vector<PrimitiveType> sum_to_divide; // L to the divisor (or to 1 / L)
  bool reciprocal = false;                  // P = E * (1 / L)
  PrimitiveType reciprocal_type = PrimitiveType::kF32;
  std::vector<PrimitiveType> after_reciprocal;  // 1 / L to the multiplier
  std::vector<PrimitiveType> e_to_divide;   // E to the numerator
  PrimitiveType divide = PrimitiveType::kF32;    // P (divide or multiply)
  std::vector<PrimitiveType> p_to_product;  // P to the second product
  PrimitiveType output = PrimitiveType::kF32;    // O
  // Whether any of them is narrower than f32.
  bool Narrow() const;
};

struct AttentionPattern {
  const Instruction* scores = nullptr;  // S = dot(Q, K)
  const Instruction* output = nullptr;  // O = dot(P, V), the pattern's root
  const Instruction* q = nullptr;       // the operands, as the products read them
  const Instruction* k = nullptr;
  const Instruction* v = nullptr;
  // The sizes of the roles.
  std::vector<int64_t> batch;  // in S's batch order
  std::vector<int64_t> rows;   // in Q's free-dimension order
  int64_t keys = 0;
  int64_t head = 0;
  int64_t value_head = 0;
  AttentionDims q_dims, k_dims, v_dims, out_dims;
  double scale = 1;  // the product of the multiplies and divides
  // The softmax's max starts at this (-inf, or the type's lowest finite).
  double max_init = 0;
  // A causal mask: key k takes part in row role `causal_row`'s index i
  // only when k <= i + causal_offset; the others get `mask_fill`.
  bool causal = false;
  int causal_row = -1;
  int64_t causal_offset = 0;
  double mask_fill = 0;
  AttentionRounding rounding;
  // Every instruction the pattern computes, Q, K, V and their producers
  // excluded, in definition order; the output last.
  std::vector<const Instruction*> members;
  // Members that other instructions may read too (constants, iotas and
  // their broadcasts, the mask's compares): copies of them are cheap.
  std::vector<const Instruction*> shareable;

  // "attention(scale=0.125)", "attention(causal, gqa=4, scale=0.125)": for
  // `aotc inspect --fusion` and `--strategies`.
  std::string Describe() const;
};

// The attention whose second product is `output`, or nullopt.
std::optional<AttentionPattern> MatchAttention(const Instruction& output);

}  // namespace aotc

#endif  // AOTC_COMPILER_ANALYSIS_ATTENTION_PATTERN_H_
