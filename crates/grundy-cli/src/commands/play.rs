//! `grundy play GAME [COMPONENT]...`: a game against grundy in the terminal, or scripted
//! (one move a line on stdin) when stdin is not a terminal.

use crate::games::MAX_LINE_BYTES;
use crate::output::print;
use grundy::play::{Chooser, MOVE_LIMIT, engine_move, find_typed_move, hint};
use grundy::sum::Position;
use std::io::{BufRead, IsTerminal, Read, Write};

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
  printf 'quit\\n' | grundy play nim 3 + wythoff 4,7 --first engine")]
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
    /// Show the engine's reasoning (values, nim-sums) and the value of every position.
    #[arg(long)]
    hints: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let words: Vec<&str> = args.words.iter().map(String::as_str).collect();
    let start = grundy::registry::parse_sum_with(&words, &crate::games::read_file)?;
    let interactive = std::io::stdin().is_terminal();
    let mut game =
        Session { position: start, history: Vec::new(), chooser: Chooser::new(args.seed), hints: args.hints };
    let first = if args.first == First::Me { "you move first" } else { "grundy moves first" };
    let name = if game.position.is_single_game() { game.position.parts[0].game.spec() } else { "the sum".to_owned() };
    print(&format!(
        "{name}: {first}. Type a move as `grundy moves` writes it (like `{}`), or hint, undo, quit.\n",
        game.example_move()?
    ))?;
    let mut persons_turn = args.first == First::Me;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut position_changed = true;
    loop {
        if position_changed {
            game.show(persons_turn)?;
            position_changed = false;
        }
        if !persons_turn {
            match engine_move(&game.position, &mut game.chooser)? {
                None if game.position.outcome().ok() == Some(grundy::Outcome::D) => {
                    return print("grundy has no move.\n");
                }
                None => return print("grundy has no move: you win!\n"),
                Some(reply) => {
                    let reason = if game.hints { format!("   ({})", reply.reason) } else { String::new() };
                    print(&format!("grundy: {}{reason}\n", reply.chosen.notation))?;
                    game.position = game.position.after(&reply.chosen);
                    persons_turn = true;
                    position_changed = true;
                    continue;
                }
            }
        }
        if game.position.options(MOVE_LIMIT)?.is_empty() {
            return print("you have no move: grundy wins.\n");
        }
        if interactive {
            print("your move> ")?;
        }
        let mut line = Vec::new();
        if (&mut input).take(MAX_LINE_BYTES as u64).read_until(b'\n', &mut line)? == 0 {
            return print("input ended before the game did; stopping.\n");
        }
        if line.len() >= MAX_LINE_BYTES && !line.ends_with(b"\n") {
            print(&format!(
                "unreadable: a move is never longer than {MAX_LINE_BYTES} bytes; the rest of the line is skipped.\n"
            ))?;
            let mut rest = Vec::new();
            while (&mut input).take(MAX_LINE_BYTES as u64).read_until(b'\n', &mut rest)? > 0 && !rest.ends_with(b"\n") {
                rest.clear();
            }
            continue;
        }
        let Ok(line) = std::str::from_utf8(&line) else {
            print("unreadable: that line is not UTF-8 text; type a move like the example above.\n")?;
            continue;
        };
        let typed = line.trim();
        match typed {
            "" => continue,
            "quit" | "q" if game.position.outcome().ok() == Some(grundy::Outcome::D) => {
                return print("you quit a drawn game: a draw.\n");
            }
            "quit" | "q" => return print("you quit: grundy wins.\n"),
            "hint" => print(&format!("hint: {}\n", hint(&game.position)?))?,
            "undo" => match game.history.pop() {
                Some(previous) => {
                    game.position = previous;
                    position_changed = true;
                    print("undone: back to before your last move.\n")?;
                }
                None => print("nothing to undo.\n")?,
            },
            _ => match find_typed_move(&game.position, typed)? {
                Ok(chosen) => {
                    print(&format!("you: {}\n", chosen.notation))?;
                    let next = game.position.after(&chosen);
                    game.history.push(std::mem::replace(&mut game.position, next));
                    persons_turn = false;
                    position_changed = true;
                }
                Err(illegal) => print(&format!("illegal: {illegal}\n"))?,
            },
        }
        std::io::stdout().flush()?;
    }
}

struct Session {
    position: Position,
    /// The positions before each of the person's moves, for `undo`.
    history: Vec<Position>,
    chooser: Chooser,
    hints: bool,
}

impl Session {
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
        print(&text)
    }

    fn example_move(&self) -> anyhow::Result<String> {
        let moves = self.position.options(MOVE_LIMIT)?;
        Ok(moves.first().map_or_else(|| "3 -> 1".to_owned(), |first| first.notation.clone()))
    }
}
