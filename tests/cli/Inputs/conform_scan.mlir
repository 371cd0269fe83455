// Self-checking StableHLO (the test data's format) for `aotc conform`; the
// expected values are worked out by hand in tests/cli/stablehlo_lowered_ops.test.
module @jit_main {
  func.func public @main() -> tensor<4xi32> {
    %0 = call @inputs() : () -> tensor<4xi32>
    %1 = call @expected() : () -> tensor<4xi32>
    %init = stablehlo.constant dense<0> : tensor<i32>
    %r, %carry = chlo.scan(%0) inits(%init) dimension=0 {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s, %s : tensor<i32>, tensor<i32>
    } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
    stablehlo.custom_call @check.expect_eq(%r, %1) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()
    return %r : tensor<4xi32>
  }
  func.func private @inputs() -> tensor<4xi32> {
    %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    return %c : tensor<4xi32>
  }
  func.func private @expected() -> tensor<4xi32> {
    %c = stablehlo.constant dense<[1, 3, 6, 10]> : tensor<4xi32>
    return %c : tensor<4xi32>
  }
}
