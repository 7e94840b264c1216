"""``cayley-mlp``: a CayleyPy-style value MLP (diffusion distance) with wide value beams."""
