"""Pattern databases: cubie coordinates, their move tables, the tables of exact distances
built breadth first over them (cached, hash-checked), and the corner bound a value search
adds. The ``optimal`` solver walks over them; the searches read the corner table. No
solver lives here."""
