"""Eric Dietz's 4×4×4 solver ``mcube``, a program solver."""
