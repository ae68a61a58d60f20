"""Assemble the report: run each landed game's suite, build its chapter, write HTML and PDF."""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl

import cardsim
from cardsim.reports.content import Block, Bullets, Paragraph, Report, Section
from cardsim.reports.findings import chapter_findings, findings_document, findings_name, write_findings
from cardsim.reports.html import write_html
from cardsim.reports.pdf import drawn_ahead, measured_widths, remember_widths, write_pdf
from cardsim.reports.progress import Tracker
from cardsim.reports.schedule import schedule_chapters
from cardsim.reports.sections import game_title, section_games, section_module
from cardsim.reports.sections.common import models_block, reproducibility_blocks, rules_blocks
from cardsim.reports.suite import (
    Experiment,
    Outcome,
    Outcomes,
    Profile,
    largest_runs,
    run_experiments,
    shared_runs,
)
from cardsim.sims.core.parallel import current as current_backend
from cardsim.sims.core.simulator import Simulator
from cardsim.sims.registry import get_simulator

HTML_NAME = "cardsim-report.html"
PDF_NAME = "cardsim-report.pdf"

INTRO = (
    "cardsim plays many thousands of simulated games to answer strategy questions about four "
    "tabletop card games. Every probability below is an estimate from simulated games and is "
    "shown with the number of games n and a 95% Wilson score interval: the true value lies in "
    "that interval for 95% of such experiments. Results depend on how the simulated players "
    "play, so every number names its player model."
)


@dataclass(frozen=True)
class WrittenReport:
    """The files written and what they contain."""

    html: Path
    pdf: Path
    pdf_pages: int
    games: tuple[str, ...]
    skipped: tuple[str, ...]
    findings: Path | None = None


def game_section(
    game: str,
    module: ModuleType,
    simulator: Simulator,
    *,
    profile: Profile,
    seed: int,
    jobs: int,
    store: Path | None,
    tracker: Tracker | None = None,
    on_done: Callable[[Outcome], None] | None = None,
    experiments: Sequence[Experiment] | None = None,
) -> tuple[Section, Outcomes, str]:
    """Run one game's experiments (``experiments``: its plan for ``profile`` when not given) and
    build its chapter; also returns the outcomes (each experiment that shares its config with a
    larger run reporting that run: :func:`largest_runs`) and the chapter's key result (the first
    paragraph of its recommendations)."""
    if experiments is None:
        experiments = shared_runs(simulator, module.plan(profile))
    outcomes = largest_runs(
        simulator,
        run_experiments(simulator, experiments, seed=seed, jobs=jobs, store=store, tracker=tracker, on_done=on_done),
    )
    section, key = chapter(game, module, outcomes, profile)
    return section, outcomes, key


def chapter(game: str, module: ModuleType, outcomes: Outcomes, profile: Profile) -> tuple[Section, str]:
    """One game's chapter from its experiments' outcomes (section builder ``module``), and its
    key result (the first paragraph of its recommendations)."""
    recommended = tuple(module.recommendations(outcomes, profile))
    blocks = (
        Paragraph(module.QUESTION),
        *rules_blocks(game, module.TITLE),
        models_block(module.models(profile)),
        *module.results(outcomes, profile),
        *recommended,
        *reproducibility_blocks(outcomes, profile, game, module.rerun(profile)),
    )
    key = next((b.text for b in recommended if isinstance(b, Paragraph)), "")
    findings = chapter_findings(game, module, outcomes, profile)
    return Section(key=game, title=module.TITLE, blocks=tuple(blocks), findings=findings), key


def chapter_in_worker(
    game: str,
    module_name: str,
    simulator: Simulator,
    profile: Profile,
    seed: int,
    store: Path | None,
    played: Sequence[Outcome] = (),
) -> tuple[str, Section, list[Outcome], str, dict[Any, float]]:
    """One game's chapter (section builder ``module_name``) built in a worker process, the
    experiments not ``played`` already played there with one job, its plots drawn ahead. The
    outcomes come back in plan order with one column of their episodes: the callers read their
    experiment, n, stop rule and run; and the text widths its layout measured, so that the PDF's
    layout does not measure them again."""
    module = importlib.import_module(module_name)
    plan = shared_runs(simulator, module.plan(profile))
    earlier = {o.experiment.key: o for o in played}
    outcomes = run_experiments(simulator, [e for e in plan if e.key not in earlier], seed=seed, jobs=1, store=store)
    outcomes.by_key = {e.key: earlier[e.key] if e.key in earlier else outcomes[e.key] for e in plan}
    section, key = chapter(game, module, largest_runs(simulator, outcomes), profile)
    slim = [replace(o, episodes=o.episodes.select(pl.first())) for o in outcomes.by_key.values()]
    return game, drawn_ahead(section), slim, key, measured_widths()


