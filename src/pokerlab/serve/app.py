"""The read-only HTTP API over a results directory, and the web app's static files (FastAPI).

What it serves from ``RESULTS_DIR``
    * chart sets: ``charts/{format}/{n}max/{depth}bb.json.gz`` (published preflop charts, gzipped);
    * packs: ``packs/{name}/pack.json`` (postflop solves, :mod:`pokerlab.serve.pack`), and the
      fit's solves ``fit/solves/{format}/{n}max/{depth}bb/eR/bN.pack/pack.json`` as packs named
      ``fit.{format}.{n}max.{depth}bb.eR.bN``;
    * ``manifest.json`` if present: a chart document says whether the manifest lists its file
      with the digest served, and ``meta.stamp`` is the manifest's digest.

Endpoints (all ``GET``, each also answering ``HEAD``; JSON unless said otherwise; the OpenAPI
description at ``/openapi.json`` is generated from the routes below and the models of
:mod:`pokerlab.serve.models`)
    ``/api/v1/sets``                                             chart sets and packs
    ``/api/v1/charts/{format}/{n}max/{depth}bb/nodes``           a chart set's decision nodes
    ``/api/v1/charts/{format}/{n}max/{depth}bb/nodes/{path}``    one preflop NodeDocument
    ``/api/v1/packs/{pack}/spots/{family_id}/nodes``             a pack spot's node paths and deals
                                                                 (``?after=PATH``: the street after a dealt card)
    ``/api/v1/packs/{pack}/spots/{family_id}/nodes/{path}``      one postflop NodeDocument
    ``/`` and ``/app/...``                                       the web app (HTML, JS, CSS)

Caching: every document and list carries an ``ETag`` derived from the content digest of what
it was made from (chart file SHA-256 or ``pack_sha256``) and the document format; a request
whose ``If-None-Match`` matches gets ``304``. A chart file is opened on every request and read
again when it changed (inode, size or time stamps), so a chart replaced in place is served
anew under a new ETag and the old one no longer matches. Pack responses are ``immutable`` for a year;
chart responses must be revalidated (a results directory can be rebuilt in place).

Errors: ``{"error": {"status", "message", "asked"}}`` - 404 for an unknown chart set, pack,
spot or node (naming it), 400 for a malformed id, 405 with ``Allow`` for a method the path
does not take. A redirect (a path with a trailing slash) is to a path on the same server,
never to the host a request's ``Host`` header names. Nothing outside ``RESULTS_DIR`` (and the
packaged web app) is ever read: ids are checked against strict patterns and looked up in the
catalogue (found by listing the directory), never joined to paths as given. A chart or pack
removed since start-up is a 404 and leaves ``/api/v1/sets``; a file the server cannot read is a
JSON 500 naming it, never a traceback.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import json
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any, Callable
from urllib.parse import urlsplit

from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Match
from starlette.staticfiles import StaticFiles

from pokerlab import __version__
from pokerlab.charts import CHART_SUFFIX, parse_chart
from pokerlab.preflop.spot import parse_spot_name
from pokerlab.serve.documents import SCHEMA_VERSION
from pokerlab.serve.models import (ChartNodeList, ErrorBody, ErrorDetail, NodeDocument, PackNodeList, PackStreetList,
                                   PreflopNodeDocument, SetsList)

STATIC_DIR = Path(__file__).resolve().parent / "static"
API = "/api/v1"
FORMAT_RE = re.compile(r"^[a-z_]{1,20}$")
TABLE_RE = re.compile(r"^([2-9])max$")
DEPTH_RE = re.compile(r"^([0-9]{1,4}(\.[0-9]{1,3})?)bb$")
PACK_RE = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
PREFLOP_PATH_RE = re.compile(r"^(root|[FCRSA]+)$")
POSTFLOP_PATH_RE = re.compile(r"^root(\.(fold|check|call|allin|(bet|raise)_[0-9]{1,5}|[AKQJT98765432][shdc])){0,40}$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
DOC_FORMAT = f"node-document/{SCHEMA_VERSION};pokerlab/{__version__}"


class ApiError(Exception):
    """An error answered as JSON: status, message and what was asked."""

    def __init__(self, status: int, message: str, asked: dict[str, Any]):
        super().__init__(message)
        self.status, self.message, self.asked = status, message, asked


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind_address(host: str, allow_public: bool) -> None:
    """``ValueError`` unless ``host`` is loopback or ``allow_public`` was given explicitly."""
    if not is_loopback(host) and not allow_public:
        raise ValueError(f"--host {host}: not a loopback address; the API would be reachable from other machines. "
                         "Pass --allow-public to bind it anyway")


def bind_address(host: str, port: int, allow_public: bool, sessions: bool) -> str:
    """The address to bind for ``host`` as a user writes it (an IPv6 address may keep its URL
    brackets), after every check: loopback unless ``allow_public``, loopback only with the sessions
    dashboard (personal data), and a port in 0..65535 (0: any free port)."""
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    check_bind_address(host, allow_public)
    if sessions and not is_loopback(host):
        raise ValueError(f"--sessions: the sessions dashboard is personal data and binds a loopback address only, not {host!r}")
    if not 0 <= port <= 65535:
        raise ValueError(f"--port {port}: expected 0..65535")
    return host


def run_server(app, host: str, port: int, on_listening: Callable[[str, int], None]) -> bool:
    """Serve ``app`` on uvicorn until stopped (Ctrl-C); ``on_listening(host, port)`` is called once the
    socket is bound (so port 0 shows the real port). Returns whether the server started."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    original_startup = server.startup

    async def startup(sockets=None) -> None:
        await original_startup(sockets)
        if server.started:
            bound = [s for srv in server.servers for s in srv.sockets][0].getsockname()[:2]
            on_listening(bound[0], bound[1])

    server.startup = startup
    server.run()
    return bool(server.started)


