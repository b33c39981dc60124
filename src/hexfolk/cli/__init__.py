"""The ``hexfolk`` command line: games, simulate, replay, perft, play (Typer + Rich).

The console script ``hexfolk`` runs :func:`hexfolk.cli.main.main`; :data:`hexfolk.cli.main.app`
is the Typer application (tests drive it with ``typer.testing.CliRunner``).
"""
