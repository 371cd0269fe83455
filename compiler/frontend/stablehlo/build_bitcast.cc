// StableHLO parser: bitcast_convert to or from i1 and complex types, which
// HLO's bitcast-convert does not define the way StableHLO does, lowered
// through bytes. Between other types bitcast_convert is HLO's.
//
// The spec's bits(x) concatenates element bits; aotc lays them out little
// endian, as its buffers are:
//   - an i1 element is one bit: tensor<...x8xi1> is one byte, element j
//     its bit j (so [1, 0, 0, 0, 0, 0, 0, 0] is 1), and wider groups are
//     bytes in little-endian order (tensor<16xi1> -> ui16: element j is
//     bit j);
//   - a complex element is its real part followed by its imaginary part
//     (complex<f32> -> f64 keeps the real part's bits in the low half).
// The lowering takes the operand apart into unsigned integers (complex:
// the two parts' bits; i1: bits gathered into bytes with shifts), moves
// them with HLO bitcast-convert and reshapes through u8, and builds the
// result back the same way.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "compiler/frontend/stablehlo/op_builders.h"
#include "compiler/frontend/stablehlo/parser.h"
#include "compiler/support/status_macros.h"
#include "compiler/support/strings.h"

namespace aotc::shlo {
namespace {

// The unsigned integer type of `bits` bits (8, 16, 32 or 64).
PrimitiveType UnsignedOf(int bits) {
  switch (bits) {
    case 8:
      return PrimitiveType::kU8;
    case 16:
      return PrimitiveType::kU16;
    case 32:
      return PrimitiveType::kU32;
    default:
      return PrimitiveType::kU64;
  }
}

std::vector<int64_t> Append(std::vector<int64_t> dims,
                            std::initializer_list<int64_t> more) {
  dims.insert(dims.end(), more.begin(), more.end());
  return dims;
}

class BitcastEmitter {
 public:
  explicit BitcastEmitter(OpBuild& b) : b_(b) {}

  Instruction* Emit(Opcode opcode, PrimitiveType t, std::vector<int64_t> dims,
                    std::vector<Instruction*> operands) {
    return b_.EmitNamed(opcode, "bitcast", Shape::Array(t, std::move(dims)),
                        std::move(operands));
  }
  Instruction* Reshape(Instruction* x, std::vector<int64_t> dims) {
    return Emit(Opcode::kReshape, x->shape().element_type(), std::move(dims),
                {x});
  }
  Instruction* Splat(PrimitiveType t, uint64_t value,
                     const std::vector<int64_t>& dims) {
    Literal literal(Shape::Scalar(t));
    std::memcpy(literal.mutable_raw(), &value, StorageBytes(t));
    Instruction* c = Emit(Opcode::kConstant, t, {}, {});
    c->mutable_attrs().literal = std::move(literal);
    return Emit(Opcode::kBroadcast, t, dims, {c});
  }

  // The bytes of x, u8[shape + bytes per element], complex parts in order.
  Instruction* Bytes(Instruction* x) {
    const Shape& s = x->shape();
    const PrimitiveType t = s.element_type();
    if (IsComplex(t)) {
      const PrimitiveType part =
          t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
      std::vector<Instruction*> halves;
      for (Opcode o : {Opcode::kReal, Opcode::kImag}) {
        Instruction* p = Emit(o, part, s.dimensions(), {x});
        halves.push_back(Reshape(Bytes(p), Append(s.dimensions(),
                                                  {1, BitWidth(part) / 8})));
      }
      Instruction* both =
          Emit(Opcode::kConcatenate, PrimitiveType::kU8,
               Append(s.dimensions(), {2, BitWidth(part) / 8}), halves);
      both->mutable_attrs().dimensions = {s.rank()};
      return Reshape(both, Append(s.dimensions(), {BitWidth(t) / 8}));
    }
    const int bits = BitWidth(t);
    Instruction* u = x;
    if (t != UnsignedOf(bits)) {
      u = Emit(Opcode::kBitcastConvert, UnsignedOf(bits), s.dimensions(), {x});
    }
    if (bits == 8) return Reshape(u, Append(s.dimensions(), {1}));
    return Emit(Opcode::kBitcastConvert, PrimitiveType::kU8,
                Append(s.dimensions(), {bits / 8}), {u});
  }

