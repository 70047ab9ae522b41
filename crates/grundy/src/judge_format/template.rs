//! The `game` and `position` texts of a format, with holes for what was read: `{h}` (a list,
//! one number a component), `{a:,}` (joined by commas), `{x~y:-:,}` (two lists taken together,
//! a row at a time: `1-2,2-3`), and filters that compute what the problem's reader would
//! (`{p|sort|gaps|reverse:,}`: the gaps between sorted positions, the last gap first).

use super::{Bindings, FormatError, fail, parse_number, valid_name};
use crate::error::quote;

/// A computation on a list before it is written (`{NAME|FILTER|…}`), each with its inverse so
/// that a position can be read back into the numbers of a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Filter {
    /// Ascending order.
    Sort,
    /// The last number first.
    Reverse,
    /// `a1, a2 − a1, a3 − a2, …` (the list must not decrease: Luogu P3480's piles).
    Diff,
    /// `a1 − 1, a2 − a1 − 1, …`: the empty cells before each piece of increasing positions
    /// from 1 (POJ 1704).
    Gaps,
    /// Each number plus K.
    Add(u64),
    /// Each number minus K (1-based vertices to 0-based: `-1`); a number below K is refused.
    Sub(u64),
}

impl Filter {
    fn parse(text: &str, at: &str) -> Result<Filter, FormatError> {
        let shift = |rest: &str| parse_number(rest);
        Ok(match text {
            "sort" => Filter::Sort,
            "reverse" => Filter::Reverse,
            "diff" => Filter::Diff,
            "gaps" => Filter::Gaps,
            _ if text.starts_with('+') && shift(&text[1..]).is_some() => Filter::Add(shift(&text[1..]).unwrap_or(0)),
            _ if text.starts_with('-') && shift(&text[1..]).is_some() => Filter::Sub(shift(&text[1..]).unwrap_or(0)),
            _ => {
                return fail(format!(
                    "{at}: `|{}` is not a filter (`sort`, `reverse`, `diff`, `gaps`, `+K`, `-K`)",
                    quote(text)
                ));
            }
        })
    }

    /// The list filtered, or why it cannot be.
    fn apply(&self, numbers: &[u64], name: &str) -> Result<Vec<u64>, String> {
        Ok(match self {
            Filter::Sort => {
                let mut sorted = numbers.to_vec();
                sorted.sort_unstable();
                sorted
            }
            Filter::Reverse => numbers.iter().rev().copied().collect(),
            Filter::Diff | Filter::Gaps => {
                let less = u64::from(*self == Filter::Gaps);
                let mut before = 0u64;
                let mut out = Vec::with_capacity(numbers.len());
                for &number in numbers {
                    let Some(step) = number.checked_sub(before).and_then(|step| step.checked_sub(less)) else {
                        return Err(if *self == Filter::Gaps {
                            format!("`{name}|gaps` needs increasing numbers from 1, and {number} comes after {before}")
                        } else {
                            format!(
                                "`{name}|diff` needs numbers that do not decrease, and {number} comes after {before}"
                            )
                        });
                    };
                    out.push(step);
                    before = number;
                }
                out
            }
            Filter::Add(shift) => numbers
                .iter()
                .map(|number| number.checked_add(*shift).ok_or_else(|| format!("`{name}|+{shift}` passes 2^64")))
                .collect::<Result<_, _>>()?,
            Filter::Sub(shift) => numbers
                .iter()
                .map(|number| {
                    number.checked_sub(*shift).ok_or_else(|| format!("`{name}|-{shift}`: {number} is below {shift}"))
                })
                .collect::<Result<_, _>>()?,
        })
    }

