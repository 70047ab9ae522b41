//! Tests drawn from a whole judge format, for `grundy check --input-format`: the counts, the
//! game's parameters (`S`, `m`) and the positions, each within the format's bounds, in the
//! kinds of tests wrong solutions fail on ([`Kind`]), and a failing test shrunk
//! ([`Drawer::smaller`]).
//!
//! A test is its [`Bindings`] (every name's numbers), so that what is drawn, checked, written
//! and shrunk is always a test the problem's reader accepts: [`Drawer::fits`] checks the
//! format's bounds, counts and distinct lists on every test made.
//!
//! Some kinds need the game's definition: P-positions are found by playing a winning move from
//! a drawn position ([`Referee::positions_after_winning_moves`]), which lands on P-positions
//! of any size (a uniformly drawn pair below 10^9 is almost never a Wythoff P-position).

use super::{Bindings, Case, Count, FormatError, Item, JudgeFormat, MAX_TESTS_PER_FILE, Tests, fail};
use crate::control::Control;
use crate::error::GameError;
use crate::misere::Limits;
use crate::random::SplitMix64;
use crate::ruleset::Ruleset;
use crate::sum::Position;
use crate::value::{Outcome, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// The kinds of tests drawn, in the order they are run and reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Every number at its bound's least or greatest value (counts, parameters, heaps).
    Extremes,
    /// One heap (the least count the format allows, when it allows 1).
    OneHeap,
    /// All heaps equal.
    EqualHeaps,
    /// The heaps in equal pairs (a P-position of Nim-like sums).
    EqualPairs,
    /// Every heap 1 (misère Nim's special case).
    AllOnes,
    /// The most heaps the format allows.
    MostHeaps,
    /// P-positions, reached by a winning move from a drawn position.
    PPositions,
    /// A P-position with one number moved by one.
    Neighbours,
    /// Numbers near their upper bounds (where 32-bit and floating-point arithmetic break), half
    /// of them P-positions.
    Large,
    /// Every number drawn from its whole range.
    Random,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: [Kind; 10] = [
        Kind::Extremes,
        Kind::OneHeap,
        Kind::EqualHeaps,
        Kind::EqualPairs,
        Kind::AllOnes,
        Kind::MostHeaps,
        Kind::PPositions,
        Kind::Neighbours,
        Kind::Large,
        Kind::Random,
    ];

    /// How `check` names the kind.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Extremes => "bounds' extremes",
            Kind::OneHeap => "one heap",
            Kind::EqualHeaps => "equal heaps",
            Kind::EqualPairs => "pairs of equal heaps",
            Kind::AllOnes => "all ones",
            Kind::MostHeaps => "the most heaps",
            Kind::PPositions => "P-positions",
            Kind::Neighbours => "neighbours of P-positions",
            Kind::Large => "large numbers",
            Kind::Random => "random",
        }
    }

    /// Parts per thousand of the tests drawn (what a kind cannot make goes to random ones).
    fn share(self) -> u64 {
        match self {
            Kind::Extremes => 0,
            Kind::OneHeap => 80,
            Kind::EqualHeaps => 60,
            Kind::EqualPairs => 60,
            Kind::AllOnes => 40,
            Kind::MostHeaps => 10,
            Kind::PPositions => 250,
            Kind::Neighbours => 150,
            Kind::Large => 120,
            Kind::Random => 230,
        }
    }
}

/// A test and the kind it was drawn as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// What the test aims at.
    pub kind: Kind,
    /// Its numbers.
    pub bindings: Bindings,
}

/// Numbers without a bound are drawn from `0..=UNBOUNDED_VALUE`, counts from
/// `0..=UNBOUNDED_COUNT` (a format should state its bounds; these keep tests small).
pub const UNBOUNDED_VALUE: u64 = 1000;
/// See [`UNBOUNDED_VALUE`].
pub const UNBOUNDED_COUNT: u64 = 30;
/// The longest list drawn for tests other than [`Kind::MostHeaps`] and [`Kind::Extremes`].
const TYPICAL_LIST: u64 = 1000;
/// The longest list drawn at all (a test of 10^5 numbers is a 1 MB file).
const LONGEST_LIST: u64 = 100_000;

/// How many numbers a name's count allows, and how its values are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Size {
    Least,
    Most,
    One,
    Small,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Values {
    Least,
    Most,
    Mixed,
    Equal,
    Pairs,
    Ones,
    Large,
}

/// How one test is drawn: the heaps' (position's) counts and values, and the parameters'.
#[derive(Clone, Copy, Debug)]
struct Style {
    heap_count: Size,
    heap_values: Values,
    parameter_count: Size,
    parameter_values: Values,
}

impl Style {
    fn heaps(heap_count: Size, heap_values: Values) -> Style {
        Style { heap_count, heap_values, parameter_count: Size::Small, parameter_values: Values::Mixed }
    }
}

