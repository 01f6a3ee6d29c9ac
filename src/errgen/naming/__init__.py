"""Per-language naming: identifiers, package names and string literals from registry text."""
