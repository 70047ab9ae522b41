//! The rule of a coin-turning game and its notation.
//!
//! A move turns over a set of coins whose rightmost coin goes from heads to tails. The rule
//! says which sets: how many coins in all, whether they form one run, and how far left of the
//! rightmost coin the others may lie.
//!
//! # Notation (`coins:RULE`)
//! `RULE` is a named rule or `;`-separated parts:
//! - `turn=SET`: how many coins a move turns **in all, the rightmost one included**. `SET` is
//!   a comma-separated list of numbers and ranges: `2`, `1..3` (both ends included), `2..`
//!   (no upper end), `..3` (from 0); braces are optional. Zero may be written but allows no
//!   move (the rightmost coin is always turned), so `0..` means “any number”.
//! - `others=SET`: the same count without the rightmost coin (`others=0..2` = `turn=1..3`);
//!   give `turn=` or `others=`, not both.
//! - `consecutive`: the coins turned form one run ending at the rightmost coin.
//! - `within=K`: the other coins lie at most `K` places left of the rightmost coin.
//!
//! Counting the rightmost coin makes both of the issue's examples true: `coins:turn=1..3` is
//! Mock Turtles (one, two or three coins) and `coins:turn=0../consecutive` is Ruler (any run
//! ending at the heads coin). A rule equal to a named one is shown by its name.

use crate::error::GameError;
use std::fmt;

/// The named rules, each with a closed form for the value of coin `n` (numbered from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamedRule {
    /// Turn one coin, or two: coin `n` is worth `n`.
    Turtles,
    /// Turn one, two or three coins: coin `n` is worth the `n`-th odious number (1 2 4 7 8 …).
    MockTurtles,
    /// Turn any run of consecutive coins ending at the heads coin: coin `n` is worth the largest
    /// power of 2 dividing `n`.
    Ruler,
    /// Turn exactly two coins: coin `n` is worth `n − 1`.
    Twins,
}

impl NamedRule {
    /// Every named rule.
    pub const ALL: [NamedRule; 4] = [NamedRule::Turtles, NamedRule::MockTurtles, NamedRule::Ruler, NamedRule::Twins];

    /// The name as written after `coins:`.
    pub fn name(self) -> &'static str {
        match self {
            NamedRule::Turtles => "turtles",
            NamedRule::MockTurtles => "mock-turtles",
            NamedRule::Ruler => "ruler",
            NamedRule::Twins => "twins",
        }
    }

    /// The named rule called `name`: its name in any case, with `-`, `_` or nothing between
    /// the words (`mock-turtles`, `Mock_Turtles`, `mockturtles`; `turning-turtles` too).
    ///
    /// ```
    /// use grundy::coins::rule::NamedRule;
    /// assert_eq!(NamedRule::from_name("Mock_Turtles"), Some(NamedRule::MockTurtles));
    /// assert_eq!(NamedRule::from_name("rulers"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<NamedRule> {
        let squashed: String =
            name.chars().filter(|c| !matches!(c, '-' | '_')).map(|c| c.to_ascii_lowercase()).collect();
        match squashed.as_str() {
            "turtles" | "turningturtles" => Some(NamedRule::Turtles),
            "mockturtles" => Some(NamedRule::MockTurtles),
            "ruler" => Some(NamedRule::Ruler),
            "twins" => Some(NamedRule::Twins),
            _ => None,
        }
    }

    /// The rule written out in the notation.
    pub fn rule(self) -> CoinRule {
        let (lo, hi, consecutive) = match self {
            NamedRule::Turtles => (1, Some(2), false),
            NamedRule::MockTurtles => (1, Some(3), false),
            NamedRule::Ruler => (1, None, true),
            NamedRule::Twins => (2, Some(2), false),
        };
        CoinRule::new(vec![CountRange { lo, hi }], consecutive, None).expect("named rules allow moves")
    }
}

/// A range of counts `lo..=hi` (`hi = None`: no upper end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CountRange {
    /// The least count.
    pub lo: u64,
    /// The largest count, or `None` for no upper end.
    pub hi: Option<u64>,
}

