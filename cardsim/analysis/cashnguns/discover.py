"""discover's methods, settings and stored records: what fixes a run's numbers
(:class:`DiscoverSettings`), where its rounds are stored, the flags that repeat it, the round it
reports and how a round reads. The loop itself is :mod:`.loop`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from cardsim.analysis.cashnguns.search import DEFAULT_LOCAL, DEFAULT_TOLERANCE
from cardsim.analysis.cashnguns.tables import METRICS, mix_text
from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, Strategy, parse_strategy

#: The short name of the current discover method (printed by discover and check).
METHOD_VERSION = "discover/6"
#: The discover method the current code runs (a shipped entry says which one produced it; the
#: text is recorded in the shipped libraries, so it stays as written).
DISCOVER_METHOD = (
    "discover/6: discover/5 with the schedule sweep as one more search every round (each "
    "mix member with each of the 168 card orders and with opponent reading; the run "
    "converges only when it gains nothing significant either)"
)
#: The method of entries written before the method was recorded.
DISCOVER_METHOD_1 = "discover/1: stopped at the first round whose own search found no significant gain"


@dataclass(frozen=True)
class DiscoverSettings:
    """Everything that fixes the numbers of a ``discover`` run (stored with its rounds).

    Attributes:
        players, metric, shame_value, seed: the game, the payoff ('win' probability or mean
            'score' in dollars) and the root seed.
        budget: best-response candidates per search; rounds: PSRO rounds at most.
        start: specs of the starting library.
        library_cap: most strategies in the library after a reply joins (profiles grow as
            cap ** players / players!, and a table spread too thin is too noisy to solve).
            Beyond it, strategies with a share below ``prune_share`` leave first (oldest
            first), then the smallest; never the reply. Under the cap nothing leaves, so the
            double oracle keeps its memory instead of cycling.
        prune_share: the negligible share (see library_cap). A strategy that left stays in
            the record (``names``, ``dropped``) and a candidate of later searches; one that
            comes back keeps its name and is flagged ``returned``.
        table_games, profile_min, table_passes: games added to the profile table per round
            (spread by how likely each profile is under the current mix), games every new
            profile gets first, and the passes they are played in (each weighted by the
            equilibrium of the previous pass).
        search_games: games per candidate in the first search stage (the best tenth get 4x
            that, the best three 15x); validation_games: fresh paired games measuring the
            chosen reply's gain.
        stop_checks: independent searches per round besides discover's own (streams of
            ``STOP_CHECK``). The loop stops only when no search gains significantly and every
            95% upper bound is within ``tolerance`` (0: ``DEFAULT_TOLERANCE``).
        local: local-search candidates per search on top of ``budget``
            (:func:`local_search_steps`; 0: off).
        sweep: the schedule sweep as one more search every round (discover/6,
            :func:`sweep.sweep_schedules`: each mix member with each of the 168 card orders and
            with opponent reading, ``search_games`` games each first, the reply measured on
            ``validation_games`` fresh paired games); the run converges only when the sweep
            gains nothing significant and its bound is within the tolerance too.
    """

    players: int = 5
    metric: str = "win"
    shame_value: int = DEFAULT_SHAME_DOLLARS
    seed: int = 0
    budget: int = 200
    rounds: int = 20
    start: tuple[str, ...] = ("stubborn", "coward", "bluffer", "sniper")
    library_cap: int = 8
    prune_share: float = 0.02
    table_games: int = 200_000
    profile_min: int = 32
    table_passes: int = 4
    search_games: int = 1_000
    validation_games: int = 100_000
    stop_checks: int = 2
    tolerance: float = 0.0
    local: int = DEFAULT_LOCAL
    sweep: bool = True

    def stop_tolerance(self) -> float:
        """The bound every stop check must be within (``tolerance``, or the metric's default)."""
        return self.tolerance or DEFAULT_TOLERANCE[self.metric]

    def check(self) -> None:
        """One-line errors for settings out of range."""
        if self.metric not in METRICS:
            raise UserError(f"--metric must be one of: {', '.join(METRICS)}, got {self.metric!r}")
        if not 4 <= self.players <= 6:
            raise UserError(f"cashnguns: players must be 4-6 (seed rules), got {self.players}")
        for name in (
            "budget",
            "rounds",
            "table_games",
            "table_passes",
            "search_games",
            "validation_games",
            "library_cap",
        ):
            if getattr(self, name) < 1:
                raise UserError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.stop_checks < 0:
            raise UserError(f"--stop-checks must be at least 0, got {self.stop_checks}")
        if self.local < 0:
            raise UserError(f"--local must be at least 0, got {self.local}")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise UserError(f"--tolerance must be a number >= 0, got {self.tolerance}")
        if not (math.isfinite(self.prune_share) and 0 <= self.prune_share < 1):
            raise UserError(f"--prune-share must be a number from 0 to below 1, got {self.prune_share}")
        specs = [parse_strategy(spec).spec() for spec in self.start]
        if not specs:
            raise UserError("--start needs at least one strategy")
        repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
        if repeated:
            raise UserError(f"--start names the same strategy twice: {repeated[0]}")


def reported_round(document: dict) -> dict:
    """The round whose equilibrium a discover run reports: the last one when the run converged;
    otherwise the one with the lowest 95% bound over all its searches (discover's own and the
    stop checks, which every round runs). The outside check (:func:`check_equilibrium`) then
    measures it afresh, so picking the luckiest-looking round biases nothing reported."""
    rounds = document["rounds"]
    return rounds[-1] if document["converged"] else min(rounds, key=lambda r: r["exploitability_hi"])


def table_parts(games: int, passes: int) -> list[int]:
    """``games`` cut into ``passes`` near-equal parts (the first the smaller)."""
    return [games * (part + 1) // passes - games * part // passes for part in range(passes)]


def library_name(strategy: Strategy, names: dict[str, str]) -> str:
    """A named strategy's name, else ``dN`` numbered on from the highest ``dN`` in ``names``
    (a run that continues a shipped library starting at d40 names its first new reply d41, not
    d1, which the earlier run used for another strategy)."""
    for name, (_, named) in NAMED_STRATEGIES.items():
        if named.spec() == strategy.spec():
            return name
    numbers = [int(name[1:]) for name in names.values() if name[:1] == "d" and name[1:].isdigit()]
    return f"d{max(numbers, default=0) + 1}"


def discover_path(store: Path, settings: DiscoverSettings) -> Path:
    """Where a discover run with these settings keeps its rounds: one file per reading, seed and
    budget, with a hash of the other settings in its name where they are not the defaults (a
    run with another start library, stop checks or local budget never overwrites the default
    run's record, nor resumes from it)."""
    import hashlib
    import json

    shame = f"{settings.shame_value:+d}".replace("+", "p").replace("-", "m")
    key = settings_key(settings)
    default = settings_key(
        DiscoverSettings(
            players=settings.players,
            metric=settings.metric,
            shame_value=settings.shame_value,
            seed=settings.seed,
            budget=settings.budget,
        )
    )
    suffix = "" if key == default else "_" + hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    return (
        Path(store)
        / "cashnguns_discover"
        / (
            f"{settings.players}p_{settings.metric}_shame{shame}_seed{settings.seed}_budget{settings.budget}{suffix}.json"
        )
    )


def settings_from_key(key: dict) -> DiscoverSettings:
    """The settings a discover record stores (:func:`settings_key`), as ``DiscoverSettings``;
    a record from before the schedule sweep (no ``sweep`` key) ran without it."""
    return DiscoverSettings(**{"sweep": False, **key, "start": tuple(key["start"])})


def discover_flags(settings: DiscoverSettings) -> str:
    """The ``cardsim cashnguns discover`` options beyond the reading that give ``settings``
    (``--seed`` and ``--budget`` always, the others only where they are not the defaults)."""
    default = DiscoverSettings(players=settings.players, metric=settings.metric, shame_value=settings.shame_value)
    flags = f"--seed {settings.seed} --budget {settings.budget}"
    if settings.start != default.start:
        flags += f" --start '{','.join(settings.start)}'"
    if not settings.sweep:
        flags += " --no-sweep"
    numeric = ("stop_checks", "local", "rounds")
    for name in numeric:
        if getattr(settings, name) != getattr(default, name):
            flags += f" --{name.replace('_', '-')} {getattr(settings, name)}"
    given = {"players", "metric", "shame_value", "seed", "budget", "start", "sweep", *numeric}
    unexposed = [
        name
        for name in DiscoverSettings.__dataclass_fields__
        if name not in given and getattr(settings, name) != getattr(default, name)
    ]
    if unexposed:
        raise UserError(f"discover: no command-line option gives {', '.join(unexposed)}")
    return flags


def settings_key(settings: DiscoverSettings) -> dict:
    """The settings that must match for stored rounds to be reused (not ``rounds``)."""
    key = {name: getattr(settings, name) for name in DiscoverSettings.__dataclass_fields__ if name != "rounds"}
    key["start"] = list(settings.start)
    return key


def discover_round_lines(record: dict, metric: str) -> list[str]:
    """A discover round in a few plain lines: the equilibrium, each search's reply with its
    measured gain, the round's exploitability (the highest bound) and what the round decided."""
    scale, unit = (100.0, " points") if metric == "win" else (1.0, " $")
    mix = mix_text(record["equilibrium"])
    lines = [
        f"round {record['round']}: equilibrium of {len(record['library'])} strategies: {mix} "
        f"(value {record['value'] * scale:.2f}{unit}, regret on the table {record['table_regret'] * scale:.2f})"
    ]
    searches = [("discover's search", record.get("search", record))]
    searches += [(f"stop check {k}", check) for k, check in enumerate(record.get("stop_checks", []), start=1)]
    if record.get("sweep"):
        searches.append(("schedule sweep", record["sweep"]))
    for label, reply in searches:
        lines += [
            f"  {label}, best of {reply['candidates']} candidates: {reply['best_response']} "
            f"({reply['best_response_name']}): {reply['description']}",
            f"    gain {reply['gain'] * scale:+.2f}{unit} [95% {reply['exploitability_lo'] * scale:+.2f}, "
            f"{reply['exploitability_hi'] * scale:+.2f}], {reply['validation_games']:,} fresh paired games",
        ]
    lines.append(
        f"  exploitability {record['gain'] * scale:+.2f}{unit} (95% <= {record['exploitability_hi'] * scale:.2f}, "
        f"the highest bound of the round's searches)"
    )
    for added in record["added"]:
        back = " (returns: pruned earlier)" if added.get("returned") else ""
        lines.append(f"  added {added['name']} = {added['spec']}{back}")
    if record.get("pruned"):
        lines.append(
            "  pruned from the library (still searched): "
            + ", ".join(f"{item['name']} {item['share']:.1%}" for item in record["pruned"])
        )
    if record["converged"]:
        lines.append("  converged: no search gains significantly and every bound is within the tolerance")
    elif not record["added"]:
        lines.append("  nothing added (a library strategy gains, or no reply gains): more table games next round")
    return lines
