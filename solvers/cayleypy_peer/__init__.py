"""CayleyPy's own library (Chervov et al. 2025) as a solver: its cube graph, value models,
predictor and beam search, on the harness's cubes and budgets (``cubebench[peers]``)."""
