//! `grundy play GAME [COMPONENT]...`: a game against grundy in the terminal, or scripted
//! (one move a line on stdin) when stdin is not a terminal.

use crate::input::{BoundedLines, Line, STDIN_LINE_LIMIT};
use crate::output::{Stop, print, print_json};
use grundy::control::Control;
use grundy::play::{Chooser, MOVE_LIMIT, engine_move, engine_move_misere, find_typed_move, hint, typed_form};
use grundy::sum::Position;
use std::io::{IsTerminal, Write};

/// Who moves first.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You move first.
    Me,
    /// grundy moves first.
    Engine,
}

/// Play against grundy: type moves as `moves` prints them (`3 -> 1`), or `hint`, `undo`, `quit`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  printf '5 -> 1\\n' | grundy play nim 3 4 5
  printf 'quit\\n' | grundy play nim 3 + wythoff 4,7 --first engine
  printf '3 -> 0; 4 -> 3\\n' | grundy play --compound every nim 3 4
  grundy rules --write-examples /tmp/grundy-examples && printf 'quit\\n' | grundy play script:/tmp/grundy-examples/words.star")]
pub struct Args {
    /// The game, then the starting position's components; `+` adds another game's part.
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "GAME [COMPONENT]... [+ GAME [COMPONENT]...]")]
    words: Vec<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "me")]
    first: First,
    /// Seed for grundy's choice among equally good moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Misère play: whoever makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// Show the engine's reasoning (values, nim-sums) and the value of every position.
    #[arg(long)]
    hints: bool,
    /// Another way to combine the components than the sum (`every`, `conjunctive`,
    /// `selective`; see `grundy outcome --help`): a move is one move in each component moved,
    /// joined by `;` (`3 -> 1; 4 -> 2`), each may start with its component's number (`2: 4 -> 2`).
    #[arg(long, value_name = "every|conjunctive|selective", value_parser = crate::commands::compound::parse, conflicts_with = "misere")]
    compound: Option<grundy::compound::Compound>,
    /// Both players' moves come from the input and grundy makes none: a recorded game
    /// replayed, each move checked as it is typed (`grundy serve`'s page replays a link's
    /// moves so, in one run).
    #[arg(long, conflicts_with = "first")]
    replay: bool,
}

/// The position on the command line; a game word alone starts from the game's own start
/// position (a script's `start()`).
fn starting_position(words: &[&str], control: &Control) -> anyhow::Result<grundy::sum::Position> {
    if let [game] = words
        && *game != grundy::registry::PLUS
    {
        let ruleset = crate::games::resolve(game, control)?;
        let Some(components) = ruleset.start() else {
            anyhow::bail!(
                "no position given: write its components after the game (`grundy play {game} 3 4 5`); only games with a start position (a script's `start()`) can be played without one"
            );
        };
        return Ok(grundy::sum::Position { parts: vec![grundy::sum::Part { game: ruleset, components }] });
    }
    crate::games::parse_position(words, control)
}

