//! Rows of the Grundy table are additively periodic, and a finite-state machine proves it.
//!
//! **Theorem** (Dress, Flammenkamp and Pink, *Additive periodicity of the Sprague–Grundy
//! function of certain Nim games*, Adv. Appl. Math. 22 (1999) 249–270; the finite-state proof
//! is Landman's, *A simple FSM-based proof of the additive periodicity of the Sprague–Grundy
//! function of Wythoff's game*, More Games of No Chance, MSRI Publ. 42 (2002) 383–386). For
//! every `x` there are `e` and `p` with `G(x, y + p) = G(x, y) + p` for all `y ≥ e`.
//!
//! **The machine.** Compute rows `0 … X` together, one column `y` at a time. `G(r, y)` is the
//! mex of three sets: the row so far `R_r(y) = {G(r, y') : y' < y}`, the column above
//! `{G(r', y) : r' < r}` and the diagonal `{G(r − d, y − d) : 1 ≤ d ≤ r}` (for `y ≥ X`). The
//! row set is held exactly as its mex `m_r` and the bits of the values above `m_r` it holds.
//! So column `y` is a function of the *state*: every `m_r`, every row's bits, and the last `X`
//! columns. Subtract `y` from every number in the state: mex is shift-equivariant, so the
//! normalised state at `y + 1` is a function of the normalised state at `y`.
//!
//! The normalised state takes finitely many values: a row holds distinct values, and
//! `G(r, y') ≤ y' + 2r` (the cell has at most `y' + 2r` options); every `v` is in row `r` by
//! column `v + 2r + 1` (the rows above hold `v` at most once each, so at most `2r` columns are
//! blocked for `v` through the column or the diagonal; every other column takes a value `≤ v`
//! while `v` is missing from the row, and those values are distinct). So before column `y`,
//! `y − 2r − 1 ≤ m_r ≤ y`, the row's values above `m_r` lie below `y + 2r` (a window of width
//! at most `4r + 1`), and the last `X` columns hold values within `3X + 1` of `y`.
//!
//! Hence the normalised state repeats: if it is the same at `s` and `s + p`, every later column
//! repeats too, shifted by `p`: `G(r, y + p) = G(r, y) + p` for all `r ≤ X` and `y ≥ s`. The
//! machine finds the first repeat with Brent's cycle-finding algorithm and keeps the values up
//! to `s + p`; the answer for any `y` follows by the shift, and is **proved**, not observed: the
//! comparison is of exact states, and the machine checks its window bounds as it runs.

use crate::error::GameError;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;
use std::collections::VecDeque;

/// The highest row the machine handles. A row's bits and the new value fit the 256-value window
/// up to row 63 (`4r + 2` wide at most), but the work per column grows as the square of the
/// rows: rows 0–40 take about 0.3 s (joint period 768 from column 10373), rows 0–63 seconds.
pub const MAX_ROW: u64 = 40;

/// A set of offsets `0 .. 256` above a row's mex.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Window([u64; 4]);

impl Window {
    const SIZE: u64 = 256;

    fn insert(&mut self, offset: u64) {
        self.0[(offset / 64) as usize] |= 1 << (offset % 64);
    }

    fn is_full(&self) -> bool {
        self.0 == [u64::MAX; 4]
    }

    /// The number of offsets present from 0 up: the first absent offset.
    fn trailing_ones(&self) -> u64 {
        let mut count = 0;
        for word in self.0 {
            if word != u64::MAX {
                return count + u64::from(word.trailing_ones());
            }
            count += 64;
        }
        count
    }

    /// Subtracts `shift` from every offset, dropping those below it.
    fn shift_down(&mut self, shift: u64) {
        let (words, bits) = ((shift / 64) as usize, shift % 64);
        let mut shifted = [0u64; 4];
        for (index, out) in shifted.iter_mut().enumerate() {
            let Some(&low) = self.0.get(index + words) else { break };
            let high = match self.0.get(index + words + 1) {
                Some(&high) if bits > 0 => high << (64 - bits),
                _ => 0,
            };
            *out = (low >> bits) | high;
        }
        self.0 = shifted;
    }
}

/// How many columns the search for a repeat may take before it gives up.
pub const DEFAULT_COLUMN_BUDGET: u64 = 1 << 24;

/// Rows `0 … X` of Wythoff's Grundy table, from a state of the machine until the exact repeat
/// of that state.
struct Machine {
    /// `X`: rows `0 ..= top`.
    top: usize,
    /// The next column to compute.
    column: u64,
    /// `m_r`, the mex of row `r` so far.
    mex: Vec<u64>,
    /// Offset `i` present: value `m_r + i` is already in row `r` (0 is always absent).
    above_mex: Vec<Window>,
    /// The last `top` columns, newest first: `history[d - 1][r] = G(r, column − d)`.
    history: VecDeque<Vec<u64>>,
}

impl Machine {
    fn new(top: usize) -> Self {
        Machine {
            top,
            column: 0,
            mex: vec![0; top + 1],
            above_mex: vec![Window::default(); top + 1],
            history: VecDeque::with_capacity(top + 1),
        }
    }

