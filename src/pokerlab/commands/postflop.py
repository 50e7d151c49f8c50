"""``pokerlab postflop``: solve a heads-up postflop spot (flop, turn or river root).

``pokerlab postflop --pot 100 --stack 200 --board QsJh2h --ip "AA,KK,AK" --oop "QQ-88,AQ"
--bets 50 --raises 100 --allin`` prints each player's range EV (share of the pot, chips),
range equity and the exploitability, with a progress line per measurement on stderr.
``--texassolver-input FILE`` takes the whole game and solve settings from a TexasSolver input
file instead, and with ``--texassolver-dump JSON`` the strategy TexasSolver dumped for it is
read out instead of solving. ``--json`` prints the full result record (per-combo EV, equity,
expected final pot and showdown probability). ``--pack DIR`` also writes the solve as a pack
of NodeDocuments into the new directory ``DIR``, for ``pokerlab serve`` (see
:mod:`pokerlab.serve.pack`): ``--pack-tier tree`` (the default) serves every decision of the
tree, every dealt card included, and solves with suit isomorphism off so that every deal has
its own stored strategy; ``--pack-tier root`` holds the root street's decisions. The documents
after the first deal are written out (``--pack-later eager``, the default for turn roots) or
built on request from the stored spot and strategies (``lazy``, the default for flop roots,
whose tree runs to ~133,000 documents: 2.8 GiB of JSON for the reference flop).
"""

from __future__ import annotations

import argparse
import os
import sys

from pokerlab.commands import comma_separated, positive_number


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "postflop",
        help="solve a heads-up postflop spot (per-combo EV, equity, pot played)",
        description="Discounted CFR over the betting tree from a flop, turn or river root, out of "
        "position acting first, to a target exploitability in %% of the pot. Either give the spot "
        "with --pot/--stack/--board/--ip/--oop and sizes (the same on every street), or "
        "--texassolver-input FILE.",
    )
    p.add_argument("--texassolver-input", metavar="FILE",
                   help="read the spot and settings from a TexasSolver input file")
    p.add_argument("--texassolver-dump", metavar="JSON",
                   help="with --texassolver-input: read out TexasSolver's dump_result strategy instead of solving")
    p.add_argument("--pot", type=float, help="pot at the root, chips")
    p.add_argument("--stack", type=float, help="effective stack behind at the root, chips (0 = check-down)")
    p.add_argument("--board", help="3 to 5 board cards, e.g. QsJh2h")
    p.add_argument("--ip", help="in-position range (notation, e.g. 'AA,KK:0.5,AKs')")
    p.add_argument("--oop", help="out-of-position range")
    p.add_argument("--bets", type=comma_separated(float, "% of pot sizes"), default=(), help="opening bet sizes, %% of pot, comma-separated")
    p.add_argument("--raises", type=comma_separated(float, "% of pot sizes"), default=(), help="raise sizes, %% of the pot after calling")
    p.add_argument("--allin", action="store_true", help="allow all-in")
    p.add_argument("--allin-threshold", type=float, default=1.0,
                   help="a sized bet taking the bettor's stake (half the pot + chips put in) above this share "
                   "of its starting stake is all-in (default %(default)s: never)")
    p.add_argument("--raise-cap", type=int, default=3, help="raises per street after the bet (default %(default)s)")
    p.add_argument("--accuracy", type=float, default=None, help="target exploitability, %% of pot (default 0.05)")
    p.add_argument("--max-iterations", type=int, default=None, help="iteration limit (default 2000)")
    p.add_argument("--max-memory-mb", type=positive_number, default=4096.0, help="refuse trees above this (default %(default)s)")
    p.add_argument("--threads", type=int, default=None,
                   help="threads for the dealt subtrees (default: all cores; the result is the same)")
    p.add_argument("--json", action="store_true", help="print the full result record as JSON")
    p.add_argument("--pack", metavar="DIR", help="also write the solve as a pack of node documents into the new directory DIR")
    p.add_argument("--family-id", help="with --pack: the spot's id (default: street_board_pPOT_sSTACK)")
    p.add_argument("--campaign", default="pokerlab", help="with --pack: the campaign named in the documents (default %(default)s)")
    p.add_argument("--pack-tier", choices=("root", "tree"), default="tree",
                   help="with --pack: 'tree' = every node, every dealt card (solved with suit isomorphism off); "
                   "'root' = the root street's nodes (default %(default)s)")
    p.add_argument("--pack-later", choices=("eager", "lazy"), default=None,
                   help="with --pack-tier tree: write the documents after the first deal, or store the spot and "
                   "strategies and build them on request (default: eager for turn roots, lazy for flop roots)")
    p.add_argument("--bb-chips", type=float, default=1.0,
                   help="with --pack: chips per big blind, the divisor of every bb value (default %(default)s: chips are bb)")
    p.set_defaults(func=run)


