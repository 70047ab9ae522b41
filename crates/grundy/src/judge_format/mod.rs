//! Judge formats: how a contest problem writes its input and its answers, so that a front end
//! can read a judge's input file (`grundy outcome --input-format acwing-893 < data.in`) and
//! write tests in it for a solution as submitted (`grundy check --program … --input-format …`).
//!
//! A format is a few lines, one directive each (`#` starts a comment):
//!
//! ```text
//! # AcWing 893. 集合-Nim游戏
//! line k:1..100              # a line holding one number, k, between 1 and 100
//! line S[k]:1..10000:distinct  # a line of k distinct numbers, the set S
//! line n:1..100
//! line h[n]:1..10000         # the n heaps
//! game sub:{S}               # the game: {S} is the set, written with commas
//! position {h}               # the position: the heaps, one component each
//! answer Yes No              # the word when the player to move wins, then when they lose
//! ```
//!
//! - `line ITEM…`: one line of a test's input. An item is `NAME` (one number) or
//!   `NAME[COUNT]` (COUNT numbers; COUNT a number or a name read before), with an optional
//!   bound `:LOW..HIGH` (`1e9` is 10^9), `:even` or `:odd` (Luogu P2148's N is even: `n:2..20000:even`)
//!   and, for a list, `:distinct`.
//! - `game TEXT` and `position TEXT`: the GAME word and the components, with `{NAME}` replaced
//!   by what was read (a list: with commas in `game`, with spaces in `position`). Without a
//!   `game` line the game is the one named on the command line.
//! - `answer WIN LOSE` or `answer value`: the judge's words, or the Grundy (SG) value.
//! - `tests LOW..HIGH` (the input starts with the number of tests T, on its own line),
//!   `tests eof` (tests follow one another to the end of the input) or `tests until WORDS`
//!   (tests until a line of these words, `tests until 0 0 0`; what follows it is not read);
//!   without it the input is one test.
//! - `answer "Stan wins" "Ollie wins"` (words with spaces, quoted), `answer Yes No Draw` (a
//!   word for a draw in a loopy game), `answer count` (how many winning first moves) and
//!   `answer move "{take} {index}\n{after}" lose` (the least winning move in the problem's
//!   words): see [`answer`]. `case "Case {i}: "` writes the test's number before each answer.
//! - A list read as a set, `line c[n]:set`: a number repeated counts once (HDU 3537).
//! - `play misere`: whoever moves last loses (misère play, 反Nim / Anti-SG); `play normal`,
//!   the default, is the usual rule (whoever cannot move loses).
//! - `rows COUNT ITEM…`: COUNT lines of the same numbers, each name a list (`rows n-1 x y`: a
//!   tree's edges; a count may be a name less a number). `:sorted`: a list that never decreases.
//! - Holes with filters and lists taken together: `{p|sort|gaps|reverse:,}`, `{x~y|-1:-:,}`
//!   (see `template`); a number a filter cannot take is refused, never answered.
//! - `repeat COUNT` … `end`: lines read COUNT times, each time written apart by a hole (one
//!   component each: POJ 3710's trees).
//! - `compound every|conjunctive|selective`: the tests are played in that compound (HDU 3595).
//! - `draw off "WHY"`: `check` cannot draw the format's tests, and says why.
//!
//! Reading takes the numbers as whitespace-separated words wherever the lines break, as judges
//! do; writing breaks lines as the format's `line`s do. Every mistake is one line naming the
//! format's line or the input's line.
//!
//! [`draw`] draws tests from the whole format (counts, parameters and positions within their
//! bounds) for `grundy check`, and shrinks a failing one.

pub mod answer;
pub mod draw;
mod read;
mod template;
#[cfg(test)]
mod tests;
mod words;
mod writer;

pub use answer::{Answer, MoveTemplate};
pub use writer::TestWriter;

use crate::compound::Compound;
use crate::error::quote;
use crate::value::Outcome;
use num_bigint::BigUint;
use std::collections::BTreeMap;
use template::Template;
use words::Words;

/// A mistake in a format or in an input read with one: one line, naming where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FormatError(pub String);

fn fail<T>(message: String) -> Result<T, FormatError> {
    Err(FormatError(message))
}

