//! b-inary's postflop-solver on the trees of `benchmarks/postflop.py`, for side-by-side timing.
//!
//!     pfs-bench --case {river,turn,flop,wide,wide2} --threads N --target PCT
//!               [--max-iterations 3000] [--check-every 10] [--compression] [--dump-lines]
//!
//! The loop is postflop-solver's own `solve` without its printing: `solve_step` for t = 0, 1, ...
//! and `compute_exploitability` every `check_every` iterations, stopping at the target (% of the
//! starting pot). Prints one JSON line: iterations, wall seconds of the steps and of the checks,
//! process CPU seconds, exploitability, each player's range EV (% of the pot), the solver's
//! `memory_usage()` (float32 and compressed, MiB), peak RSS (MiB), the combo counts and the public
//! tree's counts (decision nodes, street transitions, fold and showdown leaves, once per betting
//! sequence, as pokerlab counts them). `--dump-lines` prints every betting line instead, to check
//! the tree against pokerlab's line by line.
//!
//! Trees: the reference ones (pot 100, stack 200, bet 50%, raise 100%, all-in) and the wide flops
//! (pot 5.5 and stack 97.5 scaled to whole chips: 55 and 975; bet 50%, or 33% and 75%, and all-in;
//! raise all-in only). Whole chips round the wide trees' sizes (pokerlab's 27.5 is 28 here): the
//! lines have the same shape, the amounts differ by at most 1.8%.

use postflop_solver::*;
use std::time::Instant;

const IP_RANGE: &str = "AA,KK,QQ,JJ,AK,AQs,KQ,QJs,JTs,T9s,98s,A5s";
const OOP_RANGE: &str = "QQ:0.5,JJ,TT,99,88,AQ,AJs,KQs,KJs,QTs,JTs,T9s,87s,76s";
const WIDE_BTN: &str = "22+,A2s+,K2s+,Q4s+,J6s+,T6s+,96s+,85s+,75s+,64s+,54s,A5o+,K9o+,Q9o+,J9o+,T9o";
const WIDE_BB: &str =
    "22-99,A2s-AJs,K2s-KJs,Q5s+,J7s+,T7s+,97s+,86s+,75s+,64s+,53s+,A2o-AJo,K8o+,Q9o+,J9o+,T9o,98o";

struct Case {
    board: &'static str,
    oop: &'static str,
    ip: &'static str,
    pot: i32,
    stack: i32,
    bets: &'static str,
    raises: &'static str,
    /// pokerlab's BetTree.allin_threshold
    allin_threshold: f64,
}

fn case(name: &str) -> Case {
    let reference = |board, t| Case {
        board,
        oop: OOP_RANGE,
        ip: IP_RANGE,
        pot: 100,
        stack: 200,
        bets: "50%, a",
        raises: "100%, a",
        allin_threshold: t,
    };
    // pokerlab: pot 5.5, stack 97.5; postflop-solver needs integer chips -> x10
    let wide = |bets| Case {
        board: "QsJh2h",
        oop: WIDE_BB,
        ip: WIDE_BTN,
        pot: 55,
        stack: 975,
        bets,
        raises: "a",
        allin_threshold: 1.0,
    };
    match name {
        "river" => reference("QsJh2h8d3c", 0.67),
        "turn" => reference("QsJh2h8d", 1.0),
        "flop" => reference("QsJh2h", 1.0),
        "wide" => wide("50%, a"),
        "wide2" => wide("33%, 75%, a"),
        _ => panic!("unknown case {name}"),
    }
}

/// pokerlab turns a sized bet into the all-in when the bettor's stake since the root, S, exceeds
/// S* = t * (stack + pot/2) - pot/2. postflop-solver turns it into the all-in when the stack left
/// after the call is <= f * (pot after the call) = f * (pot + 2S), i.e. S >= (stack - f pot)/(1 + 2f).
/// Equating the two cut-offs gives f = (stack - S*) / (pot + 2 S*) (0 for t = 1).
fn force_allin_threshold(c: &Case) -> f64 {
    let (p, s) = (c.pot as f64, c.stack as f64);
    let s_star = c.allin_threshold * (s + p / 2.0) - p / 2.0;
    ((s - s_star) / (p + 2.0 * s_star)).max(0.0)
}

