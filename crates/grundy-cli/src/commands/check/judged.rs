//! `grundy check --input-format F --program CMD` without `--to` or `--components`: tests drawn
//! from the problem's whole input family (the library's [`grundy::judge_format::draw`]),
//! written as the judge writes them, each answer compared with the definition of the game its
//! test names; the first failing test shrunk and printed as a whole input file.

use super::program::run_program;
use crate::output::{Stop, print, print_json};
use grundy::control::Control;
use grundy::judge_format::draw::{Drawer, Drawn, Kind, Referee, Truth};
use grundy::judge_format::{Bindings, JudgeFormat};
use grundy::{Outcome, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What the check of one format needs from the command line.
pub struct Settings<'a> {
    pub command: &'a str,
    /// The command line's GAME: fixes the format's `game` holes, or names the game of a format
    /// without a `game` line.
    pub game: Option<&'a str>,
    /// `--input-format`'s text, as given.
    pub format_name: &'a str,
    /// How many tests to draw.
    pub budget: u64,
    pub seed: u64,
    pub timeout: f64,
    /// The most of the program's output held ([`super::program::output_limit`]).
    pub output_limit: u64,
    /// The most time the right answers may take, drawing included (`--answer-time`).
    pub answer_time: Duration,
}

/// `--answer-time`'s default, in seconds.
pub const DEFAULT_ANSWER_TIME: f64 = 60.0;
/// How long the right answers run before their total time is estimated.
const ESTIMATE_AFTER: Duration = Duration::from_secs(1);

/// Tests drawn for a format whose files hold one test (each is a run of the program).
pub const DEFAULT_TESTS_ONE_A_FILE: u64 = 1000;
/// Tests drawn for a format whose files hold many.
pub const DEFAULT_TESTS_MANY_A_FILE: u64 = 2000;

/// The most runs of the program spent on shrinking a failing test, and the longest time.
const SHRINK_RUNS: usize = 400;
const SHRINK_TIME: Duration = Duration::from_secs(40);

pub fn run(format: &JudgeFormat, settings: &Settings, json: bool, control: &Control) -> anyhow::Result<()> {
    let fixing = if format.names_its_game() { settings.game } else { None };
    let drawer = Drawer::new(format, fixing)?;
    let resolve = |text: &str| grundy::registry::parse_game_in(text, &crate::games::front_end(control));
    let default_game = if format.names_its_game() { None } else { settings.game.map(str::to_owned) };
    let mut referee = Referee::new(format, &resolve, default_game, crate::limits::misere(), control.clone());
    let (tests, truths) = answers_in_time(&drawer, &mut referee, settings, control)?;
    let judge = Judge { format, drawer: &drawer, settings };
    let per_file = format.tests_per_file();
    for (file, chunk) in tests.chunks(per_file).enumerate() {
        let bindings: Vec<Bindings> = chunk.iter().map(|drawn| drawn.bindings.clone()).collect();
        let chunk_truths = &truths[file * per_file..file * per_file + chunk.len()];
        let answers = judge.answers(&bindings, chunk_truths)?;
        let Some(index) = first_wrong(format, &answers, chunk_truths) else { continue };
        let found_in = chunk[index].kind;
        let failure = Failure { tests: bindings[..=index].to_vec(), truths: chunk_truths[..=index].to_vec(), index };
        let shrunk = judge.shrink(failure, &mut referee)?;
        let run = (file * per_file + chunk.len()).min(tests.len());
        return report_failure(&judge, &shrunk, (found_in, run), &tests, &mut referee, json);
    }
    let counts = counts_by_kind(&tests);
    if json {
        print_json(&serde_json::json!({
            // The command line's GAME, else the format's own `game` text (`sub:{S}`).
            "game": settings.game.or(format.game_text()),
            "input_format": settings.format_name,
            "misere": format.misere(),
            "agrees": true,
            "tests": tests.len(),
            "kinds": by_label(&counts),
            "seed": settings.seed,
        }))
    } else {
        print(&format!(
            "agrees on {} tests drawn from the whole format {} ({}), --seed {}\n",
            tests.len(),
            settings.format_name,
            describe_counts(&counts),
            settings.seed
        ))
    }
}

