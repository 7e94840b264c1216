"""cubebench: a harness that measures learned Rubik's Cube solvers on the same cubes."""
