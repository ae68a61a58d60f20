"""The built-in Bang! ``role`` bot as a user strategy: every decision, in plain Python.

Its code is :class:`cardsim.sims.bang.builtin.BuiltinBot`, a line-by-line twin of the kernel's
policies that reads only the strategy interface's View. On the same seeds it plays exactly the
kernel's games (``tests/bang/test_strategy.py`` compares whole games), so evaluated against
``--against role`` its paired difference is exactly 0:

    cardsim bang evaluate --strategy examples/strategies/bang_role.py:RoleBot --role outlaw --against role
"""

from cardsim.sims.bang.builtin import BuiltinBot


class RoleBot(BuiltinBot):
    """The role bot (``BuiltinBot("tuned")`` would play the tuned bot's parameters)."""
