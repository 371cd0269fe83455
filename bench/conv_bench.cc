// ResNet-50's three kinds of convolution, batch 1, f32, NHWC with HWIO
// kernels (bench/models/resnet_conv*.hlo) and NCHW with OIHW kernels as
// PyTorch exports them (resnet_conv*_nchw.hlo):
//
//   conv/aotc/3x3       3x3, 64 -> 64 features at 56x56, padding 1
//   conv/aotc/1x1       1x1, 256 -> 64 features at 56x56
//   conv/aotc/7x7s2     7x7 stride 2, 3 -> 64 features at 224x224, padding 3
//   conv/aotc/..._nchw  the same in NCHW (the gemm's feature-major product)
//
// MobileNet's depthwise convolution (one input feature per group):
//
//   conv/aotc/depthwise3x3       3x3, 256 features at 56x56, padding 1, NHWC
//   conv/aotc/depthwise3x3_nchw  the same in NCHW with an OIHW kernel
//
// and ResNeXt's grouped one:
//
//   conv/aotc/group3x3  ResNeXt-50's grouped 3x3, 128 -> 128 features in 32
//                       groups of 4 at 56x56, padding 1 (a product per group)
//   conv/aotc/group3x3_nchw  the same in NCHW
//   conv/aotc_loops/group3x3  the same in the element loops, as before the
//                       gemm took grouped convolutions
//                       (bench/models/resnext_conv3x3_g32_loops.hlo)
//
// each side by side with
//   conv/onednn/...     oneDNN's convolution primitive on the same data, its
//                       weights reordered once, before timing, into the
//                       layout it prefers (aotc packs them on every run,
//                       since they are parameters of the model); grouped
//                       weights given as HWIGO (NHWC) or GOIHW (NCHW)
//
// FLOP/s counts 2 multiply-add flops per tap and input feature of its group
// of every output element.
// Before timing, 64 sampled output elements are checked against the
// convolution computed in double, within the bound of a sum of rounded
// products.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bench_util.h"
#include "depthwise_conv3x3.h"
#include "depthwise_conv3x3_nchw.h"
#include "resnet_conv1x1.h"
#include "resnet_conv1x1_nchw.h"
#include "resnet_conv3x3.h"
#include "resnet_conv3x3_nchw.h"
#include "resnet_conv7x7.h"
#include "resnet_conv7x7_nchw.h"
#include "resnext_conv3x3_g32.h"
#include "resnext_conv3x3_g32_loops.h"
#include "resnext_conv3x3_g32_nchw.h"

#ifdef AOTC_BENCH_HAS_ONEDNN
#include <omp.h>

#include <dnnl.hpp>
#endif

