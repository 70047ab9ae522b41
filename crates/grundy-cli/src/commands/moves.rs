//! `grundy moves GAME [COMPONENT]... [+ GAME [COMPONENT]...] [--all]`

use crate::games::{PositionArgs, for_each_position};
use crate::output::{Stop, error_in_json, print};
use grundy::answer::{
    MoveReport, OptionReport, PositionAnswer, PositionReport, ToReport, ValueReport, shows_whole_position,
};
use grundy::control::Control;
use grundy::ruleset::MOVE_LIMIT;
use grundy::sum::{Position, SumMove};
use grundy::{Outcome, Value};

/// Every winning move, one per line: the position it leads to, then `#` and why it wins.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy moves nim 3 4 5
  grundy moves nim 3 + octal:0.137 7
  grundy moves --all nim 1 2 3
  grundy moves --misere nim 2 2 1
  grundy moves --compound every sub:1,2 4 + nim 3")]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Every option with its value, the winning ones marked; each losing option shows the
    /// reply that wins against it.
    #[arg(long)]
    all: bool,
    /// With `--all`: the options from this one on (0 is the first), a page of a long list;
    /// only the page is judged, and JSON adds `options_total` (how many there are) and `offset`.
    #[arg(long, requires = "all", conflicts_with = "compound", value_name = "K")]
    offset: Option<u64>,
    /// With `--all`: at most this many options (a page; see `--offset`).
    #[arg(long, requires = "all", conflicts_with = "compound", value_name = "C")]
    count: Option<u64>,
    /// Misère play: every move to a misère P-position (whoever moves last loses).
    #[arg(long, conflicts_with = "all")]
    misere: bool,
    /// Another way to combine the components than the sum (`every`, `conjunctive`,
    /// `selective`; see `grundy outcome --help`): each winning move is one move in each
    /// component moved, joined by `;`, the first 1000 listed.
    #[arg(long, value_name = "every|conjunctive|selective", value_parser = crate::commands::compound::parse, conflicts_with = "misere")]
    compound: Option<grundy::compound::Compound>,
}

/// The most winning moves of a compound listed (there can be a product of many).
const COMPOUND_MOVES_LISTED: usize = 1000;

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let all = args.all;
    let mut solver = args.compound.map(|compound| grundy::compound::CompoundSolver::new(compound, control));
    for_each_position(args.position.positions(control)?, json, |position| {
        if let Some(solver) = solver.as_mut() {
            if all {
                return every_compound_move(position, solver, json);
            }
            return compound(position, solver, json);
        }
        // Refuse a heap whose moves cannot be listed before computing its value (seconds).
        position.check_moves_listable()?;
        if args.misere {
            misere(position, json, control)
        } else if all {
            every_option(position, json, (args.offset, args.count))
        } else {
            winning(position, json)
        }
    })
}

/// The head of a JSON answer: the position, its value (or outcome only when the value is out
/// of reach).
fn head(position: &Position) -> anyhow::Result<PositionAnswer> {
    let value = match position.value() {
        Ok(value) => ValueReport::of(&value),
        Err(_) => ValueReport::outcome_only(position.outcome()?),
    };
    Ok(PositionAnswer { position: PositionReport::of(position), value })
}

/// Streams `items` as the JSON array `key` at the end of `head`'s object, one move at a time.
/// An error after the list has begun closes it and ends the object with an `"error"` key
/// (as the error object of docs/json.md has it): stdout is one valid JSON document either way.
struct JsonList {
    first: bool,
}

impl JsonList {
    fn open(head: &impl serde::Serialize, key: &str) -> anyhow::Result<Self> {
        let object = serde_json::to_string(head)?;
        let open = object.strip_suffix('}').expect("an object");
        print(&format!("{open},\"{key}\":["))?;
        Ok(JsonList { first: true })
    }

    fn item(&mut self, item: &impl serde::Serialize) -> anyhow::Result<()> {
        let comma = if std::mem::replace(&mut self.first, false) { "" } else { "," };
        print(&format!("{comma}{}", serde_json::to_string(item)?))
    }

    /// Closes the list and the object, with `listed`'s error, if any, as the object's
    /// `"error"`; returns that error (reported on stderr only from here on).
    fn close(self, listed: anyhow::Result<()>) -> anyhow::Result<()> {
        match listed {
            Ok(()) => print("]}\n"),
            Err(error) if matches!(error.downcast_ref::<Stop>(), Some(Stop::BrokenPipe)) => Err(error),
            Err(error) => {
                let (object, written) = error_in_json(&error);
                print(&format!("],\"error\":{object}}}\n"))?;
                // A signal keeps its own exit status; any other error is reported once more,
                // on stderr.
                Err(if error.downcast_ref::<Stop>().is_some() { error } else { written })
            }
        }
    }
}

