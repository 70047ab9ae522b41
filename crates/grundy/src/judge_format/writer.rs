//! Writing a judge's input: the numbers of one test from a game's heaps.

use super::{Bindings, JudgeFormat, MAX_TESTS_PER_FILE};

/// Writes tests of one game (see [`JudgeFormat::writer`]).
#[derive(Debug)]
pub struct TestWriter<'f> {
    pub(super) format: &'f JudgeFormat,
    /// The numbers the game fixes (`S` of `sub:{S}`).
    pub(super) fixed: Bindings,
    /// The name of the heaps.
    pub(super) heaps: String,
}

impl TestWriter<'_> {
    /// The name holding the heaps.
    pub fn heaps_name(&self) -> &str {
        &self.heaps
    }

    /// The counts of the lists already bound, where the count is a name not yet bound.
    fn fill_counts(&self, bindings: &mut Bindings) {
        let lengths: Vec<(String, u64)> = bindings
            .iter()
            .filter_map(|(name, numbers)| {
                let count = self.format.count_name_of(name)?.to_owned();
                Some((count, self.format.item(name)?.count_for(numbers.len())))
            })
            .collect();
        for (count, length) in lengths {
            bindings.entry(count).or_insert_with(|| vec![length]);
        }
    }

    /// The numbers of one test with these heaps, or `None` when the format does not allow
    /// them (a heap or their number outside its bound, a repeat in a distinct list, a count of
    /// heaps the format fixes otherwise). Numbers neither the game nor the heaps decide take
    /// their least allowed value.
    pub fn test(&self, heaps: &[u64]) -> Option<Bindings> {
        let mut bindings = self.fixed.clone();
        let heaps_item = self.format.item(&self.heaps)?;
        if heaps_item.count.is_none() && heaps.len() != 1 {
            return None;
        }
        bindings.insert(self.heaps.clone(), heaps.to_vec());
        self.fill_counts(&mut bindings);
        for item in self.format.items() {
            let numbers = match bindings.get(&item.name) {
                Some(numbers) => numbers.clone(),
                None => {
                    let least = item.bound.map_or(0, |(low, _)| low);
                    let length = item.length(&bindings);
                    if item.distinct && length > 1 {
                        return None;
                    }
                    // A filler list of the least value; absurd lengths are not written.
                    if length > MAX_TESTS_PER_FILE as u64 {
                        return None;
                    }
                    let numbers = vec![least; length as usize];
                    bindings.insert(item.name.clone(), numbers.clone());
                    numbers
                }
            };
            let expected = item.length(&bindings);
            if numbers.len() as u64 != expected || self.format.break_of(item, &numbers).is_some() {
                return None;
            }
        }
        Some(bindings)
    }
}
