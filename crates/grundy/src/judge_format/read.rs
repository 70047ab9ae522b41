//! Reading a test of a judge's input: its lines, its rows and its repeated groups, each
//! number checked against its bound, its list's distinctness and order.

use super::words::Words;
use super::{Bindings, Count, FormatError, Item, JudgeFormat, Line, digits, fail};
use crate::error::quote;

impl JudgeFormat {
    pub(super) fn read_test(&self, words: &mut Words, test: usize) -> Result<Bindings, FormatError> {
        let mut bindings = Bindings::new();
        let mut index = 0;
        while index < self.lines.len() {
            let Some(group) = self.lines[index].group else {
                self.read_line(&self.lines[index], &mut bindings, words, &format!("test {test}"))?;
                index += 1;
                continue;
            };
            let end =
                (index..self.lines.len()).find(|&at| self.lines[at].group != Some(group)).unwrap_or(self.lines.len());
            let repeat = &self.groups[group];
            let times = bindings.get(&repeat.count).and_then(|numbers| numbers.first()).copied().unwrap_or(0);
            // Each time its own numbers (the counts inside are its own), the numbers outside seen.
            let outside: Bindings = bindings
                .iter()
                .filter(|(name, _)| !name.starts_with('#'))
                .map(|(name, numbers)| (name.clone(), numbers.clone()))
                .collect();
            for time in 0..times {
                let mut own = outside.clone();
                let label = format!("test {test}, time {} of {times} of `repeat {}`", time + 1, repeat.count);
                for line in &self.lines[index..end] {
                    self.read_line(line, &mut own, words, &label)?;
                }
                for item in self.lines[index..end].iter().flat_map(|line| &line.items) {
                    let numbers = own.remove(&item.name).unwrap_or_default();
                    bindings.entry(format!("#{}", item.name)).or_default().push(numbers.len() as u64);
                    bindings.entry(item.name.clone()).or_default().extend(numbers);
                }
            }
            for item in self.lines[index..end].iter().flat_map(|line| &line.items) {
                bindings.entry(format!("#{}", item.name)).or_default();
                bindings.entry(item.name.clone()).or_default();
            }
            index = end;
        }
        Ok(bindings)
    }

    /// One `line` or `rows` of a test (`test` names it in messages: `test 2`, `test 2, k 3 of 4`).
    fn read_line(
        &self,
        line: &Line,
        bindings: &mut Bindings,
        words: &mut Words,
        test: &str,
    ) -> Result<(), FormatError> {
        {
            for item in &line.items {
                if let Some(Count::Name(count)) = &item.count
                    && item.count_less > 0
                {
                    let value = bindings.get(count).and_then(|numbers| numbers.first()).copied().unwrap_or(0);
                    if value < item.count_less {
                        return fail(format!(
                            "input line {}: {count} is {value} in {test}, and `{}` holds {count} − {} numbers",
                            words.line(),
                            item.name,
                            item.count_less
                        ));
                    }
                }
            }
            if line.rows {
                let length = line.items[0].length(bindings);
                let mut lists: Vec<Vec<u64>> = vec![Vec::new(); line.items.len()];
                let mut seen = vec![std::collections::HashSet::new(); line.items.len()];
                for row in 0..length {
                    for (index, item) in line.items.iter().enumerate() {
                        let what = format!("{} (row {} of {length}) in {test}", item.name, row + 1);
                        let previous = lists[index].last().copied();
                        let number = Self::read_number(words, item, &what, &mut seen[index], previous)?;
                        lists[index].push(number);
                    }
                }
                for (item, numbers) in line.items.iter().zip(lists) {
                    bindings.insert(item.name.clone(), numbers);
                }
                return Ok(());
            }
            for item in &line.items {
                let length = item.length(bindings);
                let mut numbers: Vec<u64> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for index in 0..length {
                    let what = if item.count.is_some() {
                        format!("{} (number {} of {length}) in {test}", item.name, index + 1)
                    } else {
                        format!("{} in {test}", item.name)
                    };
                    let previous = numbers.last().copied();
                    numbers.push(Self::read_number(words, item, &what, &mut seen, previous)?);
                }
                bindings.insert(item.name.clone(), numbers);
            }
        }
        Ok(())
    }

    /// The next number, `what` of `item`, checked against its bound, its distinctness (`seen`:
    /// the numbers before) and its order (`previous`: the number before).
    fn read_number(
        words: &mut Words,
        item: &Item,
        what: &str,
        seen: &mut std::collections::HashSet<u64>,
        previous: Option<u64>,
    ) -> Result<u64, FormatError> {
        let (at, word) = words.next(what)?;
        let number = digits(word).ok_or_else(|| {
            let negative = word.strip_prefix('-').is_some_and(|rest| digits(rest).is_some());
            FormatError(if negative {
                format!(
                    "{at}: `{}` for {what}: expected a whole number (a negative number is not read: the format's numbers are 0 or more)",
                    quote(word)
                )
            } else {
                format!("{at}: `{}` for {what}: expected a whole number", quote(word))
            })
        })?;
        if let Some((low, high)) = item.bound
            && !(low..=high).contains(&number)
        {
            return fail(format!("{at}: {number} for {what} is outside the format's bound {low}..{high}"));
        }
        if !item.parity_fits(number) {
            return fail(format!(
                "{at}: {number} for {what} is not {}, and the format says `{}:{}`",
                super::parity_word(item.parity.unwrap_or(0)),
                item.name,
                super::parity_word(item.parity.unwrap_or(0))
            ));
        }
        if item.distinct && !seen.insert(number) {
            return fail(format!("{at}: {number} for {what} repeats, and {} is distinct", item.name));
        }
        if item.sorted
            && let Some(previous) = previous
            && number < previous
        {
            return fail(format!(
                "{at}: {number} for {what} is less than {previous} before it, and {} is sorted",
                item.name
            ));
        }
        Ok(number)
    }
}
