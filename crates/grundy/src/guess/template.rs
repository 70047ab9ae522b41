//! A family of games written once: a game text with `{NAME}` placeholders (`bash:{m}`,
//! `sub:{a},{a+d}`) and a range for each name (`--over m=1..30`).
//!
//! A placeholder holds a small integer expression over the names: numbers, names, `+`, `-`,
//! `*` and parentheses. Each instance of the family is the text with every placeholder replaced
//! by its value. In a script's source only the exact form `{NAME}` is a placeholder (Starlark
//! has braces of its own); see [`Template::parse_names_only`].

use crate::error::GameError;

/// The most instances a family may have (the product of its ranges' lengths).
pub const MAX_INSTANCES: u64 = 400;
/// The largest value a parameter may take.
pub const MAX_PARAMETER: u64 = 1_000_000_000;
/// The most parameters a family may have.
pub const MAX_PARAMETERS: usize = 4;
/// The longest expression a placeholder may hold (its terms nest as deep as they are many).
pub const MAX_PLACEHOLDER: usize = 200;

/// One `--over NAME=A..B`: the parameter `NAME` takes every value from `low` to `high`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterRange {
    /// The name, as `{NAME}` refers to it.
    pub name: String,
    /// `A`.
    pub low: u64,
    /// `B` (at least `A`).
    pub high: u64,
}

impl ParameterRange {
    /// Reads `NAME=A..B` (or `NAME=A`, a single value).
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming the text and what is wrong.
    pub fn parse(text: &str) -> Result<ParameterRange, GameError> {
        let bad = |reason: &str| GameError::Unsupported(format!("bad --over `{text}`: {reason}"));
        let (name, range) = text.split_once('=').ok_or_else(|| bad("write NAME=A..B, as in m=1..30"))?;
        let name = name.trim();
        if !is_name(name) {
            return Err(bad("the name must be a letter or `_`, then letters, digits or `_`"));
        }
        let number = |word: &str| -> Result<u64, GameError> {
            let value: u64 =
                word.trim().parse().map_err(|_| bad(&format!("`{}` is not a whole number", word.trim())))?;
            if value > MAX_PARAMETER {
                return Err(bad(&format!("{value} is more than {MAX_PARAMETER}, the largest parameter value")));
            }
            Ok(value)
        };
        let (low, high) = match range.split_once("..") {
            Some((low, high)) => (number(low)?, number(high.strip_prefix('=').unwrap_or(high))?),
            None => {
                let value = number(range)?;
                (value, value)
            }
        };
        if low > high {
            return Err(bad(&format!("the range {low}..{high} is empty (A..B takes A to B, both included)")));
        }
        Ok(ParameterRange { name: name.to_owned(), low, high })
    }

    /// How many values the range holds.
    pub fn len(&self) -> u64 {
        self.high - self.low + 1
    }

    /// Never: a range holds at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }
}

fn is_name(word: &str) -> bool {
    let mut characters = word.chars();
    matches!(characters.next(), Some(first) if first.is_ascii_alphabetic() || first == '_')
        && characters.all(|character| character.is_ascii_alphanumeric() || character == '_')
}

/// Checks a family's ranges: distinct names, at most [`MAX_PARAMETERS`] of them, and at most
/// [`MAX_INSTANCES`] instances in all.
///
/// # Errors
/// [`GameError::Unsupported`] saying what is wrong.
pub fn check_ranges(parameters: &[ParameterRange]) -> Result<(), GameError> {
    if parameters.len() > MAX_PARAMETERS {
        return Err(GameError::Unsupported(format!(
            "{} --over parameters: a family may have {MAX_PARAMETERS} at most",
            parameters.len()
        )));
    }
    for (i, parameter) in parameters.iter().enumerate() {
        if parameters[..i].iter().any(|earlier| earlier.name == parameter.name) {
            return Err(GameError::Unsupported(format!("--over names `{}` twice", parameter.name)));
        }
    }
    let count = parameters.iter().try_fold(1u64, |count, parameter| count.checked_mul(parameter.len()));
    match count {
        Some(count) if count <= MAX_INSTANCES => Ok(()),
        _ => Err(GameError::Unsupported(format!(
            "the --over ranges make {} games, more than {MAX_INSTANCES}, the most one family may have: narrow a range",
            count.map_or_else(|| "too many".to_owned(), |count| count.to_string())
        ))),
    }
}

