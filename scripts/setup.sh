# Sourced by ./play and ./test: make .venv and install the project into it, once.
# With the argument "test", the test tools are installed too.
# Re-runs only when pyproject.toml changed since the last install.
# PYTHON chooses the interpreter (default python3); it must be 3.11 or newer.
extra=""
[ "${1:-}" = "test" ] && extra="[test]"
stamp=".venv/.installed${extra:+-test}"
python="${PYTHON:-python3}"
recent='import sys; sys.exit(sys.version_info < (3, 11))'
# A .venv made by an older Python (before a newer one was installed) would fail forever.
if [ -x .venv/bin/python ] && ! .venv/bin/python -c "$recent" 2>/dev/null; then
  echo "setup: .venv was made with $(.venv/bin/python --version 2>&1); remaking it" >&2
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$python" -c "$recent" 2>/dev/null; then
    found=$("$python" --version 2>&1 | head -n 1) || found="not found"
    echo "setup: Dice Miner needs Python 3.11 or newer; $python is ${found:-not found}." \
      "Install one, or name it: PYTHON=python3.12 $0" >&2
    exit 1
  fi
  echo "setup: first run: making .venv, the project's own Python environment" >&2
  "$python" -m venv .venv
fi
# The test install holds everything the plain one does: ./play after ./test installs nothing
# (a second install, rewriting .venv/bin, would race with the tests' own ./play runs).
if [ -z "$extra" ] && [ -f .venv/.installed-test ] && [ ! pyproject.toml -nt .venv/.installed-test ]; then
  stamp=.venv/.installed-test
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # Silent, pip takes half a minute or more: say what is happening, and when it is done.
  echo "setup: installing Dice Miner${extra:+ and its test tools} into .venv" \
    "(once, and again when pyproject.toml changes; about a minute)..." >&2
  started=$SECONDS
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}" >&2
  touch "$stamp"
  echo "setup: installed in $((SECONDS - started)) s" >&2
fi
# The web client's JavaScript tools (Biome, axe-core; package-lock.json) for the tests, once
# per change of the lock; skipped where Node is absent (the tests that need it say so).
if [ -n "$extra" ] && command -v npm >/dev/null && [ -f package-lock.json ] &&
  { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