def chapter_task(
    game: str,
    module_name: str,
    simulator: Simulator,
    profile: Profile,
    seed: int,
    store: Path | None,
    played: Sequence[Outcome] = (),
) -> tuple[Any, float]:
    """:func:`chapter_in_worker` for the scheduler: its answer and the CPU seconds taken."""
    started = time.process_time()
    answer = chapter_in_worker(game, module_name, simulator, profile, seed, store, played)
    return answer, time.process_time() - started


def _chapters_scheduled(
    landed: Sequence[tuple[str, ModuleType, Simulator, list[Experiment]]],
    *,
    profile: Profile,
    seed: int,
    jobs: int,
    store: Path | None,
    tracker: Tracker,
    on_done: Callable[[Outcome], None],
    note: Callable[[str], None],
) -> dict[str, tuple[Section, str]]:
    """Every game's chapter and key result, played and built by :func:`schedule_chapters` in
    worker processes; ``note`` hears one line per finished experiment, side task and chapter
    (with its CPU seconds), ``on_done`` of the outcomes in the games' and plans' order once
    all are in, as it would from a one-process build."""
    chapters: dict[str, tuple[Section, str]] = {}
    finished: dict[str, list[Outcome]] = {}

    def outcome(found: Outcome) -> None:
        tracker.start(found.game, found.experiment.key)
        tracker.finish()
        note(
            f"  {found.game} {found.experiment.key}: n={found.n:,} "
            f"({found.stop_rule.split(':')[0]}), {found.cpu_seconds:.1f} CPU-s"
        )

    def side(game: str, key: str, cpu: float) -> None:
        note(f"  {game} {key}: {cpu:.1f} CPU-s")

    def chapter_built(game: str, answer: Any, cpu: float) -> None:
        _, section, outcomes, key, widths = answer
        tracker.game_done(section.title)
        note(f"  {section.title}: chapter built, {cpu:.1f} CPU-s")
        remember_widths(widths)
        chapters[game], finished[game] = (section, key), outcomes

    schedule_chapters(
        landed,
        profile=profile,
        seed=seed,
        jobs=jobs,
        store=store,
        chapter_task=chapter_task,
        on_outcome=outcome,
        on_chapter=chapter_built,
        on_side=side,
    )
    for game, *_ in landed:
        for found in finished[game]:
            on_done(found)
    return chapters


