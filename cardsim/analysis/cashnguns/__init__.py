"""Cash'n Guns meta-game analysis, by concern:

- :mod:`cardsim.analysis.equilibrium`: the game-agnostic symmetric meta-game and its solver;
- :mod:`.tables`: profile payoffs, payoff matrix, symmetric game and best responses of a list;
- :mod:`.search`: the arena, profile table and best-response search (local search, paired gain);
- :mod:`.discover`: discover's methods, settings and stored records;
- :mod:`.loop`: the PSRO loop (``discover``);
- :mod:`.records`: the readings side by side and whether an entry still holds;
- :mod:`.libraries`: the shipped libraries (export, load);
- :mod:`.sweep`: the schedule sweep (every card order and opponent reading on every member);
- :mod:`.check`: the outside check of a shipped mix.

The report's text about them is in :mod:`cardsim.reports.sections.cashnguns`. This package
re-exports the names commands, the API, reports and tests use.
"""

from __future__ import annotations

from cardsim.analysis.cashnguns.check import (  # noqa: F401
    SWEEP_STREAM,
    OutsideCheck,
    check_command_line,
    check_equilibrium,
    checked_replies,
    record_outside_check,
)
from cardsim.analysis.cashnguns.discover import (  # noqa: F401
    DISCOVER_METHOD,
    DISCOVER_METHOD_1,
    METHOD_VERSION,
    DiscoverSettings,
    discover_flags,
    discover_path,
    discover_round_lines,
    library_name,
    reported_round,
    settings_from_key,
    settings_key,
    table_parts,
)
from cardsim.analysis.cashnguns.libraries import (  # noqa: F401
    LIBRARIES_FORMAT,
    LIBRARIES_FORMAT_1,
    SHIPPED_LIBRARIES,
    cashnguns_fingerprint,
    export_libraries,
    library_entry,
    load_libraries,
    record_entries,
    shipped_mixes_table,
    stored_entries,
    write_libraries,
)
from cardsim.analysis.cashnguns.loop import discover, next_library, start_names  # noqa: F401
from cardsim.analysis.cashnguns.records import (  # noqa: F401
    READINGS,
    TARGET_POINTS,
    converged_entry,
    discover_command_line,
    gain_text,
    load_discover_documents,
    outside_figures,
    reading_label,
    reading_status,
    status_text,
)
from cardsim.analysis.cashnguns.search import (  # noqa: F401
    CLIMB_STEPS,
    CLIMB_TOP,
    COMPOUND_SHARE,
    COMPOUND_SIZE,
    DEFAULT_LOCAL,
    DEFAULT_TOLERANCE,
    DISCOVER_CHUNK,
    MEMBER_SHARE,
    OUTSIDE_CHECK,
    STOP_CHECK,
    SWEEP_CHECK,
    CashNGunsArena,
    ProfileTable,
    Reply,
    compound_candidates,
    fill_table,
    find_reply,
    focal_payoffs,
    keyed_seeds,
    local_budget,
    local_search_steps,
    measure_gain,
    profile_weights,
    propose_candidates,
    refinements,
    search_best_response,
)
from cardsim.analysis.cashnguns.sweep import (  # noqa: F401
    reading_variants,
    sweep_candidates,
    sweep_members,
    sweep_schedules,
)
from cardsim.analysis.cashnguns.tables import (  # noqa: F401
    METRICS,
    PARAMETER_MEANINGS,
    best_responses,
    equilibrium_table,
    mix_text,
    payoff_matrix,
    per_slot_table,
    pooled_intervals,
    pooled_seats,
    profile_payoffs,
    strategy_space_tables,
    symmetric_game,
)
from cardsim.analysis.equilibrium import (  # noqa: F401
    Equilibrium,
    SymmetricGame,
    evaluate_mix,
    expected_payoffs,
    hedge_average,
    others_probabilities,
    payoff_half_widths,
    polish_support,
    replicator,
    symmetric_equilibrium,
    table_profiles,
)
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, Strategy, parse_strategy  # noqa: F401

# The public names this package re-exports.
__all__ = [
    "SWEEP_STREAM", "OutsideCheck", "check_command_line", "check_equilibrium", "checked_replies",
    "record_outside_check", "DISCOVER_METHOD", "DISCOVER_METHOD_1", "METHOD_VERSION",
    "DiscoverSettings", "discover", "discover_flags", "discover_path", "discover_round_lines",
    "reported_round", "settings_from_key", "start_names", "table_parts", "LIBRARIES_FORMAT",
    "LIBRARIES_FORMAT_1", "SHIPPED_LIBRARIES", "cashnguns_fingerprint", "export_libraries",
    "library_entry", "load_libraries", "record_entries", "shipped_mixes_table", "stored_entries",
    "write_libraries", "READINGS", "TARGET_POINTS", "converged_entry", "discover_command_line",
    "gain_text", "load_discover_documents", "outside_figures", "reading_label", "reading_status",
    "status_text", "CLIMB_STEPS", "CLIMB_TOP", "COMPOUND_SHARE", "COMPOUND_SIZE", "DEFAULT_LOCAL",
    "DEFAULT_TOLERANCE", "DISCOVER_CHUNK", "MEMBER_SHARE", "OUTSIDE_CHECK", "STOP_CHECK",
    "SWEEP_CHECK", "CashNGunsArena", "ProfileTable", "Reply", "compound_candidates", "fill_table",
    "find_reply", "focal_payoffs", "local_budget", "local_search_steps", "measure_gain",
    "profile_weights", "propose_candidates", "refinements", "search_best_response",
    "reading_variants", "sweep_candidates", "sweep_members", "sweep_schedules", "METRICS",
    "PARAMETER_MEANINGS", "best_responses", "equilibrium_table", "mix_text", "payoff_matrix",
    "per_slot_table", "pooled_intervals", "pooled_seats", "profile_payoffs",
    "strategy_space_tables", "symmetric_game", "Equilibrium", "SymmetricGame", "evaluate_mix",
    "expected_payoffs", "hedge_average", "others_probabilities", "payoff_half_widths",
    "polish_support", "replicator", "symmetric_equilibrium", "table_profiles", "NAMED_STRATEGIES",
    "Strategy", "parse_strategy",
]
