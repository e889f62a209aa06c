"""L4: widening IEEE half (F16) and bfloat16 (BF16) bit patterns to float32 on load.

arraycore has no 16-bit float dtype, so tensors of those types in a safetensors file (common
for downloaded weights) load as float32; every half and bfloat16 value is exactly
representable in float32, so nothing is rounded.  The conversion works on the bit patterns
with the namespace's integer ops (one pass each, no per-element Python):

- bfloat16 is the top half of a float32: bits << 16.
- half: sign s (1 bit), exponent e (5 bits, bias 15), mantissa m (10 bits).  Normal numbers
  and inf/nan become s<<31 | E<<23 | m<<13 with E = e + (127 - 15) (E = 255 for e = 31);
  subnormals (e = 0) are m * 2**-24, exact in float32.  (IEEE 754-2008, section 3.4.)
"""

from __future__ import annotations


def _as_float32(ns, bits_u32):
    """Reinterpret a C-contiguous uint32 array's bits as float32 (a view of its buffer)."""
    from ..native import _native

    if bits_u32.size == 0:
        return ns.empty(bits_u32.shape, dtype=ns.float32)
    flat = memoryview(ns.reshape(bits_u32, (-1,))).cast("B").cast("f")
    return ns.reshape(_native.from_buffer(flat, False), bits_u32.shape)


def bfloat16_bits_to_float32(ns, bits_u16):
    u = ns.astype(bits_u16, ns.uint32)
    return _as_float32(ns, ns.bitwise_left_shift(u, 16))


def float16_bits_to_float32(ns, bits_u16):
    u = ns.astype(bits_u16, ns.uint32)
    sign = ns.bitwise_left_shift(ns.bitwise_right_shift(u, 15), 31)
    e = ns.bitwise_and(ns.bitwise_right_shift(u, 10), 0x1F)
    m = ns.bitwise_and(u, 0x3FF)
    big_e = ns.where(e == 31, ns.asarray(255, dtype=ns.uint32), e + 112)
    bits = ns.bitwise_or(ns.bitwise_or(sign, ns.bitwise_left_shift(big_e, 23)),
                         ns.bitwise_left_shift(m, 13))
    normal = _as_float32(ns, bits)
    sub = ns.astype(m, ns.float32) * (2.0 ** -24)
    sub = ns.where(sign != 0, -sub, sub)
    return ns.where(e == 0, sub, normal)
