"""A classic C solver from passagemath-rubiks, as a program solver (see README.md)."""
