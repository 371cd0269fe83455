// Self-checking StableHLO (the test data's format) for `aotc conform`; the
// expected values are worked out by hand in tests/cli/stablehlo_lowered_ops.test.
module @jit_main {
  func.func public @main() -> (tensor<3xf32>, tensor<2xcomplex<f32>>) {
    %0:2 = call @inputs() : () -> (tensor<3xf32>, tensor<2xcomplex<f32>>)
    %1:2 = call @expected() : () -> (tensor<3xf32>, tensor<2xcomplex<f32>>)
    %r = chlo.square %0#0 : tensor<3xf32> -> tensor<3xf32>
    %z = chlo.square %0#1 : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%r, %1#0) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%z, %1#1) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()
    return %r, %z : tensor<3xf32>, tensor<2xcomplex<f32>>
  }
  func.func private @inputs() -> (tensor<3xf32>, tensor<2xcomplex<f32>>) {
    %c = stablehlo.constant dense<[3.0, -1.5, 1.000244140625]> : tensor<3xf32>
    %z = stablehlo.constant dense<[(1.0, 2.0), (1.000244140625, 1.0)]> : tensor<2xcomplex<f32>>
    return %c, %z : tensor<3xf32>, tensor<2xcomplex<f32>>
  }
  func.func private @expected() -> (tensor<3xf32>, tensor<2xcomplex<f32>>) {
    %c = stablehlo.constant dense<[9.0, 2.25, 1.00048828125]> : tensor<3xf32>
    %z = stablehlo.constant dense<[(-3.0, 4.0), (0.000488340854644775390625, 2.00048828125)]> : tensor<2xcomplex<f32>>
    return %c, %z : tensor<3xf32>, tensor<2xcomplex<f32>>
  }
}
