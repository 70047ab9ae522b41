//! Checkpoints of long nim-sequence computations: the bytes of a saved prefix `G(0) … G(n−1)`,
//! and their strict reading back. No I/O here: the front end writes the bytes atomically and
//! reads them.
//!
//! # Format (version 1)
//! A text header of five lines, a blank line, then the values:
//! ```text
//! grundy-checkpoint 1
//! game sub:1,2
//! length 6
//! width 1
//! checksum 5d0b3a1c9e7f2468
//!
//! <length × width bytes: each value little-endian in `width` bytes (1, 2 or 4)>
//! ```
//! The checksum (64 bits, hexadecimal) covers the game, the length, the width and every value
//! byte. Reading rejects anything that is not exactly this: another game, a bad checksum, a
//! truncated or overlong file.

use crate::error::{GameError, quote};
use crate::heap::HeapGame;
use crate::heap::sequence::CompactSequence;

/// The first line of every checkpoint.
pub const MAGIC: &str = "grundy-checkpoint 1";

/// Why a checkpoint cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// The bytes do not start with [`MAGIC`].
    #[error("not a grundy checkpoint (it does not start with `{MAGIC}`)")]
    NotACheckpoint,
    /// The header is damaged.
    #[error("damaged header: {0}")]
    BadHeader(String),
    /// The checkpoint is for another game.
    #[error("it holds the nim-sequence of {found}, not of {expected}")]
    OtherGame {
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// The values are shorter or longer than the header says.
    #[error("it is truncated or padded: the header announces {expected} bytes of values, the file holds {found}")]
    WrongLength {
        /// Bytes announced.
        expected: u128,
        /// Bytes present.
        found: u128,
    },
    /// The checksum does not match.
    #[error("its checksum does not match its contents (the file is corrupt)")]
    BadChecksum,
    /// The values are not the game's (a value disagrees with the definition).
    #[error("G({heap}) = {found} in the file, but the game's rules give {expected}")]
    WrongValue {
        /// The heap checked.
        heap: u64,
        /// The value in the file.
        found: u32,
        /// The value by the definition.
        expected: u64,
    },
}

