//! Patterns of a two-heap game's table `G(x, y)`, `x, y ≥ 0`.

use super::line::{self, LinePattern};
use crate::nimber::nim_mul;

/// A pattern of `G(x, y)`, or of its P-positions only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridPattern {
    /// `G(x, y) = f(x, y)` for an arithmetic or bitwise `f`.
    Form(PairForm),
    /// `G(x, y) = R(x) xor C(y)`, with `R(x) = G(x, 0)` and `C(y) = G(0, y)`: the game is the
    /// sum of a game on `x` and a game on `y` (the Sprague–Grundy theorem).
    XorOfLines {
        /// `R`.
        row: LinePattern,
        /// `C`.
        column: LinePattern,
    },
    /// `G(x, y) = R(x) ⊗ C(y)` (nim-multiplication), as in Tartan products of coin games.
    ProductOfLines {
        /// `R`.
        row: LinePattern,
        /// `C`.
        column: LinePattern,
    },
    /// `G(x, y) = k·(⌊x/k⌋ xor ⌊y/k⌋) + T(x mod k, y mod k)`: Nim on the blocks of side `k`,
    /// a table `T` inside each (Nim with a move taking one from each heap is `k = 3`,
    /// `T(a, b) = (a + b) mod 3`).
    BlockXor {
        /// `k ≥ 2`.
        size: u64,
        /// `T`: `cell[a][b]` for `a, b < k`.
        cell: Vec<Vec<u64>>,
    },
    /// `G(x + p, y) = G(x, y) + d` and `G(x, y + q) = G(x, y) + e` for every `x, y ≥ 0`:
    /// `G(x, y) = block[x mod p][y mod q] + d·⌊x/p⌋ + e·⌊y/q⌋`.
    Periodic2D {
        /// `p`.
        period_x: u64,
        /// `q`.
        period_y: u64,
        /// `d`.
        saltus_x: u64,
        /// `e`.
        saltus_y: u64,
        /// `G(x, y)` for `x < p`, `y < q`.
        block: Vec<Vec<u64>>,
    },
    /// The P-positions are the pairs `(a_n, b_n)` and `(b_n, a_n)` with `a_n` the least number
    /// not yet used and `b_n = a_n + c·n`; then `a_n = ⌊nα⌋`, `b_n = ⌊nβ⌋` with
    /// `α = (2 − c + √(c² + 4)) / 2`, `β = α + c` (Fraenkel, *How to beat your Wythoff games'
    /// opponent on three fronts*, Amer. Math. Monthly 89 (1982); `c = 1` is Wythoff's game,
    /// `α = φ`).
    Beatty {
        /// `c ≥ 1`.
        c: u64,
    },
    /// The P-positions are the pairs `x = y`.
    Diagonal,
    /// The P-positions, for `x, y ≥ from`, are periodic in both coordinates: `(x, y)` is one
    /// iff `p_cells[x mod p][y mod q]` (HDU 2147's board `n,m`: both odd, `p = q = 2`). The
    /// values may follow no pattern (the board's do not); `from = 1` leaves the row and the
    /// column 0 out (a game whose heaps start at 1).
    PeriodicP {
        /// The least `x` and `y` covered, 0 or 1.
        from: u64,
        /// `p`.
        period_x: u64,
        /// `q`.
        period_y: u64,
        /// Whether `(a, b)` is a P-position, for `a < p`, `b < q`.
        p_cells: Vec<Vec<bool>>,
    },
    /// Only the first rows follow a pattern: `G(x, y) = rows[x](y)` for `x < rows.len()`
    /// (each row periodic or arithmetic-periodic in `y`, as the rows of Wythoff's game are:
    /// Dress, Flammenkamp and Pink, *Additive periodicity of the Sprague-Grundy function of
    /// certain Nim games*, Adv. Appl. Math. 22 (1999)), and, when the table is symmetric, the
    /// same columns. Positions in no such row or column are not covered.
    Rows {
        /// The patterns of rows `0, 1, …`.
        rows: Vec<LinePattern>,
        /// Whether `G(x, y) = G(y, x)`, so that the rows give the columns too.
        symmetric: bool,
    },
}

