"""A strategy file that fails to import, for the bad-input tests."""

raise RuntimeError("this file does not load")
