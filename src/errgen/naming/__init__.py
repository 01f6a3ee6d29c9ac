"""Per-language naming and escaping: one module per language turns any registry string (a wire
code, a registry name, a version, free text) into that language's identifiers and literals."""