  // The value of type `t` and dimensions `dims` whose bytes are `bytes`
  // (u8[dims + bytes per element]).
  Instruction* FromBytes(Instruction* bytes, PrimitiveType t,
                         const std::vector<int64_t>& dims) {
    if (IsComplex(t)) {
      const PrimitiveType part =
          t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
      const int64_t n = BitWidth(part) / 8;
      Instruction* pairs = Reshape(bytes, Append(dims, {2, n}));
      std::vector<Instruction*> parts;
      for (int64_t k = 0; k < 2; ++k) {
        Instruction* s = Emit(Opcode::kSlice, PrimitiveType::kU8,
                              Append(dims, {1, n}), {pairs});
        for (int64_t d : dims) s->mutable_attrs().slice.push_back({0, d, 1});
        s->mutable_attrs().slice.push_back({k, k + 1, 1});
        s->mutable_attrs().slice.push_back({0, n, 1});
        parts.push_back(FromBytes(Reshape(s, Append(dims, {n})), part, dims));
      }
      return Emit(Opcode::kComplex, t, dims, parts);
    }
    const int bits = BitWidth(t);
    Instruction* u =
        bits == 8 ? Reshape(bytes, dims)
                  : Emit(Opcode::kBitcastConvert, UnsignedOf(bits), dims,
                         {Reshape(bytes, Append(dims, {bits / 8}))});
    if (t == UnsignedOf(bits)) return u;
    return Emit(Opcode::kBitcastConvert, t, dims, {u});
  }

  // pred[prefix + [8 k]] packed into u8[prefix + [k]], element j of each
  // group of eight in bit j.
  Instruction* PackBits(Instruction* p) {
    std::vector<int64_t> prefix = p->shape().dimensions();
    const int64_t k = prefix.back() / 8;
    prefix.pop_back();
    Instruction* groups = Reshape(p, Append(prefix, {k, 8}));
    const std::vector<int64_t> out = Append(prefix, {k});
    Instruction* packed = nullptr;
    for (int64_t j = 0; j < 8; ++j) {
      Instruction* s =
          Emit(Opcode::kSlice, PrimitiveType::kPred, Append(out, {1}), {groups});
      for (int64_t d : out) s->mutable_attrs().slice.push_back({0, d, 1});
      s->mutable_attrs().slice.push_back({j, j + 1, 1});
      Instruction* bit = Emit(Opcode::kConvert, PrimitiveType::kU8, out,
                              {Reshape(s, out)});
      bit = Emit(Opcode::kShiftLeft, PrimitiveType::kU8, out,
                 {bit, Splat(PrimitiveType::kU8, static_cast<uint64_t>(j),
                             out)});
      packed = packed == nullptr
                   ? bit
                   : Emit(Opcode::kOr, PrimitiveType::kU8, out, {packed, bit});
    }
    return packed;
  }

