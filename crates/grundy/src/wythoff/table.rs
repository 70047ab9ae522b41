//! The table of Grundy values `G(x, y)`, `0 ≤ x, y < n`: fast (bitsets, both cores) and plain
//! (the triple-loop mex every fast result is checked against).
//!
//! # The fast method
//! `G(x, y)` is the mex of three lines of earlier values: its row (`G(x, y')`, `y' < y`), its
//! column (`G(x', y)`, `x' < x`) and its diagonal (`G(x − d, y − d)`). Each line keeps a bitset
//! of the values in it so far and the mex of that bitset; `G(x, y)` is the first value at or
//! after the largest of the three mexes that none of the three bitsets holds (every value below
//! a line's mex is in that line, so nothing below the largest mex can be the answer). The
//! search rarely goes past a word or two, so each cell costs a few word operations.
//!
//! Only `x ≤ y` is computed (`G` is symmetric): the row set of `x` starts as the finished
//! column set of `x` (the values `G(x', x) = G(x, x')`, `x' < x`), and only diagonals `d ≥ 0`
//! are kept. Values are at most `x + y < 2n`, so each bitset has `2n` bits.
//!
//! **Both cores.** The triangle is cut into `B × B` blocks. Block `(I, J)` needs only blocks
//! `(I', J)`, `(I, J')` and `(I − t, J − t)`, all on earlier block anti-diagonals `I + J`, so the
//! blocks of one anti-diagonal run in parallel (rayon). They touch disjoint rows (`I` differ),
//! columns (`J` differ) and diagonals (`J − I` differ by 2 or more, and one block spans
//! diagonals `(J − I)B ± (B − 1)`), so each bitset word has one writer per phase; the words are
//! relaxed atomics, which compile to plain loads and stores, and rayon's join orders the phases.

use crate::control::Control;
use crate::error::GameError;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// The side of the square blocks the parallel method hands to one thread.
pub const DEFAULT_BLOCK: usize = 64;

/// A computed square of Grundy values of Wythoff's game.
///
/// ```
/// use grundy::wythoff::table::GrundyTable;
/// let table = GrundyTable::compute(9, &grundy::control::Control::default()).unwrap();
/// let row_1: Vec<u32> = (0..9).map(|y| table.get(1, y)).collect();
/// assert_eq!(row_1, [1, 2, 0, 4, 5, 3, 7, 8, 6]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundyTable {
    size: usize,
    /// Row-major, `size × size`.
    values: Vec<u32>,
}

impl GrundyTable {
    /// Bytes a table of side `size` needs while it is computed (values and the three families of
    /// bitsets).
    pub fn bytes_needed(size: u64) -> u128 {
        let size = size as u128;
        let words_per_set = (2 * size).div_ceil(64);
        let squared = size.saturating_mul(size);
        squared.saturating_mul(4).saturating_add((3 * size).saturating_mul(words_per_set * 8 + 4))
    }

    /// Bytes the peak of computing the table and handing it out as rows of `u64`
    /// ([`GrundyTable::to_rows`], what `grundy table` prints) takes: [`GrundyTable::bytes_needed`]
    /// plus 8 bytes a cell and a row header each. Measured peaks are within 20% of it (the CLI
    /// test `memory_estimates`).
    pub fn bytes_needed_as_rows(size: u64) -> u128 {
        let size = size as u128;
        Self::bytes_needed(size as u64)
            .saturating_add(size.saturating_mul(size).saturating_mul(8))
            .saturating_add(size * 24)
    }

    /// Refuses a side whose computation would not fit in memory (with the estimate).
    ///
    /// # Errors
    /// [`GameError::TooLarge`].
    pub fn check_size(size: u64, control: &Control) -> Result<(), GameError> {
        if size > u32::MAX as u64 / 2 {
            return Err(control.too_large(format!("the {size}×{size} Wythoff table"), Self::bytes_needed(size)));
        }
        control.check_memory(|| format!("the {size}×{size} Wythoff table"), Self::bytes_needed(size), 1)
    }

    /// The `size × size` table by the fast parallel method.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when it would not fit in memory.
    pub fn compute(size: u64, control: &Control) -> Result<Self, GameError> {
        Self::compute_with_block(size, DEFAULT_BLOCK, control)
    }