/// The formats built in by name: (name, the problem, the format's text). Each is a problem
/// whose statement is well known and stable; anything else is a file written by the user.
pub const BUILTIN_FORMATS: &[(&str, &str, &str)] = &[
    (
        "acwing-891",
        "AcWing 891 Nim游戏 (Nim): n, then n heaps; Yes when the first player wins",
        "line n:1..100000\nline a[n]:0..1e9\ngame nim\nposition {a}\nanswer Yes No\n",
    ),
    (
        "acwing-893",
        "AcWing 893 集合-Nim游戏 (set-Nim): k, the set S, n, the n heaps; Yes when the first player wins",
        "line k:1..100\nline S[k]:1..10000:distinct\nline n:1..100\nline h[n]:1..10000\ngame sub:{S}\nposition {h}\nanswer Yes No\n",
    ),
    (
        "hdu-1846",
        "HDU 1846 Brave Game (Bash): C tests, each `n m` (take 1…m from n); first or second",
        "tests 1..100\nline n:1..1000 m:1..1000\ngame bash:{m}\nposition {n}\nanswer first second\n",
    ),
    (
        "poj-1067",
        "POJ 1067 取石子游戏 (Wythoff): pairs `a b` to the end of input; 1 when the first player wins, else 0",
        "tests eof\nline a:0..1e9 b:0..1e9\ngame wythoff\nposition {a},{b}\nanswer 1 0\n",
    ),
    (
        "hdu-1907",
        "HDU 1907 John (misère Nim, 反Nim): T tests, each n, then n heaps; John when the first player wins, else Brother",
        "tests 1..474\nline n:1..47\nline a[n]:1..4747\ngame nim\nplay misere\nposition {a}\nanswer John Brother\n",
    ),
    (
        "acwing-894",
        "AcWing 894 拆分-Nim游戏 (split-Nim): n, then n heaps; a move replaces a heap by two smaller ones; Yes when the first player wins",
        "line n:1..100\nline a[n]:1..100\ngame split-nim\nposition {a}\nanswer Yes No\n",
    ),
    (
        "acwing-892",
        "AcWing 892 台阶-Nim游戏 (staircase Nim): n, then the counts on steps 1..n; Yes when the first player wins",
        "line n:1..100000\nline a[n]:1..1e9\ngame staircase\nposition {a:,}\nanswer Yes No\n",
    ),
    (
        "hdu-2516",
        "HDU 2516 取石子游戏 (Fibonacci Nim): n until 0; First win when the first player wins, else Second win",
        "tests until 0\nline n:2..2147483647\ngame fibonacci-nim\nposition {n}\nanswer \"First win\" \"Second win\"\n",
    ),
    (
        "hdu-2486",
        "HDU 2486 A simple stone game (k-times dynamic subtraction): t tests of `n k`; Case i: the fewest stones a winning first move takes, or lose",
        "tests 1..20\nline n:2..1e8 k:1..100000\ngame dynamic:{k}\nposition {n}\nanswer move \"{take}\" lose\ncase \"Case {i}: \"\n",
    ),
    (
        "hdu-1525",
        "HDU 1525 Euclid's Game: pairs `a b` until 0 0; Stan wins when the first player (Stan) wins, else Ollie wins",
        "tests until 0 0\nline a:1..2147483647 b:1..2147483647\ngame euclid\nposition {a},{b}\nanswer \"Stan wins\" \"Ollie wins\"\n",
    ),
    (
        "luogu-p1290",
        "Luogu P1290 欧几里德的游戏 (Euclid's game): C ≤ 6 tests of `M N`, each below 2^31; Stan wins when the first player (Stan) wins, else Ollie wins",
        "tests 1..6\nline m:1..2147483647 n:1..2147483647\ngame euclid\nposition {m},{n}\nanswer \"Stan wins\" \"Ollie wins\"\n",
    ),
    (
        "hdu-3032",
        "HDU 3032 Nim or not Nim? (Lasker's Nim: take from one heap, or split it in two): T tests, each N, then N heaps; Alice when the first player wins, else Bob",
        "tests 1..100\nline n:1..1000000\nline s[n]:1..2147483647\ngame lasker\nposition {s}\nanswer Alice Bob\n",
    ),
    (
        "hdu-1848",
        "HDU 1848 Fibonacci again and again (take a Fibonacci number from one of three heaps): lines `m n p` until `0 0 0`; Fibo when the first player wins, else Nacci",
        "tests until 0 0 0\nline m:1..1000 n:1..1000 p:1..1000\ngame sub:1,2,3,5,8,13,21,34,55,89,144,233,377,610,987\nposition {m} {n} {p}\nanswer Fibo Nacci\n",
    ),
    (
        "hdu-1850",
        "HDU 1850 Being a Good Boy in Spring Festival (Nim): M, then M heaps, until M = 0; how many winning first moves (0 when there is none)",
        "tests until 0\nline m:2..100\nline n[m]:1..1000000\ngame nim\nposition {n}\nanswer count\n",
    ),
    (
        "luogu-p1247",
        "Luogu P1247 取火柴游戏 (Nim): k, then k heaps; the least winning move `a b` (take a from heap b, least b then least a) and the heaps after it, or lose",
        "line k:1..500000\nline n[k]:0..1e9\ngame nim\nposition {n}\nanswer move \"{take} {index}\\n{after}\" lose\n",
    ),
    (
        "luogu-p2148",
        "Luogu P2148 [SDOI2009] E&D (remove one heap of a pair, split the other): T tests, each N (even), then the N heaps, paired 1st with 2nd, 3rd with 4th…; YES when the first player wins, else NO",
        "tests 1..20\nline n:2..20000:even\nline s[n]:1..2e9\ngame e-and-d\nposition {s:,}\nanswer YES NO\n",
    ),
    (
        "hdu-2147",
        "HDU 2147 kiki's game (a coin from the top-right corner of an n x m board, one square left, down or left-down): lines `n m` until `0 0`; Wonderful! when the first player (kiki) wins, else What a pity!",
        "tests until 0 0\nline n:1..2000 m:1..2000\ngame king\nposition {n},{m}\nanswer Wonderful! \"What a pity!\"\n",
    ),
    (
        "poj-1704",
        "POJ 1704 Georgia and Bob (pieces moved left on a line: staircase Nim on the gaps between them, the last gap first): T tests, each N, then N different positions; Georgia will win when the first player (Georgia) wins, else Bob will win",
        "tests 1..20\nline n:1..1000\nline p[n]:1..10000:distinct\ngame staircase\nposition {p|sort|gaps|reverse:,}\nanswer \"Georgia will win\" \"Bob will win\"\n",
    ),
    (
        "luogu-p3480",
        "Luogu P3480 [POI2009] KAM-Pebbles (piles that never decrease: staircase Nim on the differences, the last first): u tests, each n, then n piles in order; TAK when the first player wins, else NIE (u ≤ 10, n ≤ 1000, at most 10000 pebbles in all; a pile is bounded by the total)",
        "tests 1..10\nline n:1..1000\nline a[n]:0..10000:sorted\ngame staircase\nposition {a|diff|reverse:,}\nanswer TAK NIE\n",
    ),
    (
        "hdu-3094",
        "HDU 3094 A tree game (Green Hackenbush on a tree rooted at 1): T tests, each N, then N - 1 edges `I J`; Alice when the first player (Alice) wins, else Bob",
        "tests 1..100\nline n:1..100000\nrows n-1 x:1..100000 y:1..100000\ngame hackenbush\nposition {x~y|-1:-:,}\nanswer Alice Bob\ndraw off \"its edges must make a tree on the vertices 1..N, which check does not draw\"\n",
    ),
    (
        "poj-3710",
        "POJ 3710 Christmas Game (Green Hackenbush: trees with polygons hanging from them, root 1): until the end of input, the number of trees, then each tree's `m k` (vertices, edges) and k edges `a b`; Sally when the first player (Sally) wins, else Harry",
        "tests eof\nline n:1..99\nrepeat n\nline m:1..99 k:0..499\nrows k a:1..99 b:1..99\nend\ngame hackenbush\nposition {a~b|-1:-:,}\nanswer Sally Harry\ndraw off \"its edges must make trees with polygons on the vertices 1..m, which check does not draw\"\n",
    ),
    (
        "hdu-3595",
        "HDU 3595 GG and MM (Every-SG: each turn a move in every game that can move; each game a pair, a multiple of the smaller taken from the larger, as in Euclid's game): tests until the end of input, each N, then N pairs `p q`; MM when the first player wins, else GG (at most 100 tests, N ≤ 1000, p, q ≤ 1000, a pair with a 0 already over; the words are those of accepted solutions, the statement's sample is not confirmed here)",
        "tests eof\nline n:1..1000\nrows n p:0..1000 q:0..1000\ngame euclid\nposition {p~q}\ncompound every\nanswer MM GG\n",
    ),
];

