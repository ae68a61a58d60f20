"""Suite-wide set-up: half of the session runs in a second pytest process, on the second core
(``tests/aside.py``)."""

pytest_plugins = ("tests.aside",)
