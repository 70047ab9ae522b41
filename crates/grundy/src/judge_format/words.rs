//! The whitespace-separated words of a judge's input, each with its line and column, read as
//! judges read them: wherever the lines break.

use super::{FormatError, fail};

/// Where a word of the input is: its line and column (both from 1; the column counts
/// characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct At {
    pub(super) line: usize,
    pub(super) column: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "input line {}, column {}", self.line, self.column)
    }
}

/// The whitespace-separated words of an input, with where each is.
pub(super) struct Words<'a> {
    words: Vec<(At, &'a str)>,
    next: usize,
    last_line: usize,
}

impl<'a> Words<'a> {
    pub(super) fn new(input: &'a str) -> Words<'a> {
        let mut words = Vec::new();
        for (index, line) in input.lines().enumerate() {
            let mut column = 0;
            let mut start: Option<(usize, usize)> = None;
            for (offset, c) in line.char_indices() {
                column += 1;
                match (c.is_whitespace(), start) {
                    (false, None) => start = Some((offset, column)),
                    (true, Some((from, first))) => {
                        words.push((At { line: index + 1, column: first }, &line[from..offset]));
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some((from, first)) = start {
                words.push((At { line: index + 1, column: first }, &line[from..]));
            }
        }
        Words { words, next: 0, last_line: input.lines().count().max(1) }
    }

    pub(super) fn next(&mut self, what: &str) -> Result<(At, &'a str), FormatError> {
        let Some(&word) = self.words.get(self.next) else {
            return fail(format!("input line {}: the input ended where {what} was expected", self.last_line));
        };
        self.next += 1;
        Ok(word)
    }

    pub(super) fn peek(&self) -> Option<(At, &'a str)> {
        self.words.get(self.next).copied()
    }

    pub(super) fn at_end(&self) -> bool {
        self.next >= self.words.len()
    }

    /// Whether the next words are `sentinel`.
    pub(super) fn starts_with(&self, sentinel: &[String]) -> bool {
        self.words.get(self.next..).is_some_and(|rest| {
            rest.len() >= sentinel.len() && rest.iter().zip(sentinel).all(|((_, word), expected)| word == expected)
        })
    }

    /// The line of the next word (or the last line).
    pub(super) fn line(&self) -> usize {
        self.peek().map_or(self.last_line, |(at, _)| at.line)
    }
}
