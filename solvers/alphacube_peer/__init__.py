"""AlphaCube, EfficientCube's author's own solver package, as a solver (``cubebench[peers]``)."""
