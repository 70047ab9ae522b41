//! `grundy outcome GAME [COMPONENT]... [+ GAME [COMPONENT]...]`, or `grundy outcome [GAME]
//! --input-format NAME|FILE < judge.in`

use crate::games::for_each_position;
use crate::judge::{PositionOrJudgeInput, Source, for_each_test};
use crate::output::print;
use grundy::Outcome;
use grundy::answer::{PositionAnswer, PositionReport, ValueReport};
use grundy::control::Control;
use grundy::judge_format::{Answer, JudgeFormat};
use grundy::sum::Position;

/// N (the player to move wins) or P (the player to move loses); D for a draw in a loopy game.
/// With --input-format, the judge's word for it (Yes/No, first/second, …), or the Grundy value
/// for a format whose answer is the value.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy outcome nim 1 2 3
  grundy outcome --misere nim 1 1 1
  grundy outcome kayles 10 + corners 3,5 + coins:ruler HTTH
  printf '2 1 3\\n1 5\\n3 2 3 4\\n' | grundy outcome sub:2,5
  printf '2\\n2 5\\n3\\n2 4 7\\n' | grundy outcome --input-format acwing-893
  grundy outcome --compound every sub:1,2 4 + nim 3")]
pub struct Args {
    #[command(flatten)]
    position: PositionOrJudgeInput,
    /// Misère play: whoever makes the last move loses (how it was decided goes to stderr, and
    /// to `"method"` in JSON).
    #[arg(long)]
    misere: bool,
    /// Another way to combine the components than the sum: `every` (Every-SG: move in every
    /// component that can move), `conjunctive` (move in every component; play ends when one
    /// cannot move), `selective` (move in any non-empty set of components). Decided by the
    /// components' steps, remoteness or outcomes (stderr says which; JSON adds them).
    #[arg(long, value_name = "every|conjunctive|selective", value_parser = crate::commands::compound::parse, conflicts_with = "misere")]
    compound: Option<grundy::compound::Compound>,
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let source = args.position.source()?;
    let source = match (args.compound, source) {
        (Some(compound), Source::Positions(positions)) => {
            let mut solver = grundy::compound::CompoundSolver::new(compound, control);
            return for_each_position(positions.positions(control)?, json, |position| {
                let evaluation = solver.evaluate(position)?;
                if json {
                    return print(&format!("{}\n", crate::commands::compound::evaluation_json(position, &evaluation)?));
                }
                eprintln!("{}", evaluation.reason());
                print(&format!("{}\n", evaluation.outcome))
            });
        }
        (compound, Source::Judge(format, game)) if compound.is_some() || format.compound().is_some() => {
            // A compound of the judge's tests (HDU 3595's Every-SG): `--compound` or the
            // format's `compound` line, answered in the judge's words.
            let format = match compound {
                Some(compound) => format.played_in(compound)?,
                None => *format,
            };
            let compound = format.compound().unwrap_or(grundy::compound::Compound::Every);
            let mut solver = grundy::compound::CompoundSolver::new(compound, control);
            return for_each_test(&format, game.as_deref(), control, |position, test| {
                let evaluation = solver.evaluate(position)?;
                let word = format!("{}{}", format.case_prefix(test), judge_word(&format, evaluation.outcome)?);
                if json {
                    let mut object = crate::commands::compound::evaluation_json(position, &evaluation)?;
                    object["answer"] = word.into();
                    return Ok(format!("{object}\n"));
                }
                Ok(format!("{word}\n"))
            });
        }
        (_, source) => source,
    };
    // A format may say `play misere` (HDU 1907).
    let misere = args.misere || matches!(&source, Source::Judge(format, _) if format.misere());
    // The answer to one position: its line of text, or of JSON. A judge's input gets the
    // judge's words alone, after the format's `case` prefix (`Case 3: `), for test `test`.
    let answer = |position: &Position, judge: Option<(&JudgeFormat, usize)>| -> anyhow::Result<String> {
        let prefix = judge.map(|(format, test)| format.case_prefix(test)).unwrap_or_default();
        if misere {
            let (outcome, method) = grundy::misere::sums::outcome(position, crate::limits::misere(), control)?;
            if json {
                let answer = PositionAnswer {
                    position: PositionReport::of(position),
                    value: ValueReport::outcome_only(outcome),
                };
                let mut object = serde_json::to_value(answer)?;
                object["misere"] = true.into();
                object["method"] = method.to_string().into();
                if let Some((format, _)) = judge {
                    object["answer"] = format!("{prefix}{}", judge_word(format, outcome)?).into();
                }
                return Ok(format!("{object}\n"));
            }
            if judge.is_none() {
                eprintln!("misère play: {outcome} {method}");
            }
            let word = judge.map_or(Ok(outcome.to_string()), |(format, _)| judge_word(format, outcome))?;
            return Ok(format!("{prefix}{word}\n"));
        }
        match judge.map(|(format, _)| format.answer()) {
            Some(Answer::Value) => {
                // The format's answer is the value: the judge's answer is what `value` prints.
                let value = position.value()?;
                if !json {
                    return Ok(format!("{prefix}{value}\n"));
                }
                let report = PositionAnswer { position: PositionReport::of(position), value: ValueReport::of(&value) };
                let mut object = serde_json::to_value(report)?;
                object["answer"] = format!("{prefix}{value}").into();
                Ok(format!("{object}\n"))
            }
            Some(kind @ (Answer::Count | Answer::Move { .. })) => {
                // How many winning moves, or the least one, in the problem's words.
                let (outcome, text) = kind.of_position(position)?;
                if !json {
                    return Ok(format!("{prefix}{text}\n"));
                }
                let report = PositionAnswer {
                    position: PositionReport::of(position),
                    value: ValueReport::outcome_only(outcome),
                };
                let mut object = serde_json::to_value(report)?;
                object["answer"] = format!("{prefix}{text}").into();
                Ok(format!("{object}\n"))
            }
            _ => {
                let outcome = position.outcome()?;
                if !json {
                    let word = judge.map_or(Ok(outcome.to_string()), |(format, _)| judge_word(format, outcome))?;
                    return Ok(format!("{prefix}{word}\n"));
                }
                // The value too, where the game has one and it is cheap: a value that costs more
                // than the outcome (one Wythoff pair only a big table reaches) is omitted, with
                // the reason, rather than computed for seconds and gigabytes.
                if position.value_costs_more() {
                    let answer = PositionAnswer {
                        position: PositionReport::of(position),
                        value: ValueReport::outcome_only(outcome),
                    };
                    let mut object = serde_json::to_value(answer)?;
                    object["value_omitted"] = VALUE_OMITTED.into();
                    if let Some((format, _)) = judge {
                        object["answer"] = format!("{prefix}{}", judge_word(format, outcome)?).into();
                    }
                    return Ok(format!("{object}\n"));
                }
                let value = position
                    .value()
                    .map_or_else(|_| ValueReport::outcome_only(outcome), |value| ValueReport::of(&value));
                let answer = PositionAnswer { position: PositionReport::of(position), value };
                // Without a judge, the fields in the order the answer declares them.
                let Some((format, _)) = judge else { return Ok(format!("{}\n", serde_json::to_string(&answer)?)) };
                let mut object = serde_json::to_value(answer)?;
                object["answer"] = format!("{prefix}{}", judge_word(format, outcome)?).into();
                Ok(format!("{object}\n"))
            }
        }
    };
    match source {
        Source::Positions(position) => {
            for_each_position(position.positions(control)?, json, |position| print(&answer(position, None)?))
        }
        Source::Judge(format, game) => {
            if misere && *format.answer() == Answer::Value {
                anyhow::bail!(
                    "this format answers Grundy values, which misère play does not have: `grundy value` or `outcome` \
                     without --misere answer it"
                );
            }
            if misere && !matches!(format.answer(), Answer::Words { .. }) {
                anyhow::bail!(
                    "this format answers {}, which misère play is not answered by here: `grundy outcome` without --misere answers it",
                    format.answer().describe()
                );
            }
            for_each_test(&format, game.as_deref(), control, |position, test| answer(position, Some((&format, test))))
        }
    }
}

/// Why `outcome --json` leaves out the value of a position whose value costs more than its
/// outcome (docs/json.md).
const VALUE_OMITTED: &str = "the value costs far more than the outcome here (a table of seconds and gigabytes; \
     the outcome comes from the closed form): `grundy value` computes it";

/// The judge's word for `outcome`; a draw has no word unless the format names one.
fn judge_word(format: &JudgeFormat, outcome: Outcome) -> anyhow::Result<String> {
    match (format.word(outcome), outcome) {
        (Some(word), _) => Ok(word.to_owned()),
        (None, Outcome::D) => anyhow::bail!(
            "a draw (D): the format's answer has no word for it (give a third word: `answer Yes No Draw`)"
        ),
        (None, _) => Ok(outcome.to_string()),
    }
}
