//! Patterns of a line of values `G(first), G(first + 1), …`: a heap game's nim-sequence (from
//! heap 0) or the value of one heads coin at place `n` (from coin 1).
//!
//! Each class is fitted on the values up to the fitting bound and returned as data; whether it
//! holds further out is decided by the caller, on values the fit never saw.

use std::fmt;

/// A pattern of the values `G(n)`, `n ≥ first`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinePattern {
    /// `G(n + p) = G(n) + s` for every `n ≥ start` (`s = 0`: periodic); the values before
    /// `start` are listed.
    Periodic {
        /// The first `n` of the line (0 for heaps, 1 for coins).
        first: u64,
        /// `e`: the pattern holds from `n = e` on.
        start: u64,
        /// `G(first) … G(e − 1)`.
        before: Vec<u64>,
        /// `G(e) … G(e + p − 1)`.
        cycle: Vec<u64>,
        /// `s`: how much the values grow each period.
        saltus: u64,
    },
    /// `G(n) = f(n + shift)` for every `n ≥ start`, for a function `f` of the binary digits;
    /// the values before `start` (finitely many exceptions) are listed.
    Bitwise {
        /// `f`.
        form: BitForm,
        /// Added to `n` before `f` is applied.
        shift: i64,
        /// The first `n` of the line (0 for heaps, 1 for coins).
        first: u64,
        /// The pattern holds from `n = start` on (`start = first`: no exceptions).
        start: u64,
        /// `G(first) … G(start − 1)`, the exceptions.
        before: Vec<u64>,
    },
    /// Only the P-positions (`G(n) = 0`) follow a pattern: for `n ≥ start`, `n` is a
    /// P-position iff `(n − start) mod period` is in `residues`; below `start` the P-positions
    /// are `early`.
    PPositions {
        /// `e`.
        start: u64,
        /// `p`.
        period: u64,
        /// The residues of `n − e` modulo `p` that are P-positions (never empty).
        residues: Vec<u64>,
        /// The P-positions below `e`.
        early: Vec<u64>,
    },
}

/// A function of the binary digits of `m = n + shift`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitForm {
    /// `m xor (m >> 1)`, the Gray code of `m`.
    Gray,
    /// `m & −m`, the largest power of 2 dividing `m` (`m ≥ 1`): the ruler function.
    LowestBit,
    /// The exponent of the largest power of 2 dividing `m` (`m ≥ 1`).
    TwoAdicValuation,
    /// The number of 1s in `m`.
    Popcount,
    /// The parity of the number of 1s in `m`.
    PopcountParity,
    /// `2m + (1 if m has an even number of 1s)`: the `m`-th odious number (Mock Turtles).
    Odious,
    /// `2m + (1 if m has an odd number of 1s)`: the `m`-th evil number.
    Evil,
    /// The largest power of 2 at most `m` (`m ≥ 1`).
    HighestBit,
}

impl BitForm {
    /// Every form, in the order they are tried.
    pub const ALL: [BitForm; 8] = [
        BitForm::Gray,
        BitForm::LowestBit,
        BitForm::TwoAdicValuation,
        BitForm::Popcount,
        BitForm::PopcountParity,
        BitForm::Odious,
        BitForm::Evil,
        BitForm::HighestBit,
    ];

    /// The smallest argument the form is defined for.
    pub fn least_argument(self) -> u64 {
        match self {
            BitForm::LowestBit | BitForm::TwoAdicValuation | BitForm::HighestBit => 1,
            _ => 0,
        }
    }

    /// `f(m)` (`m` at least [`BitForm::least_argument`]).
    pub fn apply(self, m: u64) -> u128 {
        let parity = u128::from(m.count_ones() % 2);
        match self {
            BitForm::Gray => u128::from(m ^ (m >> 1)),
            BitForm::LowestBit => u128::from(m & m.wrapping_neg()),
            BitForm::TwoAdicValuation => u128::from(m.trailing_zeros()),
            BitForm::Popcount => u128::from(m.count_ones()),
            BitForm::PopcountParity => parity,
            BitForm::Odious => 2 * u128::from(m) + (1 - parity),
            BitForm::Evil => 2 * u128::from(m) + parity,
            BitForm::HighestBit => 1u128 << (63 - m.leading_zeros()),
        }
    }

