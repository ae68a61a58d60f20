"""A strategy that looks for what its view leaves out, for the isolation tests.

At every decision it walks the caller's frames (``sys._getframe``), every object the garbage
collector tracks (``gc``) and the ``.base`` of every field of its view, and notes anything of
the engine it reaches: a frame of the engine's code, a numpy array of integers outside a
module's constants, a game state object.
Its findings go, one JSON line per decision, to the file named by ``CARDSIM_PROBE_OUT``.
It plays the first legal choice.
"""

import gc
import json
import os
import sys

ENGINE_TYPES = ("GameState", "ndarray")


def findings(view) -> list[str]:
    found = []
    fields = {name: getattr(view, name) for name in getattr(view, "__dataclass_fields__", {})}
    own = {id(vars(view))} if hasattr(view, "__dict__") else set()
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if "cardsim/sims" in name and "user_strategy" not in name and "isolation" not in name:
            found.append(f"frame {frame.f_code.co_name} in {name}")
        for key, value in frame.f_locals.items():
            if type(value).__name__ in ENGINE_TYPES:
                found.append(f"frame local {key}: {type(value).__name__}")
        frame = frame.f_back
    module_globals = {id(vars(module)) for module in list(sys.modules.values()) if module is not None}
    for item in gc.get_objects():
        try:
            is_dict = isinstance(item, dict)
        except ReferenceError:  # a weak proxy whose object is gone: nothing to reach through it
            continue
        if type(item).__name__ == "GameState":
            found.append("gc: GameState")
        if is_dict and id(item) not in module_globals and id(item) not in own:
            for value in list(item.values())[:64]:
                # arrays of integers or flags (hands, decks, roles); 0-d ones are scalars such as
                # numpy.ma's masked constant, never a game's state
                if type(value).__name__ == "ndarray" and value.ndim and value.size and value.dtype.kind in "ib":
                    found.append(f"gc: integer array {value.shape} under {sorted(map(str, item))[:4]}")
                    break
    for field, value in fields.items():
        if type(getattr(value, "base", None)).__name__ == "ndarray":
            found.append(f"view.{field}.base: an array of shape {value.base.shape}")
    return sorted(set(found))


class Probe:
    def _look(self, view, legal):
        out = os.environ.get("CARDSIM_PROBE_OUT")
        if out:
            with open(out, "a") as handle:
                handle.write(json.dumps(findings(view)) + "\n")
        return legal[0]

    def aim(self, view, legal):
        return self._look(view, legal)

    def card(self, view, legal):
        return self._look(view, legal)

    def lie_down(self, view, legal):
        return self._look(view, legal)


class AnyGame(Probe):
    """The probe for any game: every decision a game asks (any method name) is a look."""

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._look
