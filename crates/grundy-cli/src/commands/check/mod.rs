//! `grundy check GAME --formula EXPR | --program CMD [--to N | --components A..B --max M
//! --samples K --seed S] [--timeout SECS]`, or `grundy check [GAME] --input-format F --program
//! CMD [--misere]`: cross-checks a guess against the definition (对拍).
//!
//! The positions are every heap `0..=N`, or random sums of `A..=B` heaps of at most `M`
//! (deduplicated, sorted smallest first, so the first disagreement is the smallest found).
//! The truth comes from the game itself, its `Ruleset` through the registry: a built-in game,
//! or a script game whose moves run in a watched worker (its memoized solve runs there). Exit status 0 when everything agrees, 1 with
//! the counterexample, 2 for an error (a bad formula, a program that crashes, hangs or prints
//! the wrong number of lines).
//!
//! Without `--to` and `--components`, a program is checked on every heap `0..=1000` and on
//! random sums of 2 to 4 heaps and as many P-positions (a wrong nim-sum shows there first).
//!
//! With `--input-format NAME|FILE` the program is a solution as submitted to a judge: each test
//! is written in the problem's own input format (`crate::judge`), as many tests a file as the
//! format allows, and its answers are read in the problem's own words. By default the tests
//! are drawn from the problem's whole input family ([`judged`]); with `--to` or `--components`
//! they are the chosen heaps, those the format's bounds exclude not tried. A failure is printed
//! as a whole input file.

mod judged;
mod program;

use crate::games::resolve;
use crate::output::{Stop, print, print_json};
use crate::script_worker::ScriptProxy;
use grundy::control::Control;
use grundy::heap::AsHeapGame;
use grundy::judge_format::{Answer, Claim, JudgeFormat, TestWriter};
use grundy::random::SplitMix64;
use grundy::ruleset::Ruleset;
use grundy::script::formula::FormulaAnswer;
use grundy::sum::Position;
use grundy::{GameError, Outcome, Value};
use num_bigint::BigUint;
use program::run_program;
use std::collections::HashMap;
use std::sync::Arc;

/// Tests a formula or a program against the game's definition.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy check sub:1,3,4 --formula 'n % 7 not in (0, 2)' --to 10000
  grundy check nim --formula 'p[0] ^ p[1]' --components 2..2 --max 50 --samples 1000 --seed 1
  grundy rules --write-examples /tmp/grundy-examples && grundy check script:/tmp/grundy-examples/kayles.star --formula 'n > 0' --to 60
  grundy check --input-format acwing-893 --program 'grundy outcome --input-format acwing-893' --samples 200 --seed 1
  grundy check --input-format hdu-1907 --program 'grundy outcome --input-format hdu-1907' --samples 200 --seed 1")]
pub struct Args {
    /// The game: any built-in game (heap components) or script:PATH. With --input-format, only
    /// when the format names no game, or to fix its parameters (`sub:2,5` for `game sub:{S}`).
    game: Option<String>,
    /// A Starlark expression over `n` (the heap, for one heap) or `p` (the list of heaps):
    /// an int (the value), a bool (True: the player to move wins) or "P"/"N".
    #[arg(long, value_name = "EXPR", conflicts_with = "program", required_unless_present = "program")]
    formula: Option<String>,
    /// A command run once by `bash -c`: stdin gets the number of positions T, then one line
    /// per position (the number of components, then the components); it prints T answers: a
    /// value, or P/N, Lose/Win, No/Yes, Second/First (any case; Win/Yes/First: the player to
    /// move wins).
    #[arg(long, value_name = "CMD")]
    program: Option<String>,
    /// Check every heap 0..=N (when --components is not given). Without --to and
    /// --components: every heap 0..=1000 and, for --program (or a formula over `p`), random
    /// sums of 2 to 4 heaps and P-positions among them; with --input-format, tests drawn from
    /// the whole format.
    #[arg(long, value_name = "N")]
    to: Option<u64>,
    /// Check random sums with this many heaps: `K` or `A..B`.
    #[arg(long, value_name = "A..B")]
    components: Option<String>,
    /// The largest heap in random sums.
    #[arg(long, value_name = "M", default_value_t = 30)]
    max: u64,
    /// How many distinct random sums to check (all of them when fewer exist); with
    /// --input-format, how many tests to draw (default 1000 for a format of one test a file,
    /// 2000 for one of many).
    #[arg(long, value_name = "K")]
    samples: Option<u64>,
    /// The random seed (default: from the clock; printed, so a run can be repeated).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    #[arg(long, value_name = "NAME|FILE", requires = "program", conflicts_with = "formula", help = crate::judge::input_format_help(
        "The program reads a judge's input and prints the judge's answers, in this format (tests are drawn from the whole format: counts, the game's parameters and positions)"
    ))]
    input_format: Option<String>,
    /// Misère play: whoever moves last loses (with --input-format, as the directive `play
    /// misere`). Answers are outcomes, not values.
    #[arg(long)]
    misere: bool,
    /// With --input-format: the tests are played in this compound instead of the sum (as the
    /// directive `compound every`): `every` (Every-SG), `conjunctive` or `selective`.
    #[arg(long, value_name = "every|conjunctive|selective", value_parser = crate::commands::compound::parse, conflicts_with = "misere", requires = "input_format")]
    compound: Option<grundy::compound::Compound>,
    /// Seconds the program may run (each run: one a file of tests).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// With --input-format, the most seconds grundy spends on the right answers of the drawn
    /// tests (drawing them included): a format whose game is costly to compute is refused
    /// with an estimate, naming what to lower, rather than run for minutes.
    #[arg(long, value_name = "SECS", default_value_t = judged::DEFAULT_ANSWER_TIME, requires = "input_format")]
    answer_time: f64,
}