/// An arithmetic or bitwise function of two heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairForm {
    /// `x xor y`: Nim on two heaps.
    Xor,
    /// `x ⊗ y`, the nim-product (Turning Corners).
    NimProduct,
    /// `x + y`.
    Sum,
    /// `(x + y) mod m`.
    SumMod(u64),
    /// `min(x, y)`.
    Min,
    /// `max(x, y)`.
    Max,
    /// `|x − y|`.
    Difference,
    /// The index of the lowest 0 bit of `x | y` (bit 0 the lowest).
    LowestZeroOfOr,
    /// The index of the lowest 0 bit of `(x − 1) | (y − 1)`, for `x, y ≥ 1` (E&D, Luogu
    /// P2148, on heaps from 1: the row and the column 0 are not covered).
    LowestZeroOfOrLessOne,
}

/// The largest `c` claimed for a Beatty pattern: `k²·(c² + 4)` must stay below 2^128 for
/// `k ≤ 10^18` in the emitted C++.
pub const MAX_BEATTY_C: u64 = 16;

/// The fewest P-position pairs a Beatty pattern is fitted on.
const MIN_BEATTY_PAIRS: usize = 6;

impl PairForm {
    fn all() -> impl Iterator<Item = PairForm> {
        [PairForm::Xor, PairForm::NimProduct, PairForm::Sum, PairForm::Min, PairForm::Max, PairForm::Difference]
            .into_iter()
            .chain((2..=8).map(PairForm::SumMod))
            .chain([PairForm::LowestZeroOfOr, PairForm::LowestZeroOfOrLessOne])
    }

    /// `f(x, y)`.
    pub fn apply(self, x: u64, y: u64) -> u128 {
        let (wide_x, wide_y) = (u128::from(x), u128::from(y));
        match self {
            PairForm::Xor => u128::from(x ^ y),
            PairForm::NimProduct => u128::from(nim_mul(x, y)),
            PairForm::Sum => wide_x + wide_y,
            PairForm::SumMod(modulus) => (wide_x + wide_y) % u128::from(modulus),
            PairForm::Min => u128::from(x.min(y)),
            PairForm::Max => u128::from(x.max(y)),
            PairForm::Difference => u128::from(x.abs_diff(y)),
            PairForm::LowestZeroOfOr => u128::from((x | y).trailing_ones()),
            // Not covered at 0 (see `GridPattern::covers`).
            PairForm::LowestZeroOfOrLessOne => u128::from((x.wrapping_sub(1) | y.wrapping_sub(1)).trailing_ones()),
        }
    }

    /// A name for JSON.
    pub fn name(self) -> String {
        match self {
            PairForm::Xor => "xor".to_owned(),
            PairForm::NimProduct => "nim-product".to_owned(),
            PairForm::Sum => "sum".to_owned(),
            PairForm::SumMod(modulus) => format!("sum-mod-{modulus}"),
            PairForm::Min => "min".to_owned(),
            PairForm::Max => "max".to_owned(),
            PairForm::Difference => "difference".to_owned(),
            PairForm::LowestZeroOfOr => "lowest-zero-bit-of-or".to_owned(),
            PairForm::LowestZeroOfOrLessOne => "lowest-zero-bit-of-or-less-one".to_owned(),
        }
    }

    /// As a person writes it.
    pub fn formula(self) -> String {
        match self {
            PairForm::Xor => "G(x, y) = x xor y".to_owned(),
            PairForm::NimProduct => "G(x, y) = x ⊗ y (the nim-product)".to_owned(),
            PairForm::Sum => "G(x, y) = x + y".to_owned(),
            PairForm::SumMod(modulus) => format!("G(x, y) = (x + y) mod {modulus}"),
            PairForm::Min => "G(x, y) = min(x, y)".to_owned(),
            PairForm::Max => "G(x, y) = max(x, y)".to_owned(),
            PairForm::Difference => "G(x, y) = |x − y|".to_owned(),
            PairForm::LowestZeroOfOr => "G(x, y) = the index of the lowest 0 bit of x | y".to_owned(),
            PairForm::LowestZeroOfOrLessOne => {
                "G(x, y) = the index of the lowest 0 bit of (x − 1) | (y − 1), for x, y ≥ 1".to_owned()
            }
        }
    }
}

