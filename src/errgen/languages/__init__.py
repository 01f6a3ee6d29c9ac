"""One folder per language: its target, naming, runtime sources and templates."""
