"""``pokerlab sessions add|list|report|grade``: the session ledger from the terminal (the same
ledger, settings and math as the dashboard of ``pokerlab serve --sessions DATA_DIR``)."""

from __future__ import annotations

import argparse
import json
import sys

DEFAULT_DATA = "data/sessions"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sessions", help="session ledger: log sessions, list them, report (text, JSON or a static HTML dashboard)",
        description="The session ledger in DATA_DIR (sessions.csv, exports/, settings.json; git-ignored: personal "
        "financial data). Hand-history exports in DATA_DIR/exports are clustered into proposed sessions.")
    sub = parser.add_subparsers(dest="sessions_command", metavar="ACTION")

    def common(p, results=False):
        p.add_argument("--data", default=DEFAULT_DATA, help="data folder (default %(default)s)")
        if results:
            p.add_argument("--results", default="results", help="results folder, for the equity table (default %(default)s)")

    p = sub.add_parser("add", help="log a session (from a proposal, typed figures, or both)")
    common(p)
    p.add_argument("--proposal", type=int, help="start from proposal N of `sessions list --proposals` (1-based)")
    for name in ("start", "end", "hands", "stakes", "hh-net", "rakeback-start", "rakeback-end", "rakeback-claimed",
                 "rake-counter-start", "rake-counter-end", "balance-start", "balance-end", "transfers", "exports", "notes"):
        p.add_argument(f"--{name}", dest=name.replace("-", "_"))
    p.set_defaults(func=_add)

    p = sub.add_parser("list", help="the logged sessions (and with --proposals the proposed ones)")
    common(p)
    p.add_argument("--proposals", action="store_true", help="list the sessions proposed from the exports")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_list)

    p = sub.add_parser("report", help="the dashboard as text, JSON (--json) or a static HTML page (--html FILE)")
    common(p, results=True)
    p.add_argument("--json", action="store_true")
    p.add_argument("--html", help="write a self-contained read-only dashboard page here")
    p.set_defaults(func=_report)

    p = sub.add_parser("grade", help="import and grade new or changed exports (push/fold backtest; needs the equity table)")
    common(p, results=True)
    p.set_defaults(func=_grade)
    parser.set_defaults(func=lambda args: parser.print_help() or 0)


def _proposals(args):
    from pokerlab.sessions.dashboard import propose_sessions

    return propose_sessions(args.data, getattr(args, "results", None))


def _add(args) -> int:
    from pokerlab.sessions.cluster import proposal_fields
    from pokerlab.sessions.ledger import FIELDS, LedgerError, add_session

    values: dict = {}
    if args.proposal is not None:
        values = proposal_fields(_proposals(args), args.proposal, "--proposal")
    for name in FIELDS:
        v = getattr(args, name, None)
        if v is not None:
            values[name] = v
    try:
        s = add_session(args.data, values)
    except LedgerError:
        raise
    except ValueError as exc:
        raise ValueError(f"--{str(exc).replace('_', '-')}") from None
    print(f"logged session {s.id}: {s.as_row()['start']} .. {s.as_row()['end']}, {s.hands} hands")
    return 0


def _list(args) -> int:
    from pokerlab.sessions.ledger import derive, read_ledger

    if args.proposals:
        proposals = _proposals(args)
        if args.json:
            print(json.dumps(proposals, indent=1))
        for k, p in enumerate(proposals, start=1):
            if not args.json:
                print(f"{k:>3}  {p['start']} .. {p['end']}  {p['hands']:>5} hands  net {p['hh_net']:+.2f}  {p['stakes']}"
                      + (f"  (logged: session {p['logged']})" if p["logged"] else ""))
        return 0
    ledger = read_ledger(args.data)
    rows = [{**s.as_json(), **derive(s)} for s in ledger.sessions]
    if args.json:
        print(json.dumps({"sessions": rows, "problems": [str(p) for p in ledger.problems]}, indent=1))
    else:
        for r in rows:
            print(f"{r['id']:>3}  {r['start']} .. {r['end']}  {r['hands']:>5} hands  table {r['table_net']:+.2f}  "
                  f"rakeback {r['rakeback']:+.2f}  total {r['total']:+.2f}  {r['stakes']}")
    for p in ledger.problems:
        print(f"pokerlab sessions: error: {ledger.path} {p}", file=sys.stderr)
    return 2 if ledger.problems else 0


def _report(args) -> int:
    from pokerlab.commands import check_outputs
    from pokerlab.io import write_bytes_atomic
    from pokerlab.sessions.dashboard import dashboard, format_report, static_html

    check_outputs(html=args.html)
    d = dashboard(args.data, args.results, grade=False)
    if args.html:
        write_bytes_atomic(args.html, static_html(d).encode("utf-8"))
        print(f"wrote {args.html}")
    elif args.json:
        print(json.dumps(d, indent=1, sort_keys=True))
    else:
        print(format_report(d))
    return 2 if d["problems"] else 0


def _grade(args) -> int:
    from pokerlab.sessions.exports import grade_exports

    for s in grade_exports(args.data, args.results):
        rows = s["grade"]["rows"] if s.get("grade") else []
        print(f"{s['name']}: {s['imported']}/{s['read']} hands imported, {len(rows)} push/fold decisions graded")
    return 0
