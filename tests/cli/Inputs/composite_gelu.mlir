// A tanh GELU as a composite, as jax.lax.composite exports it, after an
// add: y = gelu(x + b), f32[2,8].
module @composite_gelu {
  func.func public @main(%x: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = stablehlo.add %x, %b : tensor<2x8xf32>
    %1 = stablehlo.composite "my.gelu" %0 {composite_attributes = {approximate = "tanh"}, decomposition = @gelu_tanh, version = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %1 : tensor<2x8xf32>
  }
  func.func private @gelu_tanh(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %half = stablehlo.constant dense<5.000000e-01> : tensor<2x8xf32>
    %one = stablehlo.constant dense<1.000000e+00> : tensor<2x8xf32>
    %k = stablehlo.constant dense<0.797884583> : tensor<2x8xf32>
    %c = stablehlo.constant dense<4.471500e-02> : tensor<2x8xf32>
    %x2 = stablehlo.multiply %x, %x : tensor<2x8xf32>
    %x3 = stablehlo.multiply %x2, %x : tensor<2x8xf32>
    %cx3 = stablehlo.multiply %c, %x3 : tensor<2x8xf32>
    %in = stablehlo.add %x, %cx3 : tensor<2x8xf32>
    %kin = stablehlo.multiply %k, %in : tensor<2x8xf32>
    %t = stablehlo.tanh %kin : tensor<2x8xf32>
    %1t = stablehlo.add %one, %t : tensor<2x8xf32>
    %hx = stablehlo.multiply %half, %x : tensor<2x8xf32>
    %y = stablehlo.multiply %hx, %1t : tensor<2x8xf32>
    return %y : tensor<2x8xf32>
  }
}
