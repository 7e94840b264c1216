"""Solvers that are programs: any executable that speaks the cubebench solver protocol.

:mod:`.protocol` is the protocol's lines, :mod:`.spec` the TOML file that names a program,
:mod:`.process` one running program, and :mod:`.solver` the adapter that makes it a solver
like any other (``docs/protocol.md`` is the reference).
"""
