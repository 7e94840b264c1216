"""Non-learned reference: Kociemba's two-phase algorithm through the ``kociemba`` package."""
