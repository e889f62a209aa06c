"""L1: op-table entries of the sets family (see arraycore/_core/op_table.py)."""
