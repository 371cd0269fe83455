"""The model zoo: architectures written by others, built with seeded weights.

Each entry builds a JAX function `fn(params, *inputs)`, its weights `params`
(a pytree of arrays) and seeded example inputs. Keras applications and
keras-hub backbones are constructed from their configurations with
`weights=None` (random initialisation, never a download) under a fixed seed;
the Flax models and the decoder block are initialised with a fixed PRNG key.
tests/models/export.py lowers each one with jax.jit and writes the forms aotc
reads, the inputs, and XLA:CPU's results.

A model is `Model(name, build, batch)`; `build()` returns (fn, params,
inputs). Build functions import their framework lazily, so listing the zoo
imports none of them.
"""

import dataclasses
from typing import Callable

import numpy as np

SEED = 20261201


@dataclasses.dataclass(frozen=True)
class Model:
  name: str
  build: Callable
  # Models whose weights as constants make a large text (hundreds of MB):
  # their tests hold a lock so that two never run at once.
  large: bool = False


def _rng():
  return np.random.default_rng(SEED)


def _keras_application(constructor, shape, batch=1, **kwargs):
  """A keras.applications model with random weights, in inference mode."""
  import keras
  keras.utils.set_random_seed(SEED)
  model = getattr(keras.applications, constructor)(
      weights=None, input_shape=shape, **kwargs)
  params = ([v.value for v in model.trainable_variables],
            [v.value for v in model.non_trainable_variables])

  def fn(params, x):
    y, _ = model.stateless_call(params[0], params[1], x, training=False)
    return y

  # Images in [0, 255], as the applications' own preprocessing expects.
  x = (_rng().random((batch,) + shape, dtype=np.float32) * 255).astype(
      np.float32)
  return fn, params, [x]