/// The drawn tests and their right answers, within `settings.answer_time`: a watchdog cancels
/// the run's control at that time (the drawing, which finds P-positions by the game's
/// definition, stops at its next check), and once the answers have run [`ESTIMATE_AFTER`]
/// their total time is estimated from the tests done: past the time, the check is refused
/// at once with the estimate and what to lower, rather than run for minutes silently.
fn answers_in_time(
    drawer: &Drawer,
    referee: &mut Referee,
    settings: &Settings,
    control: &Control,
) -> anyhow::Result<(Vec<Drawn>, Vec<Truth>)> {
    let start = Instant::now();
    let timed_out = std::sync::atomic::AtomicBool::new(false);
    let (done, watching) = std::sync::mpsc::channel::<()>();
    let flag = &timed_out;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = watching.recv_timeout(settings.answer_time) {
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
                control.cancel();
            }
        });
        let result = (|| {
            let out_of_time = |what: String| {
                anyhow::anyhow!(
                    "{what}: past --answer-time {}: lower --samples, or the format's bounds (the game's parameters, the heaps), or give more time (--answer-time)",
                    seconds(settings.answer_time)
                )
            };
            let tests = drawer.draw_tests(settings.budget, settings.seed, referee);
            stop_if_signalled()?;
            if timed_out.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(out_of_time(format!(
                    "drawing {} tests from {} took over {} s (finding P-positions asks the game's definition)",
                    settings.budget,
                    settings.format_name,
                    seconds(settings.answer_time)
                )));
            }
            let mut truths = Vec::with_capacity(tests.len());
            let answering = Instant::now();
            for drawn in &tests {
                let truth = truth_of(drawer, referee, &drawn.bindings);
                stop_if_signalled()?;
                if timed_out.load(std::sync::atomic::Ordering::SeqCst) {
                    return Err(out_of_time(format!(
                        "the right answers of the {} tests drawn from {} took over {} s ({} done)",
                        tests.len(),
                        settings.format_name,
                        seconds(settings.answer_time),
                        truths.len()
                    )));
                }
                truths.push(truth?);
                let spent = answering.elapsed();
                if spent >= ESTIMATE_AFTER && truths.len() < tests.len() {
                    let estimate =
                        start.elapsed() + spent.mul_f64((tests.len() - truths.len()) as f64 / truths.len() as f64);
                    if estimate > settings.answer_time {
                        let fitting =
                            (settings.answer_time.as_secs_f64() / spent.as_secs_f64() * truths.len() as f64) as u64;
                        return Err(out_of_time(format!(
                            "the right answers of the {} tests drawn from {} would take about {} s by the game's definition ({} took {} s; --samples {} would fit)",
                            tests.len(),
                            settings.format_name,
                            seconds(estimate),
                            truths.len(),
                            seconds(spent),
                            fitting.max(1)
                        )));
                    }
                }
            }
            Ok((tests, truths))
        })();
        drop(done);
        result
    })
}

/// A duration in seconds, for a message: `0.4`, `12`, `250`.
fn seconds(time: Duration) -> String {
    let seconds = time.as_secs_f64();
    if seconds < 10.0 { format!("{seconds:.1}") } else { format!("{seconds:.0}") }
}

fn stop_if_signalled() -> anyhow::Result<()> {
    match crate::signals::received() {
        Some(signal) => Err(Stop::Interrupted(format!("stopped by signal {signal} while drawing the tests")).into()),
        None => Ok(()),
    }
}

/// A test's right answer; a test the format allows but its game refuses is one line naming it.
fn truth_of(drawer: &Drawer, referee: &mut Referee, bindings: &Bindings) -> anyhow::Result<Truth> {
    let case = drawer.case(bindings);
    referee.truth(&case).map_err(|error| {
        anyhow::anyhow!(
            "the format allows a test that grundy cannot answer (`{}{}`): {error}",
            case.game.as_deref().map(|game| format!("{game} ")).unwrap_or_default(),
            case.components.join(" ")
        )
    })
}

