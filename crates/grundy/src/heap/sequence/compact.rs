//! A nim-sequence stored in the fewest bytes a value that hold every value so far.

/// The values `G(0), G(1), …` of a nim-sequence, one byte each while every value fits, then two,
/// then four (widened when a value needs it, never wrapping): a quarter of the memory of a
/// `Vec<u32>` for most octal games. It is the one type of a nim-sequence: every heap game
/// extends it ([`crate::heap::HeapGame::extend_sequence`]; the engine of octal games and
/// Grundy's game in place), and the period search reads it directly
/// ([`crate::heap::period::find_period`]).
///
/// ```
/// use grundy::heap::sequence::CompactSequence;
/// let mut values = CompactSequence::from_values(&[0, 1, 2]);
/// assert_eq!(values.width(), 1);
/// values.push(300);
/// assert_eq!((values.width(), values.len(), values.get(3)), (2, 4, Some(300)));
/// assert_eq!(values.to_vec(), [0, 1, 2, 300]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactSequence {
    /// Every value below 2^8.
    Byte(Vec<u8>),
    /// Every value below 2^16.
    Half(Vec<u16>),
    /// Any values.
    Word(Vec<u32>),
}

impl Default for CompactSequence {
    fn default() -> Self {
        CompactSequence::Byte(Vec::new())
    }
}

impl CompactSequence {
    /// An empty sequence (one byte a value until a value needs more).
    pub fn new() -> Self {
        Self::default()
    }

    /// `values` in the narrowest width that holds the largest.
    pub fn from_values(values: &[u32]) -> Self {
        match width_for(values.iter().copied().max().unwrap_or(0)) {
            1 => CompactSequence::Byte(values.iter().map(|&value| value as u8).collect()),
            2 => CompactSequence::Half(values.iter().map(|&value| value as u16).collect()),
            _ => CompactSequence::Word(values.to_vec()),
        }
    }

    /// The fewest bytes a value (1, 2 or 4) that hold every value: [`CompactSequence::width`]
    /// or less, since a sequence widened to four bytes by a game without a compact engine may
    /// hold small values only. What a checkpoint stores each value in.
    ///
    /// ```
    /// use grundy::heap::sequence::CompactSequence;
    /// let mut values = CompactSequence::from_values(&[0, 1, 300]);
    /// values.words_mut();
    /// assert_eq!((values.width(), values.narrowest_width()), (4, 2));
    /// ```
    pub fn narrowest_width(&self) -> usize {
        width_for(self.largest())
    }

    /// The same values in [`CompactSequence::narrowest_width`] (one copy when that is
    /// narrower, none otherwise).
    pub fn narrowed(self) -> Self {
        if self.narrowest_width() < self.width() { CompactSequence::from_values(&self.to_vec()) } else { self }
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        match self {
            CompactSequence::Byte(values) => values.len(),
            CompactSequence::Half(values) => values.len(),
            CompactSequence::Word(values) => values.len(),
        }
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes a value: 1, 2 or 4.
    pub fn width(&self) -> usize {
        match self {
            CompactSequence::Byte(_) => 1,
            CompactSequence::Half(_) => 2,
            CompactSequence::Word(_) => 4,
        }
    }

    /// `G(heap)`, when it holds that many values.
    pub fn get(&self, heap: usize) -> Option<u32> {
        match self {
            CompactSequence::Byte(values) => values.get(heap).map(|&value| u32::from(value)),
            CompactSequence::Half(values) => values.get(heap).map(|&value| u32::from(value)),
            CompactSequence::Word(values) => values.get(heap).copied(),
        }
    }

    /// The values in heap order, without a wider copy.
    ///
    /// ```
    /// use grundy::heap::sequence::CompactSequence;
    /// let values = CompactSequence::from_values(&[0, 1, 300]);
    /// assert_eq!(values.iter().collect::<Vec<u32>>(), [0, 1, 300]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|heap| self.get(heap).expect("a heap below the length"))
    }

    /// Appends `value`, widening every value first when it does not fit.
    pub fn push(&mut self, value: u32) {
        if value > u32::from(u16::MAX) && self.width() < 4 {
            *self = CompactSequence::Word(self.to_vec());
        } else if value > u32::from(u8::MAX) && self.width() < 2 {
            let CompactSequence::Byte(values) = self else { unreachable!("width 1 is Byte") };
            *self = CompactSequence::Half(values.iter().map(|&value| u16::from(value)).collect());
        }
        match self {
            CompactSequence::Byte(values) => values.push(value as u8),
            CompactSequence::Half(values) => values.push(value as u16),
            CompactSequence::Word(values) => values.push(value),
        }
    }

    /// Keeps the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match self {
            CompactSequence::Byte(values) => values.truncate(len),
            CompactSequence::Half(values) => values.truncate(len),
            CompactSequence::Word(values) => values.truncate(len),
        }
    }

    /// The values, four bytes each.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            CompactSequence::Byte(values) => values.iter().map(|&value| u32::from(value)).collect(),
            CompactSequence::Half(values) => values.iter().map(|&value| u32::from(value)).collect(),
            CompactSequence::Word(values) => values.clone(),
        }
    }

    /// The values, four bytes each, moved out without a copy when they already are.
    pub fn into_vec(self) -> Vec<u32> {
        match self {
            CompactSequence::Word(values) => values,
            narrow => narrow.to_vec(),
        }
    }

    /// The values as a `Vec<u32>` in place, widened once (for games without a compact
    /// engine, through `heap::extend_in_chunks`).
    pub fn words_mut(&mut self) -> &mut Vec<u32> {
        if !matches!(self, CompactSequence::Word(_)) {
            *self = CompactSequence::Word(self.to_vec());
        }
        match self {
            CompactSequence::Word(values) => values,
            _ => unreachable!("widened just above"),
        }
    }

    /// The largest value (0 when empty).
    pub fn largest(&self) -> u32 {
        match self {
            CompactSequence::Byte(values) => values.iter().copied().max().map_or(0, u32::from),
            CompactSequence::Half(values) => values.iter().copied().max().map_or(0, u32::from),
            CompactSequence::Word(values) => values.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The fewest bytes (1, 2 or 4) that hold `largest`.
fn width_for(largest: u32) -> usize {
    if largest <= u32::from(u8::MAX) {
        1
    } else if largest <= u32::from(u16::MAX) {
        2
    } else {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::CompactSequence;
    use proptest::prelude::*;

    proptest! {
        /// Pushing values one by one widens exactly when needed and keeps every value.
        #[test]
        fn push_keeps_every_value_in_the_narrowest_width(values in proptest::collection::vec(
            prop_oneof![4 => 0u32..256, 2 => 0u32..65_536, 1 => any::<u32>()], 0..200)) {
            let mut compact = CompactSequence::new();
            for &value in &values {
                compact.push(value);
            }
            prop_assert_eq!(compact.to_vec(), values.clone());
            prop_assert_eq!(&compact, &CompactSequence::from_values(&values));
            let largest = values.iter().copied().max().unwrap_or(0);
            prop_assert_eq!(compact.largest(), largest);
            let width = if largest < 1 << 8 { 1 } else if largest < 1 << 16 { 2 } else { 4 };
            prop_assert_eq!(compact.width(), width);
            for (heap, &value) in values.iter().enumerate() {
                prop_assert_eq!(compact.get(heap), Some(value));
            }
            prop_assert_eq!(compact.get(values.len()), None);
            prop_assert_eq!(compact.clone().into_vec(), values.clone());
            prop_assert_eq!(compact.words_mut().clone(), values.clone());
            prop_assert_eq!(compact.into_vec(), values);
        }
    }
}