pub fn run(args: Args, json: bool, control: &Control) -> anyhow::Result<()> {
    let words: Vec<&str> = args.words.iter().map(String::as_str).collect();
    let start = starting_position(&words, control)?;
    if let Some(compound) = args.compound {
        return run_compound(&args, start, compound, json, control);
    }
    let interactive = std::io::stdin().is_terminal();
    let mut game =
        Session { position: start, history: Vec::new(), chooser: Chooser::new(args.seed), hints: args.hints, json };
    let first = if args.first == First::Me { "you move first" } else { "grundy moves first" };
    let name = if game.position.is_single_game() { game.position.parts[0].game.spec() } else { "the sum".to_owned() };
    game.emit(
        "start",
        &format!(
            "{name}: {first}. Type a move as `grundy moves` writes it (like `{}`), or hint, undo, quit.\n",
            game.example_move()?
        ),
    )?;
    // A replay types every move: it is always the person's turn.
    let mut persons_turn = args.first == First::Me || args.replay;
    let stdin = std::io::stdin();
    let mut input = BoundedLines::new(stdin.lock(), STDIN_LINE_LIMIT);
    let mut position_changed = true;
    loop {
        if position_changed {
            game.show(persons_turn)?;
            position_changed = false;
        }
        if !persons_turn {
            let reply = if args.misere {
                engine_move_misere(&game.position, &mut game.chooser, control)?
            } else {
                engine_move(&game.position, &mut game.chooser)?
            };
            match reply {
                None if args.misere => return game.emit("end", "grundy has no move: under misère play grundy wins.\n"),
                None if game.position.outcome().ok() == Some(grundy::Outcome::D) => {
                    return game.emit("end", "grundy has no move.\n");
                }
                None => return game.emit("end", "grundy has no move: you win!\n"),
                Some(reply) => {
                    let reason = if game.hints { format!("   ({})", reply.reason) } else { String::new() };
                    game.emit("grundy", &format!("grundy: {}{reason}\n", typed_form(&game.position, &reply.chosen)))?;
                    game.position = game.position.after(&reply.chosen);
                    persons_turn = true;
                    position_changed = true;
                    continue;
                }
            }
        }
        if game.position.options(MOVE_LIMIT)?.is_empty() {
            if args.replay {
                return game.emit("end", "the replayed game is over: the player to move has no move.\n");
            }
            if args.misere {
                return game.emit("end", "you have no move: under misère play you win!\n");
            }
            return game.emit("end", "you have no move: grundy wins.\n");
        }
        if interactive && !json {
            print("your move> ")?;
        }
        let next = input.next_line()?;
        // A signal ends the game even when a move or the end of input comes before the
        // watchdog would (a script closing its input right after Ctrl-C): exit status 128 +
        // the signal, not the end of a game.
        if let Some(signal) = crate::signals::received() {
            return Err(anyhow::Error::new(Stop::Interrupted(format!(
                "the game was stopped by {}",
                crate::signals::name(signal)
            ))));
        }
        let line = match next {
            None => return game.emit("end", "input ended before the game did; stopping.\n"),
            Some(Line::Text(line)) => line,
            Some(unreadable) => {
                // A line too long or not UTF-8 is an unreadable move, not the end of the game.
                let reason = unreadable.into_text(STDIN_LINE_LIMIT).err().unwrap_or_default();
                game.emit("unreadable", &format!("unreadable: {reason}; type a move like the example above.\n"))?;
                continue;
            }
        };
        let typed = line.trim();
        match typed {
            "" => continue,
            "quit" | "q" if game.position.outcome().ok() == Some(grundy::Outcome::D) => {
                return game.emit("end", "you quit a drawn game: a draw.\n");
            }
            "quit" | "q" => return game.emit("end", "you quit: grundy wins.\n"),
            "hint" => game.emit("hint", &format!("hint: {}\n", hint(&game.position)?))?,
            "undo" => match game.history.pop() {
                Some(previous) => {
                    game.position = previous;
                    position_changed = true;
                    game.emit("undo", "undone: back to before your last move.\n")?;
                }
                None => game.emit("undo", "nothing to undo.\n")?,
            },
            _ => match find_typed_move(&game.position, typed)? {
                Ok(chosen) => {
                    game.emit("you", &format!("you: {}\n", typed_form(&game.position, &chosen)))?;
                    let next = game.position.after(&chosen);
                    game.history.push(std::mem::replace(&mut game.position, next));
                    persons_turn = args.replay;
                    position_changed = true;
                }
                // A replay stops at its first illegal move: a later move read from the
                // position before it would be taken for the next move of the record.
                Err(illegal) if args.replay => {
                    game.emit("illegal", &format!("illegal: {illegal}\n"))?;
                    return game.emit("end", "the replay stops at this illegal move.\n");
                }
                Err(illegal) => game.emit("illegal", &format!("illegal: {illegal}\n"))?,
            },
        }
        std::io::stdout().flush()?;
    }
}

