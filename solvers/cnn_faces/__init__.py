"""Seed 004's CNN over the one-hot face tensor (6, 3, 3, 6), predicting the next move (Keras)."""
