"""The floor: random legal moves within the budget."""