/// Positions are sums of heaps.
type Heaps = Vec<u64>;

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let format = args.input_format.as_deref().map(crate::judge::load_format).transpose()?;
    let format = match format {
        Some(format) if args.misere => Some(format.played_misere()?),
        other => other,
    };
    let format = match (format, args.compound) {
        (Some(format), Some(compound)) => Some(format.played_in(compound)?),
        (format, _) => format,
    };
    if let Some(compound) = format.as_ref().and_then(|format| format.compound())
        && (args.to.is_some() || args.components.is_some())
    {
        anyhow::bail!(
            "the format's tests are played in the {} compound: check draws them from the whole format, so leave out --to and --components",
            compound.name()
        );
    }
    if let (Some(format), None, None) = (&format, args.to, &args.components) {
        return run_judged(&args, format, json, control);
    }
    if args.misere {
        anyhow::bail!(
            "--misere checks a judge's solution: give it with --input-format (and no --to or --components), or write `play misere` in the format"
        );
    }
    let Some(game) = args.game.clone() else {
        anyhow::bail!(
            "give the GAME to check (`grundy check nim --program CMD`), or --input-format with a format that names its game"
        );
    };
    let writer = format.as_ref().map(|format| format.writer(&game)).transpose()?;
    let truth = Truth::new(&game, control)?;
    let default_mix = args.to.is_none() && args.components.is_none() && format.is_none();
    let sums_make_sense = args.formula.as_deref().is_none_or(mentions_the_heap_list);
    if let Some(expression) = &args.formula
        && args.components.is_none()
        && !(default_mix && sums_make_sense)
    {
        return check_formula_on_every_heap(&game, expression, args.to.unwrap_or(DEFAULT_TO), &truth, json);
    }
    let (mut positions, mut sampled) = positions(&args, control)?;
    if default_mix && sums_make_sense {
        let seed = seed_of(&args);
        let single_values = truth.values(&positions)?;
        let sums = default_sums(&single_values, seed);
        let count = sums.len();
        positions.extend(sums);
        sampled = Some(Sample { seed, exhausted: false, with_singles: Some(count) });
    }
    let mut outside = 0usize;
    if let (Some(format), Some(writer)) = (&format, &writer) {
        let before = positions.len();
        positions.retain(|heaps| writer.test(heaps).is_some());
        outside = before - positions.len();
        if positions.is_empty() {
            anyhow::bail!(
                "none of the {before} positions fits the format ({}): choose heaps the problem allows with --to, or --components and --max",
                format.describe_position_bounds(writer.heaps_name())
            );
        }
    }
    let values = truth.values(&positions)?;
    let disagreement = if let Some(expression) = &args.formula {
        check_formula(expression, &positions, &values)?
    } else {
        let command = args.program.as_deref().ok_or_else(|| anyhow::anyhow!("give --formula or --program"))?;
        match (&format, &writer) {
            (Some(format), Some(writer)) => {
                check_judged_program(command, &args, format, writer, &positions, &values, control)?
            }
            _ => check_program(command, &args, &positions, &values, &truth, control)?,
        }
    };
    let mut drawn =
        sampled.as_ref().map(|sample| sample.describe(positions.len() + outside, &args)).unwrap_or_default();
    if outside > 0 {
        let skipped = format!("{outside} outside the format's bounds not tried");
        drawn = if drawn.is_empty() { skipped } else { format!("{drawn}; {skipped}") };
    }
    match disagreement {
        None if json => print_json(&serde_json::json!({
            "game": game,
            "agrees": true,
            "positions": positions.len(),
            "seed": sampled.as_ref().map(|sample| sample.seed),
            "all_positions": sampled.as_ref().is_none_or(|sample| sample.exhausted),
        })),
        None if drawn.is_empty() => print(&format!("agrees on {} positions\n", positions.len())),
        None => print(&format!("agrees on {} positions ({drawn})\n", positions.len())),
        Some(report) => {
            let (heaps, value) = match &report.shrunk {
                Some((heaps, value)) => (heaps, value),
                None => (&positions[report.index], &values[report.index]),
            };
            let proof = truth.proof(heaps, value)?;
            if json {
                print_json(&serde_json::json!({
                    "game": game,
                    "agrees": false,
                    "seed": sampled.as_ref().map(|sample| sample.seed),
                    "counterexample": texts(heaps),
                    "input": report.input,
                    "value": value.finite().map(ToString::to_string),
                    "outcome": value.outcome().to_string(),
                    "report": format!("{}{proof}", report.text),
                }))?;
            } else {
                print(&format!("{}{proof}", report.text))?;
                if sampled.is_some() {
                    print(&format!("positions checked: {drawn}\n"))?;
                } else if outside > 0 {
                    print(&format!("positions not tried: {outside} outside the format's bounds\n"))?;
                }
            }
            Err(Stop::Counterexample.into())
        }
    }
}

