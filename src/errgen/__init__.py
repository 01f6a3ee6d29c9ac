"""errgen: compile one YAML registry of error codes into the error contract."""

__version__ = "0.1.0"