/// The text of the built-in format `name`.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN_FORMATS.iter().find(|(known, _, _)| *known == name).map(|(_, _, text)| *text)
}

/// How many tests an input holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tests {
    /// The whole input is one test.
    One,
    /// The input starts with T, the number of tests, `low ≤ T ≤ high`.
    Counted {
        /// The least T.
        low: u64,
        /// The greatest T.
        high: u64,
    },
    /// Tests until the end of the input.
    UntilEnd,
    /// Tests until a line of these words (`tests until 0 0 0`, HDU 1848), or the end of the
    /// input.
    UntilSentinel(Vec<String>),
}

/// What a program answered for one test, read in the format's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The format's word for this outcome.
    Outcome(Outcome),
    /// A number, for a format whose answer is the value.
    Value(BigUint),
    /// Anything else (the judge would reject it).
    Unrecognized,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Count {
    Fixed(u64),
    Name(String),
}

/// One number or one list of numbers of a test's input.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    name: String,
    /// `Some` for a list.
    count: Option<Count>,
    bound: Option<(u64, u64)>,
    distinct: bool,
    /// A list read as a set: a number repeated counts once (`:set`, HDU 3537's coins).
    set: bool,
    /// A list that does not decrease (`:sorted`, Luogu P3480's piles).
    sorted: bool,
    /// The list holds its count's number less this (`e[n-1]`: a tree's n − 1 edges).
    count_less: u64,
    /// Every number even (`Some(0)`, `:even`: Luogu P2148's N) or odd (`Some(1)`, `:odd`).
    parity: Option<u64>,
}

/// One `line` of a test, or `rows COUNT …` (COUNT lines of the same items, each item a list).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    items: Vec<Item>,
    rows: bool,
    /// The `repeat` the line is in (an index of `JudgeFormat::groups`).
    group: Option<usize>,
}

/// `repeat COUNT` … `end`: lines read COUNT times (POJ 3710: k graphs, each with its own
/// counts). Each name inside holds every time's numbers one after the other, and `#NAME` how
/// many each time read, so that a hole writes each time apart (one component each).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Repeat {
    count: String,
}

/// The numbers read for one test (or chosen for one test to write): a name's numbers, one for
/// a number, any for a list.
pub type Bindings = BTreeMap<String, Vec<u64>>;

/// A judge's input and answer format (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeFormat {
    game: Option<Template>,
    /// Misère play (`play misere`).
    misere: bool,
    tests: Tests,
    lines: Vec<Line>,
    /// A compound other than the sum (`compound every`, HDU 3595).
    compound: Option<Compound>,
    /// Why `check` cannot draw the tests (`draw off "…"`: a tree's edges).
    no_drawing: Option<String>,
    groups: Vec<Repeat>,
    position: Template,
    answer: Answer,
    /// Written before each answer, `{i}` the test's number from 1 (`case "Case {i}: "`).
    case_prefix: Option<String>,
}

/// One test read from an input: the game (when the format names it) and the components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The GAME word, `None` when the format has no `game` line.
    pub game: Option<String>,
    /// The components of the position.
    pub components: Vec<String>,
    /// The input line where the test starts (1-based).
    pub line: usize,
}

/// Formats longer than this are refused (a format is a few lines).
const MAX_FORMAT_BYTES: usize = 64 * 1024;
/// The most tests grundy writes into one file.
pub const MAX_TESTS_PER_FILE: usize = 10_000;

/// `1000`, `1e9`: a whole number as contest statements write bounds.
fn parse_number(text: &str) -> Option<u64> {
    if let Some((mantissa, exponent)) = text.split_once(['e', 'E']) {
        let mantissa: u64 = digits(mantissa)?;
        let exponent: u32 = digits(exponent)?.try_into().ok()?;
        return mantissa.checked_mul(10u64.checked_pow(exponent)?);
    }
    digits(text)
}