/// Draws tests from a format (see the module's documentation).
#[derive(Debug)]
pub struct Drawer<'f> {
    format: &'f JudgeFormat,
    /// The numbers the command line's GAME fixes (`S` of `sub:{S}` for `check sub:2,5`).
    fixed: Bindings,
    /// The names the position is made of.
    heap_names: BTreeSet<String>,
    /// Each count's lists (`n` → `h` for `h[n]`).
    lists_of_count: BTreeMap<String, Vec<String>>,
}

impl<'f> Drawer<'f> {
    /// A drawer for `format`; `game`, the command line's GAME, fixes the format's `game` holes
    /// when given (`sub:2,5` for `game sub:{S}`).
    ///
    /// # Errors
    /// When `game` does not fit the format's `game` text or bounds, the format's `tests`
    /// bound asks for more tests a file than grundy writes, or its bounds admit no test.
    ///
    /// ```
    /// use grundy::judge_format::{JudgeFormat, builtin};
    /// use grundy::judge_format::draw::Drawer;
    /// let format = JudgeFormat::parse(builtin("acwing-893").unwrap()).unwrap();
    /// let drawer = Drawer::new(&format, None).unwrap();
    /// let test = drawer.least().unwrap();
    /// assert_eq!(format.write(&[test]), "1\n1\n1\n1\n");
    /// assert!(Drawer::new(&format, Some("sub:0")).is_err());
    /// ```
    pub fn new(format: &'f JudgeFormat, game: Option<&str>) -> Result<Drawer<'f>, FormatError> {
        if let Some(why) = format.no_drawing() {
            return fail(format!("check cannot draw this format's tests: {why} (the format says `draw off`)"));
        }
        if format.repeats() {
            return fail(
                "check cannot draw tests of a format with a `repeat` yet: give it inputs to answer instead".to_owned(),
            );
        }
        let fixed = match (game, &format.game) {
            (Some(game), Some(template)) => format.fixed_by_game(template, game)?,
            _ => Bindings::new(),
        };
        if let Tests::Counted { low, .. } = format.tests
            && low > MAX_TESTS_PER_FILE as u64
        {
            return fail(format!(
                "the format's `tests {low}..`: check writes files of at most {MAX_TESTS_PER_FILE} tests"
            ));
        }
        let heap_names = format.position.names().map(str::to_owned).collect();
        let mut lists_of_count: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for item in format.items() {
            if let Some(Count::Name(count)) = &item.count {
                lists_of_count.entry(count.clone()).or_default().push(item.name.clone());
            }
        }
        let drawer = Drawer { format, fixed, heap_names, lists_of_count };
        if drawer.least().is_none() && drawer.some_test().is_none() {
            return fail(format!(
                "the format's bounds admit no test{} that check writes (lists of at most {LONGEST_LIST} numbers): {}",
                if drawer.fixed.is_empty() { "" } else { " of this game" },
                drawer.describe_bounds()
            ));
        }
        Ok(drawer)
    }

    /// Every bound, for a message.
    fn describe_bounds(&self) -> String {
        let parts: Vec<String> = self
            .format
            .items()
            .map(|item| {
                let bound = item.bound.map_or_else(|| "unbounded".to_owned(), |(low, high)| format!("{low}..{high}"));
                let count = match &item.count {
                    None => String::new(),
                    Some(Count::Fixed(count)) => format!("[{count}]"),
                    Some(Count::Name(count)) => format!("[{count}]"),
                };
                let distinct = if item.distinct { " distinct" } else { "" };
                format!("{}{count} in {bound}{distinct}", item.name)
            })
            .collect();
        parts.join(", ")
    }

    /// The test of the least numbers the format allows (every count and number at its least),
    /// if that is a test.
    pub fn least(&self) -> Option<Bindings> {
        let style = Style {
            heap_count: Size::Least,
            heap_values: Values::Least,
            parameter_count: Size::Least,
            parameter_values: Values::Least,
        };
        self.draw(&style, &mut SplitMix64::new(0))
    }

    /// Some test, tried a few times at random (for formats whose least numbers are no test:
    /// a distinct list longer than the count's least).
    fn some_test(&self) -> Option<Bindings> {
        let mut random = SplitMix64::new(1);
        (0..64).find_map(|_| {
            let style = Style::heaps(Size::Any, Values::Mixed);
            self.draw(&style, &mut random)
        })
    }

    /// The test as the game and components it names (`Case::line` is 0: it was not read).
    pub fn case(&self, bindings: &Bindings) -> Case {
        self.format.case_of(bindings, 0)
    }

    /// Whether `bindings` is a test the problem's reader accepts: every name of the format
    /// bound, each with its count of numbers, in its bound, distinct where it must be.
    pub fn fits(&self, bindings: &Bindings) -> bool {
        self.format.items().all(|item| {
            bindings.get(&item.name).is_some_and(|numbers| {
                numbers.len() as u64 == item.length(bindings) && self.format.break_of(item, numbers).is_none()
            })
        }) && self.format.computes(bindings)
            && self.fixed.iter().all(|(name, numbers)| bindings.get(name) == Some(numbers))
            && !self.format.begins_with_sentinel(bindings)
    }

    /// The least and greatest numbers `item` can hold, of its parity when it has one (the
    /// format refuses a bound without a number of the parity).
    fn value_bound(item: &Item) -> (u64, u64) {
        Self::parity_bound(item, item.bound.unwrap_or((0, UNBOUNDED_VALUE)))
    }

    /// `low..=high` narrowed to numbers of `item`'s parity (empty, `low > high`, when none is).
    fn parity_bound(item: &Item, (low, high): (u64, u64)) -> (u64, u64) {
        match item.parity {
            None => (low, high),
            Some(parity) => {
                let low = if low % 2 == parity { low } else { low.saturating_add(1) };
                let high = if high % 2 == parity { high } else { high.saturating_sub(1) };
                if low > high || high % 2 != parity { (1, 0) } else { (low, high) }
            }
        }
    }

    /// `number` (in `item`'s bound narrowed by `Drawer::parity_bound`, up to `high`) moved
    /// by one to `item`'s parity when it has another.
    fn to_parity(item: &Item, number: u64, high: u64) -> u64 {
        if item.parity_fits(number) {
            number
        } else if number < high {
            number + 1
        } else {
            number - 1
        }
    }

    /// The distance between the numbers a list of `item` can hold: 2 for even or odd ones.
    fn step(item: &Item) -> u64 {
        if item.parity.is_some() { 2 } else { 1 }
    }

    /// Draws one test in `style`, or `None` when the style cannot make one here.
    fn draw(&self, style: &Style, random: &mut SplitMix64) -> Option<Bindings> {
        let mut bindings = self.fixed.clone();
        // Counts the fixed lists decide (`k` of `S[k]`).
        for (name, numbers) in &self.fixed {
            if let Some(count) = self.format.count_name_of(name)
                && let Some(item) = self.format.item(name)
            {
                bindings.entry(count.to_owned()).or_insert_with(|| vec![item.count_for(numbers.len())]);
            }
        }
        for item in self.format.items() {
            if bindings.contains_key(&item.name) {
                continue;
            }
            let is_heap = self.is_heap(&item.name);
            let numbers = if let Some(lists) = self.lists_of_count.get(&item.name) {
                let heap_count = lists.iter().any(|list| self.is_heap(list));
                let size = if heap_count { style.heap_count } else { style.parameter_count };
                vec![self.draw_count(item, lists, size, random)?]
            } else {
                let length = item.length(&bindings);
                if length > LONGEST_LIST {
                    return None;
                }
                let values = if is_heap { style.heap_values } else { style.parameter_values };
                let mut numbers = Self::draw_values(item, length as usize, values, random)?;
                if item.sorted {
                    numbers.sort_unstable();
                }
                numbers
            };
            bindings.insert(item.name.clone(), numbers);
        }
        self.fits(&bindings).then_some(bindings)
    }

    fn is_heap(&self, name: &str) -> bool {
        self.heap_names.contains(name)
    }

    /// A count for `lists`, within its own bound, the lists' (a distinct list cannot be longer
    /// than its range) and [`LONGEST_LIST`].
    fn draw_count(&self, item: &Item, lists: &[String], size: Size, random: &mut SplitMix64) -> Option<u64> {
        let (mut low, mut high) = item.bound.unwrap_or((0, UNBOUNDED_COUNT));
        high = high.min(LONGEST_LIST);
        for list in lists.iter().filter_map(|name| self.format.item(name)) {
            // `e[n-1]`: n is at least 1.
            low = low.max(list.count_less);
            if list.distinct {
                let (least, most) = Self::value_bound(list);
                let room = if least > most { 0 } else { (most - least) / Self::step(list) + 1 };
                high = high.min(room.saturating_add(list.count_less));
            }
        }
        let (low, high) = Self::parity_bound(item, (low, high));
        if low > high {
            return None;
        }
        let fit = |count: u64| Self::to_parity(item, count, high);
        let typical = high.min(low.max(TYPICAL_LIST));
        Some(match size {
            Size::Least => low,
            Size::Most => high,
            Size::One if (low..=high).contains(&1) && item.parity_fits(1) => 1,
            Size::One => return None,
            Size::Small => fit(random.between(low, high.min(low.max(1) + 5))),
            Size::Any => {
                if random.chance(1, 2) {
                    fit(random.between(low, high.min(low.max(1) + 9)))
                } else {
                    fit(random.between(low, typical))
                }
            }
        })
    }

    /// `length` numbers for `item` (distinct ones shuffled: never sorted for the solution).
    fn draw_values(item: &Item, length: usize, values: Values, random: &mut SplitMix64) -> Option<Vec<u64>> {
        let (low, high) = Self::value_bound(item);
        if low > high {
            return None;
        }
        let one = || if (low..=high).contains(&1) && item.parity_fits(1) { Some(1) } else { None };
        let step = Self::step(item);
        let fit = |number: u64| Self::to_parity(item, number, high);
        if item.distinct {
            if (high - low) / step + 1 < length as u64 {
                return None;
            }
            let mut numbers: Vec<u64> = match values {
                Values::Least => (0..length as u64).map(|index| low + step * index).collect(),
                Values::Most => (0..length as u64).map(|index| high - step * index).collect(),
                Values::Equal | Values::Pairs | Values::Ones if length > 1 => return None,
                Values::Ones => vec![one()?],
                _ => {
                    let mut seen = HashSet::with_capacity(length);
                    let mut numbers = Vec::with_capacity(length);
                    // Rejection while the range is much wider than the list; otherwise the
                    // numbers left, taken at random.
                    let span = (high - low) / step + 1;
                    if span / 4 >= length as u64 {
                        while numbers.len() < length {
                            let number = fit(Self::draw_value(low, high, values, random));
                            if seen.insert(number) {
                                numbers.push(number);
                            }
                        }
                    } else {
                        let mut all: Vec<u64> = (low..=high).step_by(step as usize).collect();
                        random.shuffle(&mut all);
                        all.truncate(length);
                        numbers = all;
                    }
                    numbers
                }
            };
            random.shuffle(&mut numbers);
            return Some(numbers);
        }
        let numbers = match values {
            Values::Least => vec![low; length],
            Values::Most => vec![high; length],
            Values::Ones => vec![one()?; length],
            Values::Equal => vec![Self::draw_value(low, high, Values::Mixed, random); length],
            Values::Pairs => {
                let mut numbers = Vec::with_capacity(length);
                while numbers.len() < length {
                    let number = Self::draw_value(low, high, Values::Mixed, random);
                    numbers.push(number);
                    if numbers.len() < length {
                        numbers.push(number);
                    }
                }
                random.shuffle(&mut numbers);
                numbers
            }
            Values::Mixed | Values::Large => (0..length).map(|_| Self::draw_value(low, high, values, random)).collect(),
        };
        Some(if item.parity.is_some() { numbers.into_iter().map(fit).collect() } else { numbers })
    }

    /// One number in `low..=high`: for mixed draws the bounds, small numbers, every order of
    /// magnitude and the whole range; for large ones the top of the range.
    fn draw_value(low: u64, high: u64, values: Values, random: &mut SplitMix64) -> u64 {
        let span = high - low;
        let near = |random: &mut SplitMix64| random.below(span.min(16) + 1);
        match values {
            Values::Least => low,
            Values::Most => high,
            Values::Large => match random.below(3) {
                0 => high - near(random),
                1 => high - random.below(span.min(1000) + 1),
                _ => high - random.below(span / 8 + 1),
            },
            _ => match random.below(10) {
                0 => low,
                1 => high,
                2..=4 => low + near(random),
                5 | 6 => {
                    // Log-uniform: every order of magnitude as likely.
                    let bits = 64 - span.leading_zeros();
                    let magnitude = random.below(u64::from(bits) + 1);
                    let top = if magnitude >= 64 { u64::MAX } else { (1u64 << magnitude) - 1 };
                    low + random.below(top.min(span).saturating_add(1))
                }
                7 => high - near(random),
                _ => random.between(low, high),
            },
        }
    }

    /// The style of a kind's `index`-th test, `None` where the kind makes no test here.
    fn style_of(&self, kind: Kind, index: u64) -> Option<Style> {
        let has_count = self.heap_names.iter().any(|name| self.format.count_name_of(name).is_some());
        let heap_list_distinct =
            self.heap_names.iter().any(|name| self.format.item(name).is_some_and(|item| item.distinct));
        let heap_numbers = self.heap_number_count_at_least_two();
        Some(match kind {
            Kind::Extremes => {
                const SIZES: [Size; 3] = [Size::Least, Size::Most, Size::One];
                const VALUES: [Values; 2] = [Values::Least, Values::Most];
                const PARAMETERS: [(Size, Values); 4] = [
                    (Size::Least, Values::Least),
                    (Size::Most, Values::Most),
                    (Size::Least, Values::Most),
                    (Size::Small, Values::Mixed),
                ];
                let index = index as usize;
                if index >= SIZES.len() * VALUES.len() * PARAMETERS.len() {
                    return None;
                }
                let (parameter_count, parameter_values) = PARAMETERS[index / (SIZES.len() * VALUES.len())];
                Style {
                    heap_count: SIZES[index % SIZES.len()],
                    heap_values: VALUES[index / SIZES.len() % VALUES.len()],
                    parameter_count,
                    parameter_values,
                }
            }
            Kind::OneHeap if has_count => Style::heaps(Size::One, Values::Mixed),
            Kind::MostHeaps if has_count => Style::heaps(Size::Most, Values::Mixed),
            Kind::EqualHeaps if heap_numbers && !heap_list_distinct => Style::heaps(Size::Any, Values::Equal),
            Kind::EqualPairs if heap_numbers && !heap_list_distinct => Style::heaps(Size::Any, Values::Pairs),
            Kind::AllOnes if !heap_list_distinct => {
                let count = if index.is_multiple_of(3) { Size::Small } else { Size::Any };
                Style::heaps(count, Values::Ones)
            }
            Kind::PPositions | Kind::Neighbours | Kind::Random => {
                let parameter_count = if index.is_multiple_of(4) { Size::Any } else { Size::Small };
                Style { parameter_count, ..Style::heaps(Size::Any, Values::Mixed) }
            }
            Kind::Large => Style { parameter_values: Values::Large, ..Style::heaps(Size::Any, Values::Large) },
            _ => return None,
        })
    }

    /// Whether a position can hold two numbers or more (equal heaps mean something).
    fn heap_number_count_at_least_two(&self) -> bool {
        let mut most = 0u64;
        for name in &self.heap_names {
            let Some(item) = self.format.item(name) else { continue };
            most += match &item.count {
                None => 1,
                Some(Count::Fixed(count)) => *count,
                Some(Count::Name(count)) => {
                    self.format.item(count).and_then(|count| count.bound).map_or(UNBOUNDED_COUNT, |(_, high)| high)
                }
            };
        }
        most >= 2
    }

    /// About `budget` distinct tests of every kind (see [`Kind`]), reproducible from `seed`;
    /// `referee` finds the P-positions (a test it cannot evaluate is not aimed at one: the
    /// check reports it when it asks for its answer). Drawing stops early when the referee's
    /// control is cancelled.
    pub fn draw_tests(&self, budget: u64, seed: u64, referee: &mut Referee) -> Vec<Drawn> {
        let mut random = SplitMix64::new(seed);
        let mut seen: HashSet<Bindings> = HashSet::new();
        let mut drawn: Vec<Drawn> = Vec::new();
        let mut p_positions: Vec<Bindings> = Vec::new();
        // What the kinds before could not make goes to the P-positions and random tests.
        let mut spare = 0u64;
        for kind in Kind::ALL {
            let wanted = match kind {
                Kind::Extremes => u64::MAX,
                Kind::Random => budget.saturating_sub(drawn.len() as u64),
                Kind::PPositions => budget * kind.share() / 1000 + spare / 2,
                _ => (budget * kind.share() / 1000).max(1),
            };
            let (mut made, mut misses, mut index) = (0u64, 0u64, 0u64);
            // Draws that give nothing new stop the kind (a small format has few tests).
            while made < wanted && misses < 200 + wanted.min(budget) && !referee.control.cancelled() {
                let Some(style) = self.style_of(kind, index) else { break };
                index += 1;
                let aim_at_p = kind == Kind::PPositions || (kind == Kind::Large && index.is_multiple_of(2));
                let test = match kind {
                    Kind::Neighbours if p_positions.is_empty() => None,
                    Kind::Neighbours => {
                        let from = &p_positions[random.index(p_positions.len())];
                        self.neighbour(from, &mut random)
                    }
                    _ => match self.draw(&style, &mut random) {
                        Some(test) if aim_at_p => self.toward_p(test, referee, &mut random),
                        other => other,
                    },
                };
                match test {
                    Some(test) if seen.insert(test.clone()) => {
                        if kind == Kind::PPositions {
                            p_positions.push(test.clone());
                        }
                        drawn.push(Drawn { kind, bindings: test });
                        made += 1;
                    }
                    _ => misses += 1,
                }
            }
            if !matches!(kind, Kind::Extremes | Kind::PPositions | Kind::Random) {
                spare += wanted.saturating_sub(made);
            }
        }
        drawn
    }

    /// A P-position reached by a winning move from `test` (itself when it is one), with the
    /// game's parameters kept; `None` when every winning move leaves the format's bounds or the
    /// referee cannot evaluate the test.
    fn toward_p(&self, test: Bindings, referee: &mut Referee, random: &mut SplitMix64) -> Option<Bindings> {
        let case = self.case(&test);
        let after = match referee.positions_after_winning_moves(&case) {
            Ok(Some(after)) => after,
            Ok(None) => return Some(test),
            Err(_) => Vec::new(),
        };
        let mut fitting: Vec<Bindings> =
            after.iter().filter_map(|components| self.with_position(&test, components)).collect();
        if fitting.is_empty() {
            // Winning moves that lead where the format cannot write (a fresh heap's move leaves
            // `n,k`): the P-positions the game itself names, up to the test's own number.
            fitting = referee
                .p_position_samples(&case)
                .iter()
                .filter_map(|component| self.with_position(&test, std::slice::from_ref(component)))
                .collect();
        }
        if fitting.is_empty() {
            return None;
        }
        Some(fitting.swap_remove(random.index(fitting.len())))
    }

    /// `test` with its position replaced by `components` (the counts of the position's lists
    /// following), if that is a test of the format.
    pub fn with_position(&self, test: &Bindings, components: &[String]) -> Option<Bindings> {
        let text = components.join(" ");
        let read = self.format.position.match_numbers(&text, ' ')?;
        let mut bindings = test.clone();
        for (name, numbers) in read {
            if let Some(count) = self.format.count_name_of(&name)
                && let Some(item) = self.format.item(&name)
            {
                bindings.insert(count.to_owned(), vec![item.count_for(numbers.len())]);
            }
            bindings.insert(name, numbers);
        }
        self.fits(&bindings).then_some(bindings)
    }

    /// `test` with one number of its position one more or one less.
    fn neighbour(&self, test: &Bindings, random: &mut SplitMix64) -> Option<Bindings> {
        let places: Vec<(&String, usize)> = self
            .heap_names
            .iter()
            .filter_map(|name| test.get(name).map(|numbers| (name, numbers.len())))
            .flat_map(|(name, length)| (0..length).map(move |index| (name, index)))
            .collect();
        if places.is_empty() {
            return None;
        }
        let (name, index) = places[random.index(places.len())];
        let mut bindings = test.clone();
        let number = &mut bindings.get_mut(name)?[index];
        *number = if random.chance(1, 2) { number.checked_add(1)? } else { number.checked_sub(1)? };
        self.fits(&bindings).then_some(bindings)
    }

    /// Tests smaller than `test`, most promising first, every one a test of the format and at
    /// most [`SHRINK_CANDIDATES`] of them: a long list without a chunk of half, a quarter, …
    /// of its numbers, a short one without one number, its count following; then every number of a long list halved or at its
    /// least at once; then each number of a short one at its least and the three above it, the
    /// points of a binary search from its least up to it, and one less (a round at a time across
    /// the numbers). The numbers the command line's GAME fixes stay.
    pub fn smaller(&self, test: &Bindings) -> Vec<Bindings> {
        let mut candidates = Vec::new();
        let counts: BTreeSet<&str> = self.lists_of_count.keys().map(String::as_str).collect();
        let shorter = |item: &Item, numbers: &[u64], keep: &dyn Fn(usize) -> bool, count: &str| {
            let mut bindings = test.clone();
            let kept: Vec<u64> =
                numbers.iter().enumerate().filter(|(index, _)| keep(*index)).map(|(_, &n)| n).collect();
            bindings.insert(count.to_owned(), vec![item.count_for(kept.len())]);
            bindings.insert(item.name.clone(), kept);
            bindings
        };
        for item in self.format.items() {
            let (Some(Count::Name(count)), Some(numbers)) = (&item.count, test.get(&item.name)) else { continue };
            if self.fixed.contains_key(&item.name)
                || self.lists_of_count.get(count).is_some_and(|lists| lists.len() > 1)
            {
                continue;
            }
            let length = numbers.len();
            // Chunks of half, a quarter, … one number, cut from the front and the back (an
            // even count matters to some games: every size is tried), then, for a short list,
            // each number alone.
            let mut chunk = length / 2;
            while chunk >= 1 {
                candidates.push(shorter(item, numbers, &|index| index >= chunk, count));
                candidates.push(shorter(item, numbers, &|index| index < length - chunk, count));
                chunk /= 2;
            }
            if length <= SHORT_LIST {
                for removed in 1..length.saturating_sub(1) {
                    candidates.push(shorter(item, numbers, &|index| index != removed, count));
                }
            }
        }
        for item in self.format.items() {
            if self.fixed.contains_key(&item.name) || counts.contains(item.name.as_str()) {
                continue;
            }
            let Some(numbers) = test.get(&item.name) else { continue };
            let least = Self::value_bound(item).0;
            let mut with = |numbers: Vec<u64>| {
                let mut bindings = test.clone();
                bindings.insert(item.name.clone(), numbers);
                candidates.push(bindings);
            };
            if numbers.len() > 1 {
                with(vec![least; numbers.len()]);
                with(numbers.iter().map(|&number| least + (number - least) / 2).collect());
            }
            if numbers.len() > SHORT_LIST {
                continue;
            }
            // Each number's smaller values, the smallest first: its least and the few above it
            // (a failure is often at a small number that halving jumps over), then the points
            // of a binary search from the least up to it, then one less. Taken a round at a
            // time across the numbers, so that every number is tried within the candidates.
            let smaller_values: Vec<Vec<u64>> = numbers
                .iter()
                .map(|&number| {
                    let span = number.saturating_sub(least);
                    let near_least = (0..4).map(|step| least + step);
                    let searched = (1..64).rev().map(|shift| least + (span >> shift));
                    let mut tried = BTreeSet::new();
                    near_least
                        .chain(searched)
                        .chain([number.saturating_sub(1)])
                        .filter(|&smaller| smaller < number && smaller >= least && tried.insert(smaller))
                        .collect()
                })
                .collect();
            let rounds = smaller_values.iter().map(Vec::len).max().unwrap_or(0);
            for round in 0..rounds {
                for (index, values) in smaller_values.iter().enumerate() {
                    if let Some(&smaller) = values.get(round) {
                        let mut changed = numbers.clone();
                        changed[index] = smaller;
                        with(changed);
                    }
                }
            }
        }
        candidates.retain(|bindings| bindings != test && self.fits(bindings));
        candidates.truncate(SHRINK_CANDIDATES);
        candidates
    }
}

/// Lists up to this long are shrunk a number at a time; longer ones by halves.
const SHORT_LIST: usize = 16;
/// The most smaller tests [`Drawer::smaller`] offers at once.
pub const SHRINK_CANDIDATES: usize = 640;

/// The right answer of a test, by the game's definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truth {
    /// Who wins: N (the player to move), P, or D (a draw, in a loopy game).
    pub outcome: Outcome,
    /// The Grundy value (normal play only).
    pub value: Option<Value>,
    /// The judge's answer in the format's words, before any `case` prefix (`None` for a draw
    /// the format has no word for: no answer is right).
    pub answer: Option<String>,
}

