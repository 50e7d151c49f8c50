"""``pokerlab serve [RESULTS_DIR]``: the read-only API and the chart explorer over a results folder.

Binds 127.0.0.1 by default; another address needs ``--allow-public`` (the API has no
authentication). Prints the URL once it listens; Ctrl-C stops it.
"""

from __future__ import annotations

import argparse



def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "serve",
        help="serve charts and postflop packs: read-only API + web app (loopback by default)",
        description="Serve RESULTS_DIR's chart sets (charts/{format}/{n}max/{depth}bb.json.gz) and postflop packs "
        "(packs/NAME/pack.json) as NodeDocument v1 JSON under /api/v1, the OpenAPI description at /openapi.json "
        "and the chart explorer at /.",
    )
    p.add_argument("results_dir", nargs="?", default="results", help="results folder (default %(default)s)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    p.add_argument("--port", type=int, default=8765, help="port (default %(default)s; 0 = any free port)")
    p.add_argument("--allow-public", action="store_true",
                   help="allow a --host that is not a loopback address (the API has no authentication)")
    p.add_argument("--sessions", metavar="DATA_DIR",
                   help="also serve the sessions dashboard of this data folder at /sessions (adds its write endpoints)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pokerlab.serve.app import check_bind_address, create_app, is_loopback

    if args.host.startswith("[") and args.host.endswith("]"):  # an IPv6 address as written in a URL
        args.host = args.host[1:-1]
    check_bind_address(args.host, args.allow_public)
    if args.sessions and not is_loopback(args.host):
        raise ValueError(f"--sessions: the sessions dashboard is personal data and binds a loopback address only, not {args.host!r}")
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: expected 0..65535")
    import uvicorn

    app = create_app(args.results_dir, args.sessions)
    catalogue = app.state.catalogue
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)

    async def announce() -> None:  # after binding, so port 0 shows the real port
        sockets = [s for srv in server.servers for s in srv.sockets]
        host, port = sockets[0].getsockname()[:2]
        url_host = f"[{host}]" if ":" in host else host
        print(f"pokerlab serve: {len(catalogue.charts)} chart set(s), {len(catalogue.packs)} pack(s) from "
              f"{catalogue.root} at http://{url_host}:{port}/"
              + (f" ; sessions of {args.sessions} at http://{url_host}:{port}/sessions" if args.sessions else ""), flush=True)

    original_startup = server.startup

    async def startup(sockets=None) -> None:
        await original_startup(sockets)
        if server.started:
            await announce()

    server.startup = startup
    server.run()
    return 0 if server.started else 1


