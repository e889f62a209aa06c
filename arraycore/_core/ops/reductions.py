"""L1: op-table entries of the reductions family (see arraycore/_core/op_table.py)."""