/// A judge's solution checked on tests drawn from its format's whole input family.
fn run_judged(args: &Args, format: &JudgeFormat, json: bool, control: &Control) -> anyhow::Result<()> {
    let format_name = args.input_format.as_deref().unwrap_or_default();
    if !format.names_its_game() && args.game.is_none() {
        anyhow::bail!(
            "--input-format {format_name} names no game (no `game` line): give the GAME word (`grundy check nim --input-format {format_name} --program CMD`)"
        );
    }
    let budget = args.samples.unwrap_or(if format.tests_per_file() == 1 {
        judged::DEFAULT_TESTS_ONE_A_FILE
    } else {
        judged::DEFAULT_TESTS_MANY_A_FILE
    });
    if !(1..=1_000_000).contains(&budget) {
        anyhow::bail!("--samples {budget}: draw between 1 and 1000000 tests");
    }
    if !(args.answer_time.is_finite() && args.answer_time > 0.0 && args.answer_time <= 86_400.0) {
        anyhow::bail!("--answer-time {}: give a number of seconds above 0, at most 86400", args.answer_time);
    }
    let settings = judged::Settings {
        command: args.program.as_deref().ok_or_else(|| anyhow::anyhow!("--input-format goes with --program"))?,
        game: args.game.as_deref(),
        format_name,
        budget,
        seed: seed_of(args),
        timeout: args.timeout,
        output_limit: program::output_limit(control),
        answer_time: std::time::Duration::from_secs_f64(args.answer_time),
    };
    judged::run(format, &settings, json, control)
}

/// How random sums were drawn.
struct Sample {
    seed: u64,
    /// Fewer distinct sums exist than `--samples` asked for: every one is checked.
    exhausted: bool,
    /// The default mix: every heap 0..=1000, then this many sums.
    with_singles: Option<usize>,
}

impl Sample {
    /// `10000 distinct random sums, --seed 7`, or `every sum of …: only N exist, fewer than
    /// --samples K`.
    fn describe(&self, count: usize, args: &Args) -> String {
        if let Some(sums) = self.with_singles {
            return format!(
                "every heap 0..{DEFAULT_TO}, and {sums} sums of 2 to 4 heaps up to {SUM_MAX_HEAP} (P-positions and random sums), --seed {}",
                self.seed
            );
        }
        if self.exhausted {
            format!(
                "every sum of {} heaps up to {}: only {count} exist, fewer than --samples {}",
                args.components.as_deref().unwrap_or_default(),
                args.max,
                args.samples.unwrap_or(DEFAULT_SAMPLES)
            )
        } else {
            format!("{count} distinct random sums, --seed {}", self.seed)
        }
    }
}

struct Disagreement {
    index: usize,
    text: String,
    /// The failing test as a whole input file, with `--input-format`.
    input: Option<String>,
    /// The failing sum after shrinking, with its value, when it is not `positions[index]`.
    shrunk: Option<(Heaps, Value)>,
}

/// The positions to check, and how they were drawn when at random: `--samples` distinct sums,
/// or every sum when fewer exist.
fn positions(args: &Args, control: &Control) -> anyhow::Result<(Vec<Heaps>, Option<Sample>)> {
    let samples = args.samples.unwrap_or(DEFAULT_SAMPLES);
    let Some(range) = &args.components else {
        let to = args.to.unwrap_or(DEFAULT_TO);
        if to > 100_000_000 {
            anyhow::bail!("--to {to}: at most 100000000 heaps are checked in one run");
        }
        control.check_memory(|| format!("checking heaps 0..={to}"), u128::from(to) + 1, position_bytes(args, 1))?;
        return Ok(((0..=to).map(|heap| vec![heap]).collect(), None));
    };
    let (low, high) = parse_range(range)?;
    if samples > 10_000_000 {
        anyhow::bail!("--samples {samples}: at most 10000000 in one run");
    }
    let seed = seed_of(args);
    control.check_memory(
        || format!("checking {samples} random sums of up to {high} heaps"),
        u128::from(samples),
        position_bytes(args, high),
    )?;
    let heap_sizes = args.max.saturating_add(1);
    let exhausted = sums_count(low, high, heap_sizes) <= u128::from(samples);
    let mut drawn: Vec<Heaps> = if exhausted {
        every_sum(low, high, args.max)
    } else {
        // Distinct draws until there are K (more sums exist than K: at worst, K near their
        // number, about K·ln K draws, the coupon collector's).
        let mut random = SplitMix64::new(seed);
        let mut distinct = std::collections::HashSet::with_capacity(samples as usize);
        while (distinct.len() as u64) < samples {
            let count = low + random.below(high - low + 1);
            let mut heaps: Heaps = (0..count).map(|_| random.below(heap_sizes)).collect();
            heaps.sort_unstable();
            distinct.insert(heaps);
        }
        distinct.into_iter().collect()
    };
    // Smallest first: by total size, then by the number of heaps, then the heaps.
    drawn.sort_by_key(|heaps| (heaps.iter().map(|&heap| u128::from(heap)).sum::<u128>(), heaps.len(), heaps.clone()));
    Ok((drawn, Some(Sample { seed, exhausted, with_singles: None })))
}