/// A game of a compound (`--compound`): the same dialogue, each move a move in each component
/// moved.
fn run_compound(
    args: &Args,
    start: Position,
    compound: grundy::compound::Compound,
    json: bool,
    control: &Control,
) -> anyhow::Result<()> {
    use grundy::compound::{CompoundSolver, after};
    let mut solver = CompoundSolver::new(compound, control);
    let interactive = std::io::stdin().is_terminal();
    let mut game =
        Session { position: start, history: Vec::new(), chooser: Chooser::new(args.seed), hints: false, json };
    let first = if args.first == First::Me { "you move first" } else { "grundy moves first" };
    let example = match solver.engine_move(&game.position, &mut Chooser::new(0))? {
        Some(one) => one.notation,
        None => "3 -> 1; 4 -> 2".to_owned(),
    };
    game.emit(
        "start",
        &format!(
            "{}: {first}. Type a move in each component moved, joined by `;` (like `{example}`), or hint, undo, quit.\n",
            compound.title()
        ),
    )?;
    // A replay types every move: it is always the person's turn.
    let mut persons_turn = args.first == First::Me || args.replay;
    // Play has stopped: a conjunctive move took a component away.
    let mut stopped = false;
    let stdin = std::io::stdin();
    let mut input = BoundedLines::new(stdin.lock(), STDIN_LINE_LIMIT);
    let mut position_changed = true;
    loop {
        if position_changed {
            game.show(persons_turn)?;
            if args.hints {
                game.emit("hint", &format!("  {}\n", solver.evaluate(&game.position)?.reason()))?;
            }
            position_changed = false;
        }
        let can_move = !stopped && solver.has_move(&game.position)?;
        if !persons_turn {
            let reply = if can_move { solver.engine_move(&game.position, &mut game.chooser)? } else { None };
            let Some(reply) = reply else { return game.emit("end", "grundy has no move: you win!\n") };
            let reason = if args.hints { format!("   ({})", reply.explain) } else { String::new() };
            game.emit("grundy", &format!("grundy: {}{reason}\n", reply.notation))?;
            game.position = after(&game.position, &reply);
            stopped = reply.stops;
            persons_turn = true;
            position_changed = true;
            continue;
        }
        if !can_move {
            if args.replay {
                return game.emit("end", "the replayed game is over: the player to move has no move.\n");
            }
            return game.emit("end", "you have no move: grundy wins.\n");
        }
        if interactive && !json {
            print("your move> ")?;
        }
        let next = input.next_line()?;
        if let Some(signal) = crate::signals::received() {
            return Err(anyhow::Error::new(Stop::Interrupted(format!(
                "the game was stopped by {}",
                crate::signals::name(signal)
            ))));
        }
        let line = match next {
            None => return game.emit("end", "input ended before the game did; stopping.\n"),
            Some(Line::Text(line)) => line,
            Some(unreadable) => {
                let reason = unreadable.into_text(STDIN_LINE_LIMIT).err().unwrap_or_default();
                game.emit("unreadable", &format!("unreadable: {reason}; type a move like the example above.\n"))?;
                continue;
            }
        };
        match line.trim() {
            "" => continue,
            "quit" | "q" => return game.emit("end", "you quit: grundy wins.\n"),
            "hint" => {
                let evaluation = solver.evaluate(&game.position)?;
                let winning = solver.winning_moves(&game.position, 1)?;
                let text = match winning.moves.first() {
                    Some(one) => {
                        format!("{}: you can win, e.g. with `{}` ({})", evaluation.reason(), one.notation, one.explain)
                    }
                    None => format!("{}: a P-position, every move loses against perfect play", evaluation.reason()),
                };
                game.emit("hint", &format!("hint: {text}\n"))?;
            }
            "undo" => match game.history.pop() {
                Some(previous) => {
                    game.position = previous;
                    stopped = false;
                    position_changed = true;
                    game.emit("undo", "undone: back to before your last move.\n")?;
                }
                None => game.emit("undo", "nothing to undo.\n")?,
            },
            typed => match compound_typed_move(&mut solver, &game.position, typed)? {
                Ok(chosen) => {
                    game.emit("you", &format!("you: {}\n", chosen.notation))?;
                    let next = after(&game.position, &chosen);
                    game.history.push(std::mem::replace(&mut game.position, next));
                    stopped = chosen.stops;
                    persons_turn = args.replay;
                    position_changed = true;
                }
                // A replay stops at its first illegal move, as the sum's does.
                Err(illegal) if args.replay => {
                    game.emit("illegal", &format!("illegal: {illegal}\n"))?;
                    return game.emit("end", "the replay stops at this illegal move.\n");
                }
                Err(illegal) => game.emit("illegal", &format!("illegal: {illegal}\n"))?,
            },
        }
        std::io::stdout().flush()?;
    }
}

