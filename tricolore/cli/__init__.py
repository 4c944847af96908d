"""The ``tricolore`` command line (typer + rich)."""
