"""L1: op-table entries of the indexing family (see arraycore/_core/op_table.py)."""
