//! `grundy play GAME [COMPONENT]...`: a game against grundy in the terminal, or scripted
//! (one move a line on stdin) when stdin is not a terminal.

use crate::games::resolve;
use crate::output::print;
use grundy::play::{Chooser, MOVE_LIMIT, engine_move, find_typed_move, hint};
use grundy::ruleset::Ruleset;
use std::io::{BufRead, IsTerminal, Write};

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
pub struct Args {
    /// The game: nim, bash:M, sub:S, … (`grundy rules` lists every form).
    game: String,
    /// The starting position's components.
    #[arg(allow_negative_numbers = true)]
    components: Vec<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "me")]
    first: First,
    /// Seed for grundy's choice among equally good moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Show the Grundy value of every position.
    #[arg(long)]
    hints: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let ruleset = resolve(&args.game)?;
    // Parse the position once up front, so a bad component is an error before play starts.
    ruleset.value(&args.components)?;
    let interactive = std::io::stdin().is_terminal();
    let mut game = Session {
        ruleset: ruleset.as_ref(),
        position: args.components.clone(),
        history: Vec::new(),
        chooser: Chooser::new(args.seed),
        hints: args.hints,
    };
    let first = if args.first == First::Me { "you move first" } else { "grundy moves first" };
    print(&format!(
        "{}: {first}. Type a move as `grundy moves` writes it (like `{}`), or hint, undo, quit.\n",
        ruleset.spec(),
        game.example_move()?
    ))?;
    let mut persons_turn = args.first == First::Me;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut position_changed = true;
    loop {
        if position_changed {
            game.show(persons_turn)?;
            position_changed = false;
        }
        if !persons_turn {
            match engine_move(game.ruleset, &game.position, &mut game.chooser)? {
                None => return print("grundy has no move: you win!\n"),
                Some(reply) => {
                    print(&format!("grundy: {}   ({})\n", reply.chosen.notation, reply.reason))?;
                    game.position = reply.chosen.to;
                    persons_turn = true;
                    position_changed = true;
                    continue;
                }
            }
        }
        if game.ruleset.all_moves(&game.position, MOVE_LIMIT)?.is_empty() {
            return print("you have no move: grundy wins.\n");
        }
        if interactive {
            print("your move> ")?;
        }
        let Some(line) = lines.next() else {
            return print("input ended before the game did; stopping.\n");
        };
        let line = line?;
        let typed = line.trim();
        match typed {
            "" => continue,
            "quit" | "q" => return print("you quit: grundy wins.\n"),
            "hint" => print(&format!("hint: {}\n", hint(game.ruleset, &game.position)?))?,
            "undo" => match game.history.pop() {
                Some(previous) => {
                    game.position = previous;
                    position_changed = true;
                    print("undone: back to before your last move.\n")?;
                }
                None => print("nothing to undo.\n")?,
            },
            _ => match find_typed_move(game.ruleset, &game.position, typed)? {
                Ok(chosen) => {
                    print(&format!("you: {}\n", chosen.notation))?;
                    game.history.push(std::mem::replace(&mut game.position, chosen.to));
                    persons_turn = false;
                    position_changed = true;
                }
                Err(illegal) => print(&format!("illegal: {illegal}\n"))?,
            },
        }
        std::io::stdout().flush()?;
    }
}

struct Session<'a> {
    ruleset: &'a dyn Ruleset,
    position: Vec<String>,
    /// The positions before each of the person's moves, for `undo`.
    history: Vec<Vec<String>>,
    chooser: Chooser,
    hints: bool,
}

impl Session<'_> {
    fn show(&self, persons_turn: bool) -> anyhow::Result<()> {
        let mut text = format!("position ({} to move):\n", if persons_turn { "you" } else { "grundy" });
        for line in self.ruleset.describe_position(&self.position) {
            text.push_str(&format!("  {line}\n"));
        }
        if self.position.is_empty() {
            text.push_str("  (empty)\n");
        }
        if self.hints {
            text.push_str(&format!("  value: {}\n", self.ruleset.value(&self.position)?));
        }
        print(&text)
    }

    fn example_move(&self) -> anyhow::Result<String> {
        let moves = self.ruleset.all_moves(&self.position, MOVE_LIMIT)?;
        Ok(moves.first().map_or_else(|| "3 -> 1".to_owned(), |first| first.notation.clone()))
    }
}
