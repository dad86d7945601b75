"""The one error a calculator raises: a bad argument, named."""

from __future__ import annotations


class ToolArgumentError(ValueError):
    """An argument is valid in type but not in meaning (unknown tax year, code not allowed...)."""

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument
        self.message = message