impl CountRange {
    fn contains(&self, count: u64) -> bool {
        count >= self.lo && self.hi.is_none_or(|hi| count <= hi)
    }
}

/// A coin-turning rule in normal form: two rules that allow the same moves are equal.
///
/// ```
/// use grundy::coins::rule::{CoinRule, NamedRule};
/// let rule = CoinRule::parse("coins:turn=1..3", "turn=1..3").unwrap();
/// assert_eq!(rule.named(), Some(NamedRule::MockTurtles));
/// let ruler = CoinRule::parse("coins:turn=0..;consecutive", "turn=0..;consecutive").unwrap();
/// assert_eq!(ruler.to_string(), "ruler");
/// let own = CoinRule::parse("coins:turn=2,4;within=5", "turn=2,4;within=5").unwrap();
/// assert_eq!(own.to_string(), "turn=2,4/within=5");
/// assert!(CoinRule::parse("coins:turn=1..3;sideways", "turn=1..3;sideways").unwrap_err().to_string().contains("`sideways`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CoinRule {
    /// Allowed total counts (rightmost coin included): sorted, disjoint, not adjacent, all ≥ 1.
    counts: Vec<CountRange>,
    consecutive: bool,
    /// For non-consecutive rules only (a consecutive rule's window is folded into its counts).
    within: Option<u64>,
}

impl CoinRule {
    /// The rule in normal form: counts below 1 dropped, counts capped by the window, ranges
    /// merged, and options that change nothing removed.
    ///
    /// # Errors
    /// A reason when no count is left, so no move is possible.
    pub fn new(counts: Vec<CountRange>, consecutive: bool, within: Option<u64>) -> Result<Self, String> {
        let cap = within.map(|k| k.saturating_add(1));
        let mut ranges: Vec<CountRange> = counts
            .into_iter()
            .filter_map(|range| {
                let lo = range.lo.max(1);
                let hi = match (range.hi, cap) {
                    (Some(hi), Some(cap)) => Some(hi.min(cap)),
                    (hi, None) => hi,
                    (None, cap) => cap,
                };
                (hi.is_none_or(|hi| hi >= lo)).then_some(CountRange { lo, hi })
            })
            .collect();
        ranges.sort_by_key(|range| range.lo);
        let mut merged: Vec<CountRange> = Vec::new();
        for range in ranges {
            match merged.last_mut() {
                Some(last) if last.hi.is_none_or(|hi| range.lo <= hi.saturating_add(1)) => {
                    last.hi = match (last.hi, range.hi) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                _ => merged.push(range),
            }
        }
        if merged.is_empty() {
            return Err(
                "no count of coins is left that a move could turn (a move turns at least the heads coin)".into()
            );
        }
        let mut rule = CoinRule { counts: merged, consecutive, within };
        // Only the heads coin itself: nothing else matters.
        if rule.max_count() == Some(1) {
            rule.consecutive = false;
            rule.within = None;
        }
        // The window is already in the counts of a consecutive rule; a window of one place
        // makes any rule consecutive.
        if rule.within == Some(1) {
            rule.consecutive = true;
        }
        if rule.consecutive {
            rule.within = None;
        }
        Ok(rule)
    }

    /// Parses the `RULE` of `coins:RULE` (`spec` is the whole game text, for errors).
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the part that does not parse.
    pub fn parse(spec: &str, text: &str) -> Result<Self, GameError> {
        let bad = |reason: String| GameError::BadGame { spec: spec.to_owned(), reason };
        if let Some(named) = NamedRule::from_name(text) {
            return Ok(named.rule());
        }
        if text.trim().is_empty() {
            return Err(bad(
                "the rule is empty: write a name (turtles, mock-turtles, ruler, twins) or turn=SET[/consecutive][/within=K]"
                    .into(),
            ));
        }
        let mut counts: Option<(Vec<CountRange>, &str)> = None;
        let mut consecutive = false;
        let mut within = None;
        for part in text.split([';', '/']).map(str::trim).filter(|part| !part.is_empty()) {
            let (key, value) = match part.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (part, None),
            };
            match (key, value) {
                ("turn" | "others", Some(set)) => {
                    if let Some((_, earlier)) = counts {
                        return Err(bad(format!("`{part}`: the count is already given by `{earlier}`")));
                    }
                    let shift = u64::from(key == "others");
                    let ranges = parse_count_set(set)
                        .map_err(|reason| bad(format!("`{part}`: {reason}")))?
                        .into_iter()
                        .map(|range| CountRange {
                            lo: range.lo.saturating_add(shift),
                            hi: range.hi.map(|hi| hi.saturating_add(shift)),
                        })
                        .collect();
                    counts = Some((ranges, part));
                }
                ("consecutive", None) => {
                    if consecutive {
                        return Err(bad("`consecutive` is given twice".into()));
                    }
                    consecutive = true;
                }
                ("within", Some(k)) => {
                    if within.is_some() {
                        return Err(bad(format!("`{part}`: `within` is given twice")));
                    }
                    within = Some(parse_number(k).map_err(|reason| bad(format!("`{part}`: {reason}")))?);
                }
                _ => {
                    let hint = if NamedRule::from_name(part).is_some() {
                        "a named rule stands alone"
                    } else {
                        "expected turn=SET, others=SET, consecutive or within=K, or a named rule: turtles, mock-turtles, ruler, twins"
                    };
                    return Err(bad(format!("unknown part `{part}`: {hint}")));
                }
            }
        }
        let Some((ranges, _)) = counts else {
            return Err(bad(format!(
                "`{text}` does not say how many coins a move turns: add turn=SET (e.g. turn=1..3)"
            )));
        };
        CoinRule::new(ranges, consecutive, within).map_err(|reason| bad(format!("`{text}`: {reason}")))
    }

