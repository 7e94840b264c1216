"""The systems cubebench measures, one subpackage each (see DESIGN.md)."""