/// The most winning moves of a compound the referee lists to reach P-positions (there can be a
/// product of many).
const COMPOUND_MOVES: usize = 64;

/// How the referee builds a game from its text (the front end's reading of files and scripts).
pub type Resolve<'r> = dyn Fn(&str) -> Result<Arc<dyn Ruleset>, GameError> + 'r;

/// The games' definitions for a format's tests: each test's right answer, and the positions
/// winning moves lead to, in normal or misère play. Each game text is built once.
pub struct Referee<'r> {
    resolve: &'r Resolve<'r>,
    /// The game of formats without a `game` line (the command line's GAME).
    default_game: Option<String>,
    misere: bool,
    /// What the format answers (for words, the outcome alone is computed: a huge Wythoff pair
    /// has an exact outcome and no value within reach).
    answer: super::Answer,
    limits: Limits,
    control: Control,
    games: HashMap<String, Arc<dyn Ruleset>>,
    /// The compound's solver (`compound every`), its numbers kept across the tests.
    compound: Option<crate::compound::CompoundSolver>,
}

impl<'r> Referee<'r> {
    /// A referee of `format`'s tests (its play, and values when it answers them), building
    /// games with `resolve`; `default_game` for formats without a `game` line; misère searches
    /// within `limits`.
    pub fn new(
        format: &JudgeFormat,
        resolve: &'r Resolve<'r>,
        default_game: Option<String>,
        limits: Limits,
        control: Control,
    ) -> Self {
        Referee {
            resolve,
            default_game,
            misere: format.misere(),
            answer: format.answer().clone(),
            limits,
            compound: format.compound().map(|compound| crate::compound::CompoundSolver::new(compound, &control)),
            control,
            games: HashMap::new(),
        }
    }

