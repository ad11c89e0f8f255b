"""The SWORDS paper's metrics as arithmetic, and the one significance engine (bootstrap.py)."""