    /// Computes column `self.column` and moves past it.
    fn step(&mut self) -> Result<Vec<u64>, GameError> {
        let mut column = Vec::with_capacity(self.top + 1);
        for r in 0..=self.top {
            let mex = self.mex[r];
            // Taken values relative to m_r: the row's own bits, then the column and diagonal.
            let mut taken = self.above_mex[r];
            let mut mark = |value: u64| {
                if value >= mex {
                    // Values past the window cannot be the mex (at most 2r are marked here).
                    if value - mex < Window::SIZE {
                        taken.insert(value - mex);
                    }
                }
            };
            column.iter().copied().for_each(&mut mark);
            for d in 1..=r.min(self.history.len()) {
                mark(self.history[d - 1][r - d]);
            }
            if taken.is_full() {
                return Err(self.window_error(r));
            }
            let value = mex + taken.trailing_ones();
            column.push(value);
            let mut bits = self.above_mex[r];
            bits.insert(value - mex);
            let filled = bits.trailing_ones();
            bits.shift_down(filled);
            self.mex[r] = mex + filled;
            self.above_mex[r] = bits;
        }
        if self.history.len() == self.top {
            self.history.pop_back();
        }
        if self.top > 0 {
            self.history.push_front(column.clone());
        }
        self.column += 1;
        Ok(column)
    }

    fn window_error(&self, row: usize) -> GameError {
        GameError::Unsupported(format!(
            "row {row} of Wythoff's game left the machine's {}-value window at column {}",
            Window::SIZE,
            self.column
        ))
    }

    /// Whether the two states are equal after subtracting each one's column from every number.
    fn same_state(&self, other: &Machine) -> bool {
        let (a, b) = (self.column, other.column);
        let same = |u: u64, v: u64| u.wrapping_sub(a) == v.wrapping_sub(b);
        self.above_mex == other.above_mex
            && self.mex.iter().zip(&other.mex).all(|(&u, &v)| same(u, v))
            && self.history.len() == other.history.len()
            && self.history.iter().zip(&other.history).all(|(p, q)| p.iter().zip(q).all(|(&u, &v)| same(u, v)))
    }

    fn clone_state(&self) -> Machine {
        Machine {
            top: self.top,
            column: self.column,
            mex: self.mex.clone(),
            above_mex: self.above_mex.clone(),
            history: self.history.clone(),
        }
    }
}

/// Rows `0 … X` of the Grundy table, proved additively periodic: `G(r, y + p) = G(r, y) + p`
/// for every `r ≤ X` and `y ≥ s` (`s` = [`RowPeriodicity::joint_start`], `p` =
/// [`RowPeriodicity::joint_period`]).
///
/// ```
/// use grundy::wythoff::rows::RowPeriodicity;
/// let rows = RowPeriodicity::find(3).unwrap();
/// // Row 1 is 1 2 0 | 4 5 3 | 7 8 6 | …: period 3 from the start, each period adds 3.
/// assert_eq!(rows.row_period(1), (0, 3));
/// let y: num_bigint::BigUint = "1000000000000".parse().unwrap();
/// assert_eq!(rows.value(1, &y).to_string(), "1000000000001");
/// ```
#[derive(Clone, Debug)]
pub struct RowPeriodicity {
    start: u64,
    period: u64,
    /// `values[r][y]` for `y < start + period`.
    values: Vec<Vec<u64>>,
}

impl RowPeriodicity {
    /// Runs the machine for rows `0 ..= top` until its state repeats, within
    /// [`DEFAULT_COLUMN_BUDGET`] columns.
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the row when `top` passes [`MAX_ROW`] or no repeat is
    /// found within the budget.
    pub fn find(top: u64) -> Result<Self, GameError> {
        Self::find_within(top, DEFAULT_COLUMN_BUDGET)
    }

    /// As [`RowPeriodicity::find`] with a budget of columns for the search.
    ///
    /// # Errors
    /// As [`RowPeriodicity::find`].
    pub fn find_within(top: u64, column_budget: u64) -> Result<Self, GameError> {
        if top > MAX_ROW {
            return Err(GameError::Unsupported(format!(
                "row {top} of Wythoff's game is past the rows whose period this machine finds (0 to {MAX_ROW})"
            )));
        }
        let top = top as usize;
        let out_of_budget = || {
            GameError::Unsupported(format!(
                "rows 0 to {top} of Wythoff's game: no repeat of the row state within {column_budget} columns"
            ))
        };
        // From column `top` on, every diagonal is full length and the step is shift-equivariant.
        let mut origin = Machine::new(top);
        for _ in 0..top {
            origin.step()?;
        }
        // Brent: find the period λ.
        let mut power = 1u64;
        let mut period = 1u64;
        let mut tortoise = origin.clone_state();
        let mut hare = origin.clone_state();
        hare.step()?;
        let mut spent = 1u64;
        while !tortoise.same_state(&hare) {
            if power == period {
                tortoise = hare.clone_state();
                power *= 2;
                period = 0;
            }
            hare.step()?;
            period += 1;
            spent += 1;
            if spent > column_budget {
                return Err(out_of_budget());
            }
        }
        // Then the first repeat μ: a hare λ ahead of the tortoise meets it there.
        let mut tortoise = origin.clone_state();
        let mut hare = origin.clone_state();
        for _ in 0..period {
            hare.step()?;
        }
        while !tortoise.same_state(&hare) {
            tortoise.step()?;
            hare.step()?;
            spent += 1;
            if spent > 2 * column_budget {
                return Err(out_of_budget());
            }
        }
        let start = tortoise.column;
        // Keep every value up to start + λ.
        let mut machine = Machine::new(top);
        let mut values = vec![Vec::with_capacity((start + period) as usize); top + 1];
        for _ in 0..start + period {
            for (row, value) in values.iter_mut().zip(machine.step()?) {
                row.push(value);
            }
        }
        Ok(RowPeriodicity { start, period, values })
    }

