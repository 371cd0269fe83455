// RMSNorm as a composite, the way exporters mark one (`odml.rms_norm`-style,
// jax.lax.composite): y = x / sqrt(mean(x^2) + epsilon) * w over the rows
// of x : f32[4,16]. The decomposition is what aotc compiles by default;
// `--composite-kernel my.rms_norm=SYMBOL` makes it a call of the C function
// SYMBOL instead (samples/composite_kernel).
module @composite_kernel {
  func.func public @main(%x: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.composite "my.rms_norm" %x, %w {composite_attributes = {epsilon = 1.000000e-05 : f32}, decomposition = @rms_norm, version = 1 : i32} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  func.func private @rms_norm(%x: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %n = stablehlo.constant dense<1.600000e+01> : tensor<4xf32>
    %eps = stablehlo.constant dense<1.000000e-05> : tensor<4xf32>
    %sq = stablehlo.multiply %x, %x : tensor<4x16xf32>
    %sum = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %mean = stablehlo.divide %sum, %n : tensor<4xf32>
    %var = stablehlo.add %mean, %eps : tensor<4xf32>
    %r = stablehlo.rsqrt %var : tensor<4xf32>
    %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>
    %wb = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    %xr = stablehlo.multiply %x, %rb : tensor<4x16xf32>
    %y = stablehlo.multiply %xr, %wb : tensor<4x16xf32>
    return %y : tensor<4x16xf32>
  }
}
