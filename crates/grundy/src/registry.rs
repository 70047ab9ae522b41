//! The one registry of game families, and the parsing edge: a game word (`sub:2,5`) into a
//! [`Ruleset`], a command line's words (`nim 3 + wythoff 4,7`) into a [`Position`].
//!
//! Each [`Family`] entry knows its names, its syntax, its rule in one line, what a component
//! looks like, an example, and how to build the game. The parser, `grundy rules`, the
//! suggestion for a misspelt word and README's table of games all read [`FAMILIES`]; a test
//! fails when README's table and the registry differ.
//!
//! Every game word is writable in bash without quotes: parameters use `,` `/` `:` `=` `.`
//! and never `;` `*` `(` `)` `{` `}` and the like. Older spellings (`coins:turn=0..;consecutive`,
//! `product:ruler*twins`, `sub:{1,3,4}`) are still read.

use crate::control::Control;
use crate::error::GameError;
use crate::graph::dag::DagGame;
use crate::graph::geography::GeographyGame;
use crate::heap::bash::Bash;
use crate::heap::grundys_game::GrundysGame;
use crate::heap::nim::Nim;
use crate::heap::octal::{CodeBase, OctalGame};
use crate::heap::split_nim::SplitNim;
use crate::heap::subtraction::SubtractionGame;
use crate::heap::{AsHeapGame, HeapRules};
use crate::ruleset::{Ruleset, erase};
use crate::sum::{Part, Position};
use std::sync::Arc;

/// Reads a file named in a game word (`dag:FILE`): its text, or a one-line reason it cannot
/// be read. The library does no I/O; the front end decides what reading a file means.
pub type ReadFile<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// What runs script games (`script:PATH`) for a front end. The library reads no file: a front
/// end that offers script games supplies a host, which builds the whole game
/// ([`crate::script::ScriptFamily`] on a backend): the CLI's runs each script in a watched
/// worker process, `script::InProcessHost` (feature `script`, Python's) in this process.
pub trait ScriptHost {
    /// The game of the script at `path`, as the `script:PATH` word `text` names it, computing
    /// under `control`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming `text` when the script cannot be read or loaded.
    fn build(&self, text: &str, path: &str, control: &Control) -> Result<Arc<dyn Ruleset>, GameError>;
}

/// What a front end lends the parser: how to read a file named in a game word, what runs
/// script games (none: `script:` is refused with a clear error), and the [`Control`] every
/// game built gets a clone of (its memory limit, cancel flag and progress sink).
#[derive(Clone)]
pub struct FrontEnd<'a> {
    /// Reads `FILE` parameters (`dag:FILE`).
    pub read_file: ReadFile<'a>,
    /// Builds `script:PATH` games.
    pub script_host: Option<&'a dyn ScriptHost>,
    /// What the games built compute under.
    pub control: Control,
}

impl<'a> FrontEnd<'a> {
    /// A front end that reads files with `read_file`, runs no scripts, and builds games under
    /// [`Control::default`].
    pub fn reading(read_file: ReadFile<'a>) -> Self {
        FrontEnd { read_file, script_host: None, control: Control::default() }
    }
}

/// How a family builds its game from the word's parameters (`None` when there is no `:`).
type Build = fn(text: &str, parameters: Option<&str>, front: &FrontEnd) -> Result<Arc<dyn Ruleset>, GameError>;

/// One family of games.
#[derive(Clone, Copy)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Family {
    /// The family's words before any `:` (`octal`; `kayles` is a family of its own).
    pub names: &'static [&'static str],
    /// The syntax, with parameters in capitals: `bash:M`.
    pub syntax: &'static str,
    /// The rules in one sentence.
    pub summary: &'static str,
    /// What a component is written as.
    pub component: &'static str,
    /// A complete example command line after `grundy`, runnable as written.
    pub example: &'static str,
    #[cfg_attr(feature = "serde", serde(skip))]
    build: Build,
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Family").field("syntax", &self.syntax).finish()
    }
}

