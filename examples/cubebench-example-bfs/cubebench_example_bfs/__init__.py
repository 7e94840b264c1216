"""An example cubebench plug-in: optimal solutions of shallow cubes by breadth-first search."""