/// postflop-solver's range parser wants dash ranges high-to-low ("AJs-A2s"); pokerlab's strings
/// also use low-to-high ("A2s-AJs", "22-99"). Swap such endpoints (same set of hands).
fn normalize_range(s: &str) -> String {
    const RANKS: &str = "23456789TJQKA";
    let key = |h: &str| -> (usize, usize) {
        let mut it = h.chars().map(|ch| RANKS.find(ch.to_ascii_uppercase()).unwrap_or(0));
        (it.next().unwrap_or(0), it.next().unwrap_or(0))
    };
    s.split(',')
        .map(|group| {
            let (hands, weight) = match group.split_once(':') {
                Some((h, w)) => (h, Some(w)),
                None => (group, None),
            };
            let hands = match hands.split_once('-') {
                Some((a, b)) if key(a) < key(b) => format!("{b}-{a}"),
                _ => hands.to_string(),
            };
            match weight {
                Some(w) => format!("{hands}:{w}"),
                None => hands,
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn build(c: &Case) -> (CardConfig, ActionTree) {
    let cards: Vec<Card> = (0..c.board.len() / 2)
        .map(|i| card_from_str(&c.board[2 * i..2 * i + 2]).unwrap())
        .collect();
    let card_config = CardConfig {
        range: [
            normalize_range(c.oop).parse().unwrap(),
            normalize_range(c.ip).parse().unwrap(),
        ],
        flop: flop_from_str(&c.board[..6]).unwrap(),
        turn: if cards.len() > 3 { cards[3] } else { NOT_DEALT },
        river: if cards.len() > 4 { cards[4] } else { NOT_DEALT },
    };
    let sizes = BetSizeOptions::try_from((c.bets, c.raises)).unwrap();
    let tree_config = TreeConfig {
        initial_state: match cards.len() {
            3 => BoardState::Flop,
            4 => BoardState::Turn,
            _ => BoardState::River,
        },
        starting_pot: c.pot,
        effective_stack: c.stack,
        rake_rate: 0.0,
        rake_cap: 0.0,
        flop_bet_sizes: [sizes.clone(), sizes.clone()],
        turn_bet_sizes: [sizes.clone(), sizes.clone()],
        river_bet_sizes: [sizes.clone(), sizes],
        turn_donk_sizes: None,  // = bet sizes, as pokerlab's donks=None
        river_donk_sizes: None,
        add_allin_threshold: 0.0, // all-in is always offered via "a" in the sizes
        force_allin_threshold: force_allin_threshold(c),
        merging_threshold: 0.0,
    };
    (card_config, ActionTree::new(tree_config).unwrap())
}

#[derive(Default)]
struct Counts {
    decision: u64,
    transition: u64,
    fold: u64,
    showdown: u64,
}

/// Walks the action tree once per betting sequence (chance = one "deal" edge). An all-in called
/// before the river is one showdown leaf (its run-out chance nodes are not transitions), as in
/// pokerlab's public tree.
fn walk(tree: &mut ActionTree, counts: &mut Counts, line: &mut Vec<String>, lines: &mut Vec<String>,
        street_put: [i32; 2], player: usize) {
    if tree.is_terminal_node() {
        if tree.history().last() == Some(&Action::Fold) {
            counts.fold += 1;
        } else {
            counts.showdown += 1;
        }
        lines.push(line.join(" "));
        return;
    }
    let (mut street_put, mut player) = (street_put, player);
    let dealt = tree.is_chance_node();
    if dealt {
        counts.transition += 1;
        street_put = [0, 0];
        player = 0;
        line.push("DEAL".to_string());
    }
    counts.decision += 1;
    let stack = tree.config().effective_stack;
    let total = tree.total_bet_amount();
    for action in tree.available_actions().to_vec() {
        let mut put = street_put;
        let token = match action {
            Action::Fold => "FOLD".to_string(),
            Action::Check => "CHECK".to_string(),
            Action::Call => {
                put[player] = put[player ^ 1];
                "CALL".to_string()
            }
            Action::Bet(a) | Action::Raise(a) | Action::AllIn(a) => {
                let added = a - put[player];
                put[player] = a;
                let word = if matches!(action, Action::Bet(_)) || street_put[player ^ 1] == 0 {
                    "BET"
                } else {
                    "RAISE"
                };
                if total[player] + added == stack {
                    format!("{word} ALLIN")
                } else {
                    format!("{word} {added}")
                }
            }
            _ => unreachable!(),
        };
        tree.play(action).unwrap();
        line.push(token);
        walk(tree, counts, line, lines, put, player ^ 1);
        line.pop();
        tree.undo().unwrap();
    }
    if dealt {
        line.pop();
    }
}

fn cpu_seconds() -> f64 {
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
        t(ru.ru_utime) + t(ru.ru_stime)
    }
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut name = String::from("river");
    let mut threads = 1usize;
    let mut target_pct = 0.05f64;
    let mut max_iterations = 3000u32;
    let mut check_every = 10u32;
    let mut compression = false;
    let mut dump_lines = false;
    let mut i = 1;
    while i < args.len() {
        let value = || args.get(i + 1).cloned().expect("missing value");
        match args[i].as_str() {
            "--case" => { name = value(); i += 1; }
            "--threads" => { threads = value().parse().unwrap(); i += 1; }
            "--target" => { target_pct = value().parse().unwrap(); i += 1; }
            "--max-iterations" => { max_iterations = value().parse().unwrap(); i += 1; }
            "--check-every" => { check_every = value().parse().unwrap(); i += 1; }
            "--compression" => compression = true,
            "--dump-lines" => dump_lines = true,
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().unwrap();

    let c = case(&name);
    let (card_config, mut tree) = build(&c);
    let mut counts = Counts::default();
    let mut lines = Vec::new();
    walk(&mut tree, &mut counts, &mut Vec::new(), &mut lines, [0, 0], 0);
    tree.back_to_root();
    if dump_lines {
        for l in lines {
            println!("{l}");
        }
        return;
    }

    let build_start = Instant::now();
    let mut game = PostFlopGame::with_config(card_config, tree).unwrap();
    let (mem_unc, mem_comp) = game.memory_usage();
    game.allocate_memory(compression);
    let build_seconds = build_start.elapsed().as_secs_f64();
    let combos = [game.private_cards(0).len(), game.private_cards(1).len()];

    let pot = c.pot as f64;
    let target = (target_pct / 100.0 * pot) as f32;
    let (mut solve_s, mut check_s) = (0.0f64, 0.0f64);
    let mut iterations = 0u32;
    let mut exploitability = f32::NAN;
    let cpu0 = cpu_seconds();
    for t in 0..max_iterations {
        let t0 = Instant::now();
        solve_step(&game, t);
        solve_s += t0.elapsed().as_secs_f64();
        iterations = t + 1;
        if (t + 1) % check_every == 0 {
            let t1 = Instant::now();
            exploitability = compute_exploitability(&game);
            check_s += t1.elapsed().as_secs_f64();
            if exploitability <= target {
                break;
            }
        }
    }
    let cpu = cpu_seconds() - cpu0;

    finalize(&mut game);
    game.back_to_root();
    game.cache_normalized_weights();
    let range_ev: Vec<f64> = (0..2)
        .map(|p| {
            let ev = compute_average(&game.expected_values(p), game.normalized_weights(p));
            100.0 * ev as f64 / pot
        })
        .collect();

    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    println!(
        concat!(
            "{{\"case\": \"{}\", \"threads\": {}, \"compression\": {}, \"iterations\": {}, ",
            "\"solve_seconds\": {:.4}, \"check_seconds\": {:.4}, \"cpu_seconds\": {:.4}, ",
            "\"build_seconds\": {:.4}, \"exploitability_pct_pot\": {:.6}, ",
            "\"range_ev_pct_pot\": [{:.5}, {:.5}], \"memory_usage_mib\": {:.2}, ",
            "\"memory_usage_compressed_mib\": {:.2}, \"peak_rss_mib\": {:.1}, \"combos\": [{}, {}], ",
            "\"force_allin_threshold\": {:.6}, \"tree\": {{\"decision\": {}, \"transition\": {}, ",
            "\"fold\": {}, \"showdown\": {}}}}}"
        ),
        name, threads, compression, iterations, solve_s, check_s, cpu, build_seconds,
        100.0 * exploitability as f64 / pot, range_ev[0], range_ev[1], mib(mem_unc), mib(mem_comp),
        peak_rss_mib(), combos[0], combos[1], force_allin_threshold(&c), counts.decision,
        counts.transition, counts.fold, counts.showdown
    );
}
