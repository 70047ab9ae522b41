//! Checkpoints of long nim-sequence computations: the bytes of a saved prefix `G(0) … G(n−1)`,
//! and their strict reading back. No files here: the front end writes the bytes atomically and
//! reads them. Long prefixes are streamed both ways, so that a checkpoint of `n` values costs
//! no memory beyond the values themselves: [`write()`] writes to any [`std::io::Write`]
//! in pieces, and a [`Decoder`] fed the file piece by piece fills a [`CompactSequence`]
//! reserved exactly once.
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
    /// The values announced would not fit in memory.
    #[error("its {length} values ({bytes} bytes) do not fit in memory")]
    TooLarge {
        /// Values announced.
        length: u64,
        /// Bytes they take.
        bytes: u128,
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
    /// A value no heap game can have there: `G(n)` is the mex of xors of earlier values, so it
    /// is at most the power of two above every earlier value.
    #[error(
        "G({heap}) = {found} in the file, more than the game can produce: every earlier value is below {bound}, so G({heap}) is at most {bound}"
    )]
    TooWide {
        /// The heap whose value is too wide.
        heap: u64,
        /// The value in the file.
        found: u32,
        /// The largest value that heap can have.
        bound: u64,
    },
}

/// The checksum of format version 1 in one piece, as first written (the reference the streamed
/// [`Checksum`] is tested against).
#[cfg(test)]
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

/// A 64-bit checksum (multiply–xorshift over 8-byte words; detects corruption, not tampering)
/// fed in pieces of any size: each part is announced with its length, fed, and ended (its last
/// word padded with zeros), so that a part of gigabytes needs no buffer.
struct Checksum {
    state: u64,
    /// The bytes of an unfinished word.
    pending: [u8; 8],
    pending_len: usize,
}

impl Checksum {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