def build_report(
    games: Sequence[str],
    *,
    profile: Profile,
    seed: int,
    jobs: int,
    store: Path | None,
    progress: bool = False,
    on_done: Callable[[Outcome], None] | None = None,
    plugins: dict[str, tuple[ModuleType, Simulator]] | None = None,
    verbose: bool = False,
) -> tuple[Report, tuple[str, ...]]:
    """The report over ``games`` (landed ones; the others are noted); returns it and the skips.

    ``progress`` shows one bar over all the games' experiments (on stderr); ``verbose``
    adds one line per finished experiment (its n, stop rule and CPU seconds). With ``jobs`` > 1
    one scheduler (:mod:`cardsim.reports.schedule`) plays every chapter's experiments and
    builds the chapters in worker processes; with one job, or on a dask cluster
    (:func:`cardsim.sims.core.parallel.using`), they run here, chapter after chapter, each
    run's chunks and each check's chunks on the cluster (the store stays here). ``plugins`` maps a game name to its section builder and simulator, replacing the
    registry (tests use it to plug in a toy game).
    """
    sections: list[Section] = []
    notes: list[str] = []
    included: list[str] = []
    key_results: list[str] = []
    landed: list[tuple[str, ModuleType, Simulator, list[Experiment]]] = []
    for game in games:
        if plugins is not None and game in plugins:
            module, simulator = plugins[game]
        else:
            module, note = section_module(game)
            if module is None:
                notes.append(note)
                continue
            simulator = get_simulator(game)
        landed.append((game, module, simulator, shared_runs(simulator, module.plan(profile))))

    def announce() -> None:
        if progress:
            print(
                "preparing the games' compiled kernels (about a minute on the first run "
                "after installing, seconds later), while the first games play",
                file=sys.stderr,
            )

    with Tracker(sum(len(plan) for *_, plan in landed), enabled=progress) as tracker:

        def say(text: str) -> None:
            if verbose:
                tracker.note(text)

        def done(outcome: Outcome) -> None:
            if verbose:
                tracker.note(
                    f"  {outcome.experiment.key}: n={outcome.n:,} "
                    f"({outcome.stop_rule.split(':')[0]}), {outcome.cpu_seconds:.1f} CPU-s"
                )
            if on_done is not None:
                on_done(outcome)

        if jobs > 1 and landed and not current_backend().on_cluster:
            announce()
            chapters = _chapters_scheduled(
                landed,
                profile=profile,
                seed=seed,
                jobs=jobs,
                store=store,
                tracker=tracker,
                on_done=on_done or (lambda _: None),
                note=say,
            )
        else:
            chapters = {}
            for game, module, simulator, plan in landed:
                section, _, key = game_section(
                    game,
                    module,
                    simulator,
                    profile=profile,
                    seed=seed,
                    jobs=jobs,
                    store=store,
                    tracker=tracker,
                    on_done=done,
                    experiments=plan,
                )
                tracker.game_done(section.title)
                chapters[game] = (section, key)
        for game, *_ in landed:
            section, key = chapters[game]
            sections.append(section)
            included.append(game)
            if key:
                key_results.append(f"{section.title}: {key}")
    names = ", ".join(game_title(g) for g in included) or "no game"
    front: list[Block] = [
        Paragraph(INTRO),
        Paragraph(profile.describe()),
        Bullets(
            (
                f"Games in this report: {names}.",
                f"Root seed {seed}; cardsim {cardsim.__version__}. The same results store and seed "
                "give byte-identical HTML and PDF files.",
                *notes,
            ),
            heading="About this report",
        ),
    ]
    if key_results:
        front.insert(2, Bullets(tuple(key_results), heading="Key results (details, intervals and n in each chapter)"))
    if profile.name == "quick":
        front.insert(
            0,
            Paragraph(
                "QUICK REPORT: small samples, so the 95% intervals are wide. "
                "Run 'cardsim report' without --quick for the full precision."
            ),
        )
    subtitle = "Monte Carlo strategy analysis" + (
        " \u2014 quick run, wide intervals" if profile.name == "quick" else ""
    )
    report = Report(
        title="cardsim report",
        subtitle=subtitle,
        front_matter=tuple(front),
        sections=tuple(sections),
        metadata={
            "version": cardsim.__version__,
            "footer": f"cardsim {cardsim.__version__} report, seed {seed}, profile {profile.name}",
        },
    )
    return report, tuple(notes)


def write_report(
    games: Sequence[str],
    *,
    profile: Profile,
    seed: int,
    jobs: int,
    store: Path | None,
    out_dir: Path,
    progress: bool = False,
    on_done: Callable[[Outcome], None] | None = None,
    plugins: dict[str, tuple[ModuleType, Simulator]] | None = None,
    verbose: bool = False,
) -> WrittenReport:
    """Build the report (see :func:`build_report`) and write ``out_dir/cardsim-report.html``,
    ``.pdf`` and the chapters' figures as ``out_dir/findings.json`` (the file of record; a quick
    report's ``findings-quick.json``, never shipped)."""
    report, skipped = build_report(
        games,
        profile=profile,
        seed=seed,
        jobs=jobs,
        store=store,
        progress=progress,
        on_done=on_done,
        plugins=plugins,
        verbose=verbose,
    )
    html = write_html(report, out_dir / HTML_NAME)
    pdf = out_dir / PDF_NAME
    pages = write_pdf(report, pdf)
    document = findings_document(
        [f for s in report.sections for f in s.findings],
        seed=seed,
        profile=profile.name,
        version=cardsim.__version__,
        titles={s.key: s.title for s in report.sections},
    )
    findings = write_findings(document, out_dir / findings_name(profile.name))
    return WrittenReport(
        html=html,
        pdf=pdf,
        pdf_pages=pages,
        games=tuple(s.key for s in report.sections),
        skipped=skipped,
        findings=findings,
    )


def all_games() -> tuple[str, ...]:
    """Every registered game with a report section, in chapter order."""
    return tuple(section_games())
