"""A bound on what a pickle may build, checked before a single object of it is built.

A restricted unpickler runs no code, but a small file can still ask for a great deal of
memory: each one-byte opcode ``EMPTY_SET`` builds a 200-byte object, so an 8 MB file of them
asked for 2 GB, and a memo index in a ``LONG_BINPUT`` makes the C unpickler grow its memo to
that size. :func:`check_pickle_size` walks the opcode stream (no object is made) and refuses
a file with more opcodes, or a larger memo index, than the format it claims to be could need.
Every object a pickle builds costs at least one opcode, so this bounds the objects, the
containers' entries and the memo; the largest single object is bounded by the file's size.
"""

from __future__ import annotations

import pickletools
from pathlib import Path

from .errors import InputError

_MEMO_PUTS = {"PUT", "BINPUT", "LONG_BINPUT"}


def check_pickle_size(
    data: bytes, max_opcodes: int, path: Path | str, error: type[InputError]
) -> None:
    """Refuse ``data`` (raise ``error`` naming ``path``) when it holds more than
    ``max_opcodes`` opcodes or a memo index past that; a damaged stream is left for the
    unpickler to refuse. The walk stops at the bound, so its cost is bounded too."""
    count = 0
    try:
        for opcode, arg, _ in pickletools.genops(data):
            count += 1
            if count > max_opcodes:
                raise error(
                    f"{path}: the pickle would build more than {max_opcodes:,} objects, more "
                    "than a file of this kind holds; nothing of it was loaded"
                )
            if opcode.name in _MEMO_PUTS and isinstance(arg, int) and arg > max_opcodes:
                raise error(
                    f"{path}: the pickle asks for memo slot {arg:,}, more than a file of this "
                    "kind needs; nothing of it was loaded"
                )
    except InputError:
        raise
    except Exception:  # a damaged stream: the unpickler itself refuses it, cheaply
        return
