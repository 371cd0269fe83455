"""Element types of aotc's signature (docs/header.md) as numpy dtypes.

The standard types map to numpy's own; bf16, the sub-byte integers and the
minifloats map to ml_dtypes' types when ml_dtypes is installed (JAX brings
it), which, like aotc's buffers, hold one element per byte. Complex types are
numpy's interleaved complex64 and complex128, pred is numpy's one-byte bool.
"""

import numpy as np

_STANDARD = {
    "pred": np.bool_,
    "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128,
}

# aotc's name -> the ml_dtypes attribute of the same type.
_ML_DTYPES = {
    "bf16": "bfloat16",
    "s2": "int2", "s4": "int4", "u2": "uint2", "u4": "uint4",
    "f8e5m2": "float8_e5m2", "f8e4m3": "float8_e4m3",
    "f8e4m3fn": "float8_e4m3fn", "f8e4m3b11fnuz": "float8_e4m3b11fnuz",
    "f8e3m4": "float8_e3m4", "f8e5m2fnuz": "float8_e5m2fnuz",
    "f8e4m3fnuz": "float8_e4m3fnuz", "f8e8m0fnu": "float8_e8m0fnu",
    "f6e3m2fn": "float6_e3m2fn", "f6e2m3fn": "float6_e2m3fn",
    "f4e2m1fn": "float4_e2m1fn",
}


def numpy_dtype(element_type):
    """The numpy dtype of an aotc element type, or None when there is none
    here (ml_dtypes missing, or a type numpy cannot hold)."""
    if element_type in _STANDARD:
        return np.dtype(_STANDARD[element_type])
    attribute = _ML_DTYPES.get(element_type)
    if attribute is None:
        return None
    try:
        import ml_dtypes
    except ImportError:
        return None
    kind = getattr(ml_dtypes, attribute, None)
    return np.dtype(kind) if kind is not None else None


def needs_ml_dtypes(element_type):
    return element_type in _ML_DTYPES
