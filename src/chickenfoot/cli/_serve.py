"""``chickenfoot serve``: the game server (:mod:`chickenfoot.server`) on this machine, from the command line."""

from __future__ import annotations

import errno
import shlex
import socket
import sqlite3
from pathlib import Path

import click

from .._io import why_missing

__all__ = ["serve"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _programs(items: tuple[str, ...]) -> dict[str, list[str]]:
    programs: dict[str, list[str]] = {}
    for item in items:
        name, equals, command = item.partition("=")
        name = name.strip()
        try:
            words = shlex.split(command)
        except ValueError as error:
            raise click.BadParameter(f"{item!r}: {error}", param_hint="'--program'") from None
        if not equals or not name or not words:
            raise click.BadParameter(
                f"write NAME=COMMAND (js='node examples/bots/heaviest.js'), got {item!r}", param_hint="'--program'"
            )
        if name in programs:
            raise click.BadParameter(f"{name!r} is named twice", param_hint="'--program'")
        programs[name] = words
    return programs


def _check_database(path: Path) -> None:
    """Fails with a clear message if ``path`` cannot hold the games (no such folder, not a database, read-only)."""
    if path.is_dir():
        raise click.BadParameter(f"{str(path)!r} is a folder: name a file, like games.sqlite3", param_hint="'--store'")
    if not path.parent.is_dir():
        raise click.BadParameter(
            f"the folder {str(path.parent)!r} does not exist: create it first", param_hint="'--store'"
        )
    try:
        connection = sqlite3.connect(path)
        try:
            connection.execute("PRAGMA schema_version").fetchone()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise click.BadParameter(f"{str(path)!r} cannot hold the games: {error}", param_hint="'--store'") from None


def _is_postgres(store: str) -> bool:
    return store.startswith(("postgresql://", "postgres://"))


def _check_origins(origins: tuple[str, ...]) -> None:
    for origin in origins:
        if not origin.startswith(("http://", "https://")) or "/" in origin.split("://", 1)[1].rstrip("/"):
            raise click.BadParameter(
                f"an origin is a scheme and a host, like https://play.example.org; got {origin!r}",
                param_hint="'--origin'",
            )


def _check_address(host: str, port: int) -> None:
    """Fails with a clear message if the server could not listen at ``host:port`` (a bad name, a port in use)."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise click.BadParameter(
            f"{host!r} is not an address of this machine: {error.strerror}", param_hint="'--host'"
        ) from None
    family, kind, protocol, _, address = addresses[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise click.BadParameter(
                    f"port {port} is in use: choose another with --port", param_hint="'--port'"
                ) from None
            raise click.BadParameter(
                f"cannot listen at {host}:{port}: {error.strerror}", param_hint="'--host'"
            ) from None


@click.command(context_settings=CONTEXT)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="The address to listen at (0.0.0.0: every network)."
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen at.")
@click.option(
    "--store",
    default="chickenfoot-games.sqlite3",
    show_default=True,
    metavar="FILE|URL",
    help="Where the games are kept: a SQLite file (created if missing), or a PostgreSQL database"
    " (postgresql://user@host/db, the postgres extra) that several servers share.",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    metavar="URL",
    help="The origin of pages that may use the server (repeatable); by default its own address.",
)
@click.option(
    "--program",
    "programs",
    multiple=True,
    metavar="NAME=COMMAND",
    help="Offer a program bot (the bot protocol) as NAME (repeatable): js='node heaviest.js'.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 60),
    default=0.5,
    show_default=True,
    help="Seconds a bot waits before it moves.",
)
@click.option(
    "--expire-after",
    type=click.FloatRange(1, min_open=False),
    default=86_400.0,
    show_default=True,
    metavar="SECONDS",
    help="A game without a move for this long expires: it takes no more moves and no longer counts.",
)
@click.option(
    "--lease",
    type=click.FloatRange(0.5),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long a server holds a game without renewing its lease: how soon another takes a dead one's games.",
)
@click.option(
    "--compression/--no-compression",
    default=True,
    show_default=True,
    help="Compress WebSocket frames; --no-compression saves the work where bandwidth is free (a LAN).",
)
@click.option("--quiet", "-q", is_flag=True, help="Log warnings only (no request log).")
def serve(
    host: str,
    port: int,
    store: str,
    origins: tuple[str, ...],
    programs: tuple[str, ...],
    bot_delay: float,
    expire_after: float,
    lease: float,
    compression: bool,
    quiet: bool,
) -> None:
    """Serve games to browsers and bots: create one at http://HOST:PORT/, share its seats' links.

    Moves are stored (committed) before anyone sees them, so a restarted server resumes every
    unfinished game. Listens on this machine only unless --host says otherwise. Several servers
    given one PostgreSQL --store share the games: any of them serves any game, and the others
    take over the games of one that stops.
    """
    postgres = _is_postgres(store)
    missing = why_missing("chickenfoot.server") or (why_missing("psycopg") if postgres else None)
    if missing:
        raise click.UsageError(missing)
    _check_origins(origins)
    bots = _programs(programs)
    from ..server import GameServer, Limits, PostgresStore, SQLiteStore, Store, own_origins, serve as run

    _check_address(host, port)
    kept: Store = PostgresStore(store) if postgres else SQLiteStore(store)
    limits = Limits(expire_seconds=expire_after)
    try:
        server = GameServer(kept, programs=bots, bot_delay=bot_delay, limits=limits, lease_seconds=lease)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--program'") from None
    # Last, because it creates the file: a refused option leaves nothing behind.
    if not postgres:
        _check_database(Path(store))
    allowed = list(origins) or own_origins(host, port)
    pages = ", ".join(allowed) if allowed else "none: name them with --origin"
    click.echo(
        f"chickenfoot: serving games at http://{host}:{port}/ (keeping them in {kept!r}; pages allowed: {pages});"
        " Ctrl-C stops",
        err=True,
    )
    run(
        server,
        host,
        port,
        origins=allowed,
        log_level="warning" if quiet else "info",
        access_log=not quiet,
        compression=compression,
    )