def _keras_hub_backbone(constructor, seq, **config):
  """A keras-hub backbone from its configuration, random weights."""
  import keras
  import keras_hub
  keras.utils.set_random_seed(SEED)
  model = getattr(keras_hub.models, constructor)(dropout=0.0, **config)
  params = ([v.value for v in model.trainable_variables],
            [v.value for v in model.non_trainable_variables])
  names = [i.name for i in model.inputs]

  def fn(params, *inputs):
    y, _ = model.stateless_call(params[0], params[1],
                                dict(zip(names, inputs)), training=False)
    return y

  rng = _rng()
  inputs = []
  for name in names:
    if name == "token_ids":
      inputs.append(rng.integers(0, config["vocabulary_size"], (1, seq),
                                 dtype=np.int32))
    elif name == "segment_ids":
      inputs.append(np.concatenate(
          [np.zeros((1, seq // 2), np.int32), np.ones((1, seq - seq // 2),
                                                      np.int32)], axis=1))
    elif name == "padding_mask":
      # The last eighth is padding, so the mask changes the result.
      mask = np.ones((1, seq), np.int32)
      mask[:, seq - seq // 8:] = 0
      inputs.append(mask)
    else:
      raise ValueError(f"{constructor}: unknown input {name}")
  return fn, params, inputs


def _flax_mlp():
  import flax.linen as nn
  import jax

  class Mlp(nn.Module):

    @nn.compact
    def __call__(self, x):
      x = nn.gelu(nn.Dense(512)(x))
      x = nn.gelu(nn.Dense(512)(x))
      return nn.Dense(10)(x)

  model = Mlp()
  x = _rng().standard_normal((1, 784), dtype=np.float32)
  params = model.init(jax.random.PRNGKey(SEED % 2**31), x)
  return model.apply, params, [x]


def _flax_cnn():
  import flax.linen as nn
  import jax

  class Cnn(nn.Module):

    @nn.compact
    def __call__(self, x):
      x = nn.relu(nn.Conv(32, (3, 3))(x))
      x = nn.avg_pool(x, (2, 2), strides=(2, 2))
      x = nn.relu(nn.Conv(64, (3, 3))(x))
      x = nn.avg_pool(x, (2, 2), strides=(2, 2))
      x = x.reshape((x.shape[0], -1))
      x = nn.relu(nn.Dense(256)(x))
      return nn.log_softmax(nn.Dense(10)(x))

  model = Cnn()
  x = _rng().standard_normal((1, 28, 28, 1), dtype=np.float32)
  params = model.init(jax.random.PRNGKey(SEED % 2**31), x)
  return model.apply, params, [x]


def _decoder_block():
  """A Llama-style decoder block in plain JAX: RMSNorm, rotary embeddings,
  causal multi-head attention and a SwiGLU MLP, with residuals."""
  import jax
  import jax.numpy as jnp

  seq, dim, heads, hidden = 64, 512, 8, 1408
  head_dim = dim // heads

  def rms_norm(x, w):
    return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * w

  def rotary(x):  # x: [seq, heads, head_dim]
    half = head_dim // 2
    freq = 10000.0**(-jnp.arange(half, dtype=jnp.float32) / half)
    angle = jnp.arange(seq, dtype=jnp.float32)[:, None] * freq[None, :]
    cos, sin = jnp.cos(angle)[:, None, :], jnp.sin(angle)[:, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1)

  def fn(p, x):
    h = rms_norm(x, p["attn_norm"])
    q = rotary((h @ p["wq"]).reshape(seq, heads, head_dim))
    k = rotary((h @ p["wk"]).reshape(seq, heads, head_dim))
    v = (h @ p["wv"]).reshape(seq, heads, head_dim)
    scores = jnp.einsum("qhd,khd->hqk", q, k) / jnp.sqrt(float(head_dim))
    causal = jnp.tril(jnp.ones((seq, seq), bool))
    scores = jnp.where(causal[None], scores, -jnp.inf)
    attn = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(scores, -1), v)
    x = x + attn.reshape(seq, dim) @ p["wo"]
    h = rms_norm(x, p["mlp_norm"])
    return x + (jax.nn.silu(h @ p["w_gate"]) * (h @ p["w_up"])) @ p["w_down"]

  rng = _rng()

  def w(*shape):
    return (rng.standard_normal(shape, dtype=np.float32) /
            np.sqrt(shape[0])).astype(np.float32)

  params = {
      "attn_norm": (1 + 0.1 * rng.standard_normal(dim)).astype(np.float32),
      "mlp_norm": (1 + 0.1 * rng.standard_normal(dim)).astype(np.float32),
      "wq": w(dim, dim), "wk": w(dim, dim), "wv": w(dim, dim),
      "wo": w(dim, dim), "w_gate": w(dim, hidden), "w_up": w(dim, hidden),
      "w_down": w(hidden, dim),
  }
  x = rng.standard_normal((seq, dim), dtype=np.float32)
  return fn, params, [x]


MODELS = [
    Model("resnet50", lambda: _keras_application("ResNet50", (224, 224, 3))),
    Model("mobilenet_v2",
          lambda: _keras_application("MobileNetV2", (224, 224, 3))),
    Model("mobilenet_v2_b8",
          lambda: _keras_application("MobileNetV2", (224, 224, 3), batch=8)),
    Model("efficientnet_b0",
          lambda: _keras_application("EfficientNetB0", (224, 224, 3))),
    Model("vgg16", lambda: _keras_application("VGG16", (224, 224, 3)),
          large=True),
    Model("inception_v3",
          lambda: _keras_application("InceptionV3", (299, 299, 3))),
    Model("bert_base",
          lambda: _keras_hub_backbone(
              "BertBackbone", 128, vocabulary_size=30522, num_layers=12,
              num_heads=12, hidden_dim=768, intermediate_dim=3072,
              max_sequence_length=512), large=True),
    Model("gpt2_small",
          lambda: _keras_hub_backbone(
              "GPT2Backbone", 128, vocabulary_size=50257, num_layers=12,
              num_heads=12, hidden_dim=768, intermediate_dim=3072,
              max_sequence_length=1024), large=True),
    Model("flax_mlp", _flax_mlp),
    Model("flax_cnn", _flax_cnn),
    Model("decoder_block", _decoder_block),
]

BY_NAME = {m.name: m for m in MODELS}
