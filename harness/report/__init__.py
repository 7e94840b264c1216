"""Comparison reports: runs -> tidy frame -> seaborn figures -> Markdown and HTML."""
