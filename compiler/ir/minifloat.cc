// Scaffold: implemented with the text parser.
#include "compiler/ir/minifloat.h"
namespace aotc {
bool IsMinifloat(PrimitiveType) { return false; }
double MinifloatToDouble(PrimitiveType, uint8_t) { return 0; }
uint8_t DoubleToMinifloat(PrimitiveType, double) { return 0; }
}  // namespace aotc
