"""One module per `nztax` subcommand. Each defines HELP, `add_arguments(parser)` and `run(args) -> int`."""