    /// As [`GrundyTable::compute`] with blocks of side `block` (tests use tiny blocks to
    /// exercise the parallel schedule on small tables).
    ///
    /// # Errors
    /// As [`GrundyTable::compute`].
    pub fn compute_with_block(size: u64, block: usize, control: &Control) -> Result<Self, GameError> {
        Self::check_size(size, control)?;
        let size = size as usize;
        let block = block.max(1);
        if size == 0 {
            return Ok(GrundyTable { size, values: Vec::new() });
        }
        let lines = Lines::new(size, control)?;
        let blocks = size.div_ceil(block);
        let task = control.task(&format!("the {size}×{size} Wythoff table"), (2 * blocks - 1) as u64);
        for phase in 0..2 * blocks - 1 {
            if control.cancelled() {
                return Err(GameError::OutOfReach(format!(
                    "interrupted while computing the {size}×{size} Wythoff table ({phase} of {} block diagonals done)",
                    2 * blocks - 1
                )));
            }
            task.set(phase as u64);
            // Block rows I with I ≤ J = phase − I < blocks.
            let first = phase.saturating_sub(blocks - 1);
            let last = phase / 2;
            crate::parallel::for_each_index(first..last + 1, |block_row| {
                lines.fill_block(block_row * block, (phase - block_row) * block, block);
            });
        }
        let values = lines.into_values();
        Ok(GrundyTable { size, values })
    }

    /// The table by the definition: every cell is the mex of all its options' values, read
    /// from the table (`O(n³)`); the reference for the fast method.
    ///
    /// # Errors
    /// As [`GrundyTable::compute`].
    pub fn compute_plain(size: u64, control: &Control) -> Result<Self, GameError> {
        Self::check_size(size, control)?;
        let size = size as usize;
        let mut values = control.try_table(size * size, 0u32, || format!("the {size}×{size} Wythoff table"))?;
        let mut seen = vec![false; 2 * size + 1];
        for x in 0..size {
            for y in 0..size {
                seen.fill(false);
                for other in 0..x {
                    seen[values[other * size + y] as usize] = true;
                }
                for other in 0..y {
                    seen[values[x * size + other] as usize] = true;
                }
                for d in 1..=x.min(y) {
                    seen[values[(x - d) * size + y - d] as usize] = true;
                }
                values[x * size + y] = seen.iter().position(|&s| !s).expect("more slots than options") as u32;
            }
        }
        Ok(GrundyTable { size, values })
    }

    /// The side `n`: the table holds `0 ≤ x, y < n`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `G(x, y)`.
    ///
    /// # Panics
    /// When `x` or `y` is not below [`GrundyTable::size`].
    pub fn get(&self, x: usize, y: usize) -> u32 {
        assert!(x < self.size && y < self.size, "({x}, {y}) is outside the {0}×{0} table", self.size);
        self.values[x * self.size + y]
    }

    /// Row `x`: `G(x, 0), …, G(x, n − 1)`.
    pub fn row(&self, x: usize) -> &[u32] {
        &self.values[x * self.size..(x + 1) * self.size]
    }

    /// The rows as `u64`, for [`crate::view::Table::Grid`].
    pub fn to_rows(&self) -> Vec<Vec<u64>> {
        (0..self.size).map(|x| self.row(x).iter().map(|&v| u64::from(v)).collect()).collect()
    }
}

/// The bitsets and mexes of every row, column and diagonal `d = y − x ≥ 0`.
struct Lines {
    size: usize,
    words: usize,
    rows: Vec<AtomicU64>,
    columns: Vec<AtomicU64>,
    diagonals: Vec<AtomicU64>,
    row_mex: Vec<AtomicU32>,
    column_mex: Vec<AtomicU32>,
    diagonal_mex: Vec<AtomicU32>,
    /// The table, row-major; the upper triangle is filled first.
    values: Vec<AtomicU32>,
}

/// `count` zeroed atomics, allocated fallibly: a refused allocation is an error, not an abort.
fn zeroed<T>(count: usize, zero: impl Fn() -> T, control: &Control) -> Result<Vec<T>, GameError> {
    let mut table = Vec::new();
    control.try_reserve_table(&mut table, count, || "the bitsets of the Wythoff table".to_owned())?;
    table.extend((0..count).map(|_| zero()));
    Ok(table)
}

