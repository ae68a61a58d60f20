"""The ladder conclusions say 'holds' only when every rung agrees and is separated at 95%."""

from __future__ import annotations

import polars as pl

from cardsim.analysis.bang import ladder_conclusions


def _sides(p_law: float, p_out: float, n: int = 10_000) -> pl.DataFrame:
    rows = []
    for side, p in (("sheriff", p_law), ("outlaws", p_out), ("renegade", 1 - p_law - p_out)):
        half = 1.96 * (p * (1 - p) / n) ** 0.5
        rows.append(
            {"players": 5, "side": side, "n": n, "successes": int(p * n), "p": p, "lo": p - half, "hi": p + half}
        )
    return pl.DataFrame(rows)


def _roles(p_ren: float, n: int = 10_000) -> pl.DataFrame:
    rows = []
    for role, p in (("sheriff", 0.5), ("outlaw", 0.4), ("renegade", p_ren)):
        half = 1.96 * (p * (1 - p) / n) ** 0.5
        rows.append(
            {"players": 5, "role": role, "n": n, "successes": int(p * n), "p": p, "lo": p - half, "hi": p + half}
        )
    return pl.DataFrame(rows)


def test_agreement_holds_and_disagreement_depends_on_the_bots() -> None:
    lines = ladder_conclusions({"a": _sides(0.6, 0.3), "b": _sides(0.3, 0.6)}, {"a": _roles(0.1), "b": _roles(0.05)})
    assert lines[0].startswith("5 players, favoured side: depends on the bots (a: sheriff; b: outlaws")
    assert lines[1].startswith("5 players, weakest role (per seat): renegade on every rung")
    assert lines[1].endswith("holds.")
    # the runner-up is the Outlaw (.4): margins .30 on a, .35 on b; the narrower is named
    assert "narrowest margin 30.0 points, a" in lines[1]


def test_a_tie_is_not_called_a_finding() -> None:
    lines = ladder_conclusions(
        {"a": _sides(0.45, 0.451), "b": _sides(0.45, 0.452)}, {"a": _roles(0.1), "b": _roles(0.1)}
    )
    assert "not separated at 95%" in lines[0] and not lines[0].endswith("holds.")
