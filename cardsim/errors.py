"""The one exception type the CLI turns into a one-line message and a non-zero exit."""

from __future__ import annotations

import contextvars
import re

# True while a command-line command runs: its messages name flags (--n); the Python API's
# name keywords (n) instead (see :func:`keyword_message`).
COMMAND_LINE: contextvars.ContextVar[bool] = contextvars.ContextVar("cardsim_command_line", default=False)
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
_FLAG_KEYWORDS = {"no-store": "store=None"}


def keyword_message(message: str) -> str:
    """A command-line message as the Python API says it: '--max-n' becomes 'max_n'."""
    return _FLAG.sub(lambda m: _FLAG_KEYWORDS.get(m.group(1), m.group(1).replace("-", "_")), message)


class UserError(Exception):
    """Bad input from the user (option value, config, store file): shown as one line, exit 2."""


class Interrupted(Exception):
    """A run stopped by Ctrl-C after keeping its finished chunks (the CLI exits 130)."""
