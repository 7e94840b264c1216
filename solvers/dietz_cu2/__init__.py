"""Eric Dietz's 2×2×2 solver ``cu2``, a program solver."""
