"""The one error a target raises: the registry cannot be rendered as asked (exit 2, message shown).

Its own module, so the build and every target import it without importing each other.
"""


class BuildError(Exception):
    pass
