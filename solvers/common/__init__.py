"""Pieces every learned solver shares: training walks, safe checkpoints, the training loop."""
