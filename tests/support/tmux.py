"""A real terminal for the tests: the game run in a detached tmux session, its keys sent
and its screen captured. Without tmux a test skips, except in CI (``CI=true``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

TMUX = shutil.which("tmux")


REPO = Path(__file__).resolve().parents[2]


class Terminal:
    """A detached tmux session on its own socket, running one command."""

    def __init__(self, command: str, env: dict[str, str], width: int = 100, height: int = 32):
        self.socket = f"dice-miner-test-{os.getpid()}-{time.monotonic_ns()}"
        self.env = {**os.environ, **env, "TERM": "xterm-256color"}
        # One tmux call, so the pane is kept when the program exits however fast it does
        # (an early crash must leave its traceback to be read, not a vanished session).
        self.tmux(
            "-f", "/dev/null", "start-server", ";",
            "set-option", "-g", "remain-on-exit", "on", ";",
            "new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height), "-c",
            str(REPO), command,
        )  # fmt: skip

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self, colours: bool = False) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play", *(["-e"] if colours else []))

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        """The screen once ``text`` is on it; fails at once if the program has exited."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            if self.exit_status() is not None:
                # the program left the alternate screen as it exited: its last words
                # may be only in the scrollback
                history = self.history()
                if text in history:
                    return history
                break
            time.sleep(0.1)
        raise AssertionError(
            f"{text!r} never appeared on the screen (program exit status: "
            f"{self.exit_status()}); everything it printed:\n{self.history()}"
        )

    def exit_status(self) -> str | None:
        """The program's exit status once it has exited, ``None`` while it runs."""
        dead = self.tmux("display-message", "-p", "-t", "play", "#{pane_dead} #{pane_dead_status}")
        flag, _, status = dead.strip().partition(" ")
        return status or "?" if flag == "1" else None

    def history(self) -> str:
        """The whole pane, scrollback included (a traceback longer than the screen)."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", "play")

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