impl GridPattern {
    /// The kind, for JSON: `bitwise`, `xor-of-lines`, `product-of-lines`, `beatty`,
    /// `p-positions`.
    pub fn kind(&self) -> &'static str {
        match self {
            GridPattern::Form(_) => "bitwise",
            GridPattern::XorOfLines { .. } => "xor-of-lines",
            GridPattern::ProductOfLines { .. } => "product-of-lines",
            GridPattern::BlockXor { .. } => "block-xor",
            GridPattern::Periodic2D { .. } => "periodic-2d",
            GridPattern::Beatty { .. } => "beatty",
            GridPattern::Diagonal => "p-positions",
            GridPattern::PeriodicP { .. } => "periodic-p-positions",
            GridPattern::Rows { .. } => "rows",
        }
    }

    /// Whether the pattern gives the values (not only the P-positions).
    pub fn gives_values(&self) -> bool {
        matches!(
            self,
            GridPattern::Form(_)
                | GridPattern::XorOfLines { .. }
                | GridPattern::ProductOfLines { .. }
                | GridPattern::BlockXor { .. }
                | GridPattern::Periodic2D { .. }
                | GridPattern::Rows { .. }
        )
    }

    /// Whether the pattern says anything about `(x, y)` (only [`GridPattern::Rows`] leaves
    /// positions out).
    pub fn covers(&self, x: u64, y: u64) -> bool {
        match self {
            GridPattern::Rows { rows, symmetric } => {
                let covered = rows.len() as u64;
                x < covered || (*symmetric && y < covered)
            }
            GridPattern::Form(PairForm::LowestZeroOfOrLessOne) => x >= 1 && y >= 1,
            GridPattern::PeriodicP { from, .. } => x >= *from && y >= *from,
            _ => true,
        }
    }

    /// `G(x, y)` by the pattern (`None` for a P-positions pattern).
    pub fn value(&self, x: u64, y: u64) -> Option<u128> {
        match self {
            GridPattern::Form(form) => Some(form.apply(x, y)),
            GridPattern::XorOfLines { row, column } => Some(row.value(x)? ^ column.value(y)?),
            GridPattern::ProductOfLines { row, column } => {
                let (row, column) = (u64::try_from(row.value(x)?).ok()?, u64::try_from(column.value(y)?).ok()?);
                Some(u128::from(nim_mul(row, column)))
            }
            GridPattern::BlockXor { size, cell } => {
                let inside = cell[(x % size) as usize][(y % size) as usize];
                Some(u128::from(*size) * u128::from((x / size) ^ (y / size)) + u128::from(inside))
            }
            GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, block } => {
                let inside = block[(x % period_x) as usize][(y % period_y) as usize];
                Some(
                    u128::from(inside)
                        + u128::from(*saltus_x) * u128::from(x / period_x)
                        + u128::from(*saltus_y) * u128::from(y / period_y),
                )
            }
            GridPattern::Rows { rows, symmetric } => {
                let (row, y) = match rows.get(usize::try_from(x).ok()?) {
                    Some(row) => (row, y),
                    None if *symmetric => (rows.get(usize::try_from(y).ok()?)?, x),
                    None => return None,
                };
                row.value(y)
            }
            GridPattern::Beatty { .. } | GridPattern::Diagonal | GridPattern::PeriodicP { .. } => None,
        }
    }

    /// Whether `(x, y)` is a P-position by the pattern.
    pub fn is_p_position(&self, x: u64, y: u64) -> bool {
        match self {
            GridPattern::Beatty { c } => {
                let (low, high) = (x.min(y), x.max(y));
                let gap = high - low;
                gap.is_multiple_of(*c) && beatty_lower(*c, u128::from(gap / c)) == u128::from(low)
            }
            GridPattern::Diagonal => x == y,
            GridPattern::PeriodicP { period_x, period_y, p_cells, .. } => {
                p_cells[(x % period_x) as usize][(y % period_y) as usize]
            }
            _ => self.value(x, y) == Some(0),
        }
    }

    /// The values of the lines a separable pattern refers to, one line each.
    pub fn details(&self) -> Vec<String> {
        match self {
            GridPattern::Rows { rows, .. } => rows
                .iter()
                .enumerate()
                .map(|(x, row)| {
                    let parts: Vec<String> = std::iter::once(row.formula("R", "y")).chain(row.details("R")).collect();
                    format!("row {x}: {}", parts.join("; "))
                })
                .collect(),
            GridPattern::XorOfLines { row, column } | GridPattern::ProductOfLines { row, column } => {
                row.details("R").into_iter().chain(column.details("C")).collect()
            }
            GridPattern::BlockXor { size, cell } if !block_is_sum_mod(*size, cell) => block_lines("T", cell),
            GridPattern::Periodic2D { block, .. } => block_lines("G", block),
            _ => Vec::new(),
        }
    }

    /// As a person writes it.
    pub fn formula(&self) -> String {
        match self {
            GridPattern::Form(form) => form.formula(),
            GridPattern::XorOfLines { row, column } => {
                format!("G(x, y) = R(x) xor C(y), where {} and {}", row.formula("R", "x"), column.formula("C", "y"))
            }
            GridPattern::ProductOfLines { row, column } => {
                format!(
                    "G(x, y) = R(x) ⊗ C(y) (nim-product), where {} and {}",
                    row.formula("R", "x"),
                    column.formula("C", "y")
                )
            }
            GridPattern::BlockXor { size, cell } => {
                let inside = if block_is_sum_mod(*size, cell) {
                    format!("(x + y) mod {size}")
                } else {
                    format!("T(x mod {size}, y mod {size})")
                };
                format!("G(x, y) = {size}·(⌊x/{size}⌋ xor ⌊y/{size}⌋) + {inside}")
            }
            GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, .. } => format!(
                "G(x + {period_x}, y) = G(x, y) + {saltus_x} and G(x, y + {period_y}) = G(x, y) + {saltus_y}: \
                 G(x, y) = B(x mod {period_x}, y mod {period_y}) + {saltus_x}·⌊x/{period_x}⌋ + {saltus_y}·⌊y/{period_y}⌋"
            ),
            GridPattern::Beatty { c: 1 } => "P-positions: (⌊nφ⌋, ⌊nφ²⌋) and (⌊nφ²⌋, ⌊nφ⌋), φ = (1+√5)/2".to_owned(),
            GridPattern::Beatty { c } => format!(
                "P-positions: (a_n, a_n + {c}n) and (a_n + {c}n, a_n), a_n = ⌊nα⌋, α = {}",
                beatty_alpha_text(*c)
            ),
            GridPattern::Diagonal => "P-positions: x = y".to_owned(),
            GridPattern::PeriodicP { from, period_x, period_y, p_cells } => {
                let cells: Vec<String> = p_cells
                    .iter()
                    .enumerate()
                    .flat_map(|(a, row)| {
                        row.iter().enumerate().filter(|(_, p)| **p).map(move |(b, _)| format!("({a}, {b})"))
                    })
                    .collect();
                format!(
                    "P-positions{}: (x mod {period_x}, y mod {period_y}) is {}{}",
                    if *from > 0 { format!(" for x, y ≥ {from}") } else { String::new() },
                    if cells.len() > 1 { "one of " } else { "" },
                    cells.join(", ")
                )
            }
            GridPattern::Rows { rows, symmetric } => format!(
                "rows x = 0..{} are each periodic or arithmetic-periodic in y{} (other positions: no pattern found)",
                rows.len() - 1,
                if *symmetric { ", and G(x, y) = G(y, x)" } else { "" }
            ),
        }
    }
}