namespace aotc::bench {
namespace {

struct Conv {
  int64_t size, in, out, window, stride, pad;
  bool nchw = false;  // NCHW input and output, OIHW kernel
  int64_t groups = 1;  // feature groups (in: depthwise)
  int64_t out_size() const { return (size + 2 * pad - window) / stride + 1; }
  // Input features per group, the kernel's input dimension.
  int64_t group_in() const { return in / groups; }
  double flops() const {
    return 2.0 * out_size() * out_size() * out * window * window * group_in();
  }
  // Element offsets of the input, the kernel (i an input feature of o's
  // group) and the output in the convolution's layouts.
  int64_t x_at(int64_t y, int64_t x, int64_t i) const {
    return nchw ? (i * size + y) * size + x : (y * size + x) * in + i;
  }
  int64_t w_at(int64_t ky, int64_t kx, int64_t i, int64_t o) const {
    return nchw ? ((o * group_in() + i) * window + ky) * window + kx
                : ((ky * window + kx) * group_in() + i) * out + o;
  }
  int64_t y_at(int64_t y, int64_t x, int64_t o) const {
    const int64_t os = out_size();
    return nchw ? (o * os + y) * os + x : (y * os + x) * out + o;
  }
};

struct ConvData {
  AlignedFloats x, w;  // the input and the kernel in the Conv's layouts
  std::vector<Sample> samples;  // in double, with their error bounds
};

const ConvData& Data(const Conv& c) {
  using Key = std::tuple<int64_t, int64_t, int64_t, bool, int64_t>;
  static auto* cache = new std::map<Key, ConvData>;
  auto [it, inserted] =
      cache->try_emplace(Key{c.size, c.in, c.window, c.nchw, c.groups});
  ConvData& d = it->second;
  if (inserted) {
    d.x = UniformFloats(c.size * c.size * c.in, 41, -1.0f, 1.0f);
    d.w = UniformFloats(c.window * c.window * c.group_in() * c.out, 42, -1.0f,
                        1.0f);
    const int64_t os = c.out_size();
    for (int64_t s = 0; s < 64; ++s) {
      const int64_t oy = (s * 37) % os, ox = (s * 53 + 7) % os,
                    o = (s * 11) % c.out;
      const int64_t first = o / (c.out / c.groups) * c.group_in();
      double sum = 0, magnitude = 0;
      for (int64_t ky = 0; ky < c.window; ++ky) {
        for (int64_t kx = 0; kx < c.window; ++kx) {
          const int64_t iy = oy * c.stride - c.pad + ky;
          const int64_t ix = ox * c.stride - c.pad + kx;
          if (iy < 0 || iy >= c.size || ix < 0 || ix >= c.size) continue;
          for (int64_t i = 0; i < c.group_in(); ++i) {
            const double p = double{d.x[c.x_at(iy, ix, first + i)]} *
                             d.w[c.w_at(ky, kx, i, o)];
            sum += p;
            magnitude += std::abs(p);
          }
        }
      }
      const int64_t taps = c.window * c.window * c.group_in();
      d.samples.push_back({c.y_at(oy, ox, o), sum,
                           1.01 * taps * std::ldexp(1.0, -24) * magnitude});
    }
  }
  return d;
}

template <typename Call>
void TimeConv(benchmark::State& state, const char* name, const Conv& c,
              Call call) {
  const ConvData& d = Data(c);
  AlignedFloats y(c.out_size() * c.out_size() * c.out);
  TimeSampledResult(state, name, d.samples, y, c.flops(),
                    [&] { return call(d, y.data()); });
}

template <int (*Run)(const float*, const float*, float*, void*)>
void Compiled(benchmark::State& state, const char* name, const Conv& c,
              size_t temp_bytes) {
  auto temp = AllocateTemp(temp_bytes);
  TimeConv(state, name, c, [&](const ConvData& d, float* y) {
    return Run(d.x.data(), d.w.data(), y, temp.get());
  });
}

#ifdef AOTC_BENCH_HAS_ONEDNN
void OneDnn(benchmark::State& state, const Conv& c) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  using dnnl::memory;
  using tag = memory::format_tag;
  const memory::data_type f32 = memory::data_type::f32;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const int64_t os = c.out_size();
  const tag data_tag = c.nchw ? tag::nchw : tag::nhwc;
  const memory::desc src_md({1, c.in, c.size, c.size}, f32, data_tag);
  const memory::desc dst_md({1, c.out, os, os}, f32, data_tag);
  // Grouped weights have a leading group dimension: goihw, or hwigo for
  // the HWIO kernel.
  const memory::dims w_dims =
      c.groups == 1 ? memory::dims{c.out, c.in, c.window, c.window}
                    : memory::dims{c.groups, c.out / c.groups, c.group_in(),
                                   c.window, c.window};
  const tag w_tag = c.groups == 1 ? (c.nchw ? tag::oihw : tag::hwio)
                                  : (c.nchw ? tag::goihw : tag::hwigo);
  const memory::desc user_w_md(w_dims, f32, w_tag);
  const memory::desc any_w_md(w_dims, f32, tag::any);
  const dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      src_md, any_w_md, dst_md, {c.stride, c.stride}, {c.pad, c.pad},
      {c.pad, c.pad});
  const dnnl::convolution_forward::primitive_desc pd(desc, engine);
  const ConvData& d = Data(c);
  memory user_w(user_w_md, engine, const_cast<float*>(d.w.data()));
  memory w(pd.weights_desc(), engine);
  dnnl::reorder(user_w, w).execute(stream, user_w, w);
  stream.wait();
  dnnl::convolution_forward conv(pd);
  memory src(src_md, engine, const_cast<float*>(d.x.data()));
  // Which of oneDNN's implementations ran (jit:avx512_core, gemm:jit, ...).
  state.SetLabel(pd.impl_info_str());
  TimeConv(state, "onednn", c, [&](const ConvData&, float* y) {
    memory dst(dst_md, engine, y);
    conv.execute(stream, {{DNNL_ARG_SRC, src},
                          {DNNL_ARG_WEIGHTS, w},
                          {DNNL_ARG_DST, dst}});
    stream.wait();
    return 0;
  });
}
#endif