    /// The list this filter made `numbers` from (a sorted list for `sort`), if any.
    fn invert(&self, numbers: &[u64]) -> Option<Vec<u64>> {
        Some(match self {
            Filter::Sort => numbers.to_vec(),
            Filter::Reverse => numbers.iter().rev().copied().collect(),
            Filter::Diff | Filter::Gaps => {
                let more = u64::from(*self == Filter::Gaps);
                let mut total = 0u64;
                let mut out = Vec::with_capacity(numbers.len());
                for &step in numbers {
                    total = total.checked_add(step)?.checked_add(more)?;
                    out.push(total);
                }
                out
            }
            Filter::Add(shift) => numbers.iter().map(|number| number.checked_sub(*shift)).collect::<Option<_>>()?,
            Filter::Sub(shift) => numbers.iter().map(|number| number.checked_add(*shift)).collect::<Option<_>>()?,
        })
    }
}

/// One `{…}` of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hole {
    /// One name, or the lists taken together (`x~y`).
    pub(super) names: Vec<String>,
    pub(super) filters: Vec<Filter>,
    /// Between the fields of one row of a zip (`,` unless given).
    inner: Option<String>,
    /// Between the numbers (or rows) of a list (the template's usual separator unless given).
    outer: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Piece {
    Text(String),
    Hole(Hole),
}

/// `game` and `position` text with `{NAME}` holes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Template {
    pub(super) text: String,
    pub(super) pieces: Vec<Piece>,
}

impl Hole {
    fn parse(hole: &str, at: &str) -> Result<Hole, FormatError> {
        let mut parts = hole.splitn(3, ':');
        let head = parts.next().unwrap_or_default();
        let separators: Vec<&str> = parts.collect();
        if separators.iter().any(|separator| separator.is_empty()) {
            return fail(format!(
                "{at}: `{{{}}}`: after `:` comes what separates the list's numbers (`{{a:,}}`, `{{x~y:-:,}}`)",
                quote(hole)
            ));
        }
        let mut filters = head.split('|');
        let names: Vec<String> = filters.next().unwrap_or_default().split('~').map(str::to_owned).collect();
        for name in &names {
            if !valid_name(name) {
                return fail(format!(
                    "{at}: `{{{}}}`: `{}` is not a name (letters, digits and _, not starting with a digit)",
                    quote(hole),
                    quote(name)
                ));
            }
        }
        let filters = filters.map(|filter| Filter::parse(filter, at)).collect::<Result<Vec<_>, _>>()?;
        let zipped = names.len() > 1;
        if separators.len() == 2 && !zipped {
            return fail(format!(
                "{at}: `{{{}}}`: two separators are for lists taken together (`{{x~y:-:,}}`); one list has one (`{{a:,}}`)",
                quote(hole)
            ));
        }
        let (inner, outer) = match (zipped, separators.as_slice()) {
            (true, [inner]) => (Some((*inner).to_owned()), None),
            (true, [inner, outer]) => (Some((*inner).to_owned()), Some((*outer).to_owned())),
            (false, [outer]) => (None, Some((*outer).to_owned())),
            _ => (None, None),
        };
        if inner.as_deref().is_some_and(|inner| inner.chars().any(|c| c.is_ascii_digit()))
            || outer.as_deref().is_some_and(|outer| outer.chars().any(|c| c.is_ascii_digit()))
        {
            return fail(format!("{at}: `{{{}}}`: a separator cannot hold digits", quote(hole)));
        }
        Ok(Hole { names, filters, inner, outer })
    }

    fn inner(&self) -> &str {
        self.inner.as_deref().unwrap_or(",")
    }

    /// The hole's numbers in `bindings`, filtered and written after `text`.
    fn write(&self, text: &mut String, bindings: &Bindings, list_separator: &str) -> Result<(), String> {
        let outer = self.outer.as_deref().unwrap_or(list_separator);
        let lists = self.filtered(bindings)?;
        let rows = lists.iter().map(Vec::len).min().unwrap_or(0);
        for row in 0..rows {
            if row > 0 {
                text.push_str(outer);
            }
            for (field, list) in lists.iter().enumerate() {
                if field > 0 {
                    text.push_str(self.inner());
                }
                text.push_str(&list[row].to_string());
            }
        }
        Ok(())
    }