fn counts_by_kind(tests: &[Drawn]) -> BTreeMap<Kind, usize> {
    let mut counts = BTreeMap::new();
    for drawn in tests {
        *counts.entry(drawn.kind).or_insert(0) += 1;
    }
    counts
}

/// The counts keyed by the kinds' names, for JSON.
fn by_label(counts: &BTreeMap<Kind, usize>) -> BTreeMap<&'static str, usize> {
    counts.iter().map(|(kind, count)| (kind.label(), *count)).collect()
}

fn describe_counts(counts: &BTreeMap<Kind, usize>) -> String {
    counts.iter().map(|(kind, count)| format!("{} {count}", kind.label())).collect::<Vec<_>>().join(", ")
}

/// The judge's right answer to test `test` (from 1) of a file, prefix and all (`None`: no answer
/// is right, a draw the format has no word for).
fn expected(format: &JudgeFormat, test: usize, truth: &Truth) -> Option<String> {
    truth.answer.as_ref().map(|answer| format!("{}{answer}", format.case_prefix(test)))
}

/// Whether `answer` is the judge's right answer to test `test` (from 1): the same words, as
/// judges compare them (spaces and line breaks between words do not matter).
fn right(format: &JudgeFormat, answer: &str, test: usize, truth: &Truth) -> bool {
    expected(format, test, truth).is_some_and(|expected| expected.split_whitespace().eq(answer.split_whitespace()))
}

/// The index of the first wrong answer among the tests of `truths`.
fn first_wrong(format: &JudgeFormat, answers: &[String], truths: &[Truth]) -> Option<usize> {
    truths.iter().zip(answers).enumerate().position(|(index, (truth, answer))| !right(format, answer, index + 1, truth))
}

/// The judge's right answer, in its words.
fn right_answer(format: &JudgeFormat, test: usize, truth: &Truth) -> String {
    expected(format, test, truth).unwrap_or_else(|| format!("none: a draw ({})", truth.outcome))
}

/// A file of tests and its wrong answer: the tests up to the failing one.
#[derive(Clone)]
struct Failure {
    tests: Vec<Bindings>,
    truths: Vec<Truth>,
    /// The failing test.
    index: usize,
}

struct Judge<'a> {
    format: &'a JudgeFormat,
    drawer: &'a Drawer<'a>,
    settings: &'a Settings<'a>,
}

