"""From the contract view to files: the shared targets and their templates."""