fn zeroed_words(count: usize, control: &Control) -> Result<Vec<AtomicU64>, GameError> {
    zeroed(count, || AtomicU64::new(0), control)
}

fn zeroed_mexes(count: usize, control: &Control) -> Result<Vec<AtomicU32>, GameError> {
    zeroed(count, || AtomicU32::new(0), control)
}

impl Lines {
    fn new(size: usize, control: &Control) -> Result<Self, GameError> {
        let words = (2 * size).div_ceil(64);
        Ok(Lines {
            size,
            words,
            rows: zeroed_words(size * words, control)?,
            columns: zeroed_words(size * words, control)?,
            diagonals: zeroed_words(size * words, control)?,
            row_mex: zeroed_mexes(size, control)?,
            column_mex: zeroed_mexes(size, control)?,
            diagonal_mex: zeroed_mexes(size, control)?,
            values: zeroed_mexes(size * size, control)?,
        })
    }

    /// Copies the upper triangle onto the lower one (`G(y, x) = G(x, y)`), in tiles for the
    /// cache, and hands the table back as plain integers (in place: same layout).
    fn into_values(self) -> Vec<u32> {
        const TILE: usize = 64;
        let size = self.size;
        let values = self.values;
        crate::parallel::for_each_index(0..size.div_ceil(TILE), |tile_row| {
            let x0 = tile_row * TILE;
            for y0 in (0..=x0).step_by(TILE) {
                for x in x0..(x0 + TILE).min(size) {
                    for y in y0..(y0 + TILE).min(x) {
                        values[x * size + y].store(values[y * size + x].load(Relaxed), Relaxed);
                    }
                }
            }
        });
        values.into_iter().map(AtomicU32::into_inner).collect()
    }

    /// Fills block `(x0 / block, y0 / block)` of the upper triangle.
    fn fill_block(&self, x0: usize, y0: usize, block: usize) {
        let size = self.size;
        let words = self.words;
        for x in x0..(x0 + block).min(size) {
            let row = &self.rows[x * words..(x + 1) * words];
            let out = &self.values[x * size..(x + 1) * size];
            let y_start = y0.max(x);
            if y_start == x {
                // G(x, x') = G(x', x) for x' < x: the row starts as the finished column x.
                let column = &self.columns[x * words..(x + 1) * words];
                for (to, from) in row.iter().zip(column) {
                    to.store(from.load(Relaxed), Relaxed);
                }
                self.row_mex[x].store(self.column_mex[x].load(Relaxed), Relaxed);
            }
            let y_end = (y0 + block).min(size);
            for (y, cell) in out.iter().enumerate().take(y_end).skip(y_start) {
                let column = &self.columns[y * words..(y + 1) * words];
                let diagonal = &self.diagonals[(y - x) * words..(y - x + 1) * words];
                let start = self.row_mex[x]
                    .load(Relaxed)
                    .max(self.column_mex[y].load(Relaxed))
                    .max(self.diagonal_mex[y - x].load(Relaxed)) as usize;
                let mut word = start / 64;
                // Everything below `start` is taken: mark it so in the first word.
                let mut taken = (1u64 << (start % 64)) - 1;
                let value = loop {
                    taken |= row[word].load(Relaxed) | column[word].load(Relaxed) | diagonal[word].load(Relaxed);
                    if taken != u64::MAX {
                        break word * 64 + taken.trailing_ones() as usize;
                    }
                    word += 1;
                    taken = 0;
                };
                cell.store(value as u32, Relaxed);
                insert(row, &self.row_mex[x], value);
                insert(column, &self.column_mex[y], value);
                insert(diagonal, &self.diagonal_mex[y - x], value);
            }
        }
    }
}

/// Adds `value` to a line's bitset and moves its mex past it when needed.
fn insert(set: &[AtomicU64], mex: &AtomicU32, value: usize) {
    let word = &set[value / 64];
    word.store(word.load(Relaxed) | 1 << (value % 64), Relaxed);
    let mut current = mex.load(Relaxed) as usize;
    if current != value {
        return;
    }
    loop {
        let bits = set[current / 64].load(Relaxed) | ((1u64 << (current % 64)) - 1);
        if bits != u64::MAX {
            current = current / 64 * 64 + bits.trailing_ones() as usize;
            break;
        }
        current = (current / 64 + 1) * 64;
    }
    mex.store(current as u32, Relaxed);
}
