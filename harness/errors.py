"""The one base of the errors a user can fix: a value, a name or a file that is wrong.

Every such error of the harness derives from :class:`InputError` (through the module's own
error class: :class:`~cubebench.harness.naming.ArgumentError`, ``SettingsError``,
``SuiteError``, ``RecordError``, ...), so ``bench`` needs one ``except`` to print it as one
line with exit status 2, and a script can catch them all the same way. Nothing else lives
here, so every module, the cube engine's too, may import it.
"""

from __future__ import annotations


class InputError(ValueError):
    """Something the user gave is wrong, and nothing was lost: the message names the value
    and where it came from."""