/// A 64-bit checksum (multiply–xorshift over 8-byte words; detects corruption, not tampering).
fn checksum(parts: &[&[u8]]) -> u64 {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut state: u64 = 0x243f_6a88_85a3_08d3;
    let mut mix = |word: u64| {
        state = (state ^ word).wrapping_mul(MULTIPLIER);
        state ^= state >> 29;
    };
    for part in parts {
        mix(part.len() as u64);
        let mut words = part.chunks_exact(8);
        for word in &mut words {
            mix(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let mut tail = [0u8; 8];
        tail[..words.remainder().len()].copy_from_slice(words.remainder());
        mix(u64::from_le_bytes(tail));
    }
    state ^ (state >> 31)
}

/// The bytes of a checkpoint of `values`, the nim-sequence of the game `spec`, each value in
/// the fewest bytes (1, 2 or 4) that hold the largest.
///
/// ```
/// use grundy::heap::checkpoint::{decode, encode};
/// let bytes = encode("sub:1,2", &[0, 1, 2, 0, 1, 2]);
/// assert_eq!(decode(&bytes, "sub:1,2").unwrap(), [0, 1, 2, 0, 1, 2]);
/// assert!(decode(&bytes, "sub:1,3").unwrap_err().to_string().contains("not of sub:1,3"));
/// assert!(decode(&bytes[..bytes.len() - 1], "sub:1,2").is_err());
/// ```
pub fn encode(spec: &str, values: &[u32]) -> Vec<u8> {
    encode_cells(spec, values)
}

/// [`encode`] from a [`CompactSequence`], with no `u32` copy of the values (the same bytes).
///
/// ```
/// use grundy::heap::checkpoint::{encode, encode_compact};
/// use grundy::heap::sequence::CompactSequence;
/// let values = [0, 1, 2, 300, 1];
/// assert_eq!(encode_compact("sub:1,2", &CompactSequence::from_values(&values)), encode("sub:1,2", &values));
/// ```
pub fn encode_compact(spec: &str, values: &CompactSequence) -> Vec<u8> {
    match values {
        CompactSequence::Byte(values) => encode_cells(spec, values),
        CompactSequence::Half(values) => encode_cells(spec, values),
        CompactSequence::Word(values) => encode_cells(spec, values),
    }
}

fn encode_cells<T: Copy + Into<u32>>(spec: &str, values: &[T]) -> Vec<u8> {
    let largest = values.iter().map(|&value| value.into()).max().unwrap_or(0);
    let width: usize = if largest < 1 << 8 {
        1
    } else if largest < 1 << 16 {
        2
    } else {
        4
    };
    let mut payload = Vec::with_capacity(values.len() * width);
    for &value in values {
        payload.extend_from_slice(&value.into().to_le_bytes()[..width]);
    }
    let length = values.len().to_string();
    let width_text = width.to_string();
    let sum = checksum(&[spec.as_bytes(), length.as_bytes(), width_text.as_bytes(), &payload]);
    let mut bytes =
        format!("{MAGIC}\ngame {spec}\nlength {length}\nwidth {width_text}\nchecksum {sum:016x}\n\n").into_bytes();
    bytes.extend_from_slice(&payload);
    bytes
}

/// The most bytes a header line may have (a game text of thousands of characters fits).
pub const MAX_HEADER_LINE: usize = 1 << 16;

/// A checkpoint's header, read without its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game, as written in the file.
    pub spec: String,
    /// How many values it holds.
    pub length: u64,
    width: usize,
    length_text: String,
    width_text: String,
    checksum: u64,
    /// Where the values begin.
    payload_start: usize,
}

/// Reads the header of a checkpoint (the first bytes of the file are enough): what game it is
/// for and how many values it holds.
///
/// # Errors
/// [`CheckpointError::NotACheckpoint`] or [`CheckpointError::BadHeader`].
///
/// ```
/// use grundy::heap::checkpoint::{encode, read_header};
/// let header = read_header(&encode("kayles", &[0, 1, 2, 3])).unwrap();
/// assert_eq!((header.spec.as_str(), header.length), ("kayles", 4));
/// ```
pub fn read_header(bytes: &[u8]) -> Result<Header, CheckpointError> {
    if !bytes.starts_with(MAGIC.as_bytes()) || bytes.get(MAGIC.len()) != Some(&b'\n') {
        return Err(CheckpointError::NotACheckpoint);
    }
    let mut offset = MAGIC.len() + 1;
    let mut field = |name: &str| -> Result<String, CheckpointError> {
        let rest = &bytes[offset..];
        let window = &rest[..rest.len().min(MAX_HEADER_LINE + 1)];
        let end = window.iter().position(|&b| b == b'\n').ok_or_else(|| {
            CheckpointError::BadHeader(if window.len() > MAX_HEADER_LINE {
                format!("the `{name}` line is longer than {MAX_HEADER_LINE} bytes")
            } else {
                format!("the `{name}` line is missing")
            })
        })?;
        let line = std::str::from_utf8(&rest[..end])
            .map_err(|_| CheckpointError::BadHeader(format!("the `{name}` line is not text")))?;
        offset += end + 1;
        line.strip_prefix(name)
            .and_then(|value| value.strip_prefix(' '))
            .map(str::to_owned)
            .ok_or_else(|| CheckpointError::BadHeader(format!("expected a `{name}` line, found `{}`", quote(line))))
    };
    let spec = field("game")?;
    let length_text = field("length")?;
    let width_text = field("width")?;
    let sum_text = field("checksum")?;
    let length: u64 = length_text
        .parse()
        .ok()
        .filter(|_| length_text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| CheckpointError::BadHeader(format!("length `{}` is not a number", quote(&length_text))))?;
    let width: usize = match width_text.as_str() {
        "1" => 1,
        "2" => 2,
        "4" => 4,
        _ => return Err(CheckpointError::BadHeader(format!("width `{}` is not 1, 2 or 4", quote(&width_text)))),
    };
    let checksum = u64::from_str_radix(&sum_text, 16)
        .ok()
        // Exactly as written: 16 lowercase digits (no `+`, no capitals that read the same).
        .filter(|_| sum_text.len() == 16 && sum_text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        .ok_or_else(|| CheckpointError::BadHeader(format!("checksum `{}` is not 16 hex digits", quote(&sum_text))))?;
    if bytes.get(offset) != Some(&b'\n') {
        return Err(CheckpointError::BadHeader("no blank line after the header".to_owned()));
    }
    Ok(Header { spec, length, width, length_text, width_text, checksum, payload_start: offset + 1 })
}

/// Whether the game texts `found` and `expected` name the same rules: the same text, or the
/// same [`HeapGame::canonical_spec`] (`dawson` and `octal:0.07`).
///
/// ```
/// use grundy::heap::checkpoint::same_game;
/// assert!(same_game("octal:0.07", "dawson"));
/// assert!(same_game("kayles", "hex:0.77"));
/// assert!(!same_game("kayles", "dawson"));
/// ```
pub fn same_game(found: &str, expected: &str) -> bool {
    let canonical = |text: &str| {
        crate::registry::parse_game(text).ok().and_then(|rules| rules.heap_game().map(|game| game.canonical_spec()))
    };
    found == expected || canonical(found).is_some_and(|found| canonical(expected) == Some(found))
}

/// Reads a checkpoint written by [`encode`] for the game `expected_spec` (or any spelling of
/// it: see [`same_game`]).
///
/// # Errors
/// A [`CheckpointError`] for anything but an intact checkpoint of that game.
pub fn decode(bytes: &[u8], expected_spec: &str) -> Result<Vec<u32>, CheckpointError> {
    let header = read_header(bytes)?;
    if !same_game(&header.spec, expected_spec) {
        return Err(CheckpointError::OtherGame { found: quote(&header.spec), expected: quote(expected_spec) });
    }
    let payload = &bytes[header.payload_start..];
    let expected_bytes = u128::from(header.length) * header.width as u128;
    if payload.len() as u128 != expected_bytes {
        return Err(CheckpointError::WrongLength { expected: expected_bytes, found: payload.len() as u128 });
    }
    let sum = checksum(&[header.spec.as_bytes(), header.length_text.as_bytes(), header.width_text.as_bytes(), payload]);
    if sum != header.checksum {
        return Err(CheckpointError::BadChecksum);
    }
    let width = header.width;
    Ok(payload
        .chunks_exact(width)
        .map(|chunk| {
            let mut word = [0u8; 4];
            word[..width].copy_from_slice(chunk);
            u32::from_le_bytes(word)
        })
        .collect())
}

/// Every heap below this is checked by [`spot_check`].
pub const CHECKED_PREFIX: usize = 64;
/// How many heaps beyond [`CHECKED_PREFIX`] [`spot_check`] samples, at most.
pub const SAMPLED_HEAPS: usize = 4096;
/// How many options [`spot_check`] looks at in all, at most (a heap of Grundy's game of size
/// `n` has `n/2` options; this keeps the check under a second).
pub const CHECKED_OPTIONS: usize = 1 << 22;

/// Checks values of a prefix read back against the game's definition (the mex over all the
/// options of the heap), so that a checkpoint of the right name but the wrong contents — a
/// forged one whose checksum was recomputed, say — is not used.
///
/// Checked: every heap below [`CHECKED_PREFIX`], the last heap, and up to [`SAMPLED_HEAPS`]
/// heaps spread evenly over the whole range (a low-discrepancy sequence), while the options
/// looked at stay within [`CHECKED_OPTIONS`]. A single wrong value among `n` is therefore
/// caught with probability about `4096 / n`; a wrong block of values much more surely.
///
/// # Errors
/// [`CheckpointError::WrongValue`] for the first value that disagrees.
pub fn spot_check(game: &dyn HeapGame, values: &[u32]) -> Result<(), CheckpointError> {
    let len = values.len();
    let mut heaps: Vec<usize> = (0..len.min(CHECKED_PREFIX)).collect();
    if len > CHECKED_PREFIX {
        heaps.push(len - 1);
        // The golden-ratio sequence spreads samples evenly at every prefix of the list.
        const GOLDEN: f64 = 0.618_033_988_749_894_9;
        let span = (len - CHECKED_PREFIX) as f64;
        let samples = SAMPLED_HEAPS.min(len - CHECKED_PREFIX);
        heaps.extend((1..=samples).map(|k| CHECKED_PREFIX + ((k as f64 * GOLDEN).fract() * span) as usize));
    }
    let mut options_seen = 0usize;
    for heap in heaps {
        let options = game.heap_options(heap as u64);
        options_seen += options.len();
        let option_values = options.into_iter().map(|parts| {
            parts.iter().fold(0u64, |xor, &part| xor ^ values.get(part as usize).map_or(u64::MAX, |&v| u64::from(v)))
        });
        let expected = crate::mex(option_values);
        if expected != u64::from(values[heap]) {
            return Err(CheckpointError::WrongValue { heap: heap as u64, found: values[heap], expected });
        }
        if options_seen > CHECKED_OPTIONS {
            break;
        }
    }
    Ok(())
}

impl From<CheckpointError> for GameError {
    fn from(error: CheckpointError) -> Self {
        GameError::Unsupported(format!("bad checkpoint: {error}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::SequenceControl;
    use crate::heap::subtraction::SubtractionGame;
    use proptest::prelude::*;

    #[test]
    fn every_kind_of_damage_is_rejected() {
        let values: Vec<u32> = (0..1000).map(|n| n % 7).collect();
        let good = encode("sub:1,2,3,4,5,6", &values);
        assert_eq!(decode(&good, "sub:1,2,3,4,5,6").unwrap(), values);
        let header_end = good.windows(2).position(|w| w == b"\n\n").unwrap() + 2;

        let mut flipped = good.clone();
        flipped[header_end + 500] ^= 1;
        assert_eq!(decode(&flipped, "sub:1,2,3,4,5,6"), Err(CheckpointError::BadChecksum));

        let truncated = &good[..good.len() - 10];
        assert!(matches!(decode(truncated, "sub:1,2,3,4,5,6"), Err(CheckpointError::WrongLength { .. })));
        let mut padded = good.clone();
        padded.push(0);
        assert!(matches!(decode(&padded, "sub:1,2,3,4,5,6"), Err(CheckpointError::WrongLength { .. })));
        assert!(matches!(decode(&good[..header_end - 3], "sub:1,2,3,4,5,6"), Err(CheckpointError::BadHeader(_))));
        assert_eq!(decode(b"", "nim"), Err(CheckpointError::NotACheckpoint));
        assert_eq!(decode(b"hello\n", "nim"), Err(CheckpointError::NotACheckpoint));
        assert!(matches!(decode(&good, "nim"), Err(CheckpointError::OtherGame { .. })));

        // A header edited to claim a different length is caught too.
        let text = String::from_utf8_lossy(&good[..header_end]).replace("length 1000", "length 999");
        let mut edited = text.into_bytes();
        edited.extend_from_slice(&good[header_end..good.len() - 1]);
        assert_eq!(decode(&edited, "sub:1,2,3,4,5,6"), Err(CheckpointError::BadChecksum));
    }

    #[test]
    fn wide_values_round_trip() {
        for values in [vec![], vec![0, 255], vec![256, 3], vec![70_000, 0, u32::MAX]] {
            assert_eq!(decode(&encode("nim", &values), "nim").unwrap(), values);
        }
    }

    #[test]
    fn spot_check_catches_the_wrong_values() {
        let game = SubtractionGame::new(vec![1, 2]).unwrap();
        let mut values = Vec::new();
        crate::heap::HeapGame::extend_sequence(&game, &mut values, 5000, &SequenceControl::default()).unwrap();
        assert_eq!(spot_check(&game, &values), Ok(()));
        values[80] ^= 1;
        assert!(matches!(spot_check(&game, &values), Err(CheckpointError::WrongValue { heap: 80, .. })));
    }

    #[test]
    fn forged_values_far_beyond_the_prefix_are_caught() {
        let game = SubtractionGame::new(vec![1, 2]).unwrap();
        let mut values = Vec::new();
        crate::heap::HeapGame::extend_sequence(&game, &mut values, 1_000_000, &SequenceControl::default()).unwrap();
        // A block of 1000 values zeroed near the end, the checksum recomputed by encode.
        let original = values.clone();
        values[900_000..901_000].fill(0);
        let forged = decode(&encode("sub:1,2", &values), "sub:1,2").unwrap();
        assert!(matches!(spot_check(&game, &forged), Err(CheckpointError::WrongValue { heap, .. }) if heap >= 900_000));
        // And the last value alone.
        let mut last_wrong = original;
        let end = last_wrong.len() - 1;
        last_wrong[end] ^= 1;
        assert!(
            matches!(spot_check(&game, &last_wrong), Err(CheckpointError::WrongValue { heap, .. }) if heap == end as u64)
        );
    }

    #[test]
    fn spellings_of_one_game_share_checkpoints() {
        let bytes = encode("octal:0.07", &[0, 0, 1, 1, 0]);
        assert_eq!(decode(&bytes, "dawson").unwrap(), [0, 0, 1, 1, 0]);
        assert!(matches!(decode(&bytes, "kayles"), Err(CheckpointError::OtherGame { .. })));
    }

    #[test]
    fn an_endless_header_line_is_refused_at_once() {
        let mut bytes = format!("{MAGIC}\ngame ").into_bytes();
        bytes.resize(8 << 20, b'a');
        let error = decode(&bytes, "nim").unwrap_err().to_string();
        assert!(error.contains("longer than"), "{error}");
    }

    proptest! {
        #[test]
        fn any_single_byte_change_is_rejected(values in proptest::collection::vec(0u32..300, 1..200), at in any::<prop::sample::Index>(), delta in 1u8..=255) {
            let good = encode("sub:2,5", &values);
            let mut bad = good.clone();
            let at = at.index(bad.len());
            bad[at] = bad[at].wrapping_add(delta);
            prop_assert!(decode(&bad, "sub:2,5").is_err());
        }
    }
}