    /// A name for JSON.
    pub fn name(self) -> &'static str {
        match self {
            BitForm::Gray => "gray-code",
            BitForm::LowestBit => "lowest-bit",
            BitForm::TwoAdicValuation => "two-adic-valuation",
            BitForm::Popcount => "popcount",
            BitForm::PopcountParity => "popcount-parity",
            BitForm::Odious => "odious",
            BitForm::Evil => "evil",
            BitForm::HighestBit => "highest-bit",
        }
    }

    /// The form applied to `m`, as a person writes it.
    pub fn formula(self, m: &str) -> String {
        match self {
            BitForm::Gray => format!("{m} xor ({m} >> 1)"),
            BitForm::LowestBit => format!("{m} & −{m} (the largest power of 2 dividing {m})"),
            BitForm::TwoAdicValuation => format!("v₂({m}) (the exponent of the largest power of 2 dividing {m})"),
            BitForm::Popcount => format!("popcount({m}) (the number of 1s in binary)"),
            BitForm::PopcountParity => format!("popcount({m}) mod 2"),
            BitForm::Odious => format!("2·{m} + (1 if popcount({m}) is even, else 0) (the odious numbers)"),
            BitForm::Evil => format!("2·{m} + (1 if popcount({m}) is odd, else 0) (the evil numbers)"),
            BitForm::HighestBit => format!("the largest power of 2 at most {m}"),
        }
    }
}

/// The most values a listed period or preperiod shows in text.
const LONGEST_LIST: usize = 64;

/// The largest shift `|c|` tried for `G(n) = f(n + c)`.
const MAX_SHIFT: i64 = 3;

/// The most exceptions a bitwise pattern may have before it holds (at most a quarter of the
/// values fitted, too).
pub const MAX_BITWISE_EXCEPTIONS: usize = 16;

/// How many full periods past the preperiod the fitted values must show (and the preperiod
/// may take at most half of them).
const PERIODS_SEEN: u64 = 3;

impl LinePattern {
    /// The pattern's kind, for JSON: `periodic`, `arithmetic-periodic`, `bitwise`,
    /// `p-positions`.
    pub fn kind(&self) -> &'static str {
        match self {
            LinePattern::Periodic { saltus: 0, .. } => "periodic",
            LinePattern::Periodic { .. } => "arithmetic-periodic",
            LinePattern::Bitwise { .. } => "bitwise",
            LinePattern::PPositions { .. } => "p-positions",
        }
    }

    /// The values a periodic pattern lists (one period, and the values before it), one line
    /// each; empty for the other patterns, whose formula says everything.
    pub fn details(&self, name: &str) -> Vec<String> {
        let LinePattern::Periodic { first, start, before, cycle, .. } = self else {
            return Vec::new();
        };
        if !self.formula(name, "n").contains(" for n ≥ ") {
            // A constant, n mod p or a line: the formula says everything.
            return Vec::new();
        }
        // A long list is cut: the JSON and the emitted code hold every value.
        let list = |values: &[u64]| {
            let shown: Vec<String> = values.iter().take(LONGEST_LIST).map(u64::to_string).collect();
            if values.len() > LONGEST_LIST {
                format!("{} … ({} values; --json lists them all)", shown.join(" "), values.len())
            } else {
                shown.join(" ")
            }
        };
        let mut lines = vec![format!("{name}({start}..{}) = {}", start + cycle.len() as u64 - 1, list(cycle))];
        if !before.is_empty() {
            lines.push(format!("{name}({first}..{}) = {}", start - 1, list(before)));
        }
        lines
    }

    /// Whether the pattern gives the values (not only the P-positions).
    pub fn gives_values(&self) -> bool {
        !matches!(self, LinePattern::PPositions { .. })
    }

    /// `G(n)` by the pattern, or `None` for a P-positions pattern or `n` outside the line.
    pub fn value(&self, n: u64) -> Option<u128> {
        match self {
            LinePattern::Periodic { first, start, before, cycle, saltus } => {
                if n < *first {
                    None
                } else if n < *start {
                    before.get(usize::try_from(n - first).ok()?).map(|&value| u128::from(value))
                } else {
                    let period = cycle.len() as u64;
                    let (laps, offset) = ((n - start) / period, (n - start) % period);
                    Some(u128::from(cycle[offset as usize]) + u128::from(laps) * u128::from(*saltus))
                }
            }
            LinePattern::Bitwise { form, shift, first, start, before } => {
                if n < *first {
                    return None;
                }
                if n < *start {
                    return before.get(usize::try_from(n - first).ok()?).map(|&value| u128::from(value));
                }
                let m = n.checked_add_signed(*shift)?;
                (m >= form.least_argument()).then(|| form.apply(m))
            }
            LinePattern::PPositions { .. } => None,
        }
    }

    /// Whether `n` is a P-position by the pattern.
    pub fn is_p_position(&self, n: u64) -> bool {
        match self {
            LinePattern::PPositions { start, period, residues, early } => {
                if n < *start {
                    early.contains(&n)
                } else {
                    residues.contains(&((n - start) % period))
                }
            }
            _ => self.value(n) == Some(0),
        }
    }

    /// The pattern as a person writes it, `name` the function and `n` its variable
    /// (`G(n) = n mod 6`).
    pub fn formula(&self, name: &str, n: &str) -> String {
        match self {
            LinePattern::Periodic { first, start, cycle, saltus, .. } => {
                periodic_formula(name, n, *first, *start, cycle, *saltus)
            }
            LinePattern::Bitwise { form, shift, first, start, before } => {
                let mut text = match shift {
                    0 => format!("{name}({n}) = {}", form.formula(n)),
                    shift if *shift > 0 => format!("{name}({n}) = {}, m = {n} + {shift}", form.formula("m")),
                    shift => format!("{name}({n}) = {}, m = {n} − {}", form.formula("m"), shift.unsigned_abs()),
                };
                if start > first {
                    let list = before.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
                    let range =
                        if *start == first + 1 { format!("{first}") } else { format!("{first}..{}", start - 1) };
                    text.push_str(&format!(", for {n} ≥ {start}; {name}({range}) = {list}"));
                }
                text
            }
            LinePattern::PPositions { start, period, residues, early } => {
                let mut text = if *period == 1 {
                    format!("P-positions: every {n} ≥ {start}")
                } else {
                    format!(
                        "P-positions: {n} ≥ {start} with {n} mod {period} in {{{}}}",
                        residues_mod(*start, *period, residues).join(", ")
                    )
                };
                if *start > 0 {
                    let early: Vec<String> = early.iter().map(u64::to_string).collect();
                    text.push_str(&format!(
                        ", and below {start}: {}",
                        if early.is_empty() { "none".to_owned() } else { early.join(", ") }
                    ));
                }
                text
            }
        }
    }
}