template <int (*Run)(const float*, const float*, float*, void*)>
void RegisterConv(const std::string& size, const Conv& c, const char* model,
                  size_t temp_bytes, const char* variant = "aotc") {
  Register(std::string("conv/") + variant + "/" + size,
           [=](benchmark::State& state) {
             Compiled<Run>(state, model, c, temp_bytes);
           });
  if (std::string_view(variant) != "aotc") return;
#ifdef AOTC_BENCH_HAS_ONEDNN
  Register("conv/onednn/" + size,
           [=](benchmark::State& state) { OneDnn(state, c); });
#endif
}

[[maybe_unused]] const bool registered = [] {
  RegisterConv<&resnet_conv3x3_run>("3x3", {56, 64, 64, 3, 1, 1},
                                    "resnet_conv3x3", RESNET_CONV3X3_TEMP_BYTES);
  RegisterConv<&resnet_conv1x1_run>("1x1", {56, 256, 64, 1, 1, 0},
                                    "resnet_conv1x1", RESNET_CONV1X1_TEMP_BYTES);
  RegisterConv<&resnet_conv7x7_run>("7x7s2", {224, 3, 64, 7, 2, 3},
                                    "resnet_conv7x7", RESNET_CONV7X7_TEMP_BYTES);
  RegisterConv<&resnet_conv3x3_nchw_run>(
      "3x3_nchw", {56, 64, 64, 3, 1, 1, true}, "resnet_conv3x3_nchw",
      RESNET_CONV3X3_NCHW_TEMP_BYTES);
  RegisterConv<&resnet_conv1x1_nchw_run>(
      "1x1_nchw", {56, 256, 64, 1, 1, 0, true}, "resnet_conv1x1_nchw",
      RESNET_CONV1X1_NCHW_TEMP_BYTES);
  RegisterConv<&resnet_conv7x7_nchw_run>(
      "7x7s2_nchw", {224, 3, 64, 7, 2, 3, true}, "resnet_conv7x7_nchw",
      RESNET_CONV7X7_NCHW_TEMP_BYTES);
  RegisterConv<&depthwise_conv3x3_run>(
      "depthwise3x3", {56, 256, 256, 3, 1, 1, false, 256}, "depthwise_conv3x3",
      DEPTHWISE_CONV3X3_TEMP_BYTES);
  RegisterConv<&depthwise_conv3x3_nchw_run>(
      "depthwise3x3_nchw", {56, 256, 256, 3, 1, 1, true, 256},
      "depthwise_conv3x3_nchw", DEPTHWISE_CONV3X3_NCHW_TEMP_BYTES);
  const Conv resnext{56, 128, 128, 3, 1, 1, false, 32};
  RegisterConv<&resnext_conv3x3_g32_run>("group3x3", resnext,
                                         "resnext_conv3x3_g32",
                                         RESNEXT_CONV3X3_G32_TEMP_BYTES);
  RegisterConv<&resnext_conv3x3_g32_loops_run>(
      "group3x3", resnext, "resnext_conv3x3_g32_loops",
      RESNEXT_CONV3X3_G32_LOOPS_TEMP_BYTES, "aotc_loops");
  RegisterConv<&resnext_conv3x3_g32_nchw_run>(
      "group3x3_nchw", {56, 128, 128, 3, 1, 1, true, 32},
      "resnext_conv3x3_g32_nchw", RESNEXT_CONV3X3_G32_NCHW_TEMP_BYTES);
  return true;
}();

}  // namespace
}  // namespace aotc::bench