fn digits(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `5`, `n` or `n-1`: a list's count, and what is taken off a named one.
fn parse_count(text: &str) -> Option<(Count, u64)> {
    if let Some(fixed) = parse_number(text) {
        return Some((Count::Fixed(fixed), 0));
    }
    let (name, less) = match text.split_once('-') {
        Some((name, less)) => (name, parse_number(less)?),
        None => (text, 0),
    };
    valid_name(name).then(|| (Count::Name(name.to_owned()), less))
}

/// `even` for 0, `odd` for 1.
fn parity_word(parity: u64) -> &'static str {
    if parity == 0 { "even" } else { "odd" }
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Item {
    /// `NAME`, `NAME[COUNT]`, each with `:LOW..HIGH` and (a list) `:distinct` after it.
    fn parse(text: &str, at: &str) -> Result<Item, FormatError> {
        let mut parts = text.split(':');
        let head = parts.next().unwrap_or_default();
        let (name, count) = match head.split_once('[') {
            Some((name, count)) => {
                let Some(count) = count.strip_suffix(']') else {
                    return fail(format!("{at}: `{}`: a list is NAME[COUNT], with `]` after the count", quote(text)));
                };
                let Some(count) = parse_count(count) else {
                    return fail(format!(
                        "{at}: `{}`: the count `{}` is neither a number, nor a name, nor a name less a number (`n-1`)",
                        quote(text),
                        quote(count)
                    ));
                };
                (name, Some(count))
            }
            None => (head, None),
        };
        let (count, count_less) = match count {
            Some((count, less)) => (Some(count), less),
            None => (None, 0),
        };
        if !valid_name(name) {
            return fail(format!(
                "{at}: `{}` is not a name (letters, digits and _, not starting with a digit)",
                quote(name)
            ));
        }
        let mut item = Item {
            name: name.to_owned(),
            count,
            bound: None,
            distinct: false,
            set: false,
            sorted: false,
            count_less,
            parity: None,
        };
        for part in parts {
            if part == "even" || part == "odd" {
                if item.parity.is_some() {
                    return fail(format!("{at}: `{}`: one of `even` and `odd`", quote(text)));
                }
                item.parity = Some(u64::from(part == "odd"));
                continue;
            }
            if part == "distinct" || part == "set" || part == "sorted" {
                if item.count.is_none() {
                    return fail(format!("{at}: `{}`: only a list (NAME[COUNT]) can be {part}", quote(text)));
                }
                match part {
                    "set" => item.set = true,
                    "sorted" => item.sorted = true,
                    _ => item.distinct = true,
                }
            } else if let Some((low, high)) = part.split_once("..") {
                let (Some(low), Some(high)) = (parse_number(low), parse_number(high)) else {
                    return fail(format!(
                        "{at}: `{}`: the bound `{}` is not LOW..HIGH with whole numbers (`1..100`, `0..1e9`)",
                        quote(text),
                        quote(part)
                    ));
                };
                if low > high {
                    return fail(format!("{at}: `{}`: the bound {low}..{high} is empty", quote(text)));
                }
                item.bound = Some((low, high));
            } else {
                return fail(format!(
                    "{at}: `{}`: `{}` after `:` is neither a bound LOW..HIGH nor `distinct`, `set`, `sorted`, `even` or `odd`",
                    quote(text),
                    quote(part)
                ));
            }
        }
        if let (Some(parity), Some((low, high))) = (item.parity, item.bound)
            && low == high
            && low % 2 != parity
        {
            return fail(format!(
                "{at}: `{}`: the bound {low}..{high} holds no {} number",
                quote(text),
                parity_word(parity)
            ));
        }
        Ok(item)
    }

    /// How many numbers the item holds: 1, its fixed count, or its count as bound already
    /// (less `count_less`).
    fn length(&self, bindings: &Bindings) -> u64 {
        match &self.count {
            None => 1,
            Some(Count::Fixed(count)) => *count,
            Some(Count::Name(count)) => bindings
                .get(count)
                .and_then(|numbers| numbers.first())
                .copied()
                .unwrap_or(0)
                .saturating_sub(self.count_less),
        }
    }

    /// The count that gives this list `length` numbers.
    fn count_for(&self, length: usize) -> u64 {
        (length as u64).saturating_add(self.count_less)
    }

    fn describe_bound(&self) -> String {
        let bound = self.bound.map(|(low, high)| format!("{low}..{high}")).unwrap_or_default();
        match self.parity {
            Some(parity) => format!("{bound}{}{}", if bound.is_empty() { "" } else { ", " }, parity_word(parity)),
            None => bound,
        }
    }

    /// Whether `number` has the item's parity (any number when it has none).
    fn parity_fits(&self, number: u64) -> bool {
        self.parity.is_none_or(|parity| number % 2 == parity)
    }
}

impl JudgeFormat {
    /// Reads a format's text.
    ///
    /// # Errors
    /// The first mistake, as one line naming the format's line.
    ///
    /// ```
    /// use grundy::judge_format::JudgeFormat;
    /// let format = JudgeFormat::parse("line n\nline h[n]:1..9\nposition {h}\nanswer Yes No").unwrap();
    /// let tests = format.read("2\n3 4\n").unwrap();
    /// assert_eq!(tests[0].components, ["3", "4"]);
    /// assert!(JudgeFormat::parse("line h[m]\nposition {h}\nanswer Yes No").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<JudgeFormat, FormatError> {
        if text.len() > MAX_FORMAT_BYTES {
            return fail(format!("the format has {} bytes: a format is a few lines (at most 64 KiB)", text.len()));
        }
        let (mut game, mut tests, mut position, mut answer, mut play) = (None, None, None, None, None);
        let mut case_prefix: Option<String> = None;
        let mut compound: Option<Compound> = None;
        let mut no_drawing: Option<String> = None;
        let mut groups: Vec<Repeat> = Vec::new();
        // The repeat open, and the names read in it.
        let mut open: Option<(usize, Vec<String>)> = None;
        let mut lines: Vec<Line> = Vec::new();
        // Each name once, and whether it is a list.
        let mut names: BTreeMap<String, bool> = BTreeMap::new();
        for (index, raw) in text.lines().enumerate() {
            let at = format!("format line {}", index + 1);
            let line = raw.split('#').next().unwrap_or_default().trim();
            let Some((keyword, rest)) =
                line.split_once(char::is_whitespace).or((!line.is_empty()).then_some((line, "")))
            else {
                continue;
            };
            let rest = rest.trim();
            let once = |seen: bool| {
                if seen { fail(format!("{at}: a second `{keyword}` line (a format has one)")) } else { Ok(()) }
            };
            match keyword {
                "line" | "rows" => {
                    let rows = keyword == "rows";
                    let mut words = rest.split_whitespace();
                    let row_count = if rows {
                        let text = words.next().unwrap_or_default();
                        let Some(count) = parse_count(text) else {
                            return fail(format!(
                                "{at}: `rows {}`: expected the number of rows first (a number, a name read before, or `n-1`), then each row's numbers (`rows m u v`)",
                                quote(rest)
                            ));
                        };
                        Some(count)
                    } else {
                        None
                    };
                    let mut items = Vec::new();
                    for word in words {
                        let mut item = Item::parse(word, &at)?;
                        if let Some((count, less)) = &row_count {
                            if item.count.is_some() {
                                return fail(format!(
                                    "{at}: `{}`: a row holds one number of each name (`rows m u v`), not a list",
                                    quote(word)
                                ));
                            }
                            item.count = Some(count.clone());
                            item.count_less = *less;
                        }
                        if let Some(Count::Name(count)) = &item.count {
                            match names.get(count) {
                                Some(false) => {}
                                Some(true) => {
                                    return fail(format!(
                                        "{at}: `{}`: the count `{count}` is a list, not a number",
                                        quote(word)
                                    ));
                                }
                                None => {
                                    return fail(format!(
                                        "{at}: `{}`: the count `{count}` is not read before it (write `{count}` on an earlier line or earlier on this one)",
                                        quote(word)
                                    ));
                                }
                            }
                        }
                        if names.insert(item.name.clone(), item.count.is_some()).is_some() {
                            return fail(format!("{at}: `{}` is read twice (each name once)", item.name));
                        }
                        items.push(item);
                    }
                    if items.is_empty() {
                        return fail(format!(
                            "{at}: `{keyword}` with nothing on it: write its numbers (`line n`, `line h[n]`, `rows m u v`)"
                        ));
                    }
                    if let Some((_, inside)) = &mut open {
                        if let Some(item) = items.iter().find(|item| item.set) {
                            return fail(format!("{at}: `{}`: a list in a `repeat` cannot be a set", item.name));
                        }
                        inside.extend(items.iter().map(|item| item.name.clone()));
                    }
                    lines.push(Line { items, rows, group: open.as_ref().map(|(group, _)| *group) });
                }
                "repeat" => {
                    if open.is_some() {
                        return fail(format!("{at}: a `repeat` inside a `repeat` (one level is read here)"));
                    }
                    if names.get(rest) != Some(&false) {
                        return fail(format!(
                            "{at}: `repeat {}`: expected a number's name read before (`repeat k`, then the lines read k times, then `end`)",
                            quote(rest)
                        ));
                    }
                    groups.push(Repeat { count: rest.to_owned() });
                    open = Some((groups.len() - 1, Vec::new()));
                }
                "end" => {
                    let Some((_, inside)) = open.take() else {
                        return fail(format!("{at}: `end` without `repeat`"));
                    };
                    if inside.is_empty() {
                        return fail(format!("{at}: a `repeat` with no `line` in it"));
                    }
                    // Outside, what a repeat read is a list (each time's numbers).
                    for name in inside {
                        names.insert(name, true);
                    }
                }
                "game" | "position" => {
                    if open.is_some() {
                        return fail(format!("{at}: `{keyword}` inside a `repeat`: close it with `end` first"));
                    }
                    if rest.is_empty() {
                        return fail(format!("{at}: `{keyword}` needs its text (`game sub:{{S}}`, `position {{h}}`)"));
                    }
                    let template = Template::parse(rest, &at)?;
                    for name in template.names() {
                        if !names.contains_key(name) {
                            return fail(format!("{at}: `{{{name}}}` names nothing read by a `line` before it"));
                        }
                    }
                    let slot = if keyword == "game" { &mut game } else { &mut position };
                    once(slot.is_some())?;
                    *slot = Some(template);
                }
                "answer" => {
                    once(answer.is_some())?;
                    answer = Some(Answer::parse(rest, &at)?);
                }
                "case" => {
                    once(case_prefix.is_some())?;
                    let words = answer::quoted_words(rest, &at)?;
                    let [(prefix, _)] = words.as_slice() else {
                        return fail(format!(
                            "{at}: `case {}`: expected one quoted text with `{{i}}`, the test's number (`case \"Case {{i}}: \"`)",
                            quote(rest)
                        ));
                    };
                    answer::template_holes(prefix, &["i"], &at)?;
                    case_prefix = Some(prefix.clone());
                }
                "tests" => {
                    once(tests.is_some())?;
                    let sentinel: Vec<String> = rest
                        .strip_prefix("until")
                        .map(|words| words.split_whitespace().map(str::to_owned).collect())
                        .unwrap_or_default();
                    tests = Some(if rest == "eof" {
                        Tests::UntilEnd
                    } else if !sentinel.is_empty() {
                        Tests::UntilSentinel(sentinel)
                    } else {
                        let bound = rest
                            .split_once("..")
                            .and_then(|(low, high)| Some((parse_number(low)?, parse_number(high)?)))
                            .filter(|(low, high)| low <= high);
                        let Some((low, high)) = bound else {
                            return fail(format!(
                                "{at}: `tests {}`: expected the bound of T (`tests 1..100`: the input starts with T), `tests eof` or `tests until WORDS` (the line that ends the input: `tests until 0 0 0`)",
                                quote(rest)
                            ));
                        };
                        // T ≤ 0 everywhere: no input holds a test, and a file of tests
                        // written for `check` could hold none.
                        if high == 0 {
                            return fail(format!(
                                "{at}: `tests {}`: T can only be 0, so no input holds a test: give T a bound above 0 (`tests 1..100`)",
                                quote(rest)
                            ));
                        }
                        Tests::Counted { low, high }
                    });
                }
                "play" => {
                    once(play.is_some())?;
                    play = Some(match rest {
                        "normal" => false,
                        "misere" | "misère" => true,
                        _ => {
                            return fail(format!(
                                "{at}: `play {}`: expected `play normal` (whoever cannot move loses) or `play misere` (whoever moves last loses)",
                                quote(rest)
                            ));
                        }
                    });
                }
                "draw" => {
                    once(no_drawing.is_some())?;
                    let reason = rest.strip_prefix("off").map(|reason| answer::quoted_words(reason.trim(), &at));
                    let Some(Ok(words)) = reason else {
                        return fail(format!(
                            "{at}: `draw {}`: expected `draw off \"WHY\"` (why check cannot draw this format's tests)",
                            quote(rest)
                        ));
                    };
                    let [(why, _)] = words.as_slice() else {
                        return fail(format!("{at}: `draw off` takes one quoted reason"));
                    };
                    no_drawing = Some(why.clone());
                }
                "compound" => {
                    once(compound.is_some())?;
                    compound = Some(Compound::parse(rest).map_err(|error| FormatError(format!("{at}: {error}")))?);
                }
                other => {
                    return fail(format!(
                        "{at}: unknown directive `{}` (a format has `line`, `rows`, `game`, `position`, `answer`, `case`, `tests`, `play`, `compound` and `draw` lines)",
                        quote(other)
                    ));
                }
            }
        }
        if open.is_some() {
            return fail("a `repeat` without its `end`".to_owned());
        }
        if lines.is_empty() {
            return fail("the format has no `line`: write the input's lines (`line n`, `line h[n]`)".to_owned());
        }
        let Some(position) = position else {
            return fail(
                "the format has no `position` line: say which numbers are the position (`position {h}`)".to_owned(),
            );
        };
        let Some(answer) = answer else {
            return fail(
                "the format has no `answer` line: `answer Yes No` (the word for a win first) or `answer value`"
                    .to_owned(),
            );
        };
        // A test that reads nothing would let `tests 1..1e18` loop without end.
        let reads_something = lines.iter().flat_map(|line| &line.items).any(|item| match &item.count {
            None => true,
            Some(Count::Fixed(count)) => *count > 0,
            Some(Count::Name(_)) => false,
        });
        if !reads_something {
            return fail(
                "the format reads no number for certain in a test: give it a `line` with one number (a count)"
                    .to_owned(),
            );
        }
        let misere = play.unwrap_or(false);
        if misere && !matches!(answer, Answer::Words { .. }) {
            return fail(format!(
                "`play misere` with an answer that is {}: misère play is answered here by the winner's words alone (`answer Yes No`)",
                answer.describe()
            ));
        }
        if let Some(compound) = compound {
            if misere {
                return fail(format!(
                    "`compound {}` with `play misere`: a compound is played here by the normal rule (the last player to move wins)",
                    compound.name()
                ));
            }
            if !matches!(answer, Answer::Words { .. }) {
                return fail(format!(
                    "`compound {}` with an answer that is {}: a compound is answered here by the winner's words alone (`answer Yes No`)",
                    compound.name(),
                    answer.describe()
                ));
            }
        }
        let format = JudgeFormat {
            game,
            misere,
            tests: tests.unwrap_or(Tests::One),
            lines,
            compound,
            no_drawing,
            groups,
            position,
            answer,
            case_prefix,
        };
        format.check_zips()?;
        Ok(format)
    }

    /// Lists taken together (`{x~y}`) must hold as many numbers each: the same count.
    fn check_zips(&self) -> Result<(), FormatError> {
        let group_of = |name: &str| {
            self.lines.iter().find(|line| line.items.iter().any(|item| item.name == name)).and_then(|line| line.group)
        };
        for (template, is_game) in self.game.iter().map(|game| (game, true)).chain([(&self.position, false)]) {
            for hole in template.holes() {
                let groups: Vec<Option<usize>> = hole.names.iter().map(|name| group_of(name)).collect();
                if groups.iter().any(Option::is_some) && (is_game || groups.windows(2).any(|pair| pair[0] != pair[1])) {
                    return fail(format!(
                        "`{{{}}}`: what a `repeat` reads goes in `position` alone, each hole of names read in the same `repeat`",
                        quote(&hole.names.join("~"))
                    ));
                }
            }
        }
        for template in self.game.iter().chain([&self.position]) {
            for hole in template.holes().filter(|hole| hole.names.len() > 1) {
                let shapes: Vec<Option<(&Count, u64)>> = hole
                    .names
                    .iter()
                    .map(|name| {
                        self.item(name).and_then(|item| item.count.as_ref().map(|count| (count, item.count_less)))
                    })
                    .collect();
                if shapes.iter().any(Option::is_none) || shapes.windows(2).any(|pair| pair[0] != pair[1]) {
                    return fail(format!(
                        "`{}`: the lists taken together (`~`) must have the same count (read them with `rows`: `rows m u v`)",
                        quote(&hole.names.join("~"))
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the format reads a `repeat`.
    pub fn repeats(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Why `check` cannot draw the format's tests, when the format says so (`draw off "…"`).
    pub fn no_drawing(&self) -> Option<&str> {
        self.no_drawing.as_deref()
    }

    /// The compound the tests are played in (`compound every`), `None` for the sum.
    pub fn compound(&self) -> Option<Compound> {
        self.compound
    }

    /// The same format played in `compound` (`--compound`).
    ///
    /// # Errors
    /// A format answering anything but the winner's words, or played misère.
    pub fn played_in(mut self, compound: Compound) -> Result<JudgeFormat, FormatError> {
        if self.misere || !matches!(self.answer, Answer::Words { .. }) {
            return fail(format!(
                "--compound {}: a compound is answered here by the winner's words alone, in normal play, and the format answers {}{}",
                compound.name(),
                self.answer.describe(),
                if self.misere { " in misère play" } else { "" }
            ));
        }
        self.compound = Some(compound);
        Ok(self)
    }

    /// The format's answer.
    pub fn answer(&self) -> &Answer {
        &self.answer
    }

    /// How many tests its inputs hold.
    pub fn tests(&self) -> &Tests {
        &self.tests
    }

    /// Whether the tests are played misère (`play misere`).
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The same format played misère (`check --misere`).
    ///
    /// # Errors
    /// A format answering values: misère play has none.
    pub fn played_misere(mut self) -> Result<JudgeFormat, FormatError> {
        if !matches!(self.answer, Answer::Words { .. }) {
            return fail(format!(
                "misère play is answered here by the winner's words alone, and the format answers {}",
                self.answer.describe()
            ));
        }
        self.misere = true;
        Ok(self)
    }

    /// The format's `game` text as written, holes and all (`sub:{S}`), if it has one.
    pub fn game_text(&self) -> Option<&str> {
        self.game.as_ref().map(|template| template.text.as_str())
    }

    /// Whether the format names its game (`game …`).
    pub fn names_its_game(&self) -> bool {
        self.game.is_some()
    }

    fn items(&self) -> impl Iterator<Item = &Item> {
        self.lines.iter().flat_map(|line| &line.items)
    }

    /// Every test of a judge's input.
    ///
    /// # Errors
    /// The first number missing, malformed, out of its bound or repeated in a distinct list,
    /// and input left over, as one line naming the input's line.
    pub fn read(&self, input: &str) -> Result<Vec<Case>, FormatError> {
        let mut words = Words::new(input);
        let count = match self.tests {
            Tests::One => Some(1),
            Tests::Counted { low, high } => {
                let (at, word) = words.next("T, the number of tests")?;
                let count = digits(word).filter(|count| (low..=high).contains(count)).ok_or_else(|| {
                    FormatError(format!(
                        "{at}: `{}` for T, the number of tests: expected a whole number in {low}..{high}",
                        quote(word)
                    ))
                })?;
                Some(count)
            }
            Tests::UntilEnd | Tests::UntilSentinel(_) => None,
        };
        let mut cases = Vec::new();
        loop {
            match count {
                Some(count) if cases.len() as u64 == count => break,
                None if words.at_end() => break,
                _ => {}
            }
            if let Tests::UntilSentinel(sentinel) = &self.tests
                && words.starts_with(sentinel)
            {
                // What follows the line that ends the input is never read (as the judge's
                // own solution stops there).
                return Ok(cases);
            }
            let line = words.line();
            let bindings = self.read_test(&mut words, cases.len() + 1)?;
            let case = self
                .try_case(&bindings, line)
                .map_err(|reason| FormatError(format!("input line {line}: test {}: {reason}", cases.len() + 1)))?;
            cases.push(case);
        }
        if let Some((at, word)) = words.peek() {
            return fail(format!(
                "{at}: `{}` after the last test: the format reads {} test{}",
                quote(word),
                cases.len(),
                if cases.len() == 1 { "" } else { "s" }
            ));
        }
        Ok(cases)
    }

    /// What a program answered for one test: the format's words (exactly, as a judge compares
    /// them) or a number.
    pub fn claim(&self, word: &str) -> Claim {
        match &self.answer {
            Answer::Words { win, .. } if word == win => Claim::Outcome(Outcome::N),
            Answer::Words { lose, .. } if word == lose => Claim::Outcome(Outcome::P),
            Answer::Words { draw: Some(draw), .. } if word == draw => Claim::Outcome(Outcome::D),
            Answer::Value => word.parse().map_or(Claim::Unrecognized, Claim::Value),
            _ => Claim::Unrecognized,
        }
    }

    /// The judge's answer for an outcome (`None` for a draw, or a format answering values).
    pub fn word(&self, outcome: Outcome) -> Option<&str> {
        self.answer.word(outcome)
    }

    /// What comes before the answer of test `test` (from 1): `Case 3: ` for `case "Case {i}: "`,
    /// nothing without a `case` line.
    pub fn case_prefix(&self, test: usize) -> String {
        self.case_prefix.as_deref().map(|prefix| answer::fill_holes(prefix, |_| test.to_string())).unwrap_or_default()
    }

    /// The test `bindings` as the game and components it names, lists read as sets (`:set`)
    /// with each number once, in the order first read.
    /// A test the format cannot compute (a filter refusing its numbers, which [`draw`]'s tests
    /// never are) names components no game reads, so that it is refused, never answered.
    pub fn case_of(&self, bindings: &Bindings, line: usize) -> Case {
        self.try_case(bindings, line).unwrap_or_else(|reason| Case {
            game: None,
            components: vec![format!("(not-a-test:{})", reason.replace(char::is_whitespace, "_"))],
            line,
        })
    }

    /// The test `bindings` as the game and components it names, or why the format's filters
    /// cannot compute them (`{a|diff}` of a decreasing list).
    fn try_case(&self, bindings: &Bindings, line: usize) -> Result<Case, String> {
        let mut as_read = std::borrow::Cow::Borrowed(bindings);
        for item in self.items().filter(|item| item.set) {
            if let Some(numbers) = bindings.get(&item.name) {
                let mut seen = std::collections::HashSet::new();
                let once: Vec<u64> = numbers.iter().copied().filter(|number| seen.insert(*number)).collect();
                as_read.to_mut().insert(item.name.clone(), once);
            }
        }
        let game = match &self.game {
            Some(game) => Some(game.expand(&as_read, ",")?),
            None => None,
        };
        let components = self.position.expand(&as_read, " ")?.split_whitespace().map(str::to_owned).collect();
        Ok(Case { game, components, line })
    }

    /// Whether the format can compute the test (its filters accept its numbers).
    fn computes(&self, bindings: &Bindings) -> bool {
        self.try_case(bindings, 0).is_ok()
    }

    /// The lines of a test as written: each `line` one line, each row of `rows` one line.
    fn written_lines(&self, bindings: &Bindings) -> Vec<Vec<u64>> {
        let numbers = |item: &Item| bindings.get(&item.name).map(Vec::as_slice).unwrap_or_default();
        let mut lines = Vec::new();
        for line in &self.lines {
            if line.rows {
                let rows = line.items.iter().map(|item| numbers(item).len()).min().unwrap_or(0);
                for row in 0..rows {
                    lines.push(line.items.iter().map(|item| numbers(item)[row]).collect());
                }
            } else {
                lines.push(line.items.iter().flat_map(numbers).copied().collect());
            }
        }
        lines
    }

    /// Whether a test's numbers would be written starting with the line that ends the input
    /// (`tests until 0 0 0`): such a test cannot be given to the problem's reader.
    pub fn begins_with_sentinel(&self, bindings: &Bindings) -> bool {
        let Tests::UntilSentinel(sentinel) = &self.tests else { return false };
        let first: Vec<String> = self
            .written_lines(bindings)
            .into_iter()
            .flatten()
            .take(sentinel.len())
            .map(|number| number.to_string())
            .collect();
        first == *sentinel
    }

    /// A writer of tests for `game` (the GAME word of `check`): the format's `game` holes read
    /// off it, and its `position` one name (`{h}`, the heaps) to be filled by each test.
    ///
    /// # Errors
    /// When `game` does not fit the format's `game` text, its numbers break the format's
    /// bounds, or the position is not one name.
    pub fn writer(&self, game: &str) -> Result<TestWriter<'_>, FormatError> {
        if !self.groups.is_empty() {
            return fail(
                "--to and --components choose heaps, and this format reads a `repeat`: leave them out".to_owned(),
            );
        }
        let fixed = match &self.game {
            None => Bindings::new(),
            Some(template) => self.fixed_by_game(template, game)?,
        };
        let heaps = match self.position.pieces.as_slice() {
            [template::Piece::Hole(hole)] if hole.names.len() == 1 && hole.filters.is_empty() => hole.names[0].clone(),
            _ => {
                return fail(format!(
                    "--to and --components choose heaps, and the format's position `{}` is not one list of heaps such as `position {{h}}`: leave them out to draw tests from the whole format",
                    quote(&self.position.text)
                ));
            }
        };
        if fixed.contains_key(&heaps) {
            return fail(format!("`{heaps}` is both in the format's game and its position"));
        }
        Ok(TestWriter { format: self, fixed, heaps })
    }

    /// The numbers of the `game` holes read off a GAME word, checked against their bounds.
    fn fixed_by_game(&self, template: &Template, game: &str) -> Result<Bindings, FormatError> {
        let fixed = template
            .match_numbers(game, ',')
            .filter(|read| read.values().all(|numbers| !numbers.is_empty()))
            .ok_or_else(|| {
            FormatError(format!(
                "`{}` does not fit the format's game `{}` (its holes take numbers: `sub:{{S}}` fits `sub:2,5`)",
                quote(game),
                quote(&template.text)
            ))
        })?;
        for item in self.items() {
            if let Some(numbers) = fixed.get(&item.name) {
                if item.count.is_none() && numbers.len() != 1 {
                    return fail(format!(
                        "`{}` gives {} numbers for `{}`, which the format reads as one number",
                        quote(game),
                        numbers.len(),
                        item.name
                    ));
                }
                if let Some(problem) = self.break_of(item, numbers) {
                    return fail(format!("`{}` does not fit the format: {problem}", quote(game)));
                }
            }
            if let (Some(Count::Name(count)), Some(numbers)) = (&item.count, fixed.get(&item.name))
                && let Some(count_item) = self.item(count)
                && let Some(problem) = self.break_of(count_item, &[item.count_for(numbers.len())])
            {
                return fail(format!("the game does not fit the format: {problem}"));
            }
        }
        Ok(fixed)
    }

    /// Why `numbers` break `item`'s bound or distinctness, if they do.
    fn break_of(&self, item: &Item, numbers: &[u64]) -> Option<String> {
        if let Some((low, high)) = item.bound
            && let Some(number) = numbers.iter().find(|number| !(low..=high).contains(*number))
        {
            return Some(format!("{number} in `{}` is outside its bound {}", item.name, item.describe_bound()));
        }
        if let Some(number) = numbers.iter().find(|number| !item.parity_fits(**number)) {
            return Some(format!("{number} in `{}` is not {}", item.name, parity_word(item.parity.unwrap_or(0))));
        }
        if item.sorted && numbers.windows(2).any(|pair| pair[0] > pair[1]) {
            return Some(format!("`{}` decreases, and the format says sorted", item.name));
        }
        if item.distinct {
            let mut sorted = numbers.to_vec();
            sorted.sort_unstable();
            if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
                return Some(format!("`{}` repeats a number, and the format says distinct", item.name));
            }
        }
        None
    }

    /// How many tests a file written for `cases` tests holds: at least the format's least T
    /// (`tests 8..100` makes files of 8 tests or more), the cases repeated to fill it.
    pub fn written_tests(&self, cases: usize) -> usize {
        match self.tests {
            Tests::Counted { low, .. } => cases.max(usize::try_from(low).unwrap_or(usize::MAX)),
            _ => cases,
        }
    }

    /// An input of the tests `cases` (at least one), as the format writes it: T first when it
    /// counts them, and the cases repeated in order up to the format's least T
    /// ([`JudgeFormat::written_tests`]), so that the file is one the problem's reader accepts.
    pub fn write(&self, cases: &[Bindings]) -> String {
        let mut text = String::new();
        let count = self.written_tests(cases.len());
        if matches!(self.tests, Tests::Counted { .. }) {
            text.push_str(&format!("{count}\n"));
        }
        for bindings in cases.iter().cycle().take(count) {
            for line in self.written_lines(bindings) {
                let words: Vec<String> = line.iter().map(u64::to_string).collect();
                text.push_str(&words.join(" "));
                text.push('\n');
            }
        }
        if let Tests::UntilSentinel(sentinel) = &self.tests {
            text.push_str(&sentinel.join(" "));
            text.push('\n');
        }
        text
    }

    /// How many tests one written file holds.
    pub fn tests_per_file(&self) -> usize {
        match self.tests {
            Tests::One => 1,
            Tests::Counted { high, .. } => usize::try_from(high).unwrap_or(usize::MAX).min(MAX_TESTS_PER_FILE),
            Tests::UntilEnd | Tests::UntilSentinel(_) => MAX_TESTS_PER_FILE,
        }
    }

    /// The bounds of the heaps and of their count, for a message saying why nothing fits.
    pub fn describe_position_bounds(&self, heaps: &str) -> String {
        let count = self.count_name_of(heaps).and_then(|count| self.item(count));
        let parts: Vec<String> = [self.item(heaps), count]
            .into_iter()
            .flatten()
            .filter(|item| item.bound.is_some())
            .map(|item| format!("{} in {}", item.name, item.describe_bound()))
            .collect();
        if parts.is_empty() { "no bounds".to_owned() } else { parts.join(", ") }
    }

    fn item(&self, name: &str) -> Option<&Item> {
        self.items().find(|item| item.name == name)
    }

    /// The name counting the list `list` (`n` of `h[n]`).
    fn count_name_of(&self, list: &str) -> Option<&str> {
        self.item(list).and_then(|item| match &item.count {
            Some(Count::Name(count)) => Some(count.as_str()),
            _ => None,
        })
    }
}
