"""L1: dtypes, devices, the op table and the array object's Python-level behaviour."""
