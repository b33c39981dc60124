"""``hexfolk serve``: run the table server (HTTP lobby + WebSocket rooms) with uvicorn."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from hexfolk.server.config import DATA_ENV, ServerConfig
from hexfolk.server.structured_logs import LOG_FORMATS
from hexfolk.server.structured_logs import configure as configure_logs

EPILOG = """\
Examples:

  hexfolk serve

  hexfolk serve --port 8080 --data-dir ./data

  hexfolk serve --db postgresql+asyncpg://postgres@127.0.0.1:5432/hexfolk

The embedded database is SQLite (WAL) in the data folder: --data-dir, else $HEXFOLK_DATA, else
~/.local/share/hexfolk. Open the printed address for links to the API docs; docs/server.md
describes every setting and limit, docs/protocol.md the WebSocket messages.
"""


MAX_PROCESSES = 64
"""The most processes ``--processes`` starts."""


def launch(ctx: typer.Context, config: ServerConfig, processes: int) -> int:
    """``--processes N``: check the settings, then run the launcher (:mod:`.launcher`) with
    this command's own options for each child; its exit code (2: a setting is missing)."""
    from hexfolk.server.launcher import Launcher

    if not config.resolved_db_url().startswith("postgresql"):
        print("error: --processes needs a PostgreSQL --db shared by the processes", file=sys.stderr)
        return 2
    if not getattr(config, "redis_url", None):
        print("error: --processes needs --redis (the processes meet there)", file=sys.stderr)
        return 2
    args: list[str] = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if param.name in ("processes", "reuse_port") or value is None:
            continue
        flag = param.opts[0]
        if getattr(param, "is_flag", False):
            if value:
                args.append(flag)
            elif getattr(param, "secondary_opts", None):  # --x/--no-x
                args.append(param.secondary_opts[0])
            continue
        args += [flag, str(value)]
    child = [sys.executable, "-m", "hexfolk.cli.main", "serve", "--reuse-port", *args]
    host = "127.0.0.1" if config.host in ("0.0.0.0", "::", "") else config.host
    host = f"[{host}]" if ":" in host else host
    return Launcher(processes, lambda _i: child, f"http://{host}:{config.port}/healthz").run()