/// The most moves of a compound searched for the position a typed move leads to.
const COMPOUND_POSITIONS_SEARCHED: usize = 10_000;

/// A typed move of a compound: its notation (`3 -> 1; 4 -> 2`), or the position it leads to
/// as `grundy moves` writes it (`1 2`, `nim 1 + sub:1,2 2`, `()` for no component left), as
/// the page's buttons and a link's `moves=` send it; else why it is no move.
fn compound_typed_move(
    solver: &mut grundy::compound::CompoundSolver,
    position: &Position,
    typed: &str,
) -> anyhow::Result<Result<grundy::compound::CompoundMove, String>> {
    let by_notation = solver.find_typed_move(position, typed)?;
    if by_notation.is_ok() || typed.contains("->") {
        return Ok(by_notation);
    }
    let wanted: Vec<&str> =
        if typed.trim() == grundy::play::EMPTY_POSITION { Vec::new() } else { typed.split_whitespace().collect() };
    for (one, _) in solver.all_moves(position, COMPOUND_POSITIONS_SEARCHED)? {
        if grundy::compound::after(position, &one).to_text().split_whitespace().eq(wanted.iter().copied()) {
            return Ok(Ok(one));
        }
    }
    Ok(by_notation)
}

struct Session {
    position: Position,
    /// The positions before each of the person's moves, for `undo`.
    history: Vec<Position>,
    chooser: Chooser,
    hints: bool,
    /// `--json`: one JSON object a line.
    json: bool,
}

impl Session {
    /// Prints one line of the game: the text, or with `--json` one JSON object a line
    /// (`{"event": "start" | "grundy" | "you" | "illegal" | "hint" | "undo" | "unreadable" | "end",
    /// "text": …}`; positions are `"position"` events with the position as `value` prints it).
    fn emit(&self, event: &str, text: &str) -> anyhow::Result<()> {
        if self.json {
            return print_json(&serde_json::json!({ "event": event, "text": text.trim_end() }));
        }
        print(text)
    }

    fn show(&self, persons_turn: bool) -> anyhow::Result<()> {
        let mut text = format!("position ({} to move):\n", if persons_turn { "you" } else { "grundy" });
        for line in self.position.describe() {
            text.push_str(&format!("  {line}\n"));
        }
        if self.position.component_count() == 0 {
            text.push_str("  (empty)\n");
        }
        if self.hints {
            let value = self.position.value().map_or_else(
                |_| format!("outcome {}", self.position.outcome().map_or("?".into(), |o| o.to_string())),
                |value| value.to_string(),
            );
            text.push_str(&format!("  value: {value}\n"));
        }
        if self.json {
            return print_json(&serde_json::json!({
                "event": "position",
                "to_move": if persons_turn { "you" } else { "grundy" },
                "position": grundy::answer::PositionReport::of(&self.position),
                "text": text.trim_end(),
            }));
        }
        print(&text)
    }

    fn example_move(&self) -> anyhow::Result<String> {
        let moves = self.position.options(MOVE_LIMIT)?;
        Ok(moves.first().map_or_else(|| "3 -> 1".to_owned(), |first| typed_form(&self.position, first)))
    }
}
