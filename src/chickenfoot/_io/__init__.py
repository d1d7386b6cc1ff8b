"""Where the package meets text and other programs' data: position notation, JSON, game records, perft, extras.

:mod:`._notation` reads and writes a round as one line; :mod:`._json_write` and
:mod:`._json_read` write and read back (checked) games, rounds, moves, rules, records and views;
:mod:`._records` is the :class:`~chickenfoot.GameRecord` and its replay; :mod:`._perft` counts
move sequences from a position; :mod:`._extras` says which optional extra brings which import.
"""

from __future__ import annotations

from ._extras import install_command as install_command, needs as needs, why_missing as why_missing
from ._json_read import from_json as from_json
from ._json_write import to_json as to_json
from ._notation import parse_position as parse_position, position as position
from ._perft import perft as perft
from ._records import (
    FORMAT_VERSION as FORMAT_VERSION,
    MAX_COMMENT as MAX_COMMENT,
    GameRecord as GameRecord,
    record_schema as record_schema,
    replay as replay,
)
