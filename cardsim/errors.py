"""The one exception type the CLI turns into a one-line message and a non-zero exit."""


class UserError(Exception):
    """Bad input from the user (option value, config, store file): shown as one line, exit 2."""


class Interrupted(Exception):
    """A run stopped by Ctrl-C after keeping its finished chunks (the CLI exits 130)."""
