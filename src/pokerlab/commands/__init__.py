"""Subcommands of the ``pokerlab`` command line (argument parsing and printing only)."""