/// How many sums of `low..=high` heaps (as multisets) of `heap_sizes` sizes there are,
/// saturating: `C(heap_sizes + k - 1, k)` for each count `k`.
fn sums_count(low: u64, high: u64, heap_sizes: u64) -> u128 {
    let mut total: u128 = 0;
    for count in low..=high {
        let mut multisets: u128 = 1;
        for index in 0..count {
            multisets = multisets.saturating_mul(u128::from(heap_sizes) + u128::from(index)) / u128::from(index + 1);
            if multisets > u128::from(u64::MAX) {
                return u128::MAX;
            }
        }
        total = total.saturating_add(multisets);
    }
    total
}

/// Every sum of `low..=high` heaps of sizes `0..=max`, each sorted (only called when there are
/// at most `--samples` of them).
fn every_sum(low: u64, high: u64, max: u64) -> Vec<Heaps> {
    fn extend(heaps: &mut Heaps, left: u64, from: u64, max: u64, out: &mut Vec<Heaps>) {
        if left == 0 {
            out.push(heaps.clone());
            return;
        }
        for heap in from..=max {
            heaps.push(heap);
            extend(heaps, left - 1, heap, max, out);
            heaps.pop();
        }
    }
    let mut out = Vec::new();
    for count in low..=high {
        extend(&mut Vec::new(), count, 0, max, &mut out);
    }
    out
}

/// About what one position of `heaps` heaps takes while it is checked, measured on
/// `check kayles --formula 'n > 0'` (85 bytes a heap of one position): the list of heaps, its
/// value and the allocator's headers; with `--program`, its line of the program's input too.
fn position_bytes(args: &Args, heaps: u64) -> u128 {
    let line = if args.program.is_some() { 64 + 24 * u128::from(heaps) } else { 0 };
    96 + 8 * u128::from(heaps) + line
}

fn parse_range(text: &str) -> anyhow::Result<(u64, u64)> {
    let bad = || anyhow::anyhow!("--components `{text}`: expected a count K or a range A..B with 1 <= A <= B <= 1000");
    let (low, high) = match text.split_once("..") {
        Some((low, high)) => (low.trim().parse().map_err(|_| bad())?, high.trim().parse().map_err(|_| bad())?),
        None => {
            let count: u64 = text.trim().parse().map_err(|_| bad())?;
            (count, count)
        }
    };
    if low == 0 || low > high || high > 1000 {
        return Err(bad());
    }
    Ok((low, high))
}

/// Heaps checked one by one by default, and random sums' count and largest heap.
const DEFAULT_TO: u64 = 1000;
const DEFAULT_SAMPLES: u64 = 1000;
const SUM_MAX_HEAP: u64 = 30;

/// `--seed`, or one from the clock (printed, so that the run can be repeated).
fn seed_of(args: &Args) -> u64 {
    args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |time| time.as_nanos() as u64)
            % 1_000_000
    })
}

/// Whether a formula reads `p`, the list of heaps (and so can be asked about sums).
fn mentions_the_heap_list(expression: &str) -> bool {
    let mut words = expression.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    words.any(|word| word == "p")
}

/// The default sums: 2 to 4 heaps up to [`SUM_MAX_HEAP`], 1000 drawn at random and up to 1000
/// P-positions (the first heap chosen so that the values' nim-sum is 0), distinct, smallest
/// first. `single_values[h]` is the value of heap `h`.
fn default_sums(single_values: &[Value], seed: u64) -> Vec<Heaps> {
    let mut random = SplitMix64::new(seed);
    let finite = |heap: u64| single_values.get(heap as usize).and_then(Value::finite).cloned();
    let mut draw = |p_position: bool| -> Option<Heaps> {
        let count = random.between(2, 4);
        let mut heaps: Heaps = (0..count).map(|_| random.between(0, SUM_MAX_HEAP)).collect();
        if p_position {
            // The first heap's value is the nim-sum of the others'.
            let others = heaps[1..].iter().map(|&heap| finite(heap)).collect::<Option<Vec<BigUint>>>()?;
            let wanted = others.iter().fold(BigUint::ZERO, |sum, value| sum ^ value);
            let fitting: Vec<u64> = (0..=SUM_MAX_HEAP).filter(|&heap| finite(heap).as_ref() == Some(&wanted)).collect();
            if fitting.is_empty() {
                return None;
            }
            heaps[0] = fitting[random.index(fitting.len())];
        }
        heaps.sort_unstable();
        Some(heaps)
    };
    let mut distinct = std::collections::HashSet::new();
    // As many P-positions as random sums, as far as distinct ones are found.
    for p_position in [true, false] {
        let (mut made, mut attempts) = (0, 0);
        while made < DEFAULT_SAMPLES && attempts < 40 * DEFAULT_SAMPLES {
            attempts += 1;
            if let Some(heaps) = draw(p_position)
                && distinct.insert(heaps)
            {
                made += 1;
            }
        }
    }
    let mut sums: Vec<Heaps> = distinct.into_iter().collect();
    sums.sort_by_key(|heaps| (heaps.iter().sum::<u64>(), heaps.len(), heaps.clone()));
    sums
}

