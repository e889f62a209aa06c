"""L3: `chunk_size="auto"` for vmap / jacrev / jacfwd.

The chunk is chosen from the memory one example needs and the memory available: a probe run
on the first example gives the bytes of its outputs; intermediates of a batched computation
are assumed to be at most `INTERMEDIATE_FACTOR` times that (elementwise chains, a matmul and
its operands), and a chunk may use half of the memory the kernel reports available.  A
Jacobian that would not fit in memory is therefore computed in pieces instead of failing;
one that fits runs as one batched call.
"""

from __future__ import annotations

INTERMEDIATE_FACTOR = 8


def available_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30


def nbytes(leaves) -> int:
    total = 0
    for v in leaves:
        if hasattr(v, "dtype") and hasattr(v, "shape"):
            n = 1
            for s in v.shape:
                n *= s
            total += n * _itemsize(v.dtype)
    return total


def _itemsize(dtype) -> int:
    name = str(dtype)
    for bits in (128, 64, 32, 16, 8):
        if name.endswith(str(bits)):
            return bits // 8
    return 1


def chunk_for(per_example_bytes: int, size: int, budget: int | None = None) -> int:
    budget = available_bytes() // 2 if budget is None else budget
    need = max(1, per_example_bytes * INTERMEDIATE_FACTOR)
    return max(1, min(size, budget // need))


__all__ = ["chunk_for", "nbytes", "available_bytes"]