def _etag(*parts: str) -> str:
    return '"' + hashlib.sha256("\x1f".join((DOC_FORMAT, *parts)).encode()).hexdigest()[:40] + '"'


def _signature(info: os.stat_result) -> tuple[int, int, int, int]:
    """What tells one version of a file from the next: inode, size and time stamps."""
    return info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _json_bytes(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()


class _Lru:
    """A small thread-safe least-recently-used cache; a value missing is made once, however
    many threads ask for it at the same time (the others wait for it)."""

    def __init__(self, size: int):
        self.size, self.data, self.lock, self.making = size, OrderedDict(), threading.Lock(), {}

    def get(self, key, make):
        with self.lock:
            if key in self.data:
                self.data.move_to_end(key)
                return self.data[key]
            making = self.making.setdefault(key, threading.Lock())
        with making:
            with self.lock:
                if key in self.data:
                    return self.data[key]
            try:
                value = make()
            finally:
                with self.lock:
                    self.making.pop(key, None)
            with self.lock:
                self.data[key] = value
                while len(self.data) > self.size:
                    self.data.popitem(last=False)
        return value


class Catalogue:
    """What a results directory holds, found at start-up and kept up to date (charts and packs
    added, removed or rebuilt in place since); documents made on demand."""

    def __init__(self, results_dir: str | os.PathLike):
        from pokerlab.serve.pack import Pack

        self.root = Path(results_dir).resolve()
        if not self.root.is_dir():
            raise ValueError(f"RESULTS_DIR: {results_dir} is not a directory")
        self._refreshing = threading.Lock()
        self.charts: dict[str, Path] = self._find_charts()
        self.packs: dict[str, Pack] = {}
        self._pack_stats: dict[str, tuple] = {}
        for name, root in self._find_packs().items():
            self.packs[name], self._pack_stats[name] = self._read_pack(root)
        self.manifest: dict[str, str] = {}
        self.manifest_sha256 = None
        manifest = self.root / "manifest.json"
        if manifest.is_file():
            data = manifest.read_bytes()
            self.manifest_sha256 = hashlib.sha256(data).hexdigest()
            self.manifest = {f["path"]: f["sha256"] for f in json.loads(data).get("files", [])}
        self._charts = _Lru(8)
        self._docs = _Lru(512)

    def _inside(self, path: Path) -> bool:
        """True if ``path`` (symlinks resolved) is inside the results directory."""
        try:
            path.resolve().relative_to(self.root)
            return True
        except ValueError:
            return False

    def _find_charts(self) -> dict[str, Path]:
        """``{chart set id: path}`` of the chart files now in the results directory (regular
        files only: a directory named like a chart is not one)."""
        found, charts = {}, self.root / "charts"
        if charts.is_dir():
            for path in sorted(charts.glob(f"*/*/*{CHART_SUFFIX}")):
                fmt, table, stem = path.relative_to(charts).parts[0], path.parent.name, path.name[: -len(CHART_SUFFIX)]
                if (FORMAT_RE.match(fmt) and TABLE_RE.match(table) and DEPTH_RE.match(stem) and path.is_file()
                        and self._inside(path)):
                    found[f"{fmt}/{table}/{stem}"] = path
        return found

    def _find_packs(self) -> dict[str, Path]:
        """``{pack name: directory}`` of the packs now in the results directory: ``packs/{name}``
        and the fit's solves ``fit/solves/{format}/{n}max/{depth}bb/eR/bN.pack`` as
        ``fit.{format}.{n}max.{depth}bb.eR.bN``."""
        found = {}
        packs, fit = self.root / "packs", self.root / "fit" / "solves"
        if packs.is_dir():
            for path in sorted(packs.glob("*/pack.json")):
                if PACK_RE.match(path.parent.name) and path.is_file() and self._inside(path):
                    found[path.parent.name] = path.parent
        if fit.is_dir():
            for path in sorted(fit.glob("*/*/*/*/*.pack/pack.json")):
                name = ".".join(("fit", *path.parent.relative_to(fit).parts))[: -len(".pack")]
                if PACK_RE.match(name) and path.is_file() and self._inside(path):
                    found[name] = path.parent
        return found

    @staticmethod
    def _read_pack(root: Path):
        from pokerlab.serve.pack import Pack

        stat = _signature(os.stat(root / "pack.json"))
        return Pack(root), stat

    def refresh(self) -> None:
        """Catch up with the results directory: charts and packs added or removed since start-up
        (a pack whose ``pack.json`` was replaced is read again; one that cannot be read is left
        out). The tables are replaced whole, never changed in place: requests in other threads
        read them meanwhile."""
        with self._refreshing:
            self.charts = self._find_charts()
            packs, stats = {}, {}
            for name, root in self._find_packs().items():
                try:
                    if name in self.packs and self._pack_stats[name] == _signature(os.stat(root / "pack.json")):
                        packs[name], stats[name] = self.packs[name], self._pack_stats[name]
                    else:
                        packs[name], stats[name] = self._read_pack(root)
                except (OSError, ValueError):
                    continue
            self.packs, self._pack_stats = packs, stats

    # --- charts ---------------------------------------------------------------------------------

    def chart_key(self, fmt: str, table: str, depth: str) -> str:
        asked = {"format": fmt, "table": table, "depth": depth}
        if not FORMAT_RE.match(fmt) or not TABLE_RE.match(table) or not DEPTH_RE.match(depth):
            raise ApiError(400, "malformed chart set id: expected {format}/{n}max/{depth}bb, e.g. cash/6max/100bb", asked)
        key = f"{fmt}/{table}/{depth}"
        if key not in self.charts:
            self.charts = self._find_charts()  # added since start-up?
        if key not in self.charts:
            raise ApiError(404, f"no chart set {key} in this results directory", asked)
        return key

    def chart(self, key: str) -> dict[str, Any]:
        """``{"doc", "tree", "sha256", "provenance", "ids"}`` of a chart set as its file is now:
        the file is opened on every call and parsed again when it changed (another inode, size or
        time stamp: a rebuild renames a new file over it), so documents and ETags follow it. A
        chart file gone (or become a directory) since start-up is a 404."""
        rel, path = f"charts/{key}{CHART_SUFFIX}", self.charts.get(key)
        gone = ApiError(404, f"chart set {key} is no longer in this results directory ({rel} is not a file)",
                        {"chart_set": key})
        if path is None:
            raise gone
        try:
            with open(path, "rb") as fh:
                info = os.fstat(fh.fileno())
                return self._charts.get((key, _signature(info)), lambda: self._load_chart(rel, fh.read()))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise gone from None
        except OSError as exc:
            raise ValueError(f"chart file {rel}: cannot be read ({exc.strerror})") from None

    def _load_chart(self, rel: str, data: bytes) -> dict[str, Any]:
        from pokerlab.preflop.tree import recorded_tree as preflop_tree

        doc = parse_chart(data, rel)
        digest = hashlib.sha256(data).hexdigest()
        listed = self.manifest.get(rel) == digest
        provenance = {
            "campaign": "pokerlab-release",
            "stamp": self.manifest_sha256[:16] if listed and self.manifest_sha256 else "unlisted",
            "pack_sha256": digest,
            "manifest": {"listed": listed, "path": rel,
                         **({"manifest_sha256": self.manifest_sha256} if listed else {})},
        }
        try:
            tree, ids = preflop_tree(doc), {n["id"] for n in doc["nodes"]}
        except (KeyError, TypeError) as exc:
            raise ValueError(f"chart file {rel} is not a pokerlab-chart/1 document "
                             f"(missing or bad {exc})") from None
        return {"doc": doc, "tree": tree, "sha256": digest, "provenance": provenance, "ids": ids}

    def chart_nodes(self, key: str) -> tuple[bytes, str]:
        chart = self.chart(key)

        def make():
            from pokerlab.serve.documents import preflop_node_list

            spot = chart["doc"]["spot"]
            return _json_bytes({"chart_set": key, "positions": spot["positions"], "sha256": chart["sha256"],
                                "nodes": preflop_node_list(chart["doc"], chart["tree"])})

        return self._docs.get(("chart-nodes", key, chart["sha256"]), make), _etag(chart["sha256"], key, "nodes")

    def chart_document(self, key: str, node_path: str) -> tuple[Any, str]:
        """The document of ``node_path`` (made when first asked: call it) and its ETag, from one
        reading of the chart; 400 if the path is malformed, 404 if the chart has no such decision."""
        from pokerlab.serve.documents import preflop_document, preflop_node_id

        asked = {"chart_set": key, "node_path": node_path}
        try:
            node_id = preflop_node_id(node_path)
        except ValueError as exc:
            raise ApiError(400, str(exc), asked) from None
        chart = self.chart(key)
        if node_id not in chart["ids"]:
            raise ApiError(404, f"chart set {key} has no decision node {node_path!r}", asked)
        make = lambda: self._docs.get(("chart", key, chart["sha256"], node_id), lambda: _json_bytes(  # noqa: E731
            preflop_document(chart["doc"], node_id, chart["tree"], chart["provenance"])))
        return make, _etag(chart["sha256"], key, node_path)

    # --- packs ----------------------------------------------------------------------------------

    def pack_spot(self, pack: str, family_id: str):
        asked = {"pack": pack, "family_id": family_id}
        if not PACK_RE.match(pack) or not PACK_RE.match(family_id):
            raise ApiError(400, "malformed pack or family id: letters, digits, '_', '.', '-' only", asked)
        p = self.packs.get(pack)
        try:  # removed or rebuilt since start-up?
            current = p is not None and self._pack_stats.get(pack) == _signature(os.stat(p.root / "pack.json"))
        except OSError:
            current = False
        if not current:
            self.refresh()
            p = self.packs.get(pack)
        if p is None:
            raise ApiError(404, f"no pack {pack!r} in this results directory", asked)
        if family_id not in p.spots:
            raise ApiError(404, f"pack {pack!r} has no spot {family_id!r}", asked)
        return p

    def pack_nodes(self, pack: str, family_id: str, after: str | None = None) -> tuple[bytes, str]:
        p = self.pack_spot(pack, family_id)
        entry = p.spots[family_id]
        if after is not None:  # one later street: the nodes after a dealt card
            asked = {"pack": pack, "family_id": family_id, "after": after}
            if not POSTFLOP_PATH_RE.match(after):
                raise ApiError(400, f"malformed after {after!r}: expected a node path ending with a dealt card", asked)
            try:
                street = self._docs.get(("street", p.sha256, family_id, after), lambda: p.street(family_id, after))
            except KeyError:
                raise ApiError(404, f"pack {pack!r} spot {family_id!r} has no street after {after!r}", asked) from None
            body = _json_bytes({"pack": pack, "pack_sha256": p.sha256, "family_id": family_id, "after": after,
                                **street})
            return body, _etag(p.sha256, family_id, "nodes", after)
        body = _json_bytes({"pack": pack, "pack_sha256": p.sha256, "family_id": family_id, "board": entry["board"],
                            "street": entry["street"], "tier": p.index["tier"], "nodes": entry["nodes"],
                            "deals": entry.get("deals", {}), "lazy": "lazy" in entry})
        return body, _etag(p.sha256, family_id, "nodes")

    def pack_document(self, pack: str, family_id: str, node_path: str) -> tuple[Any, str]:
        """The document (made when first asked: call it) and its ETag, after 400 for a malformed
        path and 404 for a node the spot does not serve."""
        asked = {"pack": pack, "family_id": family_id, "node_path": node_path}
        p = self.pack_spot(pack, family_id)
        if not POSTFLOP_PATH_RE.match(node_path):
            raise ApiError(400, f"malformed node_path {node_path!r}: expected root then '.'-joined action ids "
                           "and dealt cards", asked)
        if not p.has_node(family_id, node_path):
            raise ApiError(404, f"pack {pack!r} spot {family_id!r} has no node {node_path!r}", asked)
        make = lambda: self._docs.get(("pack", p.sha256, family_id, node_path),  # noqa: E731
                                      lambda: _json_bytes(p.document(family_id, node_path)))
        return make, _etag(p.sha256, family_id, node_path)

    # --- listing --------------------------------------------------------------------------------

    def sets(self) -> tuple[bytes, str]:
        self.refresh()
        charts = []
        for key in self.charts:
            spot = parse_spot_name(key)
            charts.append({"id": key, "format": spot.format, "seats": spot.seats, "depth_bb": spot.depth})
        charts.sort(key=lambda c: (c["format"], c["seats"], c["depth_bb"]))
        packs = [{"id": name, "pack_sha256": p.sha256, "campaign": p.index["campaign"], "stamp": p.index["stamp"],
                  "tier": p.index["tier"],
                  "spots": [{"family_id": s["family_id"], "board": s["board"], "street": s["street"],
                             "nodes": len(s["nodes"])} for s in p.index["spots"]]}
                 for name, p in self.packs.items()]
        body = _json_bytes({"chart_sets": charts, "packs": packs})
        return body, '"' + hashlib.sha256(body).hexdigest()[:40] + '"'


class RelativeRedirects:
    """ASGI middleware: a redirect's ``Location`` becomes a path (a relative reference, RFC 9110),
    so a redirect (e.g. the trailing-slash one) never names the host a request's ``Host`` header
    claimed: the server does not send a browser on to whatever host a client wrote."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def send_relative(message):
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                headers = []
                for name, value in message.get("headers", []):
                    if name.lower() == b"location":
                        url = urlsplit(value.decode("latin-1"))
                        value = ("/" + url.path.lstrip("/") + (f"?{url.query}" if url.query else "")).encode("latin-1")
                    headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_relative if scope["type"] == "http" else send)


def allowed_methods(request: Request) -> set[str]:
    """The methods the routes at the request's path take (a path may have a GET and a POST route),
    with ``HEAD`` wherever ``GET`` is (:class:`HeadAsGet`)."""
    methods = set()
    for route in request.app.router.routes:
        if isinstance(route, APIRoute) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods
    return methods | ({"HEAD"} if "GET" in methods else set())


class HeadAsGet:
    """ASGI middleware: a ``HEAD`` is answered as the ``GET`` of the same path without its body
    (RFC 9110: the same status and headers). The routes take ``GET`` only, so the OpenAPI lists
    each operation once (FastAPI would give a ``GET``-and-``HEAD`` route one operation id twice)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message):
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