/// The residues `(start + r) mod period`, sorted, as text.
fn residues_mod(start: u64, period: u64, residues: &[u64]) -> Vec<String> {
    let mut classes: Vec<u64> = residues.iter().map(|residue| (start + residue) % period).collect();
    classes.sort_unstable();
    classes.iter().map(u64::to_string).collect()
}

fn periodic_formula(name: &str, n: &str, first: u64, start: u64, cycle: &[u64], saltus: u64) -> String {
    let period = cycle.len() as u64;
    // The plainest forms first: a constant, n mod p, a·n + b.
    let from_first = start == first;
    if from_first && saltus == 0 && period == 1 {
        return format!("{name}({n}) = {}", cycle[0]);
    }
    if from_first && saltus == 0 && cycle.iter().enumerate().all(|(i, &value)| value == (first + i as u64) % period) {
        return format!("{name}({n}) = {n} mod {period}");
    }
    if from_first && saltus > 0 && saltus.is_multiple_of(period) {
        let slope = saltus / period;
        // G(n) = slope·n + offset exactly when the cycle is a line.
        let offset = i128::from(cycle[0]) - i128::from(slope) * i128::from(first);
        if cycle
            .iter()
            .enumerate()
            .all(|(i, &value)| i128::from(value) == offset + i128::from(slope) * i128::from(first + i as u64))
        {
            let term = if slope == 1 { n.to_owned() } else { format!("{slope}·{n}") };
            return match offset {
                0 => format!("{name}({n}) = {term}"),
                offset if offset > 0 => format!("{name}({n}) = {term} + {offset}"),
                offset => format!("{name}({n}) = {term} − {}", offset.unsigned_abs()),
            };
        }
    }
    if saltus == 0 {
        format!("{name}({n} + {period}) = {name}({n}) for {n} ≥ {start}")
    } else {
        format!("{name}({n} + {period}) = {name}({n}) + {saltus} for {n} ≥ {start}")
    }
}

impl fmt::Display for LinePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.formula("G", "n"))
    }
}

