"""The suite's chunk sizes: the small chunks of the table and tuning tiers, one run per config
(:func:`shared_runs`), and the stop of an experiment whose bound is not a whole number of chunks."""

from __future__ import annotations

from cardsim.reports.suite import DEFAULT, QUICK, Profile, chunk_of, run_experiments, shared_runs
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.stats import wilson_half_width

FINE = Profile(
    "default",
    precision=0.01,
    max_n=20_000,
    tune_precision=0.02,
    tune_max_n=2_500,
    table_precision=0.02,
    table_max_n=5_000,
    sweep_precision=0.03,
    sweep_max_n=2_500,
    sweep_chunk=500,
    fine_chunk=1_000,
)


def test_tiers_below_the_headline_play_small_chunks_that_divide_their_bound():
    ex = FINE.experiment
    assert ex("h", {"p_heads": 0.5}, {}).chunk_size is None  # the headline keeps the simulator's
    assert ex("t", {"p_heads": 0.5}, {}, tier="table").chunk_size == 1_000  # bound 5,000
    assert ex("u", {"p_heads": 0.5}, {}, tuning=True).chunk_size == 625  # the largest divisor of 2,500 up to 1,000
    assert ex("s", {"p_heads": 0.5}, {}, tier="sweep").chunk_size == 500
    assert ex("q", {"p_heads": 0.5}, {}, tuning=True, scale=0.25).chunk_size == 625  # the bound itself
    assert ex("p", {"p_heads": 0.5}, {}, tier="table", paired=True).chunk_size is None
    assert all(
        e.chunk_size is None
        for e in (QUICK.experiment("x", {}, {}, tuning=True), QUICK.experiment("y", {}, {}, tier="table"))
    )
    for tier in ("table", "tuning", "sweep"):
        made = DEFAULT.experiment("d", {}, {}, tier=tier)
        assert made.max_n % made.chunk_size == 0


def test_one_config_is_one_run_in_the_chunks_of_its_largest_bound():
    plan = [
        FINE.experiment("head", {"p_heads": 0.3}, {}),
        FINE.experiment("pick", {"p_heads": 0.3}, {}, tuning=True),
        FINE.experiment("tune", {"p_heads": 0.7}, {}, tuning=True),
        FINE.experiment("grid", {"p_heads": 0.7}, {}, tier="sweep"),
    ]
    shared = shared_runs(COIN, plan)
    assert [e.key for e in shared] == ["head", "pick", "tune", "grid"]
    sizes = [chunk_of(COIN, e) for e in shared]
    assert sizes[0] == sizes[1] == min(COIN.chunk_size, 20_000)
    assert sizes[2] == sizes[3] == 625  # equal bounds: the first one's chunks
    assert shared[0] is plan[0] and shared[2] is plan[2]
    assert [e.max_n for e in shared] == [e.max_n for e in plan]


def test_shared_run_is_played_once_and_each_experiment_stops_at_its_own_bound(tmp_path):
    profile = Profile("default", precision=0.001, max_n=900, tune_precision=0.001, tune_max_n=150, fine_chunk=50)
    plan = shared_runs(
        COIN,
        [
            profile.experiment("head", {"p_heads": 0.5}, {}),
            profile.experiment("pick", {"p_heads": 0.5}, {}, tuning=True),
        ],
    )
    outcomes = run_experiments(COIN, plan, seed=3, jobs=1, store=tmp_path)
    assert len(list(tmp_path.iterdir())) == 1  # one run in the store
    head, pick = outcomes["head"], outcomes["pick"]
    assert (head.n, pick.n) == (900, 150)
    assert pick.episodes.equals(head.episodes.head(150))
    assert pick.stop_rule.startswith("max-n reached: n=150")
    half = float(wilson_half_width(pick.episodes["heads"].sum(), 150))
    assert f"{half:.4f}" in pick.stop_rule
