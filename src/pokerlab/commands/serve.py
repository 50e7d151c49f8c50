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
    from pokerlab.serve.app import bind_address, create_app, run_server

    host = bind_address(args.host, args.port, args.allow_public, bool(args.sessions))
    app = create_app(args.results_dir, args.sessions)
    catalogue = app.state.catalogue

    def announce(bound_host: str, port: int) -> None:
        url_host = f"[{bound_host}]" if ":" in bound_host else bound_host
        print(f"pokerlab serve: {len(catalogue.charts)} chart set(s), {len(catalogue.packs)} pack(s) from "
              f"{catalogue.root} at http://{url_host}:{port}/"
              + (f" ; sessions of {args.sessions} at http://{url_host}:{port}/sessions" if args.sessions else ""), flush=True)

    return 0 if run_server(app, host, args.port, announce) else 1