/// Where the right answers come from: the game's ruleset, a built-in game or a script game
/// (`script:PATH`, its moves run in a watched worker) alike. A sum's value is the model's
/// ([`Position::value`]: the nim-sum, with Smith's rules for loopy values), and the proof lines
/// are the position's options.
struct Truth {
    game: String,
    ruleset: Arc<dyn Ruleset>,
}

impl Truth {
    fn new(game: &str, control: &Control) -> anyhow::Result<Truth> {
        let ruleset = resolve(game, control)?;
        // Positions are sums of heaps: a game whose components are not heaps (pairs,
        // vertices, coin rows, a script's words) is refused here, naming what it takes, and
        // not at its first position as a bad `0` or a script's failure on an integer.
        if Position::parse_single(ruleset.clone(), &["0"]).is_err() || ruleset.heap_game().is_none() {
            anyhow::bail!(
                "`{}` is not a heap game: check tries sums of heaps 0, 1, 2, … and its components are {}s (check takes {}, or script:PATH on integers)",
                game,
                ruleset.component_noun(),
                grundy::registry::heap_family_list()
            );
        }
        Ok(Truth { game: game.to_owned(), ruleset })
    }

    /// The values of `positions` by the model's sums, a chunk of positions at a time: the
    /// distinct heaps of a chunk read and valued together (a script's in one request each).
    fn values(&self, positions: &[Heaps]) -> anyhow::Result<Vec<Value>> {
        let mut values = Vec::with_capacity(positions.len());
        for chunk in positions.chunks(VALUE_CHUNK) {
            for value in Position::values_of(&self.positions(chunk)?) {
                values.push(value?);
            }
        }
        Ok(values)
    }

    /// The values of the single heaps `from..=last`, asked of the game in one call (no sum to
    /// make of each: `check --formula --to 100000000` asks 10^8).
    fn heap_values(&self, from: u64, last: u64) -> anyhow::Result<Vec<Value>> {
        let texts: Vec<String> = (from..=last).map(|heap| heap.to_string()).collect();
        let words: Vec<&str> = texts.iter().map(String::as_str).collect();
        let components = self.ruleset.parse_components(&words).into_iter().collect::<Result<Vec<_>, _>>()?;
        Ok(self.ruleset.values(&components).into_iter().collect::<Result<Vec<_>, _>>()?)
    }

    /// Sums of heaps of the game, each distinct heap read once.
    fn positions(&self, sums: &[Heaps]) -> anyhow::Result<Vec<Position>> {
        let mut distinct: Vec<u64> = sums.iter().flatten().copied().collect();
        distinct.sort_unstable();
        distinct.dedup();
        let texts = texts(&distinct);
        let words: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut components = HashMap::with_capacity(distinct.len());
        for (heap, component) in distinct.into_iter().zip(self.ruleset.parse_components(&words)) {
            components.insert(heap, component?);
        }
        Ok(sums
            .iter()
            .map(|heaps| {
                Position::single(self.ruleset.clone(), heaps.iter().map(|heap| components[heap].clone()).collect())
            })
            .collect())
    }

    /// A sum of heaps of the game, read as the command line reads them.
    fn position(&self, heaps: &Heaps) -> anyhow::Result<Position> {
        let texts = texts(heaps);
        let words: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(Position::parse_single(self.ruleset.clone(), &words)?)
    }

    /// The options of `heaps` with their values, as lines: what proves the true answer.
    fn proof(&self, heaps: &Heaps, value: &Value) -> anyhow::Result<String> {
        const SHOWN: usize = 40;
        let reason = match value.outcome() {
            Outcome::P => "a P-position: every option has a nonzero value",
            Outcome::N if value.finite().is_some() => "the value is the least number no option has",
            _ => "loopy: ∞(K), K = the finite values of its options",
        };
        let mut lines: Vec<String> = Vec::new();
        let position = self.position(heaps)?;
        match position.options(100_000) {
            Ok(moves) => {
                for one_move in moves.iter().take(SHOWN) {
                    let option = position.after(one_move);
                    let option_value = option.value()?;
                    let components = option.parts.iter().flat_map(grundy::sum::Part::texts).collect::<Vec<_>>();
                    lines.push(format!("{}  (value {option_value})", position_text(&components)));
                }
                if moves.len() > SHOWN {
                    lines.push(format!("… and {} more", moves.len() - SHOWN));
                }
            }
            // A script that failed, or a limit its worker reached: one line, not a proof.
            Err(error @ GameError::OutOfReach(_)) => return Err(error.into()),
            Err(_) => lines.push(format!("({} does not list its moves)", self.game)),
        }
        if lines.is_empty() {
            lines.push("(none: no move is possible)".to_owned());
        }
        Ok(format!(
            "  options ({reason}):\n{}\n",
            lines.iter().map(|line| format!("    {line}")).collect::<Vec<_>>().join("\n")
        ))
    }
}

fn texts(heaps: &Heaps) -> Vec<String> {
    heaps.iter().map(u64::to_string).collect()
}

fn position_text(components: &[String]) -> String {
    if components.is_empty() { "(the empty sum)".to_owned() } else { components.join(" ") }
}