fn no_parameters(
    text: &str,
    parameters: Option<&str>,
    game: impl FnOnce() -> Arc<dyn Ruleset>,
) -> Result<Arc<dyn Ruleset>, GameError> {
    match parameters {
        None => Ok(game()),
        Some(_) => Err(GameError::BadGame {
            spec: text.to_owned(),
            reason: format!("`{}` takes no parameters", text.split(':').next().unwrap_or(text)),
        }),
    }
}

fn required<'a>(text: &str, parameters: Option<&'a str>, form: &str) -> Result<&'a str, GameError> {
    parameters.filter(|p| !p.is_empty()).ok_or_else(|| GameError::BadGame {
        spec: text.to_owned(),
        reason: format!("missing parameters: write `{form}`"),
    })
}

fn read_graph(
    text: &str,
    parameters: Option<&str>,
    front: &FrontEnd,
    form: &str,
) -> Result<(String, String), GameError> {
    let file = required(text, parameters, form)?;
    let contents = (front.read_file)(file).map_err(|reason| GameError::BadGame { spec: text.to_owned(), reason })?;
    Ok((file.to_owned(), contents))
}

/// Every family, in the order `grundy rules` lists them.
pub static FAMILIES: &[Family] = &[
    Family {
        names: &["nim"],
        syntax: "nim",
        summary: "take any positive number of counters from one heap; G(n) = n",
        component: "a heap size, any number of digits",
        example: "value nim 3 4 5",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || erase(HeapRules::new(Nim).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["bash"],
        syntax: "bash:M",
        summary: "take 1 to M counters from one heap (M >= 1); G(n) = n mod (M+1)",
        component: "a heap size, any number of digits",
        example: "outcome bash:3 10",
        build: |text, parameters, front| {
            let game = Bash::parse(text, required(text, parameters, "bash:M")?)?;
            Ok(erase(HeapRules::new(game).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["sub"],
        syntax: "sub:S",
        summary: "take s counters from one heap, s in the comma-separated set S of positive integers (sub:2,5)",
        component: "a heap size, any number of digits (through the proved period)",
        example: "outcome sub:2,5 2 4 7",
        build: |text, parameters, front| {
            let game = SubtractionGame::parse(text, required(text, parameters, "sub:S")?)?;
            Ok(erase(HeapRules::new(game).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["octal"],
        syntax: "octal:CODE",
        summary: "octal take-and-break game: digit d_k of CODE (k = counters removed, d_0 before the point) is a sum of \
                  1 (may take the whole heap), 2 (may leave one heap), 4 (may leave two non-empty heaps); a bracketed \
                  group repeats forever (CGSuite's notation): octal:4.[3] is Lasker's Nim, octal:0.[3] Nim",
        component: "a heap size",
        example: "moves octal:0.137 7",
        build: |text, parameters, front| {
            let code = required(text, parameters, "octal:CODE")?;
            if code.contains(['[', ']']) {
                return crate::heap::tail::ruleset(code, CodeBase::Octal, &front.control);
            }
            let game = OctalGame::parse(code, CodeBase::Octal)?;
            Ok(erase(HeapRules::new(game).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["hex"],
        syntax: "hex:CODE",
        summary: "hexadecimal game: as octal:CODE with digits 0-F, where 8 means may leave three non-empty heaps",
        component: "a heap size",
        example: "value hex:0.8F 10",
        build: |text, parameters, front| {
            let code = required(text, parameters, "hex:CODE")?;
            if code.contains(['[', ']']) {
                return crate::heap::tail::ruleset(code, CodeBase::Hexadecimal, &front.control);
            }
            let game = OctalGame::parse(code, CodeBase::Hexadecimal)?;
            Ok(erase(HeapRules::new(game).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["kayles"],
        syntax: "kayles",
        summary: "Kayles (octal 0.77): knock down one pin or two adjacent pins from a row",
        component: "a row of pins (its length)",
        example: "moves kayles 10",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(HeapRules::new(OctalGame::kayles()).with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["dawson"],
        syntax: "dawson",
        summary: "Dawson's Kayles (octal 0.07): knock down two adjacent pins from a row",
        component: "a row of pins (its length)",
        example: "outcome dawson 20",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(HeapRules::new(OctalGame::dawson()).with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["grundys-game"],
        syntax: "grundys-game",
        summary: "Grundy's game: split one heap into two non-empty heaps of different sizes",
        component: "a heap size",
        example: "moves grundys-game 8",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(HeapRules::new(GrundysGame::new()).with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["split-nim"],
        syntax: "split-nim",
        summary: "replace one heap by two smaller heaps, each of any size below it (0 allowed; AcWing 894 拆分-Nim); \
                  G(n) is the n-th odious number",
        component: "a heap size, any number of digits",
        example: "outcome split-nim 2 3",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || erase(HeapRules::new(SplitNim).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["lasker"],
        syntax: "lasker",
        summary: "Lasker's Nim: take any positive number of counters from one heap, or split a heap into two non-empty \
                  heaps; G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3",
        component: "a heap size, any number of digits",
        example: "outcome lasker 2 3 4",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(HeapRules::new(crate::heap::lasker::LaskersNim).with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["wythoff"],
        syntax: "wythoff",
        summary: "take any positive number from one heap, or the same positive number from both",
        component: "a pair of heaps x,y, any number of digits",
        example: "outcome wythoff 4,7",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(crate::wythoff::Wythoff::new().with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["staircase"],
        syntax: "staircase",
        summary: "Staircase Nim (阶梯博弈): move any positive number of counters from one step down to the step below \
                  (off the staircase from step 1); G = the nim-sum of the odd-numbered steps (Winning Ways, ch. 16)",
        component: "the counts on steps 1, 2, 3, …, bottom step first, any number of digits: 3,0,2,5",
        example: "moves staircase 2,1,3",
        build: |text, parameters, _| no_parameters(text, parameters, || erase(crate::staircase::Staircase)),
    },
    Family {
        names: &["moore"],
        syntax: "moore:K",
        summary: "Moore's Nim_K: take a positive number of counters from each of 1 to K heaps (K >= 1); P iff every \
                  binary digit's count of ones is divisible by K+1 (Moore 1910); values by the definition on small heaps",
        component: "the heaps of one position, separated by commas, any number of digits: 3,5,6",
        example: "moves moore:2 1,2,3,4",
        build: |text, parameters, front| {
            let game = crate::moore::MooreNim::parse(text, required(text, parameters, "moore:K")?)?;
            Ok(erase(game.with_control(front.control.clone())))
        },
    },
    Family {
        names: &["euclid"],
        syntax: "euclid",
        summary: "Euclid's game: subtract a positive multiple of the smaller number from the larger, leaving at least 0; \
                  a pair with a 0 has no move; with a >= b > 0, P iff a != b and a/b < φ (Cole and Davie 1969)",
        component: "a pair of numbers a,b, any number of digits",
        example: "moves euclid 25,7",
        build: |text, parameters, _| no_parameters(text, parameters, || erase(crate::euclid::Euclid)),
    },
    Family {
        names: &["e-and-d"],
        syntax: "e-and-d",
        summary: "E&D (Luogu P2148): the heaps come in pairs; remove one heap of a pair and split the other into two \
                  non-empty heaps; G(a,b) = the index of the lowest 0 bit of (a-1) OR (b-1), bitwise",
        component: "a pair of heaps a,b (each from 1 to 2^64 - 1), or a table's heaps in pairs, 1,2,3,1",
        example: "moves e-and-d 1,2 3,1",
        build: |text, parameters, _| no_parameters(text, parameters, || erase(crate::e_and_d::EAndD)),
    },
    Family {
        names: &["king"],
        syntax: "king",
        summary: "a coin in the top-right corner of an n x m board moves one square left, down or diagonally \
                  left-down (HDU 2147 kiki's game); P iff n and m are both odd",
        component: "a board n,m: n rows and m columns, the coin in its top-right corner (both at least 1)",
        example: "moves king 5,4",
        build: |text, parameters, _| no_parameters(text, parameters, || erase(crate::king::CornerKing)),
    },
    Family {
        names: &["dynamic"],
        syntax: "dynamic:K",
        summary: "k-times dynamic subtraction (K >= 1): the first move takes 1 to n-1 counters, each later move 1 to \
                  K times what the last move took; outcomes by Schwenk's sequence (1970), values by the definition",
        component: "a fresh heap n, or n,k: a heap of n from which at most k may be taken now (n up to 10^30)",
        example: "moves dynamic:3 20",
        build: |text, parameters, front| {
            let game = crate::dynamic::DynamicSubtraction::parse(text, required(text, parameters, "dynamic:K")?)?;
            Ok(erase(game.with_control(front.control.clone())))
        },
    },
    Family {
        names: &["fibonacci-nim"],
        syntax: "fibonacci-nim",
        summary: "Fibonacci Nim (斐波那契博弈, dynamic:2): the first move takes 1 to n-1, each later move 1 to twice the \
                  last; a fresh heap is P iff n is a Fibonacci number (Whinihan 1963, by Zeckendorf's theorem)",
        component: "a fresh heap n, or n,k: a heap of n from which at most k may be taken now (n up to 10^30)",
        example: "outcome fibonacci-nim 13",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(crate::dynamic::DynamicSubtraction::new(2).with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["coins"],
        syntax: "coins:RULE",
        summary: "a row of coins; a move turns over coins the rule allows, the rightmost going heads to tails. \
                  RULE is turtles (one or two coins), mock-turtles (one to three), ruler (a run ending at the heads coin), \
                  twins (exactly two), or your own: turn=SET (how many coins a move turns, the heads coin included: \
                  2, 1..3, 2.., 1,4; 0.. means any number), others=SET (the coins besides it), and options after a slash: \
                  /consecutive (the coins form one run), /within=K (the others at most K places left)",
        component: "a heads coin's number (from 1, leftmost), or a whole row of H/T letters; a coin named twice is tails",
        example: "value coins:mock-turtles HTTHTHTTH",
        build: |text, parameters, front| {
            let rule = crate::coins::rule::CoinRule::parse(text, required(text, parameters, "coins:RULE")?)?;
            Ok(erase(crate::coins::CoinGame::new(rule).with_control(front.control.clone())))
        },
    },
    Family {
        names: &["corners"],
        syntax: "corners",
        summary: "Turning Corners: turn the four corners of a rectangle whose lower-right corner x,y goes heads to tails; \
                  x,y is worth the nim-product x*y (it is product:twins:twins)",
        component: "a heads x,y on a grid, rows and columns from 0",
        example: "value corners 3,5",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || {
                erase(crate::coins::product::ProductGame::corners().with_control(front.control.clone()))
            })
        },
    },
    Family {
        names: &["product"],
        syntax: "product:A:B",
        summary: "the Tartan product of two coin rules A and B (names or turn=... rules): a move turns S x T for a move S \
                  of A ending at x and a move T of B ending at y, x,y going heads to tails; x,y is worth \
                  G_A(x+1) nim-times G_B(y+1)",
        component: "a heads x,y; x is coin x+1 of rule A, y coin y+1 of rule B (both from 0)",
        example: "value product:ruler:mock-turtles 3,2 5,5",
        build: |text, parameters, front| {
            let game = crate::coins::product::ProductGame::parse(text, required(text, parameters, "product:A:B")?)?;
            Ok(erase(game.with_control(front.control.clone())))
        },
    },
    Family {
        names: &["dag"],
        syntax: "dag:FILE",
        summary: "slide one token along one edge of the directed graph in FILE (`u v` a line, # comments; or the contest \
                  layout: `n m`, then m edges of vertices 1..n); cycles allowed: values ∞(K) and draws D",
        component: "a vertex name (a token on it; several tokens may share a vertex)",
        example: "rules --write-examples /tmp/grundy-examples && grundy value dag:/tmp/grundy-examples/dag.txt a b b",
        build: |text, parameters, front| {
            let (file, contents) = read_graph(text, parameters, front, "dag:FILE")?;
            Ok(erase(DagGame::parse(text, &file, &contents, &front.control)?))
        },
    },
    Family {
        names: &["geography"],
        syntax: "geography:FILE",
        summary: "move the one token to an adjacent unvisited vertex of the undirected graph in FILE; the player to \
                  move wins iff every maximum matching covers the token's vertex",
        component: "the token's vertex `v`, or the path so far `v1,v2,v3` (token on v3)",
        example: "rules --write-examples /tmp/grundy-examples && grundy outcome geography:/tmp/grundy-examples/grid4.txt r0c0",
        build: |text, parameters, front| {
            let (file, contents) = read_graph(text, parameters, front, "geography:FILE")?;
            Ok(erase(GeographyGame::parse(text, &file, &contents, &front.control)?))
        },
    },
    Family {
        names: &["hackenbush"],
        syntax: "hackenbush, hackenbush:FILE",
        summary: "Green Hackenbush: delete one edge of an undirected multigraph; whatever no longer connects to the \
                  ground (vertex 0) falls; valued by the colon and fusion principles (Winning Ways ch. 7)",
        component: "a graph: edges u-v joined by commas, 0 the ground (0-1,1-2,2-0,1-1); with FILE (`u v` lines, \
                    ground 0, or a contest file `n m` with ground 1), `all` or `all/cut=3,17`",
        example: "value hackenbush 0-1,1-2,2-0,1-1 0-1,1-2",
        build: |text, parameters, front| match parameters {
            None => Ok(erase(crate::hackenbush::Hackenbush::new().with_control(front.control.clone()))),
            Some(_) => {
                let (file, contents) = read_graph(text, parameters, front, "hackenbush:FILE")?;
                Ok(erase(crate::hackenbush::Hackenbush::parse_file(text, &file, &contents, &front.control)?))
            }
        },
    },
    Family {
        names: &["chomp"],
        syntax: "chomp",
        summary: "Chomp: eat one cell of a Young diagram other than the poisoned bottom-left one, with every cell above \
                  it and to its right; the poisoned cell alone loses; a rectangle other than 1x1 is N by strategy \
                  stealing (Gale 1974)",
        component: "row lengths from the bottom row up, each at most the one below (5,3,3,1); LxK is K rows of L \
                    (4x3: 4 columns, 3 rows)",
        example: "moves chomp 5,3,3,1",
        build: |text, parameters, front| {
            no_parameters(text, parameters, || erase(crate::chomp::Chomp::new().with_control(front.control.clone())))
        },
    },
    Family {
        names: &["script"],
        syntax: "script:PATH",
        summary: "your own game: the Starlark file PATH defines `moves(position)`, the list of options (`Sum(a, b)` for \
                  an option that splits into independent games); run in a watched worker process",
        component: "an integer, integers separated by commas, or what the script's `parse` reads",
        example: "rules --write-examples /tmp/grundy-examples && grundy value script:/tmp/grundy-examples/subtraction.star 10",
        build: |text, parameters, front| {
            let path = required(text, parameters, "script:PATH")?;
            match front.script_host {
                Some(host) => host.build(text, path, &front.control),
                None => Err(GameError::BadGame {
                    spec: text.to_owned(),
                    reason: "this front end runs no scripts (script games need the grundy command line)".to_owned(),
                }),
            }
        },
    },
];

/// The syntax of every family of [`FAMILIES`] whose games are heap games with a nim-sequence
/// (`nim`, `bash:M`, `sub:S`, …), in the registry's order: what an error lists when a command
/// that takes a heap game is given another. Decided by building each family's example game
/// (the game word of [`Family::example`]) and asking it for its nim-sequence, so that a new
/// heap family joins the list by its registry entry alone. Families whose example reads a file
/// (a script) are not built here; the messages name scripts on integers in words.
///
/// ```
/// let heap = grundy::registry::heap_family_syntaxes();
/// assert_eq!(&heap[..3], ["nim", "bash:M", "sub:S"]);
/// assert!(heap.contains(&"grundys-game") && !heap.contains(&"wythoff"));
/// ```
pub fn heap_family_syntaxes() -> Vec<&'static str> {
    FAMILIES
        .iter()
        .filter(|family| {
            family
                .example
                .split_whitespace()
                .nth(1)
                .and_then(|word| parse_game(word).ok())
                .is_some_and(|game| game.heap_game().is_some())
        })
        .map(|family| family.syntax)
        .collect()
}

/// [`heap_family_syntaxes`] as one comma-separated list, for messages:
/// `nim, bash:M, sub:S, octal:CODE, …`.
pub fn heap_family_list() -> String {
    heap_family_syntaxes().join(", ")
}

/// Whether the game texts `found` and `expected` name the same rules: the same text, or the
/// same [`HeapGame::canonical_spec`](crate::heap::HeapGame::canonical_spec) (`dawson` and
/// `octal:0.07`). What a front end hands a checkpoint's reader
/// ([`Decoder::with_spellings`](crate::heap::checkpoint::Decoder::with_spellings)), so that a
/// checkpoint written under one spelling resumes under another.
///
/// ```
/// use grundy::registry::same_game;
/// assert!(same_game("octal:0.07", "dawson"));
/// assert!(same_game("kayles", "hex:0.77"));
/// assert!(!same_game("kayles", "dawson"));
/// ```
pub fn same_game(found: &str, expected: &str) -> bool {
    let canonical =
        |text: &str| parse_game(text).ok().and_then(|rules| rules.heap_game().map(|game| game.canonical_spec()));
    found == expected || canonical(found).is_some_and(|found| canonical(expected) == Some(found))
}

/// The family a game word names, by the word before any `:`.
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|family| family.names.contains(&name))
}

/// The known family name nearest to `word` (at most a third of its letters changed, or only
/// its case: `Nim`, `NIM`), for "did you mean".
///
/// ```
/// use grundy::registry::nearest_name;
/// assert_eq!(nearest_name("Nim"), Some("nim"));
/// assert_eq!(nearest_name("KAYLES"), Some("kayles"));
/// assert_eq!(nearest_name("kayls"), Some("kayles"));
/// assert_eq!(nearest_name("nim"), None);
/// ```
pub fn nearest_name(word: &str) -> Option<&'static str> {
    let typed = word;
    let word = word.to_ascii_lowercase();
    FAMILIES
        .iter()
        .flat_map(|family| family.names.iter().copied())
        .map(|name| (strsim::damerau_levenshtein(&word, name), name))
        .filter(|&(distance, name)| (distance > 0 || name != typed) && distance <= name.len().div_ceil(3).max(1))
        .min()
        .map(|(_, name)| name)
}

/// Parses a game word.
///
/// # Errors
/// [`GameError::UnknownGame`] (with the nearest name) for an unknown family,
/// [`GameError::BadGame`] for bad parameters.
///
/// ```
/// use grundy::registry::parse_game;
/// let game = parse_game("sub:2,5").unwrap();
/// assert_eq!(game.spec(), "sub:2,5");
/// let error = parse_game("kayls").err().unwrap().to_string();
/// assert!(error.contains("did you mean `kayles`?"), "{error}");
/// ```
pub fn parse_game(text: &str) -> Result<Arc<dyn Ruleset>, GameError> {
    parse_game_with(text, &|path| Err(format!("cannot read `{path}`: this front end reads no files")))
}

/// Parses a game word whose parameters may name a file (`dag:FILE`), read by `read_file`.
///
/// # Errors
/// As [`parse_game`], and a file that cannot be read or parsed.
pub fn parse_game_with(text: &str, read_file: ReadFile) -> Result<Arc<dyn Ruleset>, GameError> {
    parse_game_in(text, &FrontEnd::reading(read_file))
}

/// Parses a game word with what the front end lends: files and script games.
///
/// # Errors
/// As [`parse_game_with`], and a script game the front end cannot run.
pub fn parse_game_in(text: &str, front: &FrontEnd) -> Result<Arc<dyn Ruleset>, GameError> {
    let (name, parameters) = match text.split_once(':') {
        Some((name, parameters)) => (name, Some(parameters)),
        None => (text, None),
    };
    match family(name) {
        Some(family) => (family.build)(text, parameters, front),
        None => {
            Err(GameError::UnknownGame { text: text.to_owned(), suggestion: nearest_name(name).map(str::to_owned) })
        }
    }
}

/// The word that separates the parts of a sum of different games.
pub const PLUS: &str = "+";

/// Parses a command line's position: a game word and its components, and after each lone `+`
/// another game word and its components (`nim 3 + wythoff 4,7`).
///
/// # Errors
/// An empty part, a bad game word or a bad component.
///
/// ```
/// use grundy::registry::parse_sum;
/// let position = parse_sum(&["nim", "3", "+", "wythoff", "4,7"]).unwrap();
/// assert_eq!(position.parts.len(), 2);
/// assert_eq!(position.to_text(), "nim 3 + wythoff 4,7");
/// ```
pub fn parse_sum(words: &[&str]) -> Result<Position, GameError> {
    parse_sum_with(words, &|path| Err(format!("cannot read `{path}`: this front end reads no files")))
}

/// As [`parse_sum`], reading files named in game words with `read_file`.
///
/// # Errors
/// As [`parse_sum`].
pub fn parse_sum_with(words: &[&str], read_file: ReadFile) -> Result<Position, GameError> {
    parse_sum_in(words, &FrontEnd::reading(read_file))
}

/// As [`parse_sum`], with what the front end lends: files and script games.
///
/// # Errors
/// As [`parse_sum`], and a script game the front end cannot run.
pub fn parse_sum_in(words: &[&str], front: &FrontEnd) -> Result<Position, GameError> {
    let mut parts = Vec::new();
    for (index, group) in words.split(|word| *word == PLUS).enumerate() {
        let Some((game_word, components)) = group.split_first() else {
            return Err(GameError::BadGame {
                spec: words.join(" "),
                reason: format!(
                    "part {} of the sum is empty: each `+` is followed by a game and its components",
                    index + 1
                ),
            });
        };
        parts.push(Part::parse(parse_game_in(game_word, front)?, components)?);
    }
    Ok(Position { parts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::checkpoint::{CheckpointError, Decoder, encode};
    use crate::heap::sequence::CompactSequence;

    /// A checkpoint written for `octal:0.07` resumes `dawson`, and is refused for Kayles with
    /// the message a front end shows.
    #[test]
    fn spellings_of_one_game_share_checkpoints() {
        let bytes = encode("octal:0.07", &CompactSequence::from_values(&[0, 0, 1, 1, 0]));
        let read = |expected: &str| {
            let mut decoder =
                Decoder::with_spellings(&bytes, expected, &|found| same_game(found, expected), bytes.len() as u64)?;
            decoder.feed(&bytes[decoder.payload_start()..])?;
            decoder.finish()
        };
        assert_eq!(read("dawson").unwrap().to_vec(), [0, 0, 1, 1, 0]);
        let refused = read("kayles").unwrap_err();
        assert!(matches!(refused, CheckpointError::OtherGame { .. }));
        assert_eq!(refused.to_string(), "it holds the nim-sequence of octal:0.07, not of kayles");
    }

    #[test]
    fn errors_name_the_offending_text() {
        for (text, needle) in [
            ("chess", "chess"),
            ("nim:3", "no parameters"),
            ("bash", "bash:M"),
            ("bash:0", "M = 0"),
            ("bash:x", "`x`"),
            ("sub:", "sub:S"),
            ("sub:2,0", "`0`"),
            ("octal", "octal:CODE"),
            ("octal:0.", "no digits after the point"),
            ("octal:0.18", "`8` at position 4"),
            ("hex:0.1G", "`G` at position 4"),
            ("kayles:1", "no parameters"),
            ("grundys-game:2", "no parameters"),
            ("script", "script:PATH"),
            ("script:games/my.star", "runs no scripts"),
        ] {
            let error = parse_game(text).err().expect(text).to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
