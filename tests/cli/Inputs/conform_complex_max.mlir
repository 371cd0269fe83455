// Self-checking StableHLO (the test data's format) for `aotc conform`; the
// expected values are worked out by hand in tests/cli/stablehlo_lowered_ops.test.
module @jit_main {
  func.func public @main() -> tensor<3xcomplex<f32>> {
    %0 = call @inputs() : () -> tensor<3xcomplex<f32>>
    %1 = call @expected() : () -> tensor<3xcomplex<f32>>
    %b = stablehlo.constant dense<[(1.0, 7.0), (1.0, 9.0), (-1.0, -3.0)]> : tensor<3xcomplex<f32>>
    %r = stablehlo.maximum %0, %b : tensor<3xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%r, %1) {has_side_effect = true} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> ()
    return %r : tensor<3xcomplex<f32>>
  }
  func.func private @inputs() -> tensor<3xcomplex<f32>> {
    %c = stablehlo.constant dense<[(1.0, 5.0), (2.0, 0.0), (-1.0, 3.0)]> : tensor<3xcomplex<f32>>
    return %c : tensor<3xcomplex<f32>>
  }
  func.func private @expected() -> tensor<3xcomplex<f32>> {
    %c = stablehlo.constant dense<[(1.0, 7.0), (2.0, 0.0), (-1.0, 3.0)]> : tensor<3xcomplex<f32>>
    return %c : tensor<3xcomplex<f32>>
  }
}