/// What an answer says, and the true answer in the same terms.
fn compare(claim: &FormulaAnswer, truth: &Value) -> Option<String> {
    match claim {
        FormulaAnswer::Value(value) => match truth {
            Value::Finite(right) if right == value => None,
            other => Some(other.to_string()),
        },
        FormulaAnswer::Outcome(outcome) => {
            (truth.outcome() != *outcome).then(|| format!("{} (value {truth})", truth.outcome()))
        }
    }
}

/// Positions valued together by [`Truth::values`]: one request of a script's worker a chunk,
/// and the memory of a chunk's positions whatever their number.
const VALUE_CHUNK: usize = 1 << 16;

/// Heaps checked a chunk at a time by [`check_formula_on_every_heap`]: the memory of a check is
/// that of one chunk, whatever `--to` is.
const HEAP_CHUNK: u64 = 1 << 16;

/// `--formula` on every heap `0..=to`, a chunk of heaps at a time, stopping at the first
/// disagreement (the smallest heap).
fn check_formula_on_every_heap(game: &str, expression: &str, to: u64, truth: &Truth, json: bool) -> anyhow::Result<()> {
    if to > 100_000_000 {
        anyhow::bail!("--to {to}: at most 100000000 heaps are checked in one run");
    }
    let mut formula = ScriptProxy::spawn_formula(expression, crate::script_worker::options())?;
    let mut from = 0u64;
    while from <= to {
        let last = to.min(from.saturating_add(HEAP_CHUNK - 1));
        let values = truth.heap_values(from, last)?;
        let claims = formula.evaluate_heaps(from, last + 1)?;
        for ((heap, claim), value) in (from..=last).zip(&claims).zip(&values) {
            let Some(right) = compare(claim, value) else { continue };
            let position = &vec![heap];
            let text = format!(
                "counterexample: {}\n  formula `{expression}` gives {claim}\n  the definition gives {right}\n",
                position_text(&texts(position))
            );
            let proof = truth.proof(position, value)?;
            if json {
                print_json(&serde_json::json!({
                    "game": game,
                    "agrees": false,
                    "seed": null,
                    "counterexample": texts(position),
                    "input": null,
                    "value": value.finite().map(ToString::to_string),
                    "outcome": value.outcome().to_string(),
                    "report": format!("{text}{proof}"),
                }))?;
            } else {
                print(&format!("{text}{proof}"))?;
            }
            return Err(Stop::Counterexample.into());
        }
        if crate::signals::received().is_some() {
            return Err(
                Stop::Interrupted(format!("stopped at heap {last} of 0..={to}: no disagreement before it")).into()
            );
        }
        from = last + 1;
    }
    let checked = to + 1;
    if json {
        print_json(&serde_json::json!({
            "game": game,
            "agrees": true,
            "positions": checked,
            "seed": null,
            "all_positions": true,
        }))
    } else {
        print(&format!("agrees on {checked} positions\n"))
    }
}

fn check_formula(expression: &str, positions: &[Heaps], values: &[Value]) -> anyhow::Result<Option<Disagreement>> {
    // The formula runs in a watched worker, like a script game: one giant allocation in a
    // single step must not take grundy down.
    let mut formula = ScriptProxy::spawn_formula(expression, crate::script_worker::options())?;
    for (batch, chunk) in positions.chunks(FORMULA_BATCH).enumerate() {
        let claims = formula.evaluate(chunk)?;
        let offset = batch * FORMULA_BATCH;
        for (index, (heaps, claim)) in chunk.iter().zip(&claims).enumerate() {
            if let Some(right) = compare(claim, &values[offset + index]) {
                let text = format!(
                    "counterexample: {}\n  formula `{expression}` gives {claim}\n  the definition gives {right}\n",
                    position_text(&texts(heaps))
                );
                return Ok(Some(Disagreement { index: offset + index, text, input: None, shrunk: None }));
            }
        }
    }
    Ok(None)
}

/// Positions sent to the formula's worker at a time.
const FORMULA_BATCH: usize = 4096;

/// Reads one answer line of a program.
fn parse_answer(line: &str) -> Option<FormulaAnswer> {
    let word = line.trim();
    if let Ok(value) = word.parse::<BigUint>() {
        return Some(FormulaAnswer::Value(value));
    }
    match word.to_ascii_lowercase().as_str() {
        "n" | "win" | "yes" | "first" => Some(FormulaAnswer::Outcome(Outcome::N)),
        "p" | "lose" | "no" | "second" => Some(FormulaAnswer::Outcome(Outcome::P)),
        _ => None,
    }
}

/// The program's input for `sums`: their count, then a line a sum (its number of heaps, then
/// the heaps).
fn program_input(sums: &[Heaps]) -> (String, Vec<String>) {
    let mut input = format!("{}\n", sums.len());
    let mut lines: Vec<String> = Vec::with_capacity(sums.len());
    for heaps in sums {
        let line = format!("{} {}", heaps.len(), texts(heaps).join(" "));
        input.push_str(line.trim_end());
        input.push('\n');
        lines.push(line.trim_end().to_owned());
    }
    (input, lines)
}

/// The most runs of the program spent shrinking a failing sum.
const SHRINK_RUNS: usize = 64;