    /// Each name's list, filtered.
    fn filtered(&self, bindings: &Bindings) -> Result<Vec<Vec<u64>>, String> {
        self.names
            .iter()
            .map(|name| {
                let mut numbers = bindings.get(name).cloned().unwrap_or_default();
                for filter in &self.filters {
                    numbers = filter.apply(&numbers, name)?;
                }
                Ok(numbers)
            })
            .collect()
    }
}

impl Template {
    pub(super) fn parse(text: &str, at: &str) -> Result<Template, FormatError> {
        let mut pieces = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.find(['{', '}']) {
                None => {
                    pieces.push(Piece::Text(rest.to_owned()));
                    break;
                }
                Some(start) => {
                    if rest[start..].starts_with('}') {
                        return fail(format!("{at}: `}}` without `{{` in `{}`", quote(text)));
                    }
                    if start > 0 {
                        pieces.push(Piece::Text(rest[..start].to_owned()));
                    }
                    let Some(length) = rest[start..].find('}') else {
                        return fail(format!("{at}: `{{` without `}}` in `{}`", quote(text)));
                    };
                    pieces.push(Piece::Hole(Hole::parse(&rest[start + 1..start + length], at)?));
                    rest = &rest[start + length + 1..];
                }
            }
        }
        Ok(Template { text: text.to_owned(), pieces })
    }

    pub(super) fn holes(&self) -> impl Iterator<Item = &Hole> {
        self.pieces.iter().filter_map(|piece| match piece {
            Piece::Hole(hole) => Some(hole),
            Piece::Text(_) => None,
        })
    }

    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.holes().flat_map(|hole| hole.names.iter().map(String::as_str))
    }

    /// The text with every hole filled (lists separated by `list_separator` unless the hole
    /// says otherwise), or why a filter cannot be applied to these numbers.
    pub(super) fn expand(&self, bindings: &Bindings, list_separator: &str) -> Result<String, String> {
        let mut text = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(literal) => text.push_str(literal),
                Piece::Hole(hole) => match bindings.get(&format!("#{}", hole.names[0])) {
                    None => hole.write(&mut text, bindings, list_separator)?,
                    Some(times) => {
                        // Names read in a `repeat`: each time written apart, the times
                        // separated as a list's numbers are (one component each).
                        let mut starts = vec![0usize; hole.names.len()];
                        for time in 0..times.len() {
                            let mut own = Bindings::new();
                            for (index, name) in hole.names.iter().enumerate() {
                                let numbers = bindings.get(name).map(Vec::as_slice).unwrap_or_default();
                                let length = bindings
                                    .get(&format!("#{name}"))
                                    .and_then(|lengths| lengths.get(time))
                                    .map_or(0, |&length| length as usize);
                                let end = (starts[index] + length).min(numbers.len());
                                own.insert(name.clone(), numbers[starts[index].min(end)..end].to_vec());
                                starts[index] = end;
                            }
                            if time > 0 {
                                text.push_str(list_separator);
                            }
                            hole.write(&mut text, &own, list_separator)?;
                        }
                    }
                },
            }
        }
        Ok(text)
    }

    /// The numbers of each hole read back from an expanded text, lists separated by
    /// `separator`: a position's components (`{h}` against `3 0 5` gives h = 3, 0, 5; `{a},{b}`
    /// against `4,7` gives a = 4, b = 7), or a GAME word's (`sub:{S}` against `sub:2,5` gives
    /// S = 2, 5); filters undone (`{p|sort|gaps:,}` against `0,1` gives p = 1, 3). A hole
    /// takes digits and separators up to the next literal text.
    pub(super) fn match_numbers(&self, text: &str, separator: char) -> Option<Bindings> {
        let mut bindings = Bindings::new();
        let mut rest = text;
        for (index, piece) in self.pieces.iter().enumerate() {
            match piece {
                Piece::Text(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Piece::Hole(hole) => {
                    let outer = hole.outer.clone().unwrap_or_else(|| separator.to_string());
                    let inner = hole.inner().to_owned();
                    let zipped = hole.names.len() > 1;
                    let allowed = |c: char| c.is_ascii_digit() || outer.contains(c) || (zipped && inner.contains(c));
                    let end = match self.pieces.get(index + 1) {
                        Some(Piece::Text(next)) => rest.find(next.as_str())?,
                        _ => rest.find(|c: char| !allowed(c)).unwrap_or(rest.len()),
                    };
                    let mut lists: Vec<Vec<u64>> = vec![Vec::new(); hole.names.len()];
                    if !rest[..end].is_empty() {
                        for row in rest[..end].split(outer.as_str()) {
                            let fields: Vec<&str> =
                                if zipped { row.split(inner.as_str()).collect() } else { vec![row] };
                            if fields.len() != lists.len() {
                                return None;
                            }
                            for (list, field) in lists.iter_mut().zip(fields) {
                                list.push(super::digits(field)?);
                            }
                        }
                    }
                    for (name, mut numbers) in hole.names.iter().zip(lists) {
                        for filter in hole.filters.iter().rev() {
                            numbers = filter.invert(&numbers)?;
                        }
                        if bindings.insert(name.clone(), numbers.clone()).is_some_and(|before| before != numbers) {
                            return None;
                        }
                    }
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(bindings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bindings(pairs: &[(&str, &[u64])]) -> Bindings {
        pairs.iter().map(|(name, numbers)| ((*name).to_owned(), numbers.to_vec())).collect()
    }

    #[test]
    fn filters_compute_and_are_undone() {
        let staircase = Template::parse("{p|sort|gaps|reverse:,}", "t").unwrap();
        let read = bindings(&[("p", &[5, 1, 2])]);
        // Sorted 1, 2, 5: gaps 0, 0, 2; the last gap first.
        assert_eq!(staircase.expand(&read, " ").unwrap(), "2,0,0");
        assert_eq!(staircase.match_numbers("2,0,0", ' ').unwrap(), bindings(&[("p", &[1, 2, 5])]));
        let piles = Template::parse("{a|diff|reverse:,}", "t").unwrap();
        assert_eq!(piles.expand(&bindings(&[("a", &[2, 2, 7])]), " ").unwrap(), "5,0,2");
        assert!(piles.expand(&bindings(&[("a", &[3, 2])]), " ").unwrap_err().contains("do not decrease"));
        let edges = Template::parse("{x~y|-1:-:,}", "t").unwrap();
        let tree = bindings(&[("x", &[1, 2]), ("y", &[2, 3])]);
        assert_eq!(edges.expand(&tree, " ").unwrap(), "0-1,1-2");
        assert_eq!(edges.match_numbers("0-1,1-2", ' ').unwrap(), tree);
        assert_eq!(edges.expand(&bindings(&[("x", &[]), ("y", &[])]), " ").unwrap(), "");
        assert!(edges.expand(&bindings(&[("x", &[0]), ("y", &[1])]), " ").unwrap_err().contains("0 is below 1"));
        let pairs = Template::parse("{a~b}", "t").unwrap();
        assert_eq!(pairs.expand(&bindings(&[("a", &[1, 3]), ("b", &[2, 4])]), " ").unwrap(), "1,2 3,4");
        assert_eq!(pairs.match_numbers("1,2 3,4", ' ').unwrap(), bindings(&[("a", &[1, 3]), ("b", &[2, 4])]));
        assert!(pairs.match_numbers("1,2 3", ' ').is_none());
        let error = |text: &str| Template::parse(text, "t").unwrap_err().0;
        assert!(error("{a|half}").contains("not a filter"));
        assert!(error("{a:-:,}").contains("two separators"));
        assert!(error("{a~1}").contains("not a name"));
        assert!(error("{a:}").contains("after `:`"));
    }
}
