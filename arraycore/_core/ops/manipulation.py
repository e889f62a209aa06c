"""L1: op-table entries of the manipulation family (see arraycore/_core/op_table.py).

These functions move elements without computing on them: they accept every dtype, their
result has the input's dtype (concat/stack: the promoted one), and all are linear (their
derivative rules are the functions themselves, applied to tangents).
"""

from ..op_table import OpDef, TestInfo, register


def _op(name, ref, arity=1):
    return register(OpDef(name, arity, "any", kernel="", linear=True, family="manipulation",
                          test=TestInfo(ref=ref)))


broadcast_arrays = _op("broadcast_arrays", "broadcast_arrays", arity=-1)
broadcast_shapes = _op("broadcast_shapes", "broadcast_shapes", arity=-1)
broadcast_to = _op("broadcast_to", "broadcast_to")
concat = _op("concat", "concatenate", arity=-1)
expand_dims = _op("expand_dims", "expand_dims")
flip = _op("flip", "flip")
moveaxis = _op("moveaxis", "moveaxis")
permute_dims = _op("permute_dims", "transpose")
repeat = _op("repeat", "repeat")
reshape = _op("reshape", "reshape")
roll = _op("roll", "roll")
squeeze = _op("squeeze", "squeeze")
stack = _op("stack", "stack", arity=-1)
tile = _op("tile", "tile")
# tril/triu live with the creation functions but are linear views of their input: masks.
tril = _op("tril", "tril")
triu = _op("triu", "triu")
unstack = _op("unstack", "unstack")
