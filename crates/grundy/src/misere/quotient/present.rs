//! A proved quotient as data: generators, normal-form words, relations.

use super::*;
/// The final quotient with its presentation: generators, normal-form words, relations.
pub(super) fn present(quotient: &Table, to: u64) -> MisereQuotient {
    let order = quotient.order;
    // Generators: heaps whose element the earlier heaps do not generate.
    let mut generated: FxHashSet<u32> = FxHashSet::from_iter([0]);
    let mut generator_elements: Vec<u32> = Vec::new();
    let mut generators = Vec::new();
    for (heap, &element) in quotient.heaps.iter().enumerate() {
        if generated.contains(&element) {
            continue;
        }
        generators.push(QuotientGenerator { name: generator_name(generators.len()), heap: heap as u64 });
        generator_elements.push(element);
        let mut queue: Vec<u32> = generated.iter().copied().collect();
        while let Some(x) = queue.pop() {
            for &g in &generator_elements {
                let product = quotient.mul(x, g);
                if generated.insert(product) {
                    queue.push(product);
                }
            }
        }
    }
    // Normal forms: the first word (by degree, then lexicographically) reaching each element.
    let count = generator_elements.len();
    let mut normal_form: Vec<Option<Vec<u32>>> = vec![None; order];
    normal_form[0] = Some(vec![0; count]);
    let mut discovery = vec![0u32];
    let mut layer = vec![vec![0u32; count]];
    while !layer.is_empty() {
        let mut next_layer: Vec<Vec<u32>> = Vec::new();
        for word in &layer {
            let element = word_element(quotient, &generator_elements, word);
            let _ = element;
            for g in 0..count {
                let mut longer = word.clone();
                longer[g] += 1;
                let x = word_element(quotient, &generator_elements, &longer);
                if normal_form[x as usize].is_none() {
                    normal_form[x as usize] = Some(longer.clone());
                    discovery.push(x);
                    next_layer.push(longer);
                }
            }
        }
        next_layer.sort_by(|a, b| b.cmp(a));
        layer = next_layer;
    }
    // Renumber elements by discovery; identity first.
    let mut new_index = vec![0u32; order];
    for (index, &x) in discovery.iter().enumerate() {
        new_index[x as usize] = index as u32;
    }
    let reachable = discovery.len();
    let mut product = vec![vec![0u32; reachable]; reachable];
    for (i, &x) in discovery.iter().enumerate() {
        for (j, &y) in discovery.iter().enumerate() {
            product[i][j] = new_index[quotient.mul(x, y) as usize];
        }
    }
    let names: Vec<String> = generators.iter().map(|generator| generator.name.clone()).collect();
    let words: Vec<String> =
        discovery.iter().map(|&x| format_word(&names, normal_form[x as usize].as_ref().expect("reached"))).collect();
    let is_normal = |word: &[u32]| {
        let x = word_element(quotient, &generator_elements, word);
        normal_form[x as usize].as_deref() == Some(word)
    };
    let mut relations = Vec::new();
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    for &x in &discovery {
        let word = normal_form[x as usize].clone().expect("reached");
        for g in 0..count {
            let mut longer = word.clone();
            longer[g] += 1;
            if is_normal(&longer) || !seen.insert(longer.clone()) {
                continue;
            }
            // Only minimal non-normal words: every word one generator shorter is normal.
            let minimal = (0..count).filter(|&h| longer[h] > 0).all(|h| {
                let mut shorter = longer.clone();
                shorter[h] -= 1;
                is_normal(&shorter)
            });
            if minimal {
                let target = word_element(quotient, &generator_elements, &longer);
                relations.push((
                    longer.clone(),
                    format!(
                        "{} = {}",
                        format_word(&names, &longer),
                        format_word(&names, normal_form[target as usize].as_ref().expect("reached"))
                    ),
                ));
            }
        }
    }
    relations.sort_by(|a, b| a.0.iter().sum::<u32>().cmp(&b.0.iter().sum::<u32>()).then_with(|| b.0.cmp(&a.0)));
    let mut p_portion: Vec<u32> =
        discovery.iter().enumerate().filter(|&(_, &x)| quotient.p[x as usize]).map(|(index, _)| index as u32).collect();
    p_portion.sort_unstable();
    MisereQuotient {
        to,
        order: reachable,
        product,
        identity: 0,
        p_portion,
        heaps: quotient.heaps.iter().map(|&x| new_index[x as usize]).collect(),
        generators,
        words,
        relations: relations.into_iter().map(|(_, text)| text).collect(),
    }
}

fn word_element(quotient: &Table, generators: &[u32], word: &[u32]) -> u32 {
    let mut x = 0;
    for (g, &count) in word.iter().enumerate() {
        for _ in 0..count {
            x = quotient.mul(x, generators[g]);
        }
    }
    x
}

/// `a`, `b`, …, `z`, then `a1`, `b1`, …
fn generator_name(index: usize) -> String {
    let letter = (b'a' + (index % 26) as u8) as char;
    if index < 26 { letter.to_string() } else { format!("{letter}{}", index / 26) }
}

/// A word as `ab^2c`; the empty word is `1`.
fn format_word(names: &[String], word: &[u32]) -> String {
    let mut text = String::new();
    for (name, &count) in names.iter().zip(word) {
        match count {
            0 => {}
            1 => text.push_str(name),
            _ => text.push_str(&format!("{name}^{count}")),
        }
    }
    if text.is_empty() { "1".to_owned() } else { text }
}
