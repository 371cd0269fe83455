// Self-checking StableHLO (the test data's format) for `aotc conform`; the
// expected values are worked out by hand in tests/cli/stablehlo_lowered_ops.test.
module @jit_main {
  func.func public @main() -> tensor<4xi32> {
    %0 = call @inputs() : () -> tensor<4xi32>
    %1 = call @expected() : () -> tensor<4xi32>
    %r = chlo.mulhi %0, %0 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
    stablehlo.custom_call @check.expect_eq(%r, %1) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()
    return %r : tensor<4xi32>
  }
  func.func private @inputs() -> tensor<4xi32> {
    %c = stablehlo.constant dense<[2147483647, -1, 65536, -2147483648]> : tensor<4xi32>
    return %c : tensor<4xi32>
  }
  func.func private @expected() -> tensor<4xi32> {
    %c = stablehlo.constant dense<[1073741823, 0, 1, 1073741824]> : tensor<4xi32>
    return %c : tensor<4xi32>
  }
}