/// Every combination of the ranges' values, the first parameter changing slowest.
pub fn instances(parameters: &[ParameterRange]) -> Vec<Vec<u64>> {
    let mut all = vec![Vec::new()];
    for parameter in parameters {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<u64>| {
                (parameter.low..=parameter.high).map(move |value| {
                    let mut next = prefix.clone();
                    next.push(value);
                    next
                })
            })
            .collect();
    }
    all
}

/// A linear form `c₀ + c₁·p₁ + … + c_k·p_k` in a family's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Linear {
    /// `c₀`.
    pub constant: i64,
    /// `c₁ … c_k`, one per parameter, in the `--over` order.
    pub coefficients: Vec<i64>,
}

impl Linear {
    /// The constant `c`.
    pub fn constant(c: i64, parameters: usize) -> Linear {
        Linear { constant: c, coefficients: vec![0; parameters] }
    }

    /// The form's value at `parameters`.
    pub fn at(&self, parameters: &[u64]) -> i128 {
        self.coefficients
            .iter()
            .zip(parameters)
            .fold(i128::from(self.constant), |total, (&c, &p)| total + i128::from(c) * i128::from(p))
    }

    /// Whether no parameter appears.
    pub fn is_constant(&self) -> bool {
        self.coefficients.iter().all(|&c| c == 0)
    }

    /// As a person writes it: `m + 1`, `a + b`, `2·k − 1`, `3`.
    pub fn text(&self, names: &[String]) -> String {
        let mut text = String::new();
        for (&c, name) in self.coefficients.iter().zip(names) {
            if c == 0 {
                continue;
            }
            let magnitude = c.unsigned_abs();
            let term = if magnitude == 1 { name.clone() } else { format!("{magnitude}·{name}") };
            if text.is_empty() {
                text = if c < 0 { format!("−{term}") } else { term };
            } else {
                text.push_str(if c < 0 { " − " } else { " + " });
                text.push_str(&term);
            }
        }
        match (text.is_empty(), self.constant) {
            (true, c) => c.to_string(),
            (false, 0) => text,
            (false, c) if c > 0 => format!("{text} + {c}"),
            (false, c) => format!("{text} − {}", c.unsigned_abs()),
        }
    }

    /// As code (Python or C++ over signed 64-bit integers): `(m + 1)`.
    pub fn code(&self, names: &[String], literal_suffix: &str) -> String {
        let mut terms = Vec::new();
        for (&c, name) in self.coefficients.iter().zip(names) {
            match c {
                0 => {}
                1 => terms.push(name.clone()),
                c => terms.push(format!("{c}{literal_suffix} * {name}")),
            }
        }
        if self.constant != 0 || terms.is_empty() {
            terms.push(format!("{}{literal_suffix}", self.constant));
        }
        format!("({})", terms.join(" + ").replace("+ -", "- "))
    }
}

/// An integer expression in a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expression {
    Number(u64),
    Name(usize),
    Add(Box<Expression>, Box<Expression>),
    Subtract(Box<Expression>, Box<Expression>),
    Multiply(Box<Expression>, Box<Expression>),
}

impl Expression {
    fn at(&self, parameters: &[u64]) -> Option<i128> {
        match self {
            Expression::Number(value) => Some(i128::from(*value)),
            Expression::Name(index) => Some(i128::from(parameters[*index])),
            Expression::Add(left, right) => left.at(parameters)?.checked_add(right.at(parameters)?),
            Expression::Subtract(left, right) => left.at(parameters)?.checked_sub(right.at(parameters)?),
            Expression::Multiply(left, right) => left.at(parameters)?.checked_mul(right.at(parameters)?),
        }
    }

