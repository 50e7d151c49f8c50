"""The sessions dashboard's routes in ``pokerlab serve --sessions DATA_DIR``.

Reads: ``GET /sessions`` (the page) and ``GET /api/v1/sessions`` (:func:`dashboard`, never
grading: a page load never solves). Writes, only here and only with ``--sessions``:
``POST /api/v1/sessions`` (log a session: a JSON object of ledger fields) and
``POST /api/v1/sessions/exports?name=FILE`` (a dropped export: the raw bytes; it is saved
under ``DATA_DIR/exports/``, imported and graded once, in the request). Ledger writes, imports
and grading run in the thread pool, never on the event loop: other requests are answered
meanwhile (grading one export at a time). ``GET /api/v1/sessions/exports/progress`` tells what an
upload in progress is doing (``{"stage": "idle" | "importing" | "grading", "name",
"seconds"}``): the page polls it while its upload is pending.

Every sessions route answers a loopback ``Host`` only (personal data; a DNS-rebound name is
refused). Writes are refused unless they come from the page itself: an ``Origin`` (when sent)
must be the server's own, a logged session must be sent as
``application/json`` and an export with the ``X-Pokerlab-Upload`` header, so a web page on
another origin cannot make the browser write (those requests need a preflight this server
never grants). Errors: ``{"error": {"status", "message", "asked"}}``; a bad field is a 400
naming it, a ledger holding a malformed row a 409 naming its line, a body over the limit
(:data:`MAX_SESSION_BODY` for a session, :data:`MAX_UPLOAD` for an export) a 413 naming it,
answered as soon as the limit is passed (memory stays bounded whatever is sent). The routes are
FastAPI's, so the server's OpenAPI describes them with the models below; bodies are read by hand
(the limits above), not by FastAPI.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from pokerlab.io import compact_json_bytes

MAX_UPLOAD = 64 << 20  # bytes of one dropped export
MAX_SESSION_BODY = 256 << 10  # bytes of one logged session's JSON: three full text fields fit, \u-escaped
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _host_name(host: str) -> str:
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class _ClosedModel(BaseModel):
    """A JSON object with exactly the fields declared."""

    model_config = ConfigDict(extra="forbid")


class SessionsDashboard(_ClosedModel):
    """The dashboard's data (:func:`pokerlab.sessions.dashboard.dashboard`); money in the
    settings' currency. Its tiles, rows and cards are typed here only as JSON objects."""

    settings: dict[str, Any]
    problems: list[str]
    ledger: str
    tiles: dict[str, Any]
    curve: list[dict[str, Any]]
    sessions: list[dict[str, Any]]
    stakes: list[dict[str, Any]]
    proposals: list[dict[str, Any]]
    exports: list[dict[str, Any]]
    population: dict[str, Any]
    untimed_hands: int
    duplicate_hands: int


class SessionRow(_ClosedModel):
    """A ledger row (:meth:`pokerlab.sessions.ledger.Session.as_json`): money in the settings'
    currency, times as ``YYYY-MM-DDTHH:MM:SS``, ``null`` for a reading not given."""

    id: int
    start: str
    end: str
    hands: int
    stakes: str
    hh_net: float
    rakeback_start: float | None
    rakeback_end: float | None
    rakeback_claimed: float
    rake_counter_start: float | None
    rake_counter_end: float | None
    balance_start: float | None
    balance_end: float | None
    transfers: float
    exports: str
    notes: str


class LoggedSession(_ClosedModel):
    logged: SessionRow


class SavedExport(_ClosedModel):
    saved: str
    read: int
    imported: int
    graded: bool


class UploadProgress(_ClosedModel):
    """What an upload in progress is doing; ``seconds`` since it began."""

    stage: Literal["idle", "importing", "grading"]
    name: str | None = None
    seconds: float | None = None


class BodyTooLarge(Exception):
    pass


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, read in chunks; ``BodyTooLarge`` as soon as it exceeds ``limit`` bytes
    (before reading anything when ``Content-Length`` already says so), so memory stays bounded."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge
    return bytes(body)


