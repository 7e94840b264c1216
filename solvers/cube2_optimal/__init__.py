"""The 2×2×2's exact optimum, read from its breadth-first distance table."""
