"""What the user wrote: read (load, compose), checked (structure, lint) and typed (model)."""
