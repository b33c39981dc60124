"""The browser's files (:data:`hexfolk.web.WEB_DIR`) at ``/app``: Starlette's ``StaticFiles``
(its path checks, 404s, ``ETag`` and ``Last-Modified``, 304 answers) with each file's bytes
kept in memory once read.

``StaticFiles`` opens and reads a file in worker threads at every request (three thread hops
each); opening a table page asks for some 40 files at once, and every hop waits for a loop
that is also running tables. Here a file is read once and kept while its modification time
and size stay the same (an edited file is read again: the stamp is checked at every request by
``StaticFiles``' own ``stat``). The page's files are some 60 small texts, under 1 MB in all.
A ``Range`` request goes to ``StaticFiles`` as it is.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

FILE_MAX = 1 << 20
"""A file over 1 MiB is not kept in memory (none of the page's is)."""


class WebFiles(StaticFiles):
    """``StaticFiles`` of ``directory`` answering from memory (see the module)."""

    def __init__(self, *, directory: str | os.PathLike[str]):
        super().__init__(directory=directory)
        self._kept: dict[str, tuple[tuple[int, int], bytes]] = {}

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        request_headers = Headers(scope=scope)
        if status_code != 200 or "range" in request_headers or stat_result.st_size > FILE_MAX:
            return super().file_response(full_path, stat_result, scope, status_code)
        # the headers StaticFiles would send (type, length, ETag, Last-Modified): no I/O
        headers = FileResponse(full_path, stat_result=stat_result).headers
        if self.is_not_modified(headers, request_headers):
            return NotModifiedResponse(headers)
        key = str(full_path)
        stamp = (stat_result.st_mtime_ns, stat_result.st_size)
        kept = self._kept.get(key)
        if kept is None or kept[0] != stamp:
            body = Path(full_path).read_bytes()
            if len(body) != stat_result.st_size:  # changed under us: serve it, keep nothing
                return super().file_response(full_path, stat_result, scope, status_code)
            kept = self._kept[key] = (stamp, body)
        return Response(kept[1], headers=dict(headers))
