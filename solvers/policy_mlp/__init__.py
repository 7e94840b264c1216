"""EfficientCube-style policy MLP: the learned reference (Takano, 2023)."""