    fn new() -> Self {
        Checksum { state: 0x243f_6a88_85a3_08d3, pending: [0; 8], pending_len: 0 }
    }

    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word).wrapping_mul(Self::MULTIPLIER);
        self.state ^= self.state >> 29;
    }

    fn begin_part(&mut self, len: u64) {
        self.mix(len);
    }

    fn feed(&mut self, mut bytes: &[u8]) {
        if self.pending_len > 0 {
            let take = (8 - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < 8 {
                return;
            }
            self.mix(u64::from_le_bytes(self.pending));
            self.pending_len = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// Mixes the part's last word, padded with zeros (a whole zero word when the part's length
    /// is a multiple of 8).
    fn end_part(&mut self) {
        self.pending[self.pending_len..].fill(0);
        self.mix(u64::from_le_bytes(self.pending));
        self.pending_len = 0;
    }

    fn finish(&self) -> u64 {
        self.state ^ (self.state >> 31)
    }
}

/// The bytes of a checkpoint of `values`, the nim-sequence of the game `spec`, each value in
/// the fewest bytes (1, 2 or 4) that hold the largest, in one buffer of exactly its size (no
/// `u32` copy of the values).
///
/// ```
/// use grundy::heap::checkpoint::{decode, encode};
/// use grundy::heap::sequence::CompactSequence;
/// let values = CompactSequence::from_values(&[0, 1, 2, 0, 1, 2]);
/// let bytes = encode("sub:1,2", &values);
/// assert_eq!(decode(&bytes, "sub:1,2").unwrap(), values);
/// assert!(decode(&bytes, "sub:1,3").unwrap_err().to_string().contains("not of sub:1,3"));
/// assert!(decode(&bytes[..bytes.len() - 1], "sub:1,2").is_err());
/// ```
pub fn encode(spec: &str, values: &CompactSequence) -> Vec<u8> {
    let width = values.narrowest_width();
    let mut bytes = Vec::with_capacity(header_text(spec, values.len(), width, 0).len() + values.len() * width);
    write(spec, values, &mut bytes).expect("writing to a Vec does not fail");
    bytes
}

/// Writes the bytes of [`encode`] to `out` in pieces of at most [`WRITE_PIECE`] values,
/// with no copy of the values: the checksum, which the header holds, is computed in a first
/// pass over them, the values written in a second. Saving `n` values thus needs no memory in
/// proportion to `n` (a whole-file buffer of a 2^30-value checkpoint is 2 GB).
///
/// # Errors
/// The first error of `out`.
///
/// ```
/// use grundy::heap::checkpoint::{encode, write};
/// use grundy::heap::sequence::CompactSequence;
/// let values = CompactSequence::from_values(&[0, 1, 2, 300, 1]);
/// let mut file = Vec::new();
/// write("sub:1,2", &values, &mut file).unwrap();
/// assert_eq!(file, encode("sub:1,2", &values));
/// ```
pub fn write(spec: &str, values: &CompactSequence, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let width = values.narrowest_width();
    match values {
        CompactSequence::Byte(values) => write_cells(spec, values, width, out),
        CompactSequence::Half(values) => write_cells(spec, values, width, out),
        CompactSequence::Word(values) => write_cells(spec, values, width, out),
    }
}

/// The values [`write()`] turns into bytes at a time.
pub const WRITE_PIECE: usize = 1 << 16;

/// `values` in `width` bytes each, little-endian, appended to `bytes`.
fn append_payload<T: Copy + Into<u32>>(values: &[T], width: usize, bytes: &mut Vec<u8>) {
    for &value in values {
        bytes.extend_from_slice(&value.into().to_le_bytes()[..width]);
    }
}

/// The header of a checkpoint, blank line included.
fn header_text(spec: &str, len: usize, width: usize, sum: u64) -> String {
    format!("{MAGIC}\ngame {spec}\nlength {len}\nwidth {width}\nchecksum {sum:016x}\n\n")
}

/// [`write()`] on the cells of one width, each value written in `width` bytes.
fn write_cells<T: Copy + Into<u32>>(
    spec: &str,
    values: &[T],
    width: usize,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut piece = Vec::with_capacity(WRITE_PIECE.min(values.len()) * width);
    let mut sum = Checksum::new();
    for part in [spec, &values.len().to_string(), &width.to_string()] {
        sum.begin_part(part.len() as u64);
        sum.feed(part.as_bytes());
        sum.end_part();
    }
    sum.begin_part((values.len() * width) as u64);
    for values in values.chunks(WRITE_PIECE) {
        piece.clear();
        append_payload(values, width, &mut piece);
        sum.feed(&piece);
    }
    sum.end_part();
    out.write_all(header_text(spec, values.len(), width, sum.finish()).as_bytes())?;
    for values in values.chunks(WRITE_PIECE) {
        piece.clear();
        append_payload(values, width, &mut piece);
        out.write_all(&piece)?;
    }
    Ok(())
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
/// use grundy::heap::sequence::CompactSequence;
/// let header = read_header(&encode("kayles", &CompactSequence::from_values(&[0, 1, 2, 3]))).unwrap();
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

/// Reads a checkpoint written by [`encode`] for the game `expected_spec` (the same text: for
/// other spellings of the same rules, see [`Decoder::with_spellings`]), into a
/// [`CompactSequence`] of the narrowest width.
///
/// # Errors
/// A [`CheckpointError`] for anything but an intact checkpoint of that game.
///
/// ```
/// use grundy::heap::checkpoint::{decode, encode};
/// use grundy::heap::sequence::CompactSequence;
/// let values = decode(&encode("sub:1,2", &CompactSequence::from_values(&[0, 1, 2, 300])), "sub:1,2").unwrap();
/// assert_eq!((values.width(), values.to_vec()), (2, vec![0, 1, 2, 300]));
/// ```
pub fn decode(bytes: &[u8], expected_spec: &str) -> Result<CompactSequence, CheckpointError> {
    let mut decoder = Decoder::new(bytes, expected_spec, bytes.len() as u64)?;
    decoder.feed(&bytes[decoder.payload_start()..])?;
    decoder.finish()
}

/// Reads a checkpoint fed in pieces, so that a long one is never held twice: the values go
/// straight into a [`CompactSequence`] of the file's width, reserved exactly once from the
/// header (after the header's length is checked against the file's), and the checksum is
/// computed as they come. [`decode`] is this fed the whole file at once.
///
/// ```
/// use grundy::heap::checkpoint::{Decoder, encode};
/// use grundy::heap::sequence::CompactSequence;
/// let file = encode("kayles", &CompactSequence::from_values(&[0, 1, 2, 3, 1, 4, 3, 2]));
/// let head = &file[..file.len().min(200)];
/// let mut decoder = Decoder::new(head, "kayles", file.len() as u64).unwrap();
/// for piece in file[decoder.payload_start()..].chunks(3) {
///     decoder.feed(piece).unwrap();
/// }
/// assert_eq!(decoder.finish().unwrap().to_vec(), [0, 1, 2, 3, 1, 4, 3, 2]);
/// ```
pub struct Decoder {
    header: Header,
    values: CompactSequence,
    checksum: Checksum,
    /// The bytes of a value split between two pieces.
    pending: [u8; 4],
    pending_len: usize,
    /// Payload bytes announced by the header, and fed so far.
    expected: u128,
    received: u128,
}

impl Decoder {
    /// Reads the header from `head`, the first bytes of a checkpoint of `file_len` bytes in
    /// all (the whole header must be in `head`; more bytes are ignored), checks that it is for
    /// the game `expected_spec` and that the file holds exactly the values announced, and
    /// reserves room for them.
    ///
    /// # Errors
    /// [`CheckpointError::NotACheckpoint`], [`CheckpointError::BadHeader`],
    /// [`CheckpointError::OtherGame`], [`CheckpointError::WrongLength`], or
    /// [`CheckpointError::TooLarge`] when the allocator refuses the values.
    pub fn new(head: &[u8], expected_spec: &str, file_len: u64) -> Result<Self, CheckpointError> {
        Self::with_spellings(head, expected_spec, &|found| found == expected_spec, file_len)
    }

    /// [`Decoder::new`] for a checkpoint whose game text may be another spelling of the
    /// game `expected_spec`: `same_game(found)` says whether the text `found` names the same
    /// rules. This layer reads no game text; a front end passes the registry's comparison
    /// (`same_game` there, by canonical specs), so that a checkpoint of `octal:0.07` resumes
    /// `dawson`.
    ///
    /// # Errors
    /// As [`Decoder::new`]; [`CheckpointError::OtherGame`] when the file's game is neither
    /// `expected_spec` nor one `same_game` takes.
    ///
    /// ```
    /// use grundy::heap::checkpoint::{CheckpointError, Decoder, encode};
    /// use grundy::heap::sequence::CompactSequence;
    /// let file = encode("octal:0.07", &CompactSequence::from_values(&[0, 0, 1, 1, 0]));
    /// let dawson = |found: &str| found == "octal:0.07";
    /// assert!(Decoder::with_spellings(&file, "dawson", &dawson, file.len() as u64).is_ok());
    /// let refused = Decoder::new(&file, "dawson", file.len() as u64).err().unwrap();
    /// assert_eq!(refused.to_string(), "it holds the nim-sequence of octal:0.07, not of dawson");
    /// ```
    pub fn with_spellings(
        head: &[u8],
        expected_spec: &str,
        same_game: &dyn Fn(&str) -> bool,
        file_len: u64,
    ) -> Result<Self, CheckpointError> {
        let header = read_header(head)?;
        if header.spec != expected_spec && !same_game(&header.spec) {
            return Err(CheckpointError::OtherGame { found: quote(&header.spec), expected: quote(expected_spec) });
        }
        let expected = u128::from(header.length) * header.width as u128;
        let found = u128::from(file_len).saturating_sub(header.payload_start as u128);
        if found != expected {
            return Err(CheckpointError::WrongLength { expected, found });
        }
        let too_large = || CheckpointError::TooLarge { length: header.length, bytes: expected };
        let length = usize::try_from(header.length).map_err(|_| too_large())?;
        fn reserved<T>(length: usize) -> Option<Vec<T>> {
            let mut cells = Vec::new();
            cells.try_reserve_exact(length).ok()?;
            Some(cells)
        }
        let values = match header.width {
            1 => reserved(length).map(CompactSequence::Byte),
            2 => reserved(length).map(CompactSequence::Half),
            _ => reserved(length).map(CompactSequence::Word),
        }
        .ok_or_else(too_large)?;
        let mut checksum = Checksum::new();
        for part in [&header.spec, &header.length_text, &header.width_text] {
            checksum.begin_part(part.len() as u64);
            checksum.feed(part.as_bytes());
            checksum.end_part();
        }
        checksum.begin_part(expected as u64);
        Ok(Decoder { header, values, checksum, pending: [0; 4], pending_len: 0, expected, received: 0 })
    }

    /// Where the values begin in the file: feed the bytes from there on.
    pub fn payload_start(&self) -> usize {
        self.header.payload_start
    }

    /// The header read.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Takes the next bytes of the values (pieces of any size, in order).
    ///
    /// # Errors
    /// [`CheckpointError::WrongLength`] when they pass the length announced.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), CheckpointError> {
        let received = self.received + bytes.len() as u128;
        if received > self.expected {
            return Err(CheckpointError::WrongLength { expected: self.expected, found: received });
        }
        self.received = received;
        self.checksum.feed(bytes);
        let width = self.header.width;
        if self.pending_len > 0 {
            let take = (width - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < width {
                return Ok(());
            }
            let cell = self.pending;
            self.push_cells(&cell[..width]);
            self.pending_len = 0;
        }
        let whole = bytes.len() / width * width;
        self.push_cells(&bytes[..whole]);
        let rest = &bytes[whole..];
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
        Ok(())
    }

    /// Appends whole little-endian values of the file's width (within the capacity reserved).
    fn push_cells(&mut self, bytes: &[u8]) {
        match &mut self.values {
            CompactSequence::Byte(cells) => cells.extend_from_slice(bytes),
            CompactSequence::Half(cells) => {
                cells.extend(bytes.chunks_exact(2).map(|cell| u16::from_le_bytes([cell[0], cell[1]])));
            }
            CompactSequence::Word(cells) => {
                cells.extend(bytes.chunks_exact(4).map(|cell| u32::from_le_bytes(cell.try_into().expect("4 bytes"))));
            }
        }
    }

    /// The values, once every byte announced was fed and the checksum matches; in the
    /// narrowest width that holds them (as [`CompactSequence::from_values`]), which is the
    /// file's own unless the file was written wider than needed.
    ///
    /// # Errors
    /// [`CheckpointError::WrongLength`] when fewer bytes came than announced,
    /// [`CheckpointError::BadChecksum`].
    pub fn finish(mut self) -> Result<CompactSequence, CheckpointError> {
        if self.received != self.expected {
            return Err(CheckpointError::WrongLength { expected: self.expected, found: self.received });
        }
        self.checksum.end_part();
        if self.checksum.finish() != self.header.checksum {
            return Err(CheckpointError::BadChecksum);
        }
        // Narrower only for a file written wider than needed (never by `encode`).
        Ok(self.values.narrowed())
    }
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
/// The options are enumerated one at a time ([`HeapGame::for_each_heap_option`]) and their
/// values marked in a bitset of at most `G(heap) + 2` bits: no list of them is built (the last
/// heap of a 2^29-value checkpoint of Grundy's game has 2^28 options, 15 GB as lists).
///
/// # Errors
/// [`CheckpointError::WrongValue`] for the first value that disagrees.
pub fn spot_check(game: &dyn HeapGame, values: &CompactSequence) -> Result<(), CheckpointError> {
    match values {
        CompactSequence::Byte(values) => check_cells(game, values),
        CompactSequence::Half(values) => check_cells(game, values),
        CompactSequence::Word(values) => check_cells(game, values),
    }
}

/// [`spot_check`] on the cells of one width.
fn check_cells<T: Copy + Into<u32>>(game: &dyn HeapGame, values: &[T]) -> Result<(), CheckpointError> {
    check_widths(values)?;
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
        let found: u32 = values[heap].into();
        let (expected, options) = streamed_mex(game, heap as u64, values, found);
        options_seen = options_seen.saturating_add(options);
        if expected != u64::from(found) {
            return Err(CheckpointError::WrongValue { heap: heap as u64, found, expected });
        }
        if options_seen > CHECKED_OPTIONS {
            break;
        }
    }
    Ok(())
}

/// Checks every value against the bound the rules of any heap game give: `G(n)` is the mex of
/// xors of values of smaller heaps, all below the power of two `P` above the largest of them, so
/// `G(n) <= P`. One pass; a forged value far past that (which the sampled check may miss) would
/// otherwise size the kernel's tables when the run is resumed.
fn check_widths<T: Copy + Into<u32>>(values: &[T]) -> Result<(), CheckpointError> {
    let mut largest = 0u64;
    for (heap, &value) in values.iter().enumerate() {
        let found: u32 = value.into();
        let bound = (largest + 1).next_power_of_two();
        if u64::from(found) > bound {
            return Err(CheckpointError::TooWide { heap: heap as u64, found, bound });
        }
        largest = largest.max(u64::from(found));
    }
    Ok(())
}

/// The mex of the values of the options of `heap` (each the xor of its parts' values; a part
/// beyond `values` counts as `u64::MAX`, which no mex reaches), and how many options there are,
/// with `found` the value claimed for it: a bitset of `bound + 1` bits with `bound` at most
/// `found` decides whether the mex is `found` or some smaller value. Only when every value up
/// to `found` is an option's (`found` is too small) is the exact mex looked for again, with a
/// bitset of as many bits as options (the mex is at most their number).
fn streamed_mex<T: Copy + Into<u32>>(game: &dyn HeapGame, heap: u64, values: &[T], found: u32) -> (u64, usize) {
    let value_of = |parts: &[u64]| {
        parts
            .iter()
            .fold(0u64, |xor, &part| xor ^ values.get(part as usize).map_or(u64::MAX, |&value| u64::from(value.into())))
    };
    // The smallest value from 0 to `bound` that no option has (`bound + 1` when all do), and
    // the number of options.
    let first_missing = |bound: u64| {
        let mut seen = vec![0u64; (bound / 64 + 1) as usize];
        let mut options = 0usize;
        game.for_each_heap_option(heap, &mut |parts| {
            options += 1;
            let value = value_of(parts);
            if value <= bound {
                seen[(value / 64) as usize] |= 1 << (value % 64);
            }
        });
        (crate::nimber::first_zero_bit(&seen).min(bound + 1), options)
    };
    // A forged huge value: count the options first, so that the bitset stays within them.
    let bound = if found < 1 << 16 {
        u64::from(found)
    } else {
        let mut options = 0u64;
        game.for_each_heap_option(heap, &mut |_| options += 1);
        u64::from(found).min(options)
    };
    let (missing, options) = first_missing(bound);
    if missing <= bound {
        return (missing, options);
    }
    // Every value up to `bound` is an option's (so `bound` is `found`, and too small).
    (first_missing(options as u64).0, options)
}

impl From<CheckpointError> for GameError {
    fn from(error: CheckpointError) -> Self {
        GameError::Unsupported(format!("bad checkpoint: {error}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::heap::subtraction::SubtractionGame;
    use proptest::prelude::*;

    #[test]
    fn every_kind_of_damage_is_rejected() {
        let values = CompactSequence::from_values(&(0..1000).map(|n| n % 7).collect::<Vec<u32>>());
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

    /// A checkpoint as `grundy sequence sub:1,2 --to 5 --checkpoint FILE` wrote it before the
    /// `u32` and compact twins of this module became one: the format is unchanged, byte for
    /// byte, both ways.
    #[test]
    fn a_checkpoint_written_before_reads_and_writes_the_same() {
        let file = b"grundy-checkpoint 1\ngame sub:1,2\nlength 6\nwidth 1\nchecksum d85a2c132f0b299e\n\n\x00\x01\x02\x00\x01\x02";
        let values = decode(file, "sub:1,2").unwrap();
        assert_eq!(values, CompactSequence::Byte(vec![0, 1, 2, 0, 1, 2]));
        assert_eq!(encode("sub:1,2", &values), file);
        assert_eq!(encode("sub:1,2", &CompactSequence::Word(vec![0, 1, 2, 0, 1, 2])), file);
    }

    #[test]
    fn wide_values_round_trip() {
        for values in [vec![], vec![0, 255], vec![256, 3], vec![70_000, 0, u32::MAX]] {
            assert_eq!(decode(&encode("nim", &CompactSequence::from_values(&values)), "nim").unwrap().to_vec(), values);
        }
    }

    #[test]
    fn spot_check_catches_the_wrong_values() {
        let game = SubtractionGame::new(vec![1, 2]).unwrap();
        let mut values = CompactSequence::new();
        crate::heap::HeapGame::extend_sequence(&game, &mut values, 5000, &Control::default()).unwrap();
        assert_eq!(spot_check(&game, &values), Ok(()));
        let mut values = values.into_vec();
        values[80] ^= 1;
        assert!(matches!(
            spot_check(&game, &CompactSequence::from_values(&values)),
            Err(CheckpointError::WrongValue { heap: 80, .. })
        ));
    }

    #[test]
    fn forged_values_far_beyond_the_prefix_are_caught() {
        let game = SubtractionGame::new(vec![1, 2]).unwrap();
        let mut values = CompactSequence::new();
        crate::heap::HeapGame::extend_sequence(&game, &mut values, 1_000_000, &Control::default()).unwrap();
        let mut values = values.into_vec();
        // A block of 1000 values zeroed near the end, the checksum recomputed by encode.
        let original = values.clone();
        values[900_000..901_000].fill(0);
        let forged = decode(&encode("sub:1,2", &CompactSequence::from_values(&values)), "sub:1,2").unwrap();
        assert!(matches!(spot_check(&game, &forged), Err(CheckpointError::WrongValue { heap, .. }) if heap >= 900_000));
        // And the last value alone.
        let mut last_wrong = original;
        let end = last_wrong.len() - 1;
        last_wrong[end] ^= 1;
        assert!(matches!(
            spot_check(&game, &CompactSequence::from_values(&last_wrong)),
            Err(CheckpointError::WrongValue { heap, .. }) if heap == end as u64
        ));
    }

    #[test]
    fn another_spelling_is_read_when_the_caller_says_it_is_the_same_game() {
        let bytes = encode("octal:0.07", &CompactSequence::from_values(&[0, 0, 1, 1, 0]));
        let len = bytes.len() as u64;
        let dawson = |found: &str| found == "octal:0.07";
        let mut decoder = Decoder::with_spellings(&bytes, "dawson", &dawson, len).unwrap();
        decoder.feed(&bytes[decoder.payload_start()..]).unwrap();
        assert_eq!(decoder.finish().unwrap().to_vec(), [0, 0, 1, 1, 0]);
        // The same text is always the same game; any other only when the caller says so.
        assert!(Decoder::with_spellings(&bytes, "octal:0.07", &|_| false, len).is_ok());
        for refused in [
            decode(&bytes, "dawson").map(|_| ()),
            Decoder::with_spellings(&bytes, "kayles", &|_| false, len).map(|_| ()),
        ] {
            assert!(matches!(refused, Err(CheckpointError::OtherGame { .. })), "{refused:?}");
        }
    }

    #[test]
    fn an_endless_header_line_is_refused_at_once() {
        let mut bytes = format!("{MAGIC}\ngame ").into_bytes();
        bytes.resize(8 << 20, b'a');
        let error = decode(&bytes, "nim").unwrap_err().to_string();
        assert!(error.contains("longer than"), "{error}");
    }

    /// Grundy's game whose options can only be walked one by one: listing them panics, so a
    /// check that passes never built a list.
    struct StreamedOnly(crate::heap::grundys_game::GrundysGame);
    use crate::heap::Extended;

    impl HeapGame for StreamedOnly {
        fn spec(&self) -> String {
            self.0.spec()
        }
        fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
            self.0.extend_sequence(values, len, control)
        }
        fn periodicity(&self) -> crate::heap::Periodicity {
            self.0.periodicity()
        }
        fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
            panic!("the options of heap {heap} were listed")
        }
        fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
            self.0.for_each_heap_option(heap, visit);
        }
    }

    #[test]
    fn spot_check_walks_the_options_without_listing_them() {
        let game = StreamedOnly(crate::heap::grundys_game::GrundysGame::new());
        let mut compact = CompactSequence::new();
        game.extend_sequence(&mut compact, 20_000, &Control::default()).unwrap();
        let values = compact.to_vec();
        assert_eq!(spot_check(&game, &compact), Ok(()));
        // The last heap, always checked: a value too small, too large, and absurdly large (a
        // forged one, past the number of options), each reported with the definition's value.
        let last = values.len() - 1;
        let definition = crate::mex(
            game.0
                .heap_options(last as u64)
                .into_iter()
                .map(|parts| parts.iter().fold(0u64, |xor, &part| xor ^ u64::from(values[part as usize]))),
        );
        assert_eq!(u64::from(values[last]), definition);
        for forged in [values[last] ^ 1, values[last] + 7, 3_000_000_000] {
            let mut wrong = values.clone();
            wrong[last] = forged;
            let error = if forged > 1 << 20 {
                let bound = u64::from(*values[..last].iter().max().unwrap() + 1).next_power_of_two();
                Err(CheckpointError::TooWide { heap: last as u64, found: forged, bound })
            } else {
                Err(CheckpointError::WrongValue { heap: last as u64, found: forged, expected: definition })
            };
            assert_eq!(spot_check(&game, &CompactSequence::from_values(&wrong)), error);
        }
    }

    /// One value set to 2^32 - 1 where the sampled check does not look (issue 30): the width
    /// check reads every value, so the forged checkpoint is refused before a resumed run sizes
    /// its tables by that value.
    #[test]
    fn a_value_wider_than_the_game_can_produce_is_damage() {
        let game = SubtractionGame::new(vec![1, 2]).unwrap();
        let mut values = CompactSequence::new();
        crate::heap::HeapGame::extend_sequence(&game, &mut values, 200_000, &Control::default()).unwrap();
        let mut values = values.into_vec();
        let mut sampled = vec![false; values.len()];
        let len = values.len();
        let span = (len - CHECKED_PREFIX) as f64;
        for k in 1..=SAMPLED_HEAPS {
            sampled[CHECKED_PREFIX + ((k as f64 * 0.618_033_988_749_894_9).fract() * span) as usize] = true;
        }
        let unsampled = (CHECKED_PREFIX..len - 1).find(|&heap| !sampled[heap]).unwrap();
        values[unsampled] = u32::MAX;
        let forged = CompactSequence::from_values(&values);
        assert_eq!(
            spot_check(&game, &forged),
            Err(CheckpointError::TooWide { heap: unsampled as u64, found: u32::MAX, bound: 4 })
        );
        let message = CheckpointError::TooWide { heap: 7, found: u32::MAX, bound: 4 }.to_string();
        assert!(message.contains("more than the game can produce"), "{message}");
    }

    #[test]
    fn games_walk_the_options_they_list() {
        use crate::heap::octal::{CodeBase, OctalGame};
        let games: [Box<dyn HeapGame>; 8] = [
            Box::new(crate::heap::nim::Nim),
            Box::new(crate::heap::bash::Bash::new(3u32.into())),
            Box::new(SubtractionGame::new(vec![1, 3, 4]).unwrap()),
            Box::new(OctalGame::kayles()),
            Box::new(OctalGame::dawson()),
            Box::new(OctalGame::parse("4.07", CodeBase::Octal).unwrap()),
            Box::new(OctalGame::parse("0.8F", CodeBase::Hexadecimal).unwrap()),
            Box::new(crate::heap::grundys_game::GrundysGame::new()),
        ];
        for game in games {
            let spec = game.spec();
            for heap in 0..40 {
                let mut walked = Vec::new();
                game.for_each_heap_option(heap, &mut |parts| walked.push(parts.to_vec()));
                assert_eq!(walked, game.heap_options(heap), "{spec} heap {heap}");
            }
        }
    }

    /// A sink that records the size of every write.
    struct Pieces {
        bytes: Vec<u8>,
        sizes: Vec<usize>,
    }

    impl std::io::Write for Pieces {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.sizes.push(bytes.len());
            self.bytes.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_encoder_writes_in_pieces_and_the_decoder_reserves_exactly() {
        let len = 3 * WRITE_PIECE + 5;
        for (largest, width) in [(200u32, 1), (60_000, 2), (70_000, 4)] {
            let values: Vec<u32> = (0..len as u32).map(|n| n.wrapping_mul(2_654_435_761) % (largest + 1)).collect();
            let compact = CompactSequence::from_values(&values);
            let mut sink = Pieces { bytes: Vec::new(), sizes: Vec::new() };
            write("grundys-game", &compact, &mut sink).unwrap();
            assert_eq!(sink.bytes, encode("grundys-game", &compact));
            // The header, then the values in pieces of WRITE_PIECE values at most.
            assert_eq!(sink.sizes.len(), 1 + len.div_ceil(WRITE_PIECE), "{:?}", sink.sizes);
            assert!(sink.sizes[1..].iter().all(|&size| size <= WRITE_PIECE * width), "{:?}", sink.sizes);
            assert_eq!(encode("grundys-game", &compact).capacity(), sink.bytes.len());

            let decoded = decode(&sink.bytes, "grundys-game").unwrap();
            assert_eq!(decoded, compact);
            let capacity = match &decoded {
                CompactSequence::Byte(cells) => cells.capacity(),
                CompactSequence::Half(cells) => cells.capacity(),
                CompactSequence::Word(cells) => cells.capacity(),
            };
            assert_eq!((decoded.width(), capacity), (width, len));
        }
    }

    #[test]
    fn a_file_wider_than_needed_is_read_narrowest() {
        // Values below 256 written two bytes each (never by `encode`, but a valid file).
        let values = [3u16, 0, 255, 7];
        let payload: Vec<u8> = values.iter().flat_map(|value| value.to_le_bytes()).collect();
        let sum = checksum(&[b"nim", b"4", b"2", &payload]);
        let mut file = header_text("nim", 4, 2, sum).into_bytes();
        file.extend_from_slice(&payload);
        let decoded = decode(&file, "nim").unwrap();
        assert_eq!((decoded.width(), decoded.to_vec()), (1, vec![3, 0, 255, 7]));
    }

    #[test]
    fn a_header_announcing_more_than_the_file_holds_reserves_nothing() {
        let bytes = format!("{MAGIC}\ngame nim\nlength 18446744073709551615\nwidth 4\nchecksum {:016x}\n\n", 0);
        let error = Decoder::new(bytes.as_bytes(), "nim", bytes.len() as u64 + 8).err().unwrap();
        assert!(matches!(error, CheckpointError::WrongLength { found: 8, .. }), "{error}");
    }

    proptest! {
        /// The streamed checksum, fed in pieces cut anywhere, is the one-piece checksum.
        #[test]
        fn the_streamed_checksum_is_the_checksum(
            parts in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..70), 1..5),
            cuts in proptest::collection::vec(0usize..70, 0..6),
        ) {
            let mut sum = Checksum::new();
            for part in &parts {
                sum.begin_part(part.len() as u64);
                let mut at = 0;
                for &cut in &cuts {
                    let end = (at + cut).min(part.len());
                    sum.feed(&part[at..end]);
                    at = end;
                }
                sum.feed(&part[at..]);
                sum.end_part();
            }
            let slices: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(sum.finish(), checksum(&slices));
        }

        /// The decoder fed pieces of any sizes reads what `encode` wrote, and rejects a file
        /// cut short or one byte changed whatever the pieces.
        #[test]
        fn the_decoder_reads_any_pieces(
            values in proptest::collection::vec(prop_oneof![0u32..256, 0u32..70_000], 0..300),
            piece in 1usize..9,
            at in any::<prop::sample::Index>(),
        ) {
            let file = encode("sub:1,2", &CompactSequence::from_values(&values));
            let mut decoder = Decoder::new(&file[..file.len().min(100)], "sub:1,2", file.len() as u64).unwrap();
            for bytes in file[decoder.payload_start()..].chunks(piece) {
                decoder.feed(bytes).unwrap();
            }
            let decoded = decoder.finish().unwrap();
            prop_assert_eq!(&decoded, &CompactSequence::from_values(&values));
            let mut decoder = Decoder::new(&file, "sub:1,2", file.len() as u64).unwrap();
            let start = decoder.payload_start();
            if file.len() > start {
                let cut = start + at.index(file.len() - start);
                for bytes in file[start..cut].chunks(piece) {
                    decoder.feed(bytes).unwrap();
                }
                prop_assert!(
                    matches!(decoder.finish(), Err(CheckpointError::WrongLength { .. })),
                    "a file cut short was accepted"
                );
                let mut changed = file.clone();
                changed[cut] ^= 0x40;
                prop_assert_eq!(decode(&changed, "sub:1,2"), Err(CheckpointError::BadChecksum));
            }
        }

        /// The check's streamed mex is the mex of the listed options by the definition, for
        /// any value claimed, on random octal games (splits into two) and prefixes.
        #[test]
        fn the_streamed_mex_is_the_definition(
            digits in proptest::collection::vec(0u8..8, 1..4),
            heap in 0usize..120,
            claimed in prop_oneof![0u32..12, 60_000u32..70_000],
        ) {
            let code = format!("0.{}", digits.iter().map(|d| char::from(b'0' + d)).collect::<String>());
            let game = crate::heap::octal::OctalGame::parse(&code, crate::heap::octal::CodeBase::Octal).unwrap();
            let mut values = CompactSequence::new();
            game.extend_sequence(&mut values, heap + 1, &Control::default()).unwrap();
            let values = values.into_vec();
            let options = game.heap_options(heap as u64);
            let definition = crate::mex(options.iter().map(|parts| {
                parts.iter().fold(0u64, |xor, &part| xor ^ u64::from(values[part as usize]))
            }));
            prop_assert_eq!(streamed_mex(&game, heap as u64, &values, values[heap]), (definition, options.len()));
            prop_assert_eq!(streamed_mex(&game, heap as u64, &values, claimed), (definition, options.len()));
        }
    }

    proptest! {
        #[test]
        fn any_single_byte_change_is_rejected(values in proptest::collection::vec(0u32..300, 1..200), at in any::<prop::sample::Index>(), delta in 1u8..=255) {
            let good = encode("sub:2,5", &CompactSequence::from_values(&values));
            let mut bad = good.clone();
            let at = at.index(bad.len());
            bad[at] = bad[at].wrapping_add(delta);
            prop_assert!(decode(&bad, "sub:2,5").is_err());
        }
    }
}