def serve_command(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    processes: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_PROCESSES,
            help="Start this many server processes on --port that form one site (needs a "
            "PostgreSQL --db and --redis; docs/server.md, 'Running several processes').",
        ),
    ] = 1,
    reuse_port: Annotated[
        bool,
        typer.Option(
            "--reuse-port",
            help="Share --port with other processes (SO_REUSEPORT, Linux): the kernel "
            "spreads connections over them (--processes starts its processes so).",
        ),
    ] = False,
    log_format: Annotated[
        str,
        typer.Option(
            help="Log lines: text, or json (one JSON object a line: time, level, logger, "
            "message, process, pid, table)."
        ),
    ] = "text",
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL, e.g. postgresql+asyncpg://user@host/db "
            "(default: SQLite in the data folder)."
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            envvar=DATA_ENV,
            help=f"Data folder for the embedded SQLite database (env {DATA_ENV}; "
            "default ~/.local/share/hexfolk).",
        ),
    ] = None,
    allow_seeded_tables: Annotated[
        bool,
        typer.Option(
            "--allow-seeded-tables",
            help="Let table creators set the seed (tests, duplicate games). Off by default.",
        ),
    ] = False,
    bot_workers: Annotated[
        int, typer.Option(min=1, max=32, help="Worker processes for the bots' searches.")
    ] = 2,
    sqlite_synchronous: Annotated[
        str,
        typer.Option(help="SQLite durability: FULL (every acknowledged action on disk) or NORMAL."),
    ] = "FULL",
    testing: Annotated[
        bool,
        typer.Option(
            "--testing",
            help="Test switch: allow clocks and grace periods under a second. Never in play.",
        ),
    ] = False,
    action_rate: Annotated[
        str, typer.Option(help="Action messages allowed per connection: COUNT/SECONDS.")
    ] = "20/2",
    log_level: Annotated[str, typer.Option(help="Logging level.")] = "info",
    analysis_budget: Annotated[
        str,
        typer.Option(
            "--analysis-budget",
            help="Budget of the analysis made after every game (hexfolk analyze --budget's "
            "syntax: actions=12,horizon=40,rollouts=0,depth=40).",
        ),
    ] = "default",
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            help="Redis URL (redis://host:6379/0): run as one of many processes of one site "
            "(needs a PostgreSQL --db). Default: one process, no Redis.",
        ),
    ] = None,
    redis_prefix: Annotated[
        str, typer.Option("--redis-prefix", help="Prefix of this site's Redis channels.")
    ] = "hexfolk",
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            min=0.5,
            max=300,
            help="With --redis: a table's lease length (renewed every 0.3 x this); a dead "
            "process's tables move after it. Must agree between the processes.",
        ),
    ] = 10.0,
) -> None:
    """Run the Hexfolk table server: people and bots play both games online."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from hexfolk.server.app import create_app
    from hexfolk.server.startup import (
        StartupError,
        bind_port,
        check_data_folder,
        check_database,
        run_server,
        shown_url,
        sqlite_folder,
        startup_failure,
    )

    count, _, seconds = action_rate.partition("/")
    try:
        rate = (int(count), float(seconds))
        if rate[0] < 1 or rate[1] <= 0:
            raise ValueError
    except ValueError:
        print(
            f"error: --action-rate is COUNT/SECONDS, e.g. 20/2, not {action_rate!r}",
            file=sys.stderr,
        )
        raise typer.Exit(2) from None
    from hexfolk.analysis import Budget

    try:
        Budget.parse(analysis_budget)
    except ValueError as exc:
        print(f"error: --analysis-budget: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    config = ServerConfig(
        analysis_budget=analysis_budget,
        host=host,
        port=port,
        db_url=db,
        data_dir=data_dir,
        allow_seeded_tables=allow_seeded_tables,
        testing=testing,
        bot_workers=bot_workers,
        sqlite_synchronous=sqlite_synchronous.upper(),
        action_rate=rate,
        redis_url=redis,
        redis_prefix=redis_prefix,
        lease_seconds=lease_seconds,
    )
    if redis is not None and config.is_sqlite():
        print("error: --redis needs a PostgreSQL --db shared by the processes", file=sys.stderr)
        raise typer.Exit(2)
    if config.sqlite_synchronous not in ("FULL", "NORMAL"):
        print("error: --sqlite-synchronous is FULL or NORMAL", file=sys.stderr)
        raise typer.Exit(2)
    if log_format not in LOG_FORMATS:
        print(f"error: --log-format is one of {', '.join(LOG_FORMATS)}", file=sys.stderr)
        raise typer.Exit(2)
    configure_logs(log_level, log_format)
    if processes > 1:
        raise typer.Exit(launch(ctx, config, processes))
    # before anything is migrated or started, each failure one line and exit code 1: the port
    # (the socket is kept for uvicorn), the data folder of SQLite, another database's answer
    try:
        sock = bind_port(host, port, reuse_port=reuse_port)
        url = config.resolved_db_url()
        where = shown_url(db) if db else str(config.resolved_data_dir() / "hexfolk.sqlite")
        folder = sqlite_folder(url)
        if folder is not None:
            check_data_folder(folder)
        else:
            check_database(url, where)
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    try:
        app = create_app(config)
    except Exception as exc:
        print(f"error: {startup_failure(exc)}", file=sys.stderr)
        raise typer.Exit(1) from None
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level=log_level.lower(),
            # json: uvicorn's own loggers reach the root's JSON handler, unconfigured
            log_config=None if log_format == "json" else LOGGING_CONFIG,
            access_log=False,
            ws_max_size=1 << 20,
            # the app starts (migrations, recovery) in run_server, where a failure is one line
            lifespan="off",
            # the latency trace times the loop's callbacks, which only the asyncio loop allows
            loop="asyncio" if os.environ.get("HEXFOLK_TRACE") else "auto",
        )
    )
    announce = f"Hexfolk table server on http://{host}:{port}/  (database: {where})"
    try:
        run_server(app, server, sock, announce)
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    if not server.started:
        raise typer.Exit(3)  # uvicorn's start-up failure (it logged why)
