"""Command-line subcommands; each module registers its parsers with `register`."""