    /// The position a test names.
    ///
    /// # Errors
    /// A game text or component the game refuses.
    pub fn position(&mut self, case: &Case) -> Result<Position, GameError> {
        let text = case
            .game
            .as_deref()
            .or(self.default_game.as_deref())
            .ok_or_else(|| GameError::Unsupported("the format names no game: give the GAME word".to_owned()))?;
        let game = match self.games.get(text) {
            Some(game) => game.clone(),
            None => {
                // Each game keeps its tables (counted against the run's one budget): a format
                // with a parameter per test (`game sub:1,2,{k}`) builds a game a test, so the
                // games are forgotten once they hold half of the budget.
                if self.control.memory_left() < self.control.memory_limit() / 2 {
                    self.games.clear();
                }
                let game = (self.resolve)(text)?;
                self.games.insert(text.to_owned(), game.clone());
                game
            }
        };
        let words: Vec<&str> = case.components.iter().map(String::as_str).collect();
        Position::parse_single(game, &words)
    }

    /// The right answer of a test: its outcome, and its value when the format answers values.
    ///
    /// # Errors
    /// As [`Referee::position`], and a computation past its limits.
    pub fn truth(&mut self, case: &Case) -> Result<Truth, GameError> {
        self.with_room(|referee| referee.truth_once(case))
    }

