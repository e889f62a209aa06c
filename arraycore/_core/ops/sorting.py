"""L1: op-table entries of the sorting family (see arraycore/_core/op_table.py)."""
