"""L1: op-table entries of the searching family (see arraycore/_core/op_table.py)."""