    /// Runs `answer` and, when it would not fit beside the tables and memo the referee keeps
    /// from earlier tests, runs it again once they are forgotten (a test is refused for its
    /// own size, never for what earlier tests left behind).
    fn with_room<T>(&mut self, mut answer: impl FnMut(&mut Self) -> Result<T, GameError>) -> Result<T, GameError> {
        match answer(self) {
            Err(GameError::TooLarge { .. }) if self.control.held_bytes() > 0 => {
                self.games.clear();
                if let Some(solver) = &mut self.compound {
                    *solver = crate::compound::CompoundSolver::new(solver.compound(), &self.control);
                }
                answer(self)
            }
            other => other,
        }
    }

    fn truth_once(&mut self, case: &Case) -> Result<Truth, GameError> {
        let position = self.position(case)?;
        if let Some(solver) = &mut self.compound {
            let outcome = solver.evaluate(&position)?.outcome;
            return Ok(Truth { outcome, value: None, answer: self.answer.words_for(outcome).ok() });
        }
        if self.misere {
            let (outcome, _) = crate::misere::sums::outcome(&position, self.limits, &self.control)?;
            return Ok(Truth { outcome, value: None, answer: self.answer.words_for(outcome).ok() });
        }
        if self.answer == super::Answer::Value {
            let value = position.value()?;
            return Ok(Truth { outcome: value.outcome(), answer: Some(value.to_string()), value: Some(value) });
        }
        // A draw the format has no word for has no right answer (every answer is wrong).
        if let super::Answer::Words { draw: None, .. } = self.answer {
            let outcome = super::answer::single_outcome(&position)?;
            return Ok(Truth { outcome, value: None, answer: self.answer.words_for(outcome).ok() });
        }
        // One component's outcome is its own (a Wythoff pair's is a closed form; a sum's
        // outcome goes through the values, and a pair's value below 16384 through a table).
        let (outcome, answer) = self.answer.of_position(&position)?;
        Ok(Truth { outcome, value: None, answer: Some(answer) })
    }

