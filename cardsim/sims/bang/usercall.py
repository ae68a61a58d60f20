"""The compiled engine's door to a Python strategy: the decision codes and the dispatcher.

A seat whose bot code is ``cards.BOT_USER + k`` is played by a Python strategy. At each of
its decisions the engine (:func:`cardsim.sims.bang.decisions.user_choice`) leaves compiled
code for one call of :func:`dispatch` (a numba ``objmode`` block) with the seat's public view
array (:mod:`cardsim.sims.bang.view`), the decision's shown cards or legal plays and the turn,
and carries on compiled with the integer answer. :mod:`cardsim.sims.bang.strategy` installs
the handler that builds the typed view and asks the strategy; :data:`FALLBACK` from it means
"play built-in bot ``k`` here" (a decision the strategy leaves out).

Plain Python with no kernels of its own, so the compiled engine refers to :func:`dispatch`
by name and its numba cache stays valid.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

#: Decision codes, in the order of ``strategy.DECISIONS``.
D_PLAY, D_DISCARD, D_STORE, D_SID, D_JESSE, D_KIT, D_PEDRO = range(7)
#: The answer that hands a decision to the seat's built-in fallback bot.
FALLBACK = -1000
#: Sid Ketchum's two cards come back as ``first * SID_BASE + second``.
SID_BASE = 256

Handler = Callable[[int, np.ndarray, np.ndarray, int], int]
_LOCAL = threading.local()  # one handler per thread: an environment plays in a thread of its own


def install(handler: Handler | None) -> Handler | None:
    """Make ``handler`` answer the user seats' decisions of games played in this thread;
    returns the one it replaces."""
    previous = getattr(_LOCAL, "handler", None)
    _LOCAL.handler = handler
    return previous


def dispatch(decision: int, view: np.ndarray, extra: np.ndarray, turn: int) -> int:
    """Called by the compiled engine at a user seat's decision: the installed handler's
    answer, or :data:`FALLBACK` when none is installed (the built-in bot plays)."""
    handler = getattr(_LOCAL, "handler", None)
    if handler is None:
        return FALLBACK
    return int(handler(int(decision), view, extra, int(turn)))
