"""``deepcubea``: a value network learned by value iteration, solved with batch-weighted A*."""