    /// The named rule this rule equals, if any.
    pub fn named(&self) -> Option<NamedRule> {
        NamedRule::ALL.into_iter().find(|named| named.rule() == *self)
    }

    /// The allowed total counts (rightmost coin included), as sorted disjoint ranges.
    pub fn counts(&self) -> &[CountRange] {
        &self.counts
    }

    /// Whether the coins turned must form one run ending at the rightmost coin.
    pub fn consecutive(&self) -> bool {
        self.consecutive
    }

    /// How far left of the rightmost coin the others may lie (`None`: anywhere); always `None`
    /// for a consecutive rule, whose window is folded into its counts.
    pub fn within(&self) -> Option<u64> {
        self.within
    }

    /// Whether a move may turn `count` coins in all.
    pub fn allows_count(&self, count: u64) -> bool {
        self.counts.iter().any(|range| range.contains(count))
    }

    /// The most coins a move may turn, `None` when there is no limit.
    pub fn max_count(&self) -> Option<u64> {
        self.counts.last().expect("a rule has counts").hi
    }

    /// The coins that may be turned with rightmost coin `n`, besides `n`: `first..n`.
    pub fn window_start(&self, n: u64) -> u64 {
        match self.within {
            Some(k) => n.saturating_sub(k).max(1),
            None => 1,
        }
    }
}

impl fmt::Display for CoinRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(named) = self.named() {
            return f.write_str(named.name());
        }
        let items: Vec<String> = self
            .counts
            .iter()
            .map(|range| match range.hi {
                Some(hi) if hi == range.lo => hi.to_string(),
                Some(hi) => format!("{}..{hi}", range.lo),
                None => format!("{}..", range.lo),
            })
            .collect();
        write!(f, "turn={}", items.join(","))?;
        if self.consecutive {
            f.write_str("/consecutive")?;
        }
        if let Some(k) = self.within {
            write!(f, "/within={k}")?;
        }
        Ok(())
    }
}

fn parse_number(text: &str) -> Result<u64, String> {
    if text.is_empty() {
        return Err("a number is missing".into());
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a non-negative integer"));
    }
    text.parse().map_err(|_| format!("`{text}` is larger than 2^64 - 1"))
}