    fn linear(&self, count: usize) -> Option<Linear> {
        let combine = |left: Linear, right: Linear, sign: i64| -> Option<Linear> {
            Some(Linear {
                constant: left.constant.checked_add(sign.checked_mul(right.constant)?)?,
                coefficients: left
                    .coefficients
                    .iter()
                    .zip(&right.coefficients)
                    .map(|(&a, &b)| a.checked_add(sign.checked_mul(b)?))
                    .collect::<Option<_>>()?,
            })
        };
        let scale = |form: Linear, factor: i64| -> Option<Linear> {
            Some(Linear {
                constant: form.constant.checked_mul(factor)?,
                coefficients: form.coefficients.iter().map(|&c| c.checked_mul(factor)).collect::<Option<_>>()?,
            })
        };
        match self {
            Expression::Number(value) => Some(Linear::constant(i64::try_from(*value).ok()?, count)),
            Expression::Name(index) => {
                let mut form = Linear::constant(0, count);
                form.coefficients[*index] = 1;
                Some(form)
            }
            Expression::Add(left, right) => combine(left.linear(count)?, right.linear(count)?, 1),
            Expression::Subtract(left, right) => combine(left.linear(count)?, right.linear(count)?, -1),
            Expression::Multiply(left, right) => {
                let (left, right) = (left.linear(count)?, right.linear(count)?);
                if left.is_constant() {
                    scale(right, left.constant)
                } else if right.is_constant() {
                    scale(left, right.constant)
                } else {
                    None
                }
            }
        }
    }

    fn uses(&self, used: &mut [bool]) {
        match self {
            Expression::Number(_) => {}
            Expression::Name(index) => used[*index] = true,
            Expression::Add(left, right) | Expression::Subtract(left, right) | Expression::Multiply(left, right) => {
                left.uses(used);
                right.uses(used);
            }
        }
    }
}

/// A recursive-descent reader of one placeholder's expression.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    names: &'a [String],
}

impl Reader<'_> {
    fn skip_spaces(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn sum(&mut self, depth: usize) -> Result<Expression, String> {
        let mut left = self.product(depth)?;
        loop {
            self.skip_spaces();
            match self.text.get(self.at) {
                Some(b'+') => {
                    self.at += 1;
                    left = Expression::Add(Box::new(left), Box::new(self.product(depth)?));
                }
                Some(b'-') => {
                    self.at += 1;
                    left = Expression::Subtract(Box::new(left), Box::new(self.product(depth)?));
                }
                _ => return Ok(left),
            }
        }
    }

    fn product(&mut self, depth: usize) -> Result<Expression, String> {
        let mut left = self.atom(depth)?;
        loop {
            self.skip_spaces();
            if self.text.get(self.at) == Some(&b'*') {
                self.at += 1;
                left = Expression::Multiply(Box::new(left), Box::new(self.atom(depth)?));
            } else {
                return Ok(left);
            }
        }
    }

    fn atom(&mut self, depth: usize) -> Result<Expression, String> {
        if depth > 20 {
            return Err("too many parentheses".to_owned());
        }
        self.skip_spaces();
        let start = self.at;
        match self.text.get(self.at) {
            Some(b'(') => {
                self.at += 1;
                let inner = self.sum(depth + 1)?;
                self.skip_spaces();
                if self.text.get(self.at) != Some(&b')') {
                    return Err("a `(` is not closed".to_owned());
                }
                self.at += 1;
                Ok(inner)
            }
            Some(byte) if byte.is_ascii_digit() => {
                while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
                    self.at += 1;
                }
                let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
                digits
                    .parse()
                    .ok()
                    .filter(|&value| value <= MAX_PARAMETER)
                    .map(Expression::Number)
                    .ok_or_else(|| format!("the number {digits} is too large"))
            }
            Some(byte) if byte.is_ascii_alphabetic() || *byte == b'_' => {
                while self.text.get(self.at).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
                    self.at += 1;
                }
                let name = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
                match self.names.iter().position(|known| known == name) {
                    Some(index) => Ok(Expression::Name(index)),
                    None => Err(format!("`{{{name}}}` has no --over {name}=A..B")),
                }
            }
            Some(_) => Err(format!(
                "`{}` is not a number, a name, `+`, `-`, `*` or parentheses",
                String::from_utf8_lossy(&self.text[self.at..]).chars().next().unwrap_or('?')
            )),
            None => Err("an expression ends early".to_owned()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Placeholder(Expression),
}

/// A game text (or a script's source) with placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// As written.
    pub text: String,
    pieces: Vec<Piece>,
    count: usize,
}

