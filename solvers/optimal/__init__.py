"""``optimal``: IDA* with pattern-database lower bounds; every answer is the shortest by proof."""
