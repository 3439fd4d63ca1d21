"""Placeholder until the cfg subcommand lands; replaced by its owner."""


def register(subparsers) -> None:
    """Registers nothing yet."""
