"""seed 003: the Keras MLP next-move predictor on Kociemba labels."""
