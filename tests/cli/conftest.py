"""CLI tests drive the Typer app in-process with the toy game ``bids`` registered."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import tests.cli.helpers  # noqa: F401  (registers the toy game and the `high` bot)
from hexfolk.cli.main import app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner: CliRunner):  # type: ignore[no-untyped-def]
    """``cli("simulate", "bids", ..., input=None)`` -> click Result."""

    def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
        return runner.invoke(app, list(args), input=input)

    return invoke