def _spot_from_args(args: argparse.Namespace):
    from pokerlab.cards import parse_cards
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.ranges import Range

    missing = [f"--{n}" for n in ("pot", "stack", "board", "ip", "oop") if getattr(args, n) is None]
    if missing:
        raise ValueError(f"missing {', '.join(missing)} (or give --texassolver-input FILE)")
    tree = BetTree.uniform(args.bets, args.raises, args.allin, args.allin_threshold, args.raise_cap)
    return PostflopSpot(args.pot, args.stack, tuple(parse_cards(args.board)),
                        Range.parse(args.oop).weights, Range.parse(args.ip).weights, tree)


def run(args: argparse.Namespace) -> int:
    from pokerlab.io import dumps_json
    from pokerlab.postflop.solver import solve_spot
    from pokerlab.postflop.texassolver import read_texassolver_input, read_texassolver_result

    accuracy, max_iterations = 0.05, 2000
    if args.pack and args.texassolver_dump:
        raise ValueError("--pack: a pack holds pokerlab's own solves; drop --texassolver-dump")
    if args.pack:  # new or empty, and its parent folder (or the empty folder itself) takes files
        from pokerlab.commands import check_outputs
        from pokerlab.serve.pack import check_pack_target

        check_pack_target(args.pack, "--pack")
        check_outputs(pack=os.path.join(args.pack, "probe") if os.path.isdir(args.pack) else args.pack)
    if args.texassolver_dump and not args.texassolver_input:
        raise ValueError("--texassolver-dump needs the --texassolver-input file that produced it")
    if args.texassolver_input:
        given = read_texassolver_input(args.texassolver_input)
        spot, accuracy, max_iterations = given.spot, given.accuracy_pct_pot, given.max_iterations
    else:
        spot = _spot_from_args(args)
    accuracy = args.accuracy if args.accuracy is not None else accuracy
    max_iterations = args.max_iterations if args.max_iterations is not None else max_iterations

    def progress(iterations: int, pct: float) -> None:
        print(f"iteration {iterations}: exploitability {pct:.4f}% of pot", file=sys.stderr, flush=True)

    if args.pack:
        result = _solve_to_pack(args, spot, accuracy, max_iterations, progress)
    elif args.texassolver_dump:
        result = read_texassolver_result(args.texassolver_dump, spot)
    else:
        result = solve_spot(spot, accuracy, max_iterations, progress=progress, max_memory_mb=args.max_memory_mb,
                            threads=args.threads)
    if args.json:
        sys.stdout.write(dumps_json(result.to_json()))
        return 0
    print(f"pot {spot.pot:g}, stack {spot.stack:g}, board {result.to_json()['board']}")
    for name, player in result.players.items():
        print(f"{name:>3}: EV {player.range_ev:.3f} chips ({100 * player.range_ev / spot.pot:.2f}% of pot), "
              f"equity {100 * player.range_equity:.3f}%, {len(player.combos)} combos")
    line = f"exploitability {result.exploitability_chips:.4f} chips = {result.exploitability_pct_pot:.4f}% of pot"
    if args.texassolver_dump:
        print(f"{line} (TexasSolver's dumped strategy, measured by pokerlab's best response)")
    else:
        print(f"{line} after {result.iterations} iterations, {result.seconds:.2f} s on "
              f"{result.extra['threads']} thread(s), {result.extra['memory_bytes'] / 2**20:.1f} MiB of solver state")
    return 0


def _solve_to_pack(args: argparse.Namespace, spot, accuracy: float, max_iterations: int, progress):
    """Solve ``spot`` and write it as a one-spot pack into ``args.pack``; return the result record."""
    from pokerlab.postflop.solver import solve_spot_keeping
    from pokerlab.serve.pack import pack_spot, write_pack

    tier = args.pack_tier
    lazy = None if args.pack_later is None else args.pack_later == "lazy"
    result, solver = solve_spot_keeping(spot, accuracy, max_iterations, progress=progress, max_memory_mb=args.max_memory_mb,
                                        isomorphism=tier == "root", threads=args.threads)
    index = write_pack(args.pack, [pack_spot(solver, accuracy, args.family_id, args.bb_chips, tier, lazy)], args.campaign)
    entry = index["spots"][0]
    print(f"pack {index['pack_sha256']} in {args.pack}: {entry['family_id']}, tier {index['tier']}, "
          f"{len(entry['nodes'])} node documents",
          file=sys.stderr)
    return result