  // u8[prefix + [k]] unpacked into pred[prefix + [8 k]].
  Instruction* UnpackBits(Instruction* bytes) {
    std::vector<int64_t> prefix = bytes->shape().dimensions();
    const int64_t k = prefix.back();
    prefix.pop_back();
    const std::vector<int64_t> grouped = Append(prefix, {k, 8});
    std::vector<int64_t> keep(prefix.size() + 1);
    std::iota(keep.begin(), keep.end(), 0);
    Instruction* wide = Emit(Opcode::kBroadcast, PrimitiveType::kU8, grouped,
                             {bytes});
    wide->mutable_attrs().dimensions = keep;
    Instruction* j = Emit(Opcode::kIota, PrimitiveType::kU8, grouped, {});
    j->mutable_attrs().dimensions = {static_cast<int64_t>(grouped.size()) - 1};
    Instruction* shifted =
        Emit(Opcode::kShiftRightLogical, PrimitiveType::kU8, grouped, {wide, j});
    Instruction* bit = Emit(Opcode::kAnd, PrimitiveType::kU8, grouped,
                            {shifted, Splat(PrimitiveType::kU8, 1, grouped)});
    Instruction* p = Emit(Opcode::kCompare, PrimitiveType::kPred, grouped,
                          {bit, Splat(PrimitiveType::kU8, 0, grouped)});
    p->mutable_attrs().comparison_direction = ComparisonDirection::kNe;
    return Reshape(p, Append(prefix, {8 * k}));
  }

 private:
  OpBuild& b_;
};

// Bits of all the elements of `s`; i1 counts one bit each.
int64_t TotalBits(const Shape& s) {
  const PrimitiveType t = s.element_type();
  return s.ElementCount() * (t == PrimitiveType::kPred ? 1 : BitWidth(t));
}

bool NeedsLowering(PrimitiveType from, PrimitiveType to) {
  if (IsComplex(from) || IsComplex(to)) return from != to;
  return (from == PrimitiveType::kPred) != (to == PrimitiveType::kPred);
}

}  // namespace

absl::StatusOr<Instruction*> OpBuilders::BitcastConvert(OpBuild& b) {
  RETURN_IF_ERROR(b.reader.Operands(1));
  Instruction* x = b.op.operands[0];
  const Shape& in = x->shape();
  if (!in.IsArray() || !b.shape.IsArray() ||
      !NeedsLowering(in.element_type(), b.shape.element_type())) {
    return Simple(b);
  }
  const PrimitiveType from = in.element_type();
  const PrimitiveType to = b.shape.element_type();
  for (PrimitiveType t : {from, to}) {
    if (t != PrimitiveType::kPred && (BitWidth(t) % 8 != 0 ||
                                      StorageBytes(t) * 8 != BitWidth(t))) {
      return b.reader.Error(absl::StrCat(
          "bitcast_convert between ", Sv(PrimitiveTypeName(from)), " and ",
          Sv(PrimitiveTypeName(to)), " is not supported (sub-byte types)"));
    }
  }
  // The spec's shapes: the narrower side has one more dimension, of the
  // width ratio; the bits must add up either way.
  const int64_t bits_in = from == PrimitiveType::kPred ? 1 : BitWidth(from);
  const int64_t bits_out = to == PrimitiveType::kPred ? 1 : BitWidth(to);
  const Shape& narrow = bits_in < bits_out ? in : b.shape;
  const Shape& wide = bits_in < bits_out ? b.shape : in;
  const int64_t ratio = std::max(bits_in, bits_out) /
                        std::min(bits_in, bits_out);
  std::vector<int64_t> expected = wide.dimensions();
  if (ratio > 1) expected.push_back(ratio);
  if (TotalBits(in) != TotalBits(b.shape) ||
      narrow.dimensions() != expected) {
    return b.reader.Error(
        absl::StrCat("bitcast_convert from ", in.ToString(false), " to ",
                     b.shape.ToString(false), " does not keep the bits (the "
                     "narrower side needs one more dimension of the width "
                     "ratio)"));
  }
  BitcastEmitter e(b);
  Instruction* bytes =
      from == PrimitiveType::kPred ? e.PackBits(x) : e.Bytes(x);
  if (to == PrimitiveType::kPred) {
    // bytes is u8[in + [n]]; the result is pred[in + [8 n]], in order.
    std::vector<int64_t> prefix = b.shape.dimensions();
    prefix.pop_back();
    return e.UnpackBits(e.Reshape(
        bytes, Append(prefix, {b.shape.dimensions().back() / 8})));
  }
  return e.FromBytes(bytes, to, b.shape.dimensions());
}

}  // namespace aotc::shlo
