"""The ``bench`` command line: thin wrappers over the Python API."""