/// Smaller versions of a failing sum, the smallest first: without one heap; each heap at 0 to 15
/// (a failure is often at a small heap that halving jumps over), at the points
/// of a binary search from 0 up to it, and one less.
fn smaller_sums(heaps: &Heaps) -> Vec<Heaps> {
    let mut candidates: Vec<Heaps> = Vec::new();
    if heaps.len() > 1 {
        for removed in 0..heaps.len() {
            let mut fewer = heaps.clone();
            fewer.remove(removed);
            candidates.push(fewer);
        }
    }
    for (index, &heap) in heaps.iter().enumerate() {
        let mut values: Vec<u64> = (0..16).collect();
        let mut gap = heap;
        while gap > 1 {
            gap /= 2;
            values.push(heap - gap);
        }
        values.push(heap.saturating_sub(1));
        values.retain(|&value| value < heap);
        values.sort_unstable();
        values.dedup();
        for value in values {
            let mut smaller = heaps.clone();
            smaller[index] = value;
            smaller.sort_unstable();
            candidates.push(smaller);
        }
    }
    let size = |heaps: &Heaps| (heaps.iter().map(|&heap| u128::from(heap)).sum::<u128>(), heaps.len());
    candidates.sort_by_key(|candidate| (size(candidate), candidate.clone()));
    candidates.dedup();
    candidates.retain(|candidate| candidate != heaps);
    candidates
}

/// The program's answer to each of `sums` (one run), or `None` when it fails or answers in
/// other terms (shrinking then stops where it is).
fn answers_of(command: &str, args: &Args, sums: &[Heaps], control: &Control) -> Option<Vec<String>> {
    let (input, _) = program_input(sums);
    let output = run_program(command, input, args.timeout, program::output_limit(control)).ok()?;
    let answers: Vec<String> =
        output.lines().filter(|line| !line.trim().is_empty()).map(|line| line.trim().to_owned()).collect();
    (answers.len() == sums.len()).then_some(answers)
}

/// Whether `answer` is wrong for `truth`: the right answer in its terms, if so.
fn wrong(answer: &str, truth: &Value) -> Option<String> {
    compare(&parse_answer(answer)?, truth)
}

/// A failing sum shrunk to a local minimum: no smaller version of it (see [`smaller_sums`])
/// fails too, or [`SHRINK_RUNS`] runs spent. The sum, the program's answer and the value.
fn shrink_program_failure(
    command: &str,
    args: &Args,
    failing: (Heaps, String, Value),
    truth: &Truth,
    control: &Control,
) -> (Heaps, String, Value) {
    let mut best = failing;
    for _ in 0..SHRINK_RUNS {
        let candidates = smaller_sums(&best.0);
        if candidates.is_empty() {
            break;
        }
        let (Ok(values), Some(answers)) = (truth.values(&candidates), answers_of(command, args, &candidates, control))
        else {
            break;
        };
        let found =
            candidates.into_iter().zip(answers).zip(values).find(|((_, answer), value)| wrong(answer, value).is_some());
        match found {
            Some(((heaps, answer), value)) => best = (heaps, answer, value),
            None => break,
        }
    }
    best
}

fn check_program(
    command: &str,
    args: &Args,
    positions: &[Heaps],
    values: &[Value],
    truth: &Truth,
    control: &Control,
) -> anyhow::Result<Option<Disagreement>> {
    let (input, lines) = program_input(positions);
    let output = run_program(command, input, args.timeout, program::output_limit(control))?;
    let answers: Vec<&str> = output.lines().filter(|line| !line.trim().is_empty()).collect();
    if answers.len() != positions.len() {
        anyhow::bail!(
            "the program `{command}` printed {} answer lines for {} positions (one line per position: a value, or P/N, Lose/Win, No/Yes, Second/First)",
            answers.len(),
            positions.len()
        );
    }
    for (index, (answer, value)) in answers.iter().zip(values).enumerate() {
        if parse_answer(answer).is_none() {
            anyhow::bail!(
                "the program `{command}` answered `{}` for the position `{}` (line {}): expected a value or P/N, Lose/Win, No/Yes, Second/First",
                answer.trim(),
                lines[index],
                index + 1
            );
        }
        if wrong(answer, value).is_some() {
            let failing = (positions[index].clone(), answer.trim().to_owned(), value.clone());
            let (heaps, answer, value) = shrink_program_failure(command, args, failing, truth, control);
            let claim = parse_answer(&answer).expect("a failing answer reads");
            let right = compare(&claim, &value).expect("the answer fails");
            let right_words = match &claim {
                FormulaAnswer::Outcome(_) => translate(&answer, &value),
                FormulaAnswer::Value(_) => right.clone(),
            };
            let (_, shown) = program_input(std::slice::from_ref(&heaps));
            let text = format!(
                "counterexample: a failing test for `{command}`\n  input:\n    1\n    {}\n  program's answer: {answer}\n  right answer:     {right_words}   ({right})\n",
                shown[0]
            );
            return Ok(Some(Disagreement { index, text, input: None, shrunk: Some((heaps, value)) }));
        }
    }
    Ok(None)
}