    /// The components of the positions every winning move of the test leads to, or `None` when
    /// the test is no N-position (a P-position, or a draw).
    ///
    /// # Errors
    /// As [`Referee::truth`].
    pub fn positions_after_winning_moves(&mut self, case: &Case) -> Result<Option<Vec<Vec<String>>>, GameError> {
        self.with_room(|referee| referee.positions_after_winning_moves_once(case))
    }

    fn positions_after_winning_moves_once(&mut self, case: &Case) -> Result<Option<Vec<Vec<String>>>, GameError> {
        let position = self.position(case)?;
        if let Some(solver) = &mut self.compound {
            if solver.evaluate(&position)?.outcome != Outcome::N {
                return Ok(None);
            }
            let moves = solver.winning_moves(&position, COMPOUND_MOVES)?.moves;
            let after = moves
                .iter()
                .map(|one| crate::compound::after(&position, one).parts.iter().flat_map(|part| part.texts()).collect())
                .collect();
            return Ok(Some(after));
        }
        if !self.misere
            && let [part] = position.parts.as_slice()
            && let [component] = part.components.as_slice()
        {
            // One component: its moves to P-positions, without its value (a Wythoff pair's
            // value needs a table; its P-positions have a closed form).
            if part.game.outcome(component)? != Outcome::N {
                return Ok(None);
            }
            let after = part.game.moves_to_p(component)?.into_iter().map(|one| {
                Position::single(part.game.clone(), one.result).parts.iter().flat_map(|part| part.texts()).collect()
            });
            return Ok(Some(after.collect()));
        }
        let moves = if self.misere {
            let (outcome, _) = crate::misere::sums::outcome(&position, self.limits, &self.control)?;
            if outcome != Outcome::N {
                return Ok(None);
            }
            crate::misere::sums::winning_moves(&position, self.limits, &self.control)?.0
        } else {
            if position.outcome()? != Outcome::N {
                return Ok(None);
            }
            position.winning_moves()?
        };
        let after = moves
            .iter()
            .map(|one| position.after(one).parts.iter().flat_map(|part| part.texts()).collect::<Vec<String>>())
            .collect();
        Ok(Some(after))
    }
}

impl Referee<'_> {
    /// P-positions of a one-component test's game that the game names itself
    /// ([`crate::view::SamplesPPositions`]), as component texts, the largest few up to twice
    /// the test's number; empty when the game names none or the test is no one-number
    /// component.
    fn p_position_samples(&mut self, case: &Case) -> Vec<String> {
        const SAMPLES: usize = 64;
        let Ok(position) = self.position(case) else { return Vec::new() };
        let ([part], [component]) = (position.parts.as_slice(), case.components.as_slice()) else {
            return Vec::new();
        };
        let (Some(samples), Ok(number)) =
            (part.game.capability::<crate::view::SamplesPPositions>(), component.parse::<u128>())
        else {
            return Vec::new();
        };
        samples.p_positions_up_to(number.saturating_mul(2), SAMPLES).unwrap_or_default()
    }
}

impl std::fmt::Debug for Referee<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Referee").field("default_game", &self.default_game).field("misere", &self.misere).finish()
    }
}

#[cfg(test)]
#[path = "draw_tests.rs"]
mod tests;