/// Whether `T(a, b) = (a + b) mod k`.
fn block_is_sum_mod(size: u64, cell: &[Vec<u64>]) -> bool {
    cell.iter().enumerate().all(|(a, row)| row.iter().enumerate().all(|(b, &value)| value == (a + b) as u64 % size))
}

/// A block of values, one line a row: `T(0, ·) = 0 1 2`.
fn block_lines(name: &str, block: &[Vec<u64>]) -> Vec<String> {
    block
        .iter()
        .enumerate()
        .map(|(a, row)| format!("{name}({a}, ·) = {}", row.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")))
        .collect()
}

/// The largest block side `k` tried for [`GridPattern::BlockXor`], and the largest periods
/// tried for [`GridPattern::Periodic2D`].
pub const MAX_BLOCK: u64 = 8;

/// The smallest `k ≥ 2` with `G(x, y) = k·(⌊x/k⌋ xor ⌊y/k⌋) + T(x mod k, y mod k)` on the whole
/// square, which must hold three blocks a side.
fn fit_block_xor(values: &[Vec<u64>]) -> Option<GridPattern> {
    let side = values.len() as u64;
    (2..=MAX_BLOCK).filter(|size| 3 * size <= side).find_map(|size| {
        let cell: Vec<Vec<u64>> = values[..size as usize].iter().map(|row| row[..size as usize].to_vec()).collect();
        let pattern = GridPattern::BlockXor { size, cell };
        first_disagreement(&pattern, values, 0).is_none().then_some(pattern)
    })
}

/// The smallest periods `p, q` (by `p + q`, then `p`) with `G(x + p, y) = G(x, y) + d` and
/// `G(x, y + q) = G(x, y) + e` on the whole square, which must hold three periods each way.
fn fit_periodic_2d(values: &[Vec<u64>]) -> Option<GridPattern> {
    let side = values.len() as u64;
    let most = MAX_BLOCK.min(side / 3);
    let mut candidates: Vec<(u64, u64)> = (1..=most).flat_map(|p| (1..=most).map(move |q| (p, q))).collect();
    candidates.sort_by_key(|&(p, q)| (p + q, p));
    candidates.into_iter().find_map(|(period_x, period_y)| {
        let saltus_x = values[period_x as usize][0].checked_sub(values[0][0])?;
        let saltus_y = values[0][period_y as usize].checked_sub(values[0][0])?;
        let block: Vec<Vec<u64>> =
            values[..period_x as usize].iter().map(|row| row[..period_y as usize].to_vec()).collect();
        let pattern = GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, block };
        first_disagreement(&pattern, values, 0).is_none().then_some(pattern)
    })
}

/// The smallest periods `p, q` (by `p + q`, then `p`) of the P-positions on the whole square
/// (from 0, else from 1), which must hold three periods each way, with both P- and N-positions
/// in a period.
fn fit_periodic_p(values: &[Vec<u64>]) -> Option<GridPattern> {
    let side = values.len() as u64;
    [0u64, 1].into_iter().find_map(|from| {
        let most = MAX_BLOCK.min(side.saturating_sub(from) / 3);
        let mut candidates: Vec<(u64, u64)> = (1..=most).flat_map(|p| (1..=most).map(move |q| (p, q))).collect();
        candidates.sort_by_key(|&(p, q)| (p + q, p));
        candidates.into_iter().find_map(|(period_x, period_y)| {
            // Residue (a, b) read at the first covered cell with it.
            let at = |r: u64, period: u64| from + (r + period - from % period) % period;
            let p_cells: Vec<Vec<bool>> = (0..period_x)
                .map(|a| {
                    (0..period_y).map(|b| values[at(a, period_x) as usize][at(b, period_y) as usize] == 0).collect()
                })
                .collect();
            let all: Vec<bool> = p_cells.iter().flatten().copied().collect();
            if all.iter().all(|&p| p) || all.iter().all(|&p| !p) {
                return None;
            }
            let pattern = GridPattern::PeriodicP { from, period_x, period_y, p_cells };
            first_disagreement(&pattern, values, 0).is_none().then_some(pattern)
        })
    })
}

/// `α = (2 − c + √(c² + 4)) / 2` as text.
pub fn beatty_alpha_text(c: u64) -> String {
    let d = c * c + 4;
    match c {
        1 => "(1+√5)/2".to_owned(),
        2 => "√2".to_owned(),
        c => format!("(√{d} − {})/2", c - 2),
    }
}

/// `a_k = ⌊k(2 − c + √(c² + 4))/2⌋`, exactly: `⌊(k(2 − c) + ⌊√(k²(c² + 4))⌋)/2⌋` (the floor of
/// a square root may be taken first, `k(2 − c)` being an integer).
pub fn beatty_lower(c: u64, k: u128) -> u128 {
    let root = isqrt(k * k * u128::from(c * c + 4));
    let linear = k as i128 * (2 - c as i128);
    ((linear + root as i128) / 2) as u128
}

/// `⌊√v⌋`.
fn isqrt(value: u128) -> u128 {
    if value < 2 {
        return value;
    }
    let mut root = (value as f64).sqrt() as u128;
    while root.checked_mul(root).is_none_or(|square| square > value) {
        root -= 1;
    }
    while (root + 1).checked_mul(root + 1).is_some_and(|square| square <= value) {
        root += 1;
    }
    root
}

/// Every class fitted on `values[x][y] = G(x, y)` (a square), in order of preference.
pub fn fit(values: &[Vec<u64>]) -> Vec<GridPattern> {
    let side = values.len();
    let mut found = Vec::new();
    if side < 4 {
        return found;
    }
    let fits = |pattern: &GridPattern| first_disagreement(pattern, values, 0).is_none();
    if let Some(form) = PairForm::all().map(GridPattern::Form).find(fits) {
        found.push(form);
    }
    let row: Vec<u64> = values.iter().map(|row| row[0]).collect();
    let column: Vec<u64> = values[0].clone();
    if let (Some(row), Some(column)) = (value_line(&row), value_line(&column)) {
        let pattern = GridPattern::XorOfLines { row, column };
        if fits(&pattern) {
            found.push(pattern);
        }
    }
    // A product R(x) ⊗ C(y) is G(x, y0) ⊗ G(x0, y) for any (x0, y0) worth 1.
    if let Some((x0, y0)) = (0..side).flat_map(|x| (0..side).map(move |y| (x, y))).find(|&(x, y)| values[x][y] == 1) {
        let row: Vec<u64> = values.iter().map(|row| row[y0]).collect();
        let column: Vec<u64> = values[x0].clone();
        if let (Some(row), Some(column)) = (value_line(&row), value_line(&column)) {
            let pattern = GridPattern::ProductOfLines { row, column };
            if fits(&pattern) {
                found.push(pattern);
            }
        }
    }
    found.extend(fit_block_xor(values));
    found.extend(fit_periodic_2d(values));
    if let Some(c) = fit_beatty(values) {
        found.push(GridPattern::Beatty { c });
    }
    if fits(&GridPattern::Diagonal) {
        found.push(GridPattern::Diagonal);
    }
    found.extend(fit_periodic_p(values));
    if let Some(rows) = fit_rows(values) {
        found.push(rows);
    }
    found
}

/// The fewest rows a rows pattern covers.
const MIN_ROWS: usize = 2;

/// The longest run of rows from row 0 whose values fit a periodic or arithmetic-periodic
/// pattern in `y`.
fn fit_rows(values: &[Vec<u64>]) -> Option<GridPattern> {
    let symmetric =
        values.iter().enumerate().all(|(x, row)| row.iter().enumerate().all(|(y, &value)| values[y][x] == value));
    let rows: Vec<LinePattern> = values
        .iter()
        .map_while(|row| line::fit(0, row).into_iter().find(|pattern| matches!(pattern, LinePattern::Periodic { .. })))
        .collect();
    (rows.len() >= MIN_ROWS).then_some(GridPattern::Rows { rows, symmetric })
}

/// The first value pattern of a line of values from 0.
fn value_line(values: &[u64]) -> Option<LinePattern> {
    line::fit(0, values).into_iter().find(LinePattern::gives_values)
}

/// `c` when the P-positions in the square are `(a_n, a_n + c·n)` and their mirror images.
fn fit_beatty(values: &[Vec<u64>]) -> Option<u64> {
    let side = values.len();
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for (x, row) in values.iter().enumerate() {
        for (y, &value) in row.iter().enumerate().skip(x) {
            if value == 0 {
                pairs.push((x as u64, y as u64));
            }
        }
    }
    if pairs.len() < MIN_BEATTY_PAIRS {
        return None;
    }
    let (a1, b1) = pairs[1];
    let c = b1.checked_sub(a1)?;
    if !(1..=MAX_BEATTY_C).contains(&c) {
        return None;
    }
    let pattern = GridPattern::Beatty { c };
    let _ = side;
    first_disagreement(&pattern, values, 0).is_none().then_some(c)
}

/// The first `(x, y)` with `max(x, y) ≥ from` where the pattern disagrees with the table.
pub fn first_disagreement(pattern: &GridPattern, values: &[Vec<u64>], from: usize) -> Option<(u64, u64)> {
    let side = values.len();
    (0..side).flat_map(|x| (0..side).map(move |y| (x, y))).filter(|&(x, y)| x.max(y) >= from).find_map(|(x, y)| {
        let value = values[x][y];
        let (x, y) = (x as u64, y as u64);
        let agrees = if !pattern.covers(x, y) {
            true
        } else if pattern.gives_values() {
            pattern.value(x, y) == Some(u128::from(value))
        } else {
            pattern.is_p_position(x, y) == (value == 0)
        };
        (!agrees).then_some((x, y))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beatty_lower_is_floor_n_alpha() {
        // Wythoff: ⌊nφ⌋ = 0 1 3 4 6 8 9 11 12 14 …
        let firsts: Vec<u128> = (0..10).map(|k| beatty_lower(1, k)).collect();
        assert_eq!(firsts, [0, 1, 3, 4, 6, 8, 9, 11, 12, 14]);
        // c = 2: α = √2, ⌊n√2⌋ = 0 1 2 4 5 7 8 9 11 12.
        let roots: Vec<u128> = (0..10).map(|k| beatty_lower(2, k)).collect();
        assert_eq!(roots, [0, 1, 2, 4, 5, 7, 8, 9, 11, 12]);
        // Far out, against a float-free reference: ⌊10^18 φ⌋.
        assert_eq!(beatty_lower(1, 10u128.pow(18)), 1_618_033_988_749_894_848);
    }

    /// The mex over the options `options(x, y)` on the square of side `side`.
    fn table(side: usize, options: impl Fn(usize, usize) -> Vec<(usize, usize)>) -> Vec<Vec<u64>> {
        let mut values = vec![vec![0u64; side]; side];
        for total in 0..2 * side {
            for x in 0..side.min(total + 1) {
                let y = total - x;
                if y < side {
                    values[x][y] = crate::nimber::mex(options(x, y).into_iter().map(|(a, b)| values[a][b]));
                }
            }
        }
        values
    }

    #[test]
    fn periodic_p_positions_are_found_from_0_and_from_1() {
        // HDU 2147 by distances: a step left, down or both; P iff both even. The values are no
        // pattern (0 1 2 3 along the diagonals' sides), the P-positions are.
        let king = |x: usize, y: usize| {
            let mut options = Vec::new();
            if x > 0 {
                options.push((x - 1, y));
            }
            if y > 0 {
                options.push((x, y - 1));
            }
            if x > 0 && y > 0 {
                options.push((x - 1, y - 1));
            }
            options
        };
        let distances = table(24, king);
        let found = fit(&distances);
        let periodic = found.iter().find(|pattern| matches!(pattern, GridPattern::PeriodicP { .. })).unwrap();
        assert_eq!(periodic.formula(), "P-positions: (x mod 2, y mod 2) is (0, 0)");
        // By board sizes from 1 (a row and a column 0 of boards with no square: any values).
        let mut boards = vec![vec![5u64; 25]; 25];
        for x in 0..24 {
            for y in 0..24 {
                boards[x + 1][y + 1] = distances[x][y];
            }
        }
        boards[0][3] = 0;
        let periodic =
            fit(&boards).into_iter().find(|pattern| matches!(pattern, GridPattern::PeriodicP { .. })).unwrap();
        assert_eq!(periodic.formula(), "P-positions for x, y ≥ 1: (x mod 2, y mod 2) is (1, 1)");
        assert!(periodic.is_p_position(2001, 7) && !periodic.is_p_position(2000, 7));
        // A table whose P-positions are no such pattern gets none (Wythoff's).
        let wythoff = table(24, |x, y| {
            (0..x).map(|a| (a, y)).chain((0..y).map(|b| (x, b))).chain((1..=x.min(y)).map(|t| (x - t, y - t))).collect()
        });
        assert!(!fit(&wythoff).iter().any(|pattern| matches!(pattern, GridPattern::PeriodicP { .. })));
    }

    #[test]
    fn the_lowest_zero_bit_of_an_or_is_found() {
        // E&D on heaps from 1: remove one heap, split the other into two non-empty heaps.
        let splits = |n: usize| (1..n).map(move |c| (c, n - c));
        let e_and_d =
            table(33, |x, y| if x == 0 || y == 0 { Vec::new() } else { splits(x).chain(splits(y)).collect() });
        let found = fit(&e_and_d);
        assert_eq!(found.first(), Some(&GridPattern::Form(PairForm::LowestZeroOfOrLessOne)), "{found:?}");
        assert!(!GridPattern::Form(PairForm::LowestZeroOfOrLessOne).covers(0, 5));
        // The same game on x = a − 1, y = b − 1 from 0.
        let shifted: Vec<Vec<u64>> = (1..33).map(|a| (1..33).map(|b| e_and_d[a][b]).collect()).collect();
        assert_eq!(fit(&shifted).first(), Some(&GridPattern::Form(PairForm::LowestZeroOfOr)));
        assert_eq!(PairForm::LowestZeroOfOr.apply(5, 2), 3);
    }

    #[test]
    fn isqrt_is_exact_near_squares() {
        for root in [1u128, 2, 3, 1 << 40, (1 << 63) - 1, 10u128.pow(18) + 7] {
            assert_eq!(isqrt(root * root), root);
            assert_eq!(isqrt(root * root - 1), root - 1);
            assert_eq!(isqrt(root * root + 2 * root), root);
        }
    }
}
