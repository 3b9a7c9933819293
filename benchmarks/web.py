"""The web viewer's speed in a real browser: ``python -m benchmarks.web``.

Serves a 4-player replay on a loopback port and drives Debian's Chromium with
Playwright (the system binary; nothing is downloaded). It reports:

* first render: from navigation start to the viewer's first drawn board
  (``performance.mark("dm:first-render")``), a fresh browser context each run;
* all boards held: from navigation start to the page holding every board of the
  game (``performance.mark("dm:boards")``: one packed answer, fetched while the
  first board is drawn), and that answer's size;
* step: one ArrowRight, from the key to the next board drawn and laid out;
* seek: a jump to a far position never shown before, to its board drawn and laid
  out (once the boards are held, neither waits on the server);
* server seek: the state at a position from the nearest snapshot, in Python,
  against folding the log from the start (what the snapshots save);
* the analysis view: the same replay analysed beforehand (``dice-miner analyse``,
  kept beside the log; ``--analysis-samples`` futures per decision, which change
  the values, not what is drawn), opened with ``?analysis=1``: from navigation to
  the view drawn (its chart, the marks, the board with the best move;
  ``performance.mark("dm:analysis")``); the drawing alone, from the analysis's
  answer read to the view drawn (the page's work, to hold within a step's
  budget); and a step with the view open.

It prints a table and, last, one JSON line. It is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "replays" / "four-players.dmlog"

#: Step or seek, measured inside the page: the action, then the board drawn and laid out.
_MEASURE = """
async ([kind, targets]) => {
  const times = [];
  for (const target of targets) {
    const done = new Promise((resolve) => {
      const seen = (event) => {
        if (event.detail.seq !== target) return;
        document.removeEventListener("dm:rendered", seen);
        void document.body.offsetHeight;  // style and layout of the new board
        resolve(performance.now());
      };
      document.addEventListener("dm:rendered", seen);
    });
    const start = performance.now();
    if (kind === "step") {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    } else {
      window.dmViewer.go(target);
    }
    times.push((await done) - start);
  }
  return times;
}
"""


#: When a performance mark was made, in ms from navigation start.
_MARK = "(name) => performance.getEntriesByName(name)[0].startTime"
#: The size of the packed boards' answer as it came over the wire.
_BOARDS_BYTES = """() => performance.getEntriesByType("resource")
    .filter((e) => e.name.endsWith("/boards")).map((e) => e.encodedBodySize)[0] || 0"""


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 2),
        "p95": round(percentile(values, 95), 2),
        "n": len(values),
    }


def four_player_log(folder: Path) -> Path:
    """The golden 4-player replay, or a freshly recorded greedy game if there is none."""
    target = folder / "four-players.dmlog"
    if GOLDEN.exists():
        shutil.copyfile(GOLDEN, target)
        return target
    from core.bots import make_bot
    from core.bots.play import play_game
    from core.game import Game

    game = Game.new(["Ada", "Brok", "Cira", "Dain"], 7, log=target, sync=False)
    play_game(game, [make_bot("greedy") for _ in range(4)])
    game.close()
    return target


def server_seeks(log: Path, positions: list[int]) -> tuple[list[float], list[float]]:
    """Milliseconds per state: from the snapshots, and folded from the start."""
    from core.projections.timeline import replay
    from frontends.web.replays import ReplayLibrary

    loaded = ReplayLibrary(log.parent).get(log.name)
    snap, fold = [], []
    for at in positions:
        start = time.perf_counter()
        loaded.state_at(at)
        snap.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        replay(loaded.batches, upto=at)
        fold.append((time.perf_counter() - start) * 1e3)
    return snap, fold


def run(runs: int, steps: int, seeks: int, analysis_samples: int = 64) -> dict:
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from frontends.web.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "replays"
        folder.mkdir()
        log = four_player_log(folder)
        app = create_app(
            {
                "REPLAYS_DIR": folder,
                "DATA_DIR": Path(tmp) / "data",
                "ANALYSIS_SAMPLES": analysis_samples,  # the kept analysis is the one read
            }
        )
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.port}/replay/{log.name}"
        try:
            total = app.extensions["dice_miner"].library.get(log.name).total
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                version = browser.version
                first, held, packed = [], [], 0
                for _ in range(runs):
                    context = browser.new_context(viewport={"width": 1366, "height": 900})
                    page = context.new_page()
                    page.goto(f"{url}?at=1")
                    page.wait_for_selector("body[data-boards='all']", state="attached")
                    first.append(page.evaluate(_MARK, "dm:first-render"))
                    held.append(page.evaluate(_MARK, "dm:boards"))
                    packed = page.evaluate(_BOARDS_BYTES)
                    context.close()
                context = browser.new_context(viewport={"width": 1366, "height": 900})
                page = context.new_page()
                page.goto(f"{url}?at=1")
                page.wait_for_selector("body[data-boards='all']", state="attached")
                page.evaluate(_MEASURE, ["step", [2, 3, 4]])  # warm up
                count = min(steps, total - 4)
                stepped = page.evaluate(_MEASURE, ["step", list(range(5, 5 + count))])
                far = [1 + (i * 97 + 53) % total for i in range(seeks)]
                sought = page.evaluate(_MEASURE, ["seek", far])
                context.close()
                analysis = _analysis_view(browser, url, log, analysis_samples)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
            app.extensions["dice_miner"].games.close()
        snap, fold = server_seeks(log, [max(1, total - k * 7) for k in range(30)])
    return {
        "benchmark": "web",
        "replay": GOLDEN.name if GOLDEN.exists() else "recorded 4-player greedy game",
        "events": total,
        "chromium": version,
        "first_render_ms": summary(first),
        "all_boards_held_ms": summary(held),
        "boards_answer_bytes": packed,
        "step_ms": summary(stepped),
        "seek_ms": summary(sought),
        "server_snapshot_seek_ms": summary(snap),
        "server_full_fold_ms": summary(fold),
        "analysis_samples": analysis_samples,
        "analysis_view_drawn_ms": summary(analysis[0]),
        "analysis_view_drawing_ms": summary(analysis[1]),
        "analysis_step_ms": summary(analysis[2]),
    }


def _analysis_view(browser, url: str, log: Path, samples: int) -> tuple[list, list, list]:
    """Open the analysed replay with its analysis view: when it is drawn, how long the
    drawing took, and its steps."""
    from core.analysis import analyse_log

    analyse_log(str(log), samples)  # kept beside the log, where the server reads it
    drawn, drawing, steps = [], [], []
    for _ in range(9):
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        page.goto(f"{url}?at=1&analysis=1")
        page.wait_for_selector("body[data-analysis='shown']", state="attached")
        drawn.append(page.evaluate(_MARK, "dm:analysis"))
        drawing.append(drawn[-1] - page.evaluate(_MARK, "dm:analysis-arrived"))
        page.wait_for_selector("body[data-boards='all']", state="attached")
        page.evaluate(_MEASURE, ["step", [2, 3, 4]])  # warm up
        steps += page.evaluate(_MEASURE, ["step", list(range(5, 25))])
        context.close()
    return drawn, drawing, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="page loads for first render")
    parser.add_argument("--steps", type=int, default=100, help="ArrowRight steps to time")
    parser.add_argument("--seeks", type=int, default=40, help="far jumps to time")
    parser.add_argument(
        "--analysis-samples",
        type=int,
        default=64,
        help="futures per decision of the analysis drawn (what is drawn is the same for any)",
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"benchmarks.web: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    result = run(args.runs, args.steps, args.seeks, args.analysis_samples)
    head = f"Web viewer: {result['replay']}, {result['events']} events"
    print(f"{head}, Chromium {result['chromium']}")
    print(f"{'metric':<34}{'median':>10}{'p95':>10}{'n':>6}")
    rows = [
        ("time to first render (ms)", "first_render_ms"),
        ("time to all boards held (ms)", "all_boards_held_ms"),
        ("step, ArrowRight (ms)", "step_ms"),
        ("seek to a far position (ms)", "seek_ms"),
        ("server: state from snapshot (ms)", "server_snapshot_seek_ms"),
        ("server: fold from the start (ms)", "server_full_fold_ms"),
        ("analysis view drawn (ms)", "analysis_view_drawn_ms"),
        ("  of which drawing it (ms)", "analysis_view_drawing_ms"),
        ("step, analysis view open (ms)", "analysis_step_ms"),
    ]
    for label, key in rows:
        row = result[key]
        print(f"{label:<34}{row['median']:>10.2f}{row['p95']:>10.2f}{row['n']:>6}")
    print(f"{'the boards answer (bytes)':<34}{result['boards_answer_bytes']:>10,}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