fn winning(position: &Position, json: bool) -> anyhow::Result<()> {
    let mut list = if json { Some(JsonList::open(&head(position)?, "moves")?) } else { None };
    let mut count = 0usize;
    let whole = shows_whole_position(position);
    let listed = position.for_each_winning_move(|one| -> anyhow::Result<()> {
        count += 1;
        match list.as_mut() {
            Some(list) => list.item(&MoveReport::of(position, &one, whole)),
            None if whole => print(&format!("{}  # {}\n", position.after(&one).to_text(), one.explain)),
            // The explanation starts with the component and the move: `heap 17: 30 -> 12; …`.
            None => print(&format!("{}\n", one.explain.replacen("; ", "  # ", 1))),
        }
    });
    if let Some(list) = list {
        return list.close(listed);
    }
    listed?;
    if count == 0 {
        if position.outcome()? == Outcome::D {
            eprintln!(
                "no winning move: this is a draw (D), no move leads to a P-position; moving to another D-position keeps the draw"
            );
        } else {
            eprintln!(
                "no winning move: this is a P-position, every move leads to an N-position (`--all` shows each with the reply that wins against it)"
            );
        }
    }
    Ok(())
}

/// The winning moves of a compound, each a move in each component moved.
fn compound(position: &Position, solver: &mut grundy::compound::CompoundSolver, json: bool) -> anyhow::Result<()> {
    let evaluation = solver.evaluate(position)?;
    let winning = solver.winning_moves(position, COMPOUND_MOVES_LISTED)?;
    let more = if winning.count > num_bigint::BigUint::from(winning.moves.len()) {
        format!("the first {} of {} winning moves", winning.moves.len(), winning.count)
    } else {
        String::new()
    };
    if json {
        let mut object = crate::commands::compound::evaluation_json(position, &evaluation)?;
        object["winning_move_count"] = winning.count.to_string().into();
        object["moves"] = winning
            .moves
            .iter()
            .map(|one| crate::commands::compound::move_json(position, one))
            .collect::<Vec<_>>()
            .into();
        return print(&format!("{object}\n"));
    }
    eprintln!("{}", evaluation.reason());
    if winning.moves.is_empty() {
        eprintln!("no winning move: this is a P-position of the compound, every move leads to an N-position");
    } else if !more.is_empty() {
        eprintln!("{more}:");
    }
    let whole = shows_whole_position(position);
    for one in &winning.moves {
        if whole {
            print(&format!("{}  # {}\n", grundy::compound::after(position, one).to_text(), one.explain))?;
        } else {
            print(&format!("{}  # {}\n", one.notation, one.explain))?;
        }
    }
    Ok(())
}

/// Every move of a compound (`--all --compound`), each with the compound's number after it
/// and whether it wins (the first 1000).
fn every_compound_move(
    position: &Position,
    solver: &mut grundy::compound::CompoundSolver,
    json: bool,
) -> anyhow::Result<()> {
    let evaluation = solver.evaluate(position)?;
    let moves = solver.all_moves(position, COMPOUND_MOVES_LISTED + 1)?;
    let more = moves.len() > COMPOUND_MOVES_LISTED;
    let moves = &moves[..moves.len().min(COMPOUND_MOVES_LISTED)];
    if json {
        let mut object = crate::commands::compound::evaluation_json(position, &evaluation)?;
        object["moves"] = moves
            .iter()
            .map(|(one, number)| {
                let mut each = crate::commands::compound::move_json(position, one);
                each["wins"] = number.is_multiple_of(2).into();
                each
            })
            .collect::<Vec<_>>()
            .into();
        object["more_moves"] = more.into();
        return print(&format!("{object}\n"));
    }
    eprintln!("{}", evaluation.reason());
    if moves.is_empty() {
        eprintln!("no move: the compound is over");
    } else if more {
        eprintln!("the first {COMPOUND_MOVES_LISTED} moves:");
    }
    let whole = shows_whole_position(position);
    for (one, number) in moves {
        let verdict = if number.is_multiple_of(2) { "wins" } else { "loses" };
        let shown = if whole { grundy::compound::after(position, one).to_text() } else { one.notation.clone() };
        print(&format!("{shown}  # {verdict}: {}\n", one.explain))?;
    }
    Ok(())
}