/// Every class fitted on `values[i] = G(first + i)`: at most one pattern per class, in the
/// order they should be preferred (values before P-positions, the plainest first).
pub fn fit(first: u64, values: &[u64]) -> Vec<LinePattern> {
    let mut found = Vec::new();
    if let Some(pattern) = fit_periodic(first, values, false) {
        found.push(pattern);
    }
    if let Some(pattern) = fit_periodic(first, values, true) {
        found.push(pattern);
    }
    found.extend(fit_bitwise(first, values));
    if let Some(pattern) = fit_p_positions(first, values) {
        found.push(pattern);
    }
    found
}

/// The smallest period `p` (with its smallest preperiod) such that the values repeat —
/// or grow by a fixed positive saltus when `arithmetic` — for `PERIODS_SEEN` full periods.
fn fit_periodic(first: u64, values: &[u64], arithmetic: bool) -> Option<LinePattern> {
    let len = values.len();
    for period in 1..=len / PERIODS_SEEN as usize {
        let last = values[len - 1];
        let back = values[len - 1 - period];
        let saltus = match last.checked_sub(back) {
            Some(0) if !arithmetic => 0,
            Some(saltus) if arithmetic && saltus > 0 => saltus,
            _ => continue,
        };
        // The smallest start from which the relation holds to the end.
        let mut start = len - period;
        while start > 0 && values[start - 1 + period] == values[start - 1].wrapping_add(saltus) {
            start -= 1;
        }
        // Enough evidence: three periods, over at least the last half of the values.
        if start + PERIODS_SEEN as usize * period <= len && 2 * start <= len {
            return Some(LinePattern::Periodic {
                first,
                start: first + start as u64,
                before: values[..start].to_vec(),
                cycle: values[start..start + period].to_vec(),
                saltus,
            });
        }
    }
    None
}

/// The form `f` and shift `c` (in the order of [`BitForm::ALL`], then `c = −3 … 3`) with
/// `G(n) = f(n + c)` on every value from the fewest exceptions on: values before the pattern
/// holds, at most [`MAX_BITWISE_EXCEPTIONS`] and a quarter of the values.
fn fit_bitwise(first: u64, values: &[u64]) -> Option<LinePattern> {
    let most = MAX_BITWISE_EXCEPTIONS.min(values.len() / 4);
    let mut best: Option<(usize, LinePattern)> = None;
    for form in BitForm::ALL {
        for shift in -MAX_SHIFT..=MAX_SHIFT {
            // The first index from which f(n + c) agrees with every value to the end.
            let agrees = |index: usize| {
                let n = first + index as u64;
                n.checked_add_signed(shift)
                    .filter(|&m| m >= form.least_argument())
                    .is_some_and(|m| form.apply(m) == u128::from(values[index]))
            };
            let mut start = values.len();
            while start > 0 && agrees(start - 1) {
                start -= 1;
            }
            if start <= most && best.as_ref().is_none_or(|(fewest, _)| start < *fewest) {
                let pattern = LinePattern::Bitwise {
                    form,
                    shift,
                    first,
                    start: first + start as u64,
                    before: values[..start].to_vec(),
                };
                best = Some((start, pattern));
            }
        }
    }
    best.map(|(_, pattern)| pattern)
}

/// The P-positions as an eventually periodic set with at least one P-position per period.
fn fit_p_positions(first: u64, values: &[u64]) -> Option<LinePattern> {
    let zeros: Vec<u64> = values.iter().map(|&value| u64::from(value == 0)).collect();
    let LinePattern::Periodic { start, cycle, .. } = fit_periodic(first, &zeros, false)? else {
        return None;
    };
    let residues: Vec<u64> =
        cycle.iter().enumerate().filter(|&(_, &zero)| zero == 1).map(|(residue, _)| residue as u64).collect();
    if residues.is_empty() {
        // Finitely many P-positions: not a pattern anyone could rely on.
        return None;
    }
    let early = (first..start).filter(|&n| values[(n - first) as usize] == 0).collect();
    Some(LinePattern::PPositions { start, period: cycle.len() as u64, residues, early })
}

/// The first `n` in `first + from ..= first + values.len() − 1` where the pattern disagrees
/// with `values[n − first]`, or `None` when it agrees everywhere there.
pub fn first_disagreement(pattern: &LinePattern, first: u64, values: &[u64], from: usize) -> Option<u64> {
    (from..values.len()).map(|i| first + i as u64).find(|&n| {
        let value = values[(n - first) as usize];
        if pattern.gives_values() {
            pattern.value(n) != Some(u128::from(value))
        } else {
            pattern.is_p_position(n) != (value == 0)
        }
    })
}