/// `1,3`, `1..3`, `2..`, `..3`, `{1,2}`: the counts, unnormalised.
fn parse_count_set(set: &str) -> Result<Vec<CountRange>, String> {
    let inner = set.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')).unwrap_or(set);
    if inner.trim().is_empty() {
        return Err("the set of counts is empty".into());
    }
    let mut ranges = Vec::new();
    for item in inner.split(',') {
        let item = item.trim();
        // `1..3`, and `1-3` for those who guess it.
        let split = item.split_once("..").or_else(|| {
            item.split_once('-')
                .filter(|(lo, hi)| !lo.is_empty() && lo.bytes().chain(hi.bytes()).all(|b| b.is_ascii_digit()))
        });
        let range = match split {
            None => {
                let count = parse_number(item)?;
                CountRange { lo: count, hi: Some(count) }
            }
            Some((lo, hi)) => {
                let lo = if lo.is_empty() { 0 } else { parse_number(lo)? };
                let hi = if hi.is_empty() { None } else { Some(parse_number(hi.strip_prefix('=').unwrap_or(hi))?) };
                if hi.is_some_and(|hi| hi < lo) {
                    return Err(format!("the range `{item}` is empty"));
                }
                CountRange { lo, hi }
            }
        };
        ranges.push(range);
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CoinRule, GameError> {
        CoinRule::parse(&format!("coins:{text}"), text)
    }

    #[test]
    fn the_issue_examples_are_the_named_rules() {
        assert_eq!(parse("turn=1..3").unwrap().named(), Some(NamedRule::MockTurtles));
        assert_eq!(parse("turn=0..;consecutive").unwrap().named(), Some(NamedRule::Ruler));
        assert_eq!(parse("turn=1,2").unwrap().named(), Some(NamedRule::Turtles));
        assert_eq!(parse("turn=2").unwrap().named(), Some(NamedRule::Twins));
        assert_eq!(parse("others=0..2").unwrap().named(), Some(NamedRule::MockTurtles));
        assert_eq!(parse("turn={0..3}").unwrap().named(), Some(NamedRule::MockTurtles));
        assert_eq!(parse("turn=1-3").unwrap().named(), Some(NamedRule::MockTurtles));
        assert_eq!(parse("turn=1..=3").unwrap().named(), Some(NamedRule::MockTurtles));
        assert_eq!(parse("Mock_Turtles").unwrap().named(), Some(NamedRule::MockTurtles));
        for named in NamedRule::ALL {
            assert_eq!(parse(named.name()).unwrap().named(), Some(named));
            assert_eq!(parse(&named.rule().to_string()).unwrap(), named.rule());
        }
    }

    #[test]
    fn normal_form_and_its_text_round_trip() {
        for (text, shown) in [
            ("turn=3,1..2", "mock-turtles"),
            ("turn=2,1", "turtles"),
            ("turn=1..2;consecutive", "turn=1..2/consecutive"),
            ("turn=1..;within=1", "turn=1..2/consecutive"),
            ("turn=1..;consecutive;within=3", "turn=1..4/consecutive"),
            ("turn=1..;within=3", "turn=1..4/within=3"),
            ("turn=1;within=3", "turn=1"),
            ("turn=2..4,7..", "turn=2..4,7.."),
            ("turn=..3;within=9", "turn=1..3/within=9"),
        ] {
            let rule = match parse(text) {
                Ok(rule) => rule,
                Err(error) => panic!("{text}: {error}"),
            };
            assert_eq!(rule.to_string(), shown, "{text}");
            assert_eq!(parse(&rule.to_string()).unwrap(), rule, "{text}");
        }
    }

    #[test]
    fn errors_name_the_part() {
        for (text, needle) in [
            ("", "empty"),
            ("consecutive", "turn=SET"),
            ("turn=1..3;sideways", "`sideways`"),
            ("turn=x", "`x`"),
            ("turn=3..1", "`3..1`"),
            ("turn=", "empty"),
            ("turn=1;turn=2", "`turn=2`"),
            ("turn=1;others=2", "`others=2`"),
            ("turn=0", "no count"),
            ("turn=2..;within=0", "no count"),
            ("turn=1..2;within=-1", "`-1`"),
            ("ruler;within=3", "named rule stands alone"),
            ("turn=99999999999999999999", "larger than"),
        ] {
            let error = parse(text).err().unwrap_or_else(|| panic!("{text} parsed")).to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
