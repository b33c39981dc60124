"""``GET /api/tables/{id}/analysis``: the post-game analysis of a finished table (issue 29;
``docs/protocol.md``, ``docs/analysis.md`` "On the server").

Public like the record and the replay (anyone with the table's id, once the game is over): the
analysis is computed from the very record ``GET /api/tables/{id}/record`` publishes (seed 0,
every step's text) and from nothing else, so it reveals nothing the record and the replay
(with every seat's view) do not.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from hexfolk.server import analysis_store
from hexfolk.server.analyses import Analyses, answer
from hexfolk.server.errors import ApiError, not_found
from hexfolk.server.lobby import Svc
from hexfolk.server.models import TableRow

router = APIRouter(prefix="/api")


async def _row(svc: Any, table_id: str) -> TableRow:
    room = svc.manager.rooms.get(table_id)
    if room is not None:
        row: TableRow = room.row
        return row
    found = await svc.store.get_table(table_id)
    if found is None:
        raise not_found("table")
    return found


@router.get("/tables/{table_id}/analysis", tags=["games"])
async def analysis(table_id: str, svc: Svc, request: Request) -> dict[str, Any]:
    """The analysis of a finished game: ``status`` (``queued``, ``running``, ``ready``,
    ``failed``), ``progress`` (0..1), ``analysis`` (once ``ready``: the JSON ``hexfolk analyze
    --json`` prints for the table's record, ``docs/analysis.md``) and ``error`` (once
    ``failed``). 404 for an unknown table, 409 ``not_finished`` before the end. A finished
    table without an analysis (finished before this server version) gets one queued."""
    row = await _row(svc, table_id)
    if row.status != "finished":
        raise ApiError("not_finished", "the analysis is made once the game is over", 409)
    found = await analysis_store.get(svc.store, table_id)
    if found is None:
        analyses: Analyses = request.app.state.analyses
        await analyses.request(table_id)
        found = await analysis_store.get(svc.store, table_id)
    return answer(found)
