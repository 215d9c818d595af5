"""The IR, the contract between the front end and the back end: its nodes, its text,
the checks made on it before code generation, and the optimization passes (`optimize/`).

It imports only `common`: the front end writes it and the back end reads it.
"""