impl Judge<'_> {
    /// The program's answers to a file of `tests` whose right answers are `truths`, one a test
    /// (a crash, a hang, too few or too many answers are one line each). Answers of one word
    /// are the output's words; longer ones (`Stan wins`, `Case 2: 1`, a move) take as many
    /// words as the right answer has, as a judge reads them, the last one what is left.
    fn answers(&self, tests: &[Bindings], truths: &[Truth]) -> anyhow::Result<Vec<String>> {
        let command = self.settings.command;
        let output = run_program(command, self.format.write(tests), self.settings.timeout, self.settings.output_limit)?;
        let words: Vec<&str> = output.split_whitespace().collect();
        let written = self.format.written_tests(tests.len());
        let one_word = self.format.answer().is_one_word() && self.format.case_prefix(1).is_empty();
        let too_many_or_few = |printed: usize, unit: &str| {
            anyhow::anyhow!(
                "the program `{command}` printed {printed} {unit}{} for a file of {written} test{} (one answer a test: {})",
                if printed == 1 { "" } else { "s" },
                if written == 1 { "" } else { "s" },
                self.format.answer().describe()
            )
        };
        if one_word {
            if words.len() != written {
                return Err(too_many_or_few(words.len(), "answer"));
            }
            return Ok(words.into_iter().map(str::to_owned).collect());
        }
        let mut answers = Vec::with_capacity(written);
        let mut rest = words.as_slice();
        for test in 0..written {
            let truth = &truths[test % truths.len()];
            let length = expected(self.format, test + 1, truth).map_or(1, |answer| answer.split_whitespace().count());
            let (answer, after) = rest.split_at(length.min(rest.len()));
            answers.push(answer.join(" "));
            rest = after;
        }
        // Words left over are the program's mistake only when every answer read was right
        // (else the first wrong answer, longer than the right one, says more).
        if !rest.is_empty() && first_wrong(self.format, &answers, truths).is_none() {
            return Err(too_many_or_few(words.len(), "word"));
        }
        Ok(answers)
    }

    /// The first wrong answer of a file of `tests`, if it has one (a run that fails otherwise
    /// counts as not reproducing the failure).
    fn fails(&self, tests: &[Bindings], truths: &[Truth]) -> Option<usize> {
        let answers = self.answers(tests, truths).ok()?;
        first_wrong(self.format, &answers, truths)
    }

    /// The failure made small: the failing test alone when it fails alone (else the fewest
    /// tests before it that still make it fail), then its numbers as small as still fail,
    /// within [`SHRINK_RUNS`] runs and [`SHRINK_TIME`].
    fn shrink(&self, failure: Failure, referee: &mut Referee) -> anyhow::Result<Failure> {
        let started = Instant::now();
        let mut runs = 0usize;
        let budget_left = |runs: &mut usize| {
            *runs += 1;
            *runs <= SHRINK_RUNS && started.elapsed() < SHRINK_TIME && crate::signals::received().is_none()
        };
        let mut best = failure;
        // The fewest tests: the failing one alone, else drop earlier ones one at a time.
        if best.tests.len() > 1 {
            let alone = (vec![best.tests[best.index].clone()], vec![best.truths[best.index].clone()]);
            if budget_left(&mut runs)
                && let Some(index) = self.fails(&alone.0, &alone.1)
            {
                best = Failure { tests: alone.0, truths: alone.1, index };
            } else {
                let mut drop = 0;
                while drop < best.index && budget_left(&mut runs) {
                    let (mut tests, mut truths) = (best.tests.clone(), best.truths.clone());
                    tests.remove(drop);
                    truths.remove(drop);
                    match self.fails(&tests, &truths) {
                        Some(index) => best = Failure { tests, truths, index },
                        None => drop += 1,
                    }
                }
            }
        }
        // The smallest numbers: a smaller version of the failing test while one still fails.
        'smaller: loop {
            for candidate in self.drawer.smaller(&best.tests[best.index]) {
                if !budget_left(&mut runs) {
                    break 'smaller;
                }
                let Ok(truth) = referee.truth(&self.drawer.case(&candidate)) else { continue };
                let (mut tests, mut truths) = (best.tests.clone(), best.truths.clone());
                tests[best.index] = candidate;
                truths[best.index] = truth;
                if let Some(index) = self.fails(&tests, &truths) {
                    best = Failure { tests: tests[..=index].to_vec(), truths: truths[..=index].to_vec(), index };
                    continue 'smaller;
                }
            }
            break;
        }
        stop_if_signalled()?;
        Ok(best)
    }
}

