"""CubeGPT's value transformer (seed 001): cubelet tokens -> distance to solved."""
