"""errgen: compile one YAML registry of error codes into the error contract."""

__version__ = "0.1.0"

# The exit code of a run Ctrl-C ended: 128 + SIGINT, what shells report (errgen.entry, errgen.cli).
INTERRUPTED = 130
