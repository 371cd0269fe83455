// fft, cholesky and triangular_solve checked against values worked out by
// hand: FFT [1, 2, 3, 4] = [10, -2+2i, -2, -2-2i]; [[4, 2], [2, 5]] = l l^T
// with l = [[2, 0], [1, 2]]; l x = [2, 9] gives x0 = 2/2 = 1 and
// x1 = (9 - 1)/2 = 4.
module @jit_main {
  func.func public @main() -> tensor<2x1xf32> {
    %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f32>>
    %f = "stablehlo.fft"(%x) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %fw = stablehlo.constant dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)]> : tensor<4xcomplex<f32>>
    stablehlo.custom_call @check.expect_close(%f, %fw) {has_side_effect = true} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> ()
    %a = stablehlo.constant dense<[[4.0, 2.0], [2.0, 5.0]]> : tensor<2x2xf32>
    %l = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>
    %lw = stablehlo.constant dense<[[2.0, 0.0], [1.0, 2.0]]> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_close(%l, %lw) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %b = stablehlo.constant dense<[[2.0], [9.0]]> : tensor<2x1xf32>
    %s = "stablehlo.triangular_solve"(%l, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    %sw = stablehlo.constant dense<[[1.0], [4.0]]> : tensor<2x1xf32>
    stablehlo.custom_call @check.expect_close(%s, %sw) {has_side_effect = true} : (tensor<2x1xf32>, tensor<2x1xf32>) -> ()
    return %s : tensor<2x1xf32>
  }
}
