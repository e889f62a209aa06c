"""L1: op-table entries of the linalg family (see arraycore/_core/op_table.py)."""