def sessions_routes(data_dir: str | os.PathLike, results_dir: str | os.PathLike, static_dir: Path,
                   error_model: type[BaseModel]) -> list[APIRoute]:
    """The sessions routes; ``error_model`` is the server's error body, for the OpenAPI."""
    from pokerlab.sessions.dashboard import dashboard
    from pokerlab.sessions.exports import Settings, save_export, scan
    from pokerlab.sessions.ledger import LedgerError, add_session, ensure_data_dir

    data_dir = Path(data_dir)
    ensure_data_dir(data_dir)
    settings = Settings.load(data_dir, results_dir)  # a bad settings file stops the server at start-up
    if Path(settings.equity_table).is_file():
        scan(data_dir, settings, grade=True)  # warm the grades once at start-up
    grading = threading.Lock()
    progress_lock = threading.Lock()
    progress_state = {"stage": "idle"}
    router = APIRouter()

    def errors(*statuses: int) -> dict[int, dict[str, Any]]:
        return {403: {"model": error_model, "description": "not a loopback Host, or (a write) another Origin"},
                **{s: {"model": error_model} for s in statuses}}

    def set_stage(stage: str, name: str = "", started: float = 0.0) -> None:
        with progress_lock:
            progress_state.clear()
            progress_state.update({"stage": stage} if stage == "idle" else {"stage": stage, "name": name,
                                                                             "started": started})

    @router.get("/api/v1/sessions/exports/progress", response_model=UploadProgress, responses=errors(),
                summary="What an upload in progress is doing")
    def progress(request: Request) -> Response:
        bad = foreign_host(request)
        if bad:
            return bad
        with progress_lock:
            state = dict(progress_state)
        if "started" in state:
            state["seconds"] = round(time.monotonic() - state.pop("started"), 1)
        return JSONResponse(state, headers={"Cache-Control": "no-store"})

    def error(status: int, message: str, request: Request) -> JSONResponse:
        return JSONResponse({"error": {"status": status, "message": message, "asked": {"path": request.url.path}}},
                            status_code=status)

    def foreign_host(request: Request) -> JSONResponse | None:
        host = request.headers.get("host", "")
        if _host_name(host) not in LOOPBACK_NAMES:  # also shuts out a DNS-rebound name
            return error(403, f"the sessions dashboard answers a loopback host only (Host: {host!r})", request)
        return None

    def refused(request: Request) -> JSONResponse | None:
        bad = foreign_host(request)
        if bad:
            return bad
        host = request.headers.get("host", "")
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{host}":
            return error(403, f"writes are accepted from this server's own page only (Origin: {origin!r})", request)
        return None

    @router.get("/sessions", include_in_schema=False)
    def page(request: Request) -> Response:
        bad = foreign_host(request)
        if bad:
            return bad
        return FileResponse(static_dir / "sessions.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/v1/sessions", response_model=SessionsDashboard, responses=errors(),
                summary="The sessions dashboard's data (never grades)")
    def data(request: Request) -> Response:
        bad = foreign_host(request)
        if bad:
            return bad
        return Response(compact_json_bytes(dashboard(data_dir, results_dir, grade=False)), media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    @router.post("/api/v1/sessions", status_code=201, response_model=LoggedSession,
                 responses=errors(400, 409, 413, 415), summary="Log a session",
                 openapi_extra={"requestBody": {"required": True, "description": "ledger fields", "content": {
                     "application/json": {"schema": {"type": "object"}}}}})
    async def log_session(request: Request) -> Response:
        bad = refused(request)
        if bad:
            return bad
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return error(415, "send the session as application/json", request)
        try:
            body = json.loads(await read_body(request, MAX_SESSION_BODY))
        except BodyTooLarge:
            return error(413, f"a logged session is at most {MAX_SESSION_BODY >> 10} KiB of JSON", request)
        except ValueError:
            return error(400, "the body is not JSON", request)
        if not isinstance(body, dict):
            return error(400, "expected a JSON object of ledger fields", request)
        try:  # the ledger's lock and file I/O block: off the event loop
            values = {k: v for k, v in body.items() if v is not None and v != ""}
            s = await run_in_threadpool(add_session, data_dir, values)
        except LedgerError as exc:
            return error(409, str(exc), request)
        except ValueError as exc:
            return error(400, str(exc), request)
        return JSONResponse({"logged": s.as_json()}, status_code=201)

    @router.post("/api/v1/sessions/exports", status_code=201, response_model=SavedExport,
                 responses=errors(400, 413), summary="Save, import and grade a dropped export",
                 openapi_extra={"requestBody": {"required": True, "description": "the export's raw bytes",
                                                "content": {"application/octet-stream": {}}}})
    async def upload(request: Request, name: Annotated[str, Query(description="the export's file name")] = "",
                     x_pokerlab_upload: Annotated[str | None, Header(description="1 (the page sends it)")] = None,
                     ) -> Response:
        bad = refused(request)
        if bad:
            return bad
        if x_pokerlab_upload != "1":
            return error(400, "an export is sent with the X-Pokerlab-Upload: 1 header (the page does it)", request)
        try:
            body = await read_body(request, MAX_UPLOAD)
        except BodyTooLarge:
            return error(413, f"an export is at most {MAX_UPLOAD >> 20} MiB", request)

        def save_and_grade() -> dict:
            started = time.monotonic()
            try:
                with grading:  # one upload at a time: its stages are the progress the page shows
                    set_stage("importing", name, started)
                    path = save_export(data_dir, name, body)
                    set_stage("grading", name, started)
                    return next(s for s in scan(data_dir, settings, grade=True) if s["name"] == path.name)
            finally:
                set_stage("idle")

        try:  # import and grading take seconds for a large export: off the event loop, so other requests go on
            summary = await run_in_threadpool(save_and_grade)
        except ValueError as exc:
            return error(400, str(exc), request)
        return JSONResponse({"saved": summary["name"], "read": summary["read"], "imported": summary["imported"],
                             "graded": summary.get("grade") is not None}, status_code=201)

    return router.routes