fn misere(position: &Position, json: bool, control: &Control) -> anyhow::Result<()> {
    let limits = crate::limits::misere();
    let (outcome, method) = grundy::misere::sums::outcome(position, limits, control)?;
    let (moves, _) = grundy::misere::sums::winning_moves(position, limits, control)?;
    if json {
        let head = PositionAnswer { position: PositionReport::of(position), value: ValueReport::outcome_only(outcome) };
        let mut object = serde_json::to_value(head)?;
        object["misere"] = true.into();
        object["method"] = method.to_string().into();
        let whole = shows_whole_position(position);
        object["moves"] =
            serde_json::to_value(moves.iter().map(|one| MoveReport::of(position, one, whole)).collect::<Vec<_>>())?;
        return print(&format!("{object}\n"));
    }
    if moves.is_empty() {
        eprintln!("no misère winning move: this is a misère {outcome}-position ({method})");
    }
    let whole = shows_whole_position(position);
    for one in &moves {
        if whole {
            print(&format!("{}  # {}\n", position.after(one).to_text(), one.explain))?;
        } else {
            print(&format!("{}\n", one.explain.replacen("; ", "  # ", 1)))?;
        }
    }
    Ok(())
}

/// The head of a page of options: the position's answer, then how many options there are in
/// all and where the page starts.
struct PageHead {
    head: PositionAnswer,
    page: Option<(usize, usize)>,
}

impl serde::Serialize for PageHead {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Flat<'a> {
            #[serde(flatten)]
            head: &'a PositionAnswer,
            #[serde(skip_serializing_if = "Option::is_none")]
            options_total: Option<usize>,
            #[serde(skip_serializing_if = "Option::is_none")]
            offset: Option<usize>,
        }
        let (options_total, offset) = self.page.unzip();
        Flat { head: &self.head, options_total, offset }.serialize(serializer)
    }
}

/// Every option judged, or with `--offset`/`--count` (`page`) the page of them asked for.
fn every_option(position: &Position, json: bool, page: (Option<u64>, Option<u64>)) -> anyhow::Result<()> {
    let mut options = match position.options(MOVE_LIMIT) {
        Ok(options) => options,
        // The document keeps its head (game, position, value) and says why no option is listed,
        // as when an error comes from inside the list.
        Err(error) if json => return JsonList::open(&head(position)?, "options")?.close(Err(error.into())),
        Err(error) => return Err(error.into()),
    };
    let paged = page.0.is_some() || page.1.is_some();
    let total = options.len();
    let start = usize::try_from(page.0.unwrap_or(0)).unwrap_or(usize::MAX).min(total);
    let end = start.saturating_add(usize::try_from(page.1.unwrap_or(u64::MAX)).unwrap_or(usize::MAX)).min(total);
    let options: Vec<SumMove> = options.drain(start..end).collect();
    let mut list = if json {
        // The head's own field order kept (a `serde_json::Value` would sort the keys).
        Some(JsonList::open(&PageHead { head: head(position)?, page: paged.then_some((total, start)) }, "options")?)
    } else {
        None
    };
    let listed = list_every_option(position, &options, list.as_mut());
    match list {
        Some(list) => list.close(listed),
        None => listed,
    }
}

/// The options of `position`, each with its value and verdict, as text or into `list`.
fn list_every_option(position: &Position, options: &[SumMove], mut list: Option<&mut JsonList>) -> anyhow::Result<()> {
    let whole = shows_whole_position(position);
    for one in options {
        let after = position.after(one);
        let value = after.value();
        let outcome = match &value {
            Ok(value) => value.outcome(),
            Err(_) => after.outcome()?,
        };
        let winning = outcome == Outcome::P;
        let reply = if outcome == Outcome::N { after.first_winning_move()? } else { None };
        match list.as_mut() {
            Some(list) => list.item(&OptionReport {
                step: MoveReport::of(position, one, whole),
                value: value.as_ref().map_or_else(|_| ValueReport::outcome_only(outcome), ValueReport::of),
                winning,
                reply: reply.as_ref().filter(|_| whole).map(|reply| ToReport::of(&after.after(reply))),
            })?,
            None => {
                let shown = match &value {
                    Ok(Value::Finite(value)) => format!("value {value}"),
                    Ok(value) => format!("value {value}, {outcome}"),
                    Err(_) => format!("outcome {outcome}"),
                };
                let verdict = match &reply {
                    _ if winning => "WINNING".to_owned(),
                    Some(reply) => format!("answered by {} ({})", after.after(reply).to_text(), reply.notation),
                    None => "no winning answer (a draw)".to_owned(),
                };
                print(&format!(
                    "{}  # {}: {}; {shown}; {verdict}\n",
                    after.to_text(),
                    position.label(one.part, one.component),
                    one.notation
                ))?;
            }
        }
    }
    Ok(())
}
