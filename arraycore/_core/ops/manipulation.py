"""L1: op-table entries of the manipulation family (see arraycore/_core/op_table.py)."""