API_DESCRIPTION = ("Read-only API over solved preflop charts and postflop packs. Documents follow NodeDocument v1 "
                   "(pokerlab/data/schemas/node-document.schema.json; preflop variant node-document-preflop.schema.json). "
                   "Units: bb. Every GET also answers HEAD. Errors are the Error body; a malformed id is a 400, "
                   "never a 422.")
CACHE_HEADERS = {"ETag": {"description": "digest of what the body is made from and of the document format; "
                          "send it back in If-None-Match for a 304", "schema": {"type": "string"}},
                 "Cache-Control": {"description": f"'{IMMUTABLE}' for a pack, '{REVALIDATE}' otherwise",
                                   "schema": {"type": "string"}}}
ERRORS = {304: {"description": "If-None-Match matched the ETag (no body)"},
          400: {"model": ErrorBody, "description": "malformed id (the error names the pattern expected)"},
          404: {"model": ErrorBody, "description": "unknown chart set, pack, spot or node"},
          500: {"model": ErrorBody, "description": "a served file cannot be read or fails its check"}}
CACHED_RESPONSES = {200: {"headers": CACHE_HEADERS}, **ERRORS}


def api_description(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI 3.1 description generated from ``app``'s routes and models. FastAPI adds a 422
    to every operation taking parameters; this API never answers one (each handler checks its
    own parameters and answers a 400 in the error model), so it is left out."""
    spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    for operations in spec["paths"].values():
        for operation in operations.values():
            operation["responses"].pop("422", None)
    for name in ("HTTPValidationError", "ValidationError"):
        spec.get("components", {}).get("schemas", {}).pop(name, None)
    return spec


def _path_param(description: str, pattern: re.Pattern, alias: str | None = None):
    """A path parameter documented with the pattern its handler checks (checked there, not by
    FastAPI: a mismatch is a 400 naming what was expected, not a 422)."""
    return PathParam(alias=alias, description=description, json_schema_extra={"pattern": pattern.pattern})


FormatParam = Annotated[str, _path_param("cash, mtt, icm_bubble, icm_final", FORMAT_RE, alias="format")]
TableParam = Annotated[str, _path_param("table size, e.g. 6max", TABLE_RE)]
DepthParam = Annotated[str, _path_param("stack depth, e.g. 100bb", DEPTH_RE)]
PackParam = Annotated[str, _path_param("pack name: a directory under packs/, or fit.{format}.{n}max.{depth}bb.eR.bN",
                                       PACK_RE)]
FamilyParam = Annotated[str, _path_param("the solved spot's id in the pack", PACK_RE)]


def create_app(results_dir: str | os.PathLike, sessions_dir: str | os.PathLike | None = None) -> FastAPI:
    """The application serving ``results_dir`` (read-only; GET and HEAD only). With
    ``sessions_dir``, the sessions dashboard and its few write endpoints are added
    (:mod:`pokerlab.sessions.web`); nothing else changes."""
    catalogue = Catalogue(results_dir)

    def error(status: int, message: str, asked: dict[str, Any]) -> JSONResponse:
        body = ErrorBody(error=ErrorDetail(status=status, message=message, asked=asked))
        return JSONResponse(body.model_dump(), status_code=status)

    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.message, exc.asked)

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        response = error(exc.status_code, str(exc.detail), {"path": request.url.path})
        response.headers.update(exc.headers or {})  # a 405's Allow (the web app's files set their own)
        methods = allowed_methods(request) if exc.status_code == 405 else set()
        if methods:
            response.headers["Allow"] = ", ".join(sorted(methods))
        return response

    async def bad_data(request: Request, exc: ValueError) -> JSONResponse:
        """A served file that fails its check (a pack file not matching its digest, a broken chart)."""
        return error(500, str(exc), {"path": request.url.path})

    async def file_error(request: Request, exc: OSError) -> JSONResponse:
        """A file the server reads or writes failed (no path in the answer: it may lie outside the results)."""
        return error(500, f"the server could not read or write a file it needs ({exc.strerror or exc})",
                     {"path": request.url.path})

    app = FastAPI(title="pokerlab", version=__version__, description=API_DESCRIPTION,
                  openapi_url=None, docs_url=None, redoc_url=None,  # the docs pages would load scripts from a CDN
                  exception_handlers={ApiError: api_error, HTTPException: http_error, ValueError: bad_data,
                                      OSError: file_error},
                  middleware=[Middleware(RelativeRedirects), Middleware(HeadAsGet)])
    app.state.catalogue = catalogue

    def answer(request: Request, etag: str, make, cache: str) -> Response:
        headers = {"ETag": etag, "Cache-Control": cache}
        given = request.headers.get("if-none-match", "")
        if given and (given.strip() == "*" or etag in [t.strip().removeprefix("W/") for t in given.split(",")]):
            return Response(status_code=304, headers=headers)
        return Response(make(), media_type="application/json", headers=headers)

    @app.get(f"{API}/sets", response_model=SetsList, responses={200: {"headers": CACHE_HEADERS}, 304: ERRORS[304],
                                                                500: ERRORS[500]},
             summary="Chart sets and packs in the results directory")
    def sets(request: Request) -> Response:
        body, etag = catalogue.sets()
        return answer(request, etag, lambda: body, REVALIDATE)

    @app.get(f"{API}/charts/{{format}}/{{table}}/{{depth}}/nodes", response_model=ChartNodeList,
             responses=CACHED_RESPONSES, summary="Decision nodes of a chart set")
    def chart_nodes(request: Request, fmt: FormatParam, table: TableParam, depth: DepthParam) -> Response:
        body, etag = catalogue.chart_nodes(catalogue.chart_key(fmt, table, depth))
        return answer(request, etag, lambda: body, REVALIDATE)

    @app.get(f"{API}/charts/{{format}}/{{table}}/{{depth}}/nodes/{{node_path}}", response_model=PreflopNodeDocument,
             responses=CACHED_RESPONSES, summary="Preflop NodeDocument")
    def chart_document(request: Request, fmt: FormatParam, table: TableParam, depth: DepthParam,
                       node_path: Annotated[str, _path_param("root or the chart's action string (F, C, R, S, A)",
                                                             PREFLOP_PATH_RE)]) -> Response:
        key = catalogue.chart_key(fmt, table, depth)
        make, etag = catalogue.chart_document(key, node_path)  # 404/400 before any 304
        return answer(request, etag, make, REVALIDATE)

    @app.get(f"{API}/packs/{{pack}}/spots/{{family_id}}/nodes", response_model=PackNodeList | PackStreetList,
             responses=CACHED_RESPONSES, summary="Node paths of a pack spot")
    def pack_nodes(request: Request, pack: PackParam, family_id: FamilyParam,
                   after: Annotated[str | None, Query(
                       description="a node path ending with a dealt card: list the street it begins (lazy packs "
                       "list later streets this way)", json_schema_extra={"pattern": POSTFLOP_PATH_RE.pattern})] = None,
                   ) -> Response:
        body, etag = catalogue.pack_nodes(pack, family_id, after)
        return answer(request, etag, lambda: body, IMMUTABLE)

    @app.get(f"{API}/packs/{{pack}}/spots/{{family_id}}/nodes/{{node_path}}", response_model=NodeDocument,
             responses=CACHED_RESPONSES, summary="Postflop NodeDocument")
    def pack_document(request: Request, pack: PackParam, family_id: FamilyParam,
                      node_path: Annotated[str, _path_param("root, then '.'-joined action ids and dealt cards",
                                                            POSTFLOP_PATH_RE)]) -> Response:
        make, etag = catalogue.pack_document(pack, family_id, node_path)  # 404/400 before any 304
        return answer(request, etag, make, IMMUTABLE)

    if sessions_dir is not None:
        from pokerlab.sessions.web import sessions_routes

        app.router.routes.extend(sessions_routes(sessions_dir, results_dir, STATIC_DIR, ErrorBody))

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": REVALIDATE})

    @functools.cache
    def description() -> dict[str, Any]:  # made on first request: it takes ~0.1 s of pydantic's schema generation
        return api_description(app)

    @functools.cache
    def description_bytes() -> bytes:
        return _json_bytes(description())

    app.openapi = description  # FastAPI's hook: what app.openapi() answers

    @app.get("/openapi.json", include_in_schema=False)
    def openapi_json() -> Response:
        return Response(description_bytes(), media_type="application/json", headers={"Cache-Control": REVALIDATE})

    app.mount("/app", StaticFiles(directory=STATIC_DIR), name="app")
    return app
