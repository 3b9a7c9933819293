# Sourced by ./play and ./test: make .venv and install the project into it, once.
# With the argument "test", the test tools are installed too.
# Re-runs only when pyproject.toml changed since the last install.
extra=""
[ "${1:-}" = "test" ] && extra="[test]"
stamp=".venv/.installed${extra:+-test}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}" >&2
  touch "$stamp"
fi
