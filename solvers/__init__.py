"""The systems cubebench measures, one subpackage each (``docs/design.md``; writing one:
``docs/adapters.md``)."""
