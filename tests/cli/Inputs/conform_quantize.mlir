// Self-checking StableHLO (the test data's format) for `aotc conform`; the
// expected values are worked out by hand in tests/cli/stablehlo_lowered_ops.test.
module @jit_main {
  func.func public @main() -> tensor<6xi8> {
    %0 = call @inputs() : () -> tensor<6xf32>
    %1 = call @expected() : () -> tensor<6xi8>
    %q = stablehlo.uniform_quantize %0 : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 0.1:-3>>
    %r = stablehlo.bitcast_convert %q : (tensor<6x!quant.uniform<i8:f32, 0.1:-3>>) -> tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%r, %1) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()
    return %r : tensor<6xi8>
  }
  func.func private @inputs() -> tensor<6xf32> {
    %c = stablehlo.constant dense<[0.25, 0.35, -20.0, 1.04, 20.0, -0.45]> : tensor<6xf32>
    return %c : tensor<6xf32>
  }
  func.func private @expected() -> tensor<6xi8> {
    %c = stablehlo.constant dense<[0, 0, -128, 7, 127, -8]> : tensor<6xi8>
    return %c : tensor<6xi8>
  }
}