/// Runs the program on files of tests in the judge's format and compares each answer, read in
/// the format's words, with the truth.
fn check_judged_program(
    command: &str,
    args: &Args,
    format: &JudgeFormat,
    writer: &TestWriter,
    positions: &[Heaps],
    values: &[Value],
    control: &Control,
) -> anyhow::Result<Option<Disagreement>> {
    let expected = format.answer().describe();
    if !format.answer().is_one_word() || !format.case_prefix(1).is_empty() || *format.answer() == Answer::Count {
        anyhow::bail!(
            "this format answers {expected}{}: such answers are checked on tests drawn from the whole format; leave out --to and --components",
            if format.case_prefix(1).is_empty() { "" } else { " after a `case` prefix" }
        );
    }
    let per_file = format.tests_per_file();
    for (file, chunk) in positions.chunks(per_file).enumerate() {
        let tests = chunk
            .iter()
            .map(|heaps| writer.test(heaps).ok_or_else(|| anyhow::anyhow!("the heaps {heaps:?} do not fit the format")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let output = run_program(command, format.write(&tests), args.timeout, program::output_limit(control))?;
        let answers: Vec<&str> = output.split_whitespace().collect();
        if answers.len() != chunk.len() {
            anyhow::bail!(
                "the program `{command}` printed {} answers for a file of {} test{} (one answer a test: {expected})",
                answers.len(),
                chunk.len(),
                if chunk.len() == 1 { "" } else { "s" }
            );
        }
        for (index, answer) in answers.iter().enumerate() {
            let truth = &values[file * per_file + index];
            let right = match format.claim(answer) {
                Claim::Outcome(outcome) => outcome == truth.outcome(),
                Claim::Value(value) => truth.finite() == Some(&value),
                Claim::Unrecognized => false,
            };
            if right {
                continue;
            }
            let right_answer = match format.answer() {
                Answer::Value => truth.to_string(),
                _ => format
                    .word(truth.outcome())
                    .map_or_else(|| format!("none: a draw ({})", truth.outcome()), ToOwned::to_owned),
            };
            let input = format.write(std::slice::from_ref(&tests[index]));
            let text = format!(
                "counterexample: a failing test for `{command}`\n--- input (a whole file) ---\n{input}--- end of input ---\n  program's answer: {answer}\n  right answer:     {right_answer}   (value {truth}, {})\n",
                truth.outcome()
            );
            return Ok(Some(Disagreement { index: file * per_file + index, text, input: Some(input), shrunk: None }));
        }
    }
    Ok(None)
}

/// The right outcome in the program's own words (`Yes`/`No`, `First`/`Second`, …).
fn translate(word: &str, truth: &Value) -> String {
    let wins = truth.outcome() == Outcome::N;
    let pair = match word.to_ascii_lowercase().as_str() {
        "win" | "lose" => ("Win", "Lose"),
        "yes" | "no" => ("Yes", "No"),
        "first" | "second" => ("First", "Second"),
        _ => ("N", "P"),
    };
    let right = if wins { pair.0 } else { pair.1 };
    // Keep the program's case: `yes` gets `no`, `YES` gets `NO`.
    if word.chars().all(|c| c.is_ascii_lowercase()) {
        right.to_ascii_lowercase()
    } else if word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase()) {
        right.to_ascii_uppercase()
    } else {
        right.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_every_word_pair() {
        for (word, outcome) in [("Yes", Outcome::N), ("no", Outcome::P), ("FIRST", Outcome::N), ("second", Outcome::P)]
        {
            assert_eq!(parse_answer(word), Some(FormulaAnswer::Outcome(outcome)));
        }
        assert_eq!(parse_answer(" 12 "), Some(FormulaAnswer::Value(BigUint::from(12u32))));
        assert_eq!(parse_answer("maybe"), None);
        assert_eq!(translate("yes", &Value::from(0u64)), "no");
        assert_eq!(translate("First", &Value::from(0u64)), "Second");
    }

    #[test]
    fn ranges_and_draws_are_reproducible() {
        assert_eq!(parse_range("1..4").unwrap(), (1, 4));
        assert_eq!(parse_range("3").unwrap(), (3, 3));
        assert!(parse_range("0..2").is_err() && parse_range("5..2").is_err() && parse_range("x").is_err());
        assert!(mentions_the_heap_list("p[0] ^ p[1]") && !mentions_the_heap_list("n % 7 not in (0, 2)"));
        let values: Vec<Value> = (0..=SUM_MAX_HEAP).map(Value::from).collect();
        let sums = default_sums(&values, 3);
        assert_eq!(sums, default_sums(&values, 3), "reproducible");
        let zero = |heaps: &Heaps| heaps.iter().fold(0, |sum, heap| sum ^ heap) == 0;
        // Nim: about half the sums are P-positions, far more than chance gives.
        assert!(sums.iter().filter(|heaps| zero(heaps)).count() * 3 > sums.len(), "{}", sums.len());
    }

    #[test]
    fn sums_are_counted_and_listed_as_multisets() {
        // Two heaps of 0..=2: 00 01 02 11 12 22; one heap: 3.
        assert_eq!(sums_count(1, 2, 3), 9);
        let every = every_sum(1, 2, 2);
        assert_eq!(every.len(), 9);
        assert!(every.contains(&vec![1, 2]) && !every.contains(&vec![2, 1]));
        assert_eq!(sums_count(1, 1000, u64::MAX), u128::MAX);
    }
}