fn report_failure(
    judge: &Judge,
    failure: &Failure,
    (found_in, run): (Kind, usize),
    tests: &[Drawn],
    referee: &mut Referee,
    json: bool,
) -> anyhow::Result<()> {
    let (format, settings) = (judge.format, judge.settings);
    let answers = judge.answers(&failure.tests, &failure.truths)?;
    let index = first_wrong(format, &answers, &failure.truths).unwrap_or(failure.index);
    let truth = &failure.truths[index];
    let input = format.write(&failure.tests);
    let right = right_answer(format, index + 1, truth);
    let value = truth.value.as_ref().map(|value| format!("value {value}, ")).unwrap_or_default();
    let compound_play = format.compound().map(|compound| format!(" in the {} compound", compound.name()));
    let play = if format.misere() { " in misère play" } else { compound_play.as_deref().unwrap_or("") };
    let which = if format.written_tests(failure.tests.len()) > 1 {
        format!("  test {} of the file:", index + 1)
    } else {
        " ".to_owned()
    };
    let failing = &failure.tests[index];
    // The options proof is the sum's: misère play and compounds have their own reasons.
    let proof = if format.misere() || format.compound().is_some() {
        String::new()
    } else {
        options_proof(judge.drawer, referee, failing, truth)
    };
    let counts = counts_by_kind(tests);
    if json {
        print_json(&serde_json::json!({
            // The game of the failing test (`sub:2,5`).
            "game": judge.drawer.case(failing).game.as_deref().or(settings.game),
            "input_format": settings.format_name,
            "misere": format.misere(),
            "agrees": false,
            "input": input,
            "test": index + 1,
            "answer": answers[index],
            "right_answer": right,
            "outcome": truth.outcome.to_string(),
            "value": truth.value.as_ref().and_then(Value::finite).map(ToString::to_string),
            "found_among": found_in.label(),
            "tests": tests.len(),
            "tests_run": run,
            "kinds": by_label(&counts),
            "seed": settings.seed,
        }))?;
        return Err(Stop::Counterexample.into());
    }
    print(&format!(
        "counterexample: a failing test for `{}` (found among the {}, then shrunk)\n--- input (a whole file) ---\n{input}--- end of input ---\n{which} program's answer: {}\n  right answer:     {}   ({value}{}{play})\n{proof}tests drawn: {} ({}), {run} run before the first failure, --seed {}\n",
        settings.command,
        found_in.label(),
        answers[index],
        // An answer of several lines (a move and the heaps after it) on one, as its words.
        right.split_whitespace().collect::<Vec<_>>().join(" "),
        truth.outcome,
        tests.len(),
        describe_counts(&counts),
        settings.seed,
    ))?;
    Err(Stop::Counterexample.into())
}

/// The options of the failing test with their values (normal play): what proves its answer.
fn options_proof(drawer: &Drawer, referee: &mut Referee, test: &Bindings, truth: &Truth) -> String {
    const SHOWN: usize = 12;
    // A position of many components makes options too long to read: its input says enough.
    const MOST_COMPONENTS: usize = 12;
    let Ok(position) = referee.position(&drawer.case(test)) else { return String::new() };
    if position.component_count() > MOST_COMPONENTS {
        return String::new();
    }
    let Ok(options) = position.options(10_000) else { return String::new() };
    let reason = match truth.outcome {
        Outcome::P => "a P-position: every option is an N-position",
        _ => "an N-position: some option is a P-position",
    };
    let mut lines = Vec::new();
    // P-options first: they are the winning moves.
    let mut judged: Vec<(Outcome, String)> = options
        .iter()
        .filter_map(|option| {
            let after = position.after(option);
            let outcome = after.outcome().ok()?;
            // Values only where the format answers them (a big Wythoff pair's value needs a
            // table its outcome does not).
            let value = match truth.value {
                Some(_) => after.value().map(|value| format!(", value {value}")).unwrap_or_default(),
                None => String::new(),
            };
            let text = after.parts.iter().flat_map(grundy::sum::Part::texts).collect::<Vec<_>>().join(" ");
            let text = if text.is_empty() { "(nothing left)".to_owned() } else { text };
            Some((outcome, format!("{text}  ({outcome}{value})")))
        })
        .collect();
    judged.sort_by_key(|(outcome, _)| *outcome != Outcome::P);
    for (_, line) in judged.iter().take(SHOWN) {
        lines.push(format!("    {line}"));
    }
    if judged.len() > SHOWN {
        lines.push(format!("    … and {} more", judged.len() - SHOWN));
    }
    if lines.is_empty() {
        lines.push("    (none: no move is possible)".to_owned());
    }
    format!("  options of the position ({reason}):\n{}\n", lines.join("\n"))
}