impl Template {
    /// Reads a game text: every `{…}` is a placeholder holding an expression over `names`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the text and the placeholder that is wrong (an unknown
    /// name, an unclosed brace, an empty placeholder, a bad expression).
    pub fn parse(text: &str, names: &[String]) -> Result<Template, GameError> {
        let bad = |reason: String| GameError::BadGame { spec: text.to_owned(), reason };
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find(['{', '}']) {
            if rest[open..].starts_with('}') {
                return Err(bad("a `}` closes no `{`".to_owned()));
            }
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_owned()));
            }
            let inside = &rest[open + 1..];
            let close = inside.find('}').ok_or_else(|| bad("a `{` is not closed by `}`".to_owned()))?;
            let source = &inside[..close];
            if source.trim().is_empty() {
                return Err(bad("`{}` is empty: write a parameter name, as in {m}".to_owned()));
            }
            if source.len() > MAX_PLACEHOLDER {
                return Err(bad(format!("a placeholder may hold {MAX_PLACEHOLDER} characters at most")));
            }
            let mut reader = Reader { text: source.as_bytes(), at: 0, names };
            let expression = reader.sum(0).map_err(|reason| bad(format!("in `{{{source}}}`: {reason}")))?;
            reader.skip_spaces();
            if reader.at != source.len() {
                return Err(bad(format!("in `{{{source}}}`: `{}` is left over", &source[reader.at..])));
            }
            pieces.push(Piece::Placeholder(expression));
            rest = &inside[close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_owned()));
        }
        Ok(Template { text: text.to_owned(), pieces, count: names.len() })
    }

    /// Reads a script's source, where only `{NAME}` with `NAME` one of `names` is a
    /// placeholder and every other brace is the script's own.
    pub fn parse_names_only(text: &str, names: &[String]) -> Template {
        let mut pieces = Vec::new();
        let mut plain = String::new();
        let mut rest = text;
        'scan: while let Some(open) = rest.find('{') {
            for (index, name) in names.iter().enumerate() {
                let after = &rest[open + 1..];
                if after.starts_with(name.as_str()) && after[name.len()..].starts_with('}') {
                    plain.push_str(&rest[..open]);
                    pieces.push(Piece::Text(std::mem::take(&mut plain)));
                    pieces.push(Piece::Placeholder(Expression::Name(index)));
                    rest = &after[name.len() + 1..];
                    continue 'scan;
                }
            }
            plain.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
        }
        plain.push_str(rest);
        pieces.push(Piece::Text(plain));
        Template { text: text.to_owned(), pieces, count: names.len() }
    }

    /// Which parameters the placeholders use, one flag per name.
    pub fn uses(&self) -> Vec<bool> {
        let mut used = vec![false; self.count];
        for piece in &self.pieces {
            if let Piece::Placeholder(expression) = piece {
                expression.uses(&mut used);
            }
        }
        used
    }

    /// Whether the text has a placeholder at all.
    pub fn has_placeholders(&self) -> bool {
        self.pieces.iter().any(|piece| matches!(piece, Piece::Placeholder(_)))
    }

    /// The text with every placeholder replaced by its value at `parameters`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] when an expression's value passes ±2^127.
    pub fn fill(&self, parameters: &[u64]) -> Result<String, GameError> {
        let mut text = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(plain) => text.push_str(plain),
                Piece::Placeholder(expression) => {
                    let value = expression.at(parameters).ok_or_else(|| GameError::BadGame {
                        spec: self.text.clone(),
                        reason: "a placeholder's value is too large".to_owned(),
                    })?;
                    text.push_str(&value.to_string());
                }
            }
        }
        Ok(text)
    }

    /// The items of a game text `PREFIX:ITEM,ITEM,…` (`sub:{a},{b}`, `bash:{m}`) when every item
    /// is a number or one placeholder with a linear expression: the family's prefix and the
    /// items as linear forms.
    pub fn linear_items(&self) -> Option<(String, Vec<Linear>)> {
        let (prefix, _) = self.text.split_once(':')?;
        // Rebuild the item list piece by piece: text pieces split at commas, placeholders whole.
        let mut items: Vec<Option<Linear>> = Vec::new();
        let mut current: Option<Option<Linear>> = None;
        let mut first_text = true;
        for piece in &self.pieces {
            match piece {
                Piece::Text(plain) => {
                    let plain = if first_text { plain.strip_prefix(&format!("{prefix}:"))? } else { plain.as_str() };
                    first_text = false;
                    let mut parts = plain.split(',');
                    let head = parts.next().unwrap_or_default();
                    if !head.is_empty() {
                        if current.is_some() {
                            return None;
                        }
                        current = Some(head.parse::<i64>().ok().map(|value| Linear::constant(value, self.count)));
                    }
                    for part in parts {
                        items.push(current.take()?);
                        if !part.is_empty() {
                            current = Some(part.parse::<i64>().ok().map(|value| Linear::constant(value, self.count)));
                        }
                    }
                }
                Piece::Placeholder(expression) => {
                    if first_text || current.is_some() {
                        return None;
                    }
                    current = Some(expression.linear(self.count));
                }
            }
        }
        items.push(current?);
        items.into_iter().collect::<Option<Vec<_>>>().map(|items| (prefix.to_owned(), items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn placeholders_are_filled_with_their_values() {
        let template = Template::parse("sub:{a},{a + 2*d}", &names(&["a", "d"])).unwrap();
        assert_eq!(template.fill(&[3, 4]).unwrap(), "sub:3,11");
        assert_eq!(template.uses(), vec![true, true]);
        let (prefix, items) = template.linear_items().unwrap();
        assert_eq!(prefix, "sub");
        assert_eq!(items[1], Linear { constant: 0, coefficients: vec![1, 2] });
        let one_k = Template::parse("sub:1,{k}", &names(&["k"])).unwrap();
        assert_eq!(
            one_k.linear_items().unwrap().1,
            vec![Linear::constant(1, 1), Linear { constant: 0, coefficients: vec![1] }]
        );
        assert!(Template::parse("sub:{a}{b}", &names(&["a", "b"])).unwrap().linear_items().is_none());
    }

    #[test]
    fn bad_templates_say_what_is_wrong() {
        let names = names(&["m"]);
        let long = format!("bash:{{{}m}}", "m+".repeat(150));
        for (text, says) in [
            ("bash:{n}", "has no --over n"),
            ("bash:{m", "not closed"),
            ("bash:m}", "closes no"),
            ("bash:{}", "empty"),
            ("bash:{m+}", "ends early"),
            ("bash:{m m}", "left over"),
            ("bash:{m/2}", "`/2` is left over"),
            (long.as_str(), "200 characters at most"),
            ("bash:{/2}", "is not a number"),
        ] {
            let error = Template::parse(text, &names).unwrap_err().to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }

    proptest::proptest! {
        /// Any text: a template or a short error, never a panic; filled at any parameters.
        #[test]
        fn any_text_is_a_template_or_a_short_error(text in "[{}a-c0-9+*() ,:-]{0,40}|\\PC{0,40}", a in 0u64..=MAX_PARAMETER) {
            let names = names(&["a", "b"]);
            match Template::parse(&text, &names) {
                Ok(template) => {
                    let _ = template.fill(&[a, MAX_PARAMETER]);
                    let _ = template.linear_items();
                }
                Err(error) => proptest::prop_assert!(error.to_string().len() < 2000),
            }
            let _ = Template::parse_names_only(&text, &names).fill(&[a, 0]);
            let _ = ParameterRange::parse(&text);
        }
    }

    #[test]
    fn scripts_keep_their_own_braces() {
        let template = Template::parse_names_only("d = {}\nK = {k}\ns = \"{x}\".format(x = {k})\n", &names(&["k"]));
        assert_eq!(template.fill(&[5]).unwrap(), "d = {}\nK = 5\ns = \"{x}\".format(x = 5)\n");
        assert_eq!(template.uses(), vec![true]);
    }

    #[test]
    fn ranges_are_read_and_bounded() {
        assert_eq!(ParameterRange::parse("m=1..30").unwrap(), ParameterRange { name: "m".into(), low: 1, high: 30 });
        assert_eq!(ParameterRange::parse("k=4").unwrap().len(), 1);
        for bad in ["m", "1=1..3", "m=3..1", "m=a..3", "m=1..99999999999"] {
            assert!(ParameterRange::parse(bad).is_err(), "{bad}");
        }
        let wide = [ParameterRange::parse("a=1..100").unwrap(), ParameterRange::parse("b=1..100").unwrap()];
        assert!(check_ranges(&wide).unwrap_err().to_string().contains("more than 400"));
        let twice = [ParameterRange::parse("a=1..3").unwrap(), ParameterRange::parse("a=1..3").unwrap()];
        assert!(check_ranges(&twice).is_err());
        assert_eq!(
            instances(&[wide[0].clone(), ParameterRange::parse("b=7..8").unwrap()])[..3],
            [vec![1, 7], vec![1, 8], vec![2, 7]]
        );
    }
}