    /// The highest row covered.
    pub fn top(&self) -> u64 {
        self.values.len() as u64 - 1
    }

    /// `s`: the joint state of rows `0 ..= top` at column `s` recurs at `s + p`.
    pub fn joint_start(&self) -> u64 {
        self.start
    }

    /// `p`: a period (and saltus) of every row up to [`RowPeriodicity::top`] from
    /// [`RowPeriodicity::joint_start`] on.
    pub fn joint_period(&self) -> u64 {
        self.period
    }

    /// `G(row, y)` for any `y`.
    ///
    /// # Panics
    /// When `row` is past [`RowPeriodicity::top`].
    pub fn value(&self, row: u64, y: &BigUint) -> BigUint {
        let values = &self.values[row as usize];
        if let Some(y) = y.to_u64().filter(|&y| y < self.start + self.period) {
            return values[y as usize].into();
        }
        let (periods, offset) = (y - self.start).div_rem(&BigUint::from(self.period));
        let offset = offset.to_u64().expect("below the period");
        BigUint::from(values[(self.start + offset) as usize]) + periods * self.period
    }

    /// `G(row, y)` for a word-sized `y` (`None` if the value passes `u64`).
    pub fn value_u64(&self, row: u64, y: u64) -> Option<u64> {
        let values = &self.values[row as usize];
        if y < self.start + self.period {
            return Some(values[y as usize]);
        }
        let periods = (y - self.start) / self.period;
        let offset = (y - self.start) % self.period;
        values[(self.start + offset) as usize].checked_add(periods.checked_mul(self.period)?)
    }

    /// Row `row`'s own least period `p` and where it starts `e`: `G(row, y + p) = G(row, y) + p`
    /// exactly for `y ≥ e`, and `e` is the least such start for that `p`. Proved from the
    /// joint period (`p` divides it; both are checked over a whole joint period).
    pub fn row_period(&self, row: u64) -> (u64, u64) {
        let shift_holds = |y: u64, p: u64| {
            let here = self.value_u64(row, y).expect("small");
            self.value_u64(row, y + p).expect("small") == here + p
        };
        let candidates = (1..=self.period).filter(|p| self.period.is_multiple_of(*p));
        for p in candidates {
            if (self.start..self.start + self.period).all(|y| shift_holds(y, p)) {
                let mut start = self.start;
                while start > 0 && shift_holds(start - 1, p) {
                    start -= 1;
                }
                return (start, p);
            }
        }
        unreachable!("the joint period is a period of every row")
    }

    /// Every `y` with `G(row, y) = target` (at most one: the values of a row are distinct, as
    /// any two cells of a row are joined by a move).
    pub fn find_in_row(&self, row: u64, target: &BigUint) -> Option<BigUint> {
        let values = &self.values[row as usize];
        if let Some(small) = target.to_u64()
            && let Some(y) = values.iter().position(|&v| v == small)
        {
            return Some(y.into());
        }
        // In the periodic part, y = start + offset + t·p has value values[start + offset] + t·p.
        for offset in 0..self.period {
            let base = BigUint::from(values[(self.start + offset) as usize]);
            if target >= &base {
                let (periods, rest) = (target - &base).div_rem(&BigUint::from(self.period));
                if rest == BigUint::ZERO && periods > BigUint::ZERO {
                    return Some(periods * self.period + self.start + offset);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn window_matches_a_list_of_offsets(offsets in prop::collection::btree_set(0u64..256, 0..200), shift in 0u64..=256) {
            let mut window = Window::default();
            offsets.iter().for_each(|&offset| window.insert(offset));
            let first_absent = (0..).find(|offset| !offsets.contains(offset)).unwrap();
            prop_assert_eq!(window.trailing_ones(), first_absent);
            prop_assert_eq!(window.is_full(), offsets.len() == 256);
            window.shift_down(shift);
            let mut expected = Window::default();
            offsets.iter().filter(|&&offset| offset >= shift).for_each(|&offset| expected.insert(offset - shift));
            prop_assert_eq!(window, expected);
        }
    }
}
