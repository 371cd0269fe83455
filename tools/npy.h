// NumPy .npy files <-> Literals, for `aotc eval` / `aotc run` inputs and
// results.
//
// Element types map to descr codes: pred '|b1', s8..s64 '|i1' '<i2' '<i4'
// '<i8', u8..u64 '|u1' '<u2' '<u4' '<u8', f16 '<f2', f32 '<f4', f64 '<f8',
// c64 '<c8', c128 '<c16'. NumPy has no bfloat16: aotc writes bf16 as its raw
// bits with descr '<u2' (view it with ml_dtypes.bfloat16) and reads a bf16
// parameter from '<u2' or a 2-byte void field ('|V2'). Big-endian data and
// fortran_order files are read and converted; aotc always writes
// little-endian C order, format version 1.0.
#ifndef AOTC_TOOLS_NPY_H_
#define AOTC_TOOLS_NPY_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"

namespace aotc {

// Parses a .npy file. bf16 cannot be told from u16 here: a '<u2' file reads
// as u16 and a void-2 file as bf16; ReadNpyFor resolves that against the
// parameter. Errors are "FILENAME: error: ...".
absl::StatusOr<Literal> ReadNpy(std::string_view bytes,
                                std::string_view filename);

// Parses a .npy file meant for a parameter of shape `expected` (an array);
// a different element type or dimensions is an error naming `what` (e.g.
// "parameter 'x' (number 0)").
absl::StatusOr<Literal> ReadNpyFor(std::string_view bytes,
                                   std::string_view filename,
                                   const Shape& expected, std::string_view what);

// Serializes an array literal of a computable type.
absl::StatusOr<std::string> WriteNpy(const Literal& literal);

}  // namespace aotc

#endif  // AOTC_TOOLS_NPY_H_
