//! A found pattern as code a solution can paste: a self-contained Python module or C++17
//! functions defining `grundy_value(…)` (when the pattern gives values) and
//! `is_p_position(…)`, one argument per heap of the component, in exact integer arithmetic.
//!
//! The code is exact wherever it answers. Python's integers have no bound, so the module
//! answers every position, however large, and raises `ValueError` for what is not a position
//! the pattern covers (a heap below the first, a negative coordinate, a row no pattern was
//! found for). The C++ takes and returns `unsigned long long`: it throws `std::out_of_range`
//! where the Python raises `ValueError`, and also where the value passes 2^64 − 1 (never a
//! wrapped answer).
//!
//! The game's text stands in the code's first comment only, through [`comment_text`]: a
//! `script:` path may hold any character, and none of them may become code.

use super::grid::{GridPattern, PairForm};
use super::line::{BitForm, LinePattern};
use super::{Guess, Pattern};
use std::fmt::Write;

/// The language of emitted code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// A Python 3 module.
    Python,
    /// C++17 functions taking `unsigned long long`.
    Cpp,
}

impl Language {
    /// `python` or `cpp`.
    pub fn parse(word: &str) -> Option<Language> {
        match word {
            "python" | "py" => Some(Language::Python),
            "cpp" | "c++" => Some(Language::Cpp),
            _ => None,
        }
    }
}

/// The code for a guess's pattern, or `None` when no pattern was found.
///
/// ```
/// use grundy::guess::{emit::{emit, Language}, guess_values, Sample};
/// let values: Vec<u64> = (0..400).map(|n| n % 3).collect();
/// let guess = guess_values("sub:1,2", &Sample::Line { first: 0, values }, 99);
/// let code = emit(&guess, Language::Python).unwrap();
/// assert!(code.contains("def grundy_value(n):"));
/// assert!(code.contains("def is_p_position(n):"));
/// ```
pub fn emit(guess: &Guess, language: Language) -> Option<String> {
    let found = guess.pattern.as_ref()?;
    let comment = match language {
        Language::Python => "#",
        Language::Cpp => "//",
    };
    let mut code = String::new();
    if language == Language::Python {
        // Python reads an encoding declaration in either of the first two lines' comments: ours
        // comes first, so that the game's text below cannot choose one (UTF-7 would turn its
        // `+AAo-` into a line break).
        code.push_str("# -*- coding: utf-8 -*-\n");
    }
    let _ = writeln!(code, "{comment} {}: {}", comment_text(&guess.game), found.formula());
    let _ = writeln!(code, "{comment} {} (grundy guess)", found.status_text(guess));
    match language {
        Language::Python => python(&found.pattern, &mut code),
        Language::Cpp => cpp(&found.pattern, &mut code),
    }
    Some(code)
}

/// `text` as it may stand inside a line comment of either language: every character that could
/// end the comment or change how the line is read is written `<U+XXXX>` instead — line breaks
/// and every other control character, Unicode's line and paragraph separators and the
/// invisible bidirectional controls (which make a comment look like code), the backslash (it
/// splices lines in C++), the `/` of `*/` and the second `?` of `??` (a trigraph in older
/// C++).
pub fn comment_text(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    let mut previous = None;
    for character in text.chars() {
        let unsafe_here = character.is_control()
            || matches!(character, '\\' | '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200e}' | '\u{200f}')
            || ('\u{202a}'..='\u{202e}').contains(&character)
            || ('\u{2066}'..='\u{2069}').contains(&character)
            || (character == '/' && previous == Some('*'))
            || (character == '?' && previous == Some('?'));
        if unsafe_here {
            let _ = write!(safe, "<U+{:04X}>", u32::from(character));
            // What follows an escape starts afresh: `*<U+002F>/` is not `*/`.
            previous = None;
        } else {
            safe.push(character);
            previous = Some(character);
        }
    }
    safe
}

/// `G(n) = n mod p` from heap 0: the code says just that.
fn plain_remainder(pattern: &LinePattern) -> bool {
    let LinePattern::Periodic { first: 0, start: 0, cycle, saltus: 0, .. } = pattern else {
        return false;
    };
    cycle.iter().enumerate().all(|(i, &value)| value == i as u64)
}

/// `n − start`, or `n` when `start` is 0.
fn minus(n: &str, start: u64) -> String {
    if start == 0 { n.to_owned() } else { format!("{n} - {start}") }
}

/// The least `n` of `G(n) = f(n + shift)`: `n + shift` must be an argument of `f`, and `n` a
/// heap.
fn least_heap(form: BitForm, shift: i64) -> u64 {
    (form.least_argument() as i64 - shift).max(0) as u64
}

fn list(values: &[u64]) -> String {
    values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

fn python(pattern: &Pattern, code: &mut String) {
    let arguments = match pattern {
        Pattern::Line(line) => {
            if line.gives_values() {
                python_line_value(line, "grundy_value", code);
                code.push_str("\n\ndef is_p_position(n):\n    return grundy_value(n) == 0\n");
            } else {
                python_line_p(line, code);
            }
            "n"
        }
        Pattern::Grid(grid) => {
            python_grid(grid, code);
            "x, y"
        }
    };
    if pattern.gives_values() {
        let call = if arguments == "n" { "grundy_value(c)" } else { "grundy_value(*c)" };
        let _ = write!(
            code,
            "\n\ndef sum_value(components):\n    \"\"\"A sum's value: the xor of its components' values (the Sprague-Grundy theorem).\"\"\"\n    \
             total = 0\n    for c in components:\n        total ^= {call}\n    return total\n"
        );
    }
}

fn python_line_value(pattern: &LinePattern, name: &str, code: &mut String) {
    match pattern {
        LinePattern::Periodic { first, start, before, cycle, saltus } => {
            let _ = writeln!(code, "\ndef {name}(n):\n    n = int(n)");
            let _ =
                writeln!(code, "    if n < {first}:\n        raise ValueError(\"{name}: n must be at least {first}\")");
            if plain_remainder(pattern) {
                let _ = writeln!(code, "    return n % {}", cycle.len());
                return;
            }
            if !before.is_empty() {
                let _ = writeln!(code, "    if n < {start}:\n        return ({},)[n - {first}]", list(before));
            }
            let _ = writeln!(code, "    laps, offset = divmod({}, {})", minus("n", *start), cycle.len());
            let _ = writeln!(code, "    return ({},)[offset] + laps * {saltus}", list(cycle));
        }
        LinePattern::Bitwise { form, shift } => {
            let least = least_heap(*form, *shift);
            let _ = writeln!(code, "\ndef {name}(n):\n    n = int(n)");
            let _ =
                writeln!(code, "    if n < {least}:\n        raise ValueError(\"{name}: n must be at least {least}\")");
            let _ = writeln!(code, "    m = n + ({shift})");
            let ones = "bin(m).count(\"1\")";
            let expression = match form {
                BitForm::Gray => "m ^ (m >> 1)".to_owned(),
                BitForm::LowestBit => "m & -m".to_owned(),
                BitForm::TwoAdicValuation => "(m & -m).bit_length() - 1".to_owned(),
                BitForm::Popcount => ones.to_owned(),
                BitForm::PopcountParity => format!("{ones} % 2"),
                BitForm::Odious => format!("2 * m + 1 - {ones} % 2"),
                BitForm::Evil => format!("2 * m + {ones} % 2"),
                BitForm::HighestBit => "1 << (m.bit_length() - 1)".to_owned(),
            };
            let _ = writeln!(code, "    return {expression}");
        }
        LinePattern::PPositions { .. } => unreachable!("a P-positions pattern gives no values"),
    }
}

fn python_line_p(pattern: &LinePattern, code: &mut String) {
    if let LinePattern::PPositions { start, period, residues, early } = pattern {
        let _ = writeln!(code, "\ndef is_p_position(n):\n    n = int(n)");
        let _ = writeln!(code, "    if n < 0:\n        raise ValueError(\"is_p_position: n must be at least 0\")");
        let _ = writeln!(
            code,
            "    if n < {start}:\n        return n in ({}{})",
            list(early),
            if early.len() == 1 { "," } else { "" }
        );
        let _ = writeln!(code, "    return (n - {start}) % {period} in ({},)", list(residues));
    }
}

const PYTHON_NIM_MUL: &str = "
def _nim_mul(a, b, bits=0):
    \"\"\"The nim-product of naturals a and b of any size (Conway): with F = 2^h and h a power of
    two, F*F = F + F/2. bits is a power of two with a, b < 2^bits (0: found here); each call
    halves it, so the recursion is only as deep as log2 of the operands' width.\"\"\"
    if a < 2 or b < 2:
        return a * b
    if bits == 0:
        bits = 2
        while max(a, b) >> bits:
            bits *= 2
    while bits > 2 and max(a, b) >> (bits // 2) == 0:
        bits //= 2
    h = bits // 2
    mask = (1 << h) - 1
    a1, a0, b1, b0 = a >> h, a & mask, b >> h, b & mask
    low = _nim_mul(a0, b0, h)
    high = _nim_mul(a1, b1, h)
    cross = _nim_mul(a0 ^ a1, b0 ^ b1, h)
    return ((cross ^ low) << h) ^ low ^ _nim_mul(high, 1 << (h - 1), h)
";

/// The check that a pair is a position (two heaps: no negative coordinate), in `grundy_value`
/// and in an `is_p_position` of its own.
const PYTHON_NATURAL_PAIR: &str =
    "    if x < 0 or y < 0:\n        raise ValueError(\"grundy_value: x and y must be at least 0\")\n";
const PYTHON_NATURAL_PAIR_P: &str =
    "    if x < 0 or y < 0:\n        raise ValueError(\"is_p_position: x and y must be at least 0\")\n";

fn python_grid(pattern: &GridPattern, code: &mut String) {
    let value = |code: &mut String, expression: &str| {
        let _ = writeln!(
            code,
            "\ndef grundy_value(x, y):\n    x, y = int(x), int(y)\n{PYTHON_NATURAL_PAIR}    return {expression}"
        );
        code.push_str("\n\ndef is_p_position(x, y):\n    return grundy_value(x, y) == 0\n");
    };
    match pattern {
        GridPattern::Form(form) => {
            if *form == PairForm::NimProduct {
                code.push_str(PYTHON_NIM_MUL);
            }
            let expression = match form {
                PairForm::Xor => "x ^ y".to_owned(),
                PairForm::NimProduct => "_nim_mul(x, y)".to_owned(),
                PairForm::Sum => "x + y".to_owned(),
                PairForm::SumMod(modulus) => format!("(x + y) % {modulus}"),
                PairForm::Min => "min(x, y)".to_owned(),
                PairForm::Max => "max(x, y)".to_owned(),
                PairForm::Difference => "abs(x - y)".to_owned(),
            };
            value(code, &expression);
        }
        GridPattern::XorOfLines { row, column } => {
            python_line_value(row, "_row_value", code);
            python_line_value(column, "_column_value", code);
            value(code, "_row_value(x) ^ _column_value(y)");
        }
        GridPattern::ProductOfLines { row, column } => {
            code.push_str(PYTHON_NIM_MUL);
            python_line_value(row, "_row_value", code);
            python_line_value(column, "_column_value", code);
            value(code, "_nim_mul(_row_value(x), _column_value(y))");
        }
        GridPattern::Beatty { c } => {
            let d = c * c + 4;
            let _ = write!(
                code,
                "\nfrom math import isqrt\n\n\ndef _lower(k):\n    \"\"\"a_k = floor(k * alpha), alpha = (2 - {c} + sqrt({d})) / 2, exactly.\"\"\"\n    \
                 return (k * {linear} + isqrt(k * k * {d})) // 2\n\n\ndef is_p_position(x, y):\n    \
                 x, y = int(x), int(y)\n{PYTHON_NATURAL_PAIR_P}    x, y = sorted((x, y))\n    gap = y - x\n    return gap % {c} == 0 and _lower(gap // {c}) == x\n",
                linear = 2 - *c as i64
            );
        }
        GridPattern::Diagonal => {
            let _ = write!(
                code,
                "\ndef is_p_position(x, y):\n    x, y = int(x), int(y)\n{PYTHON_NATURAL_PAIR_P}    return x == y\n"
            );
        }
        GridPattern::Rows { rows, symmetric } => {
            for (x, row) in rows.iter().enumerate() {
                python_line_value(row, &format!("_row_{x}"), code);
            }
            let names: Vec<String> = (0..rows.len()).map(|x| format!("_row_{x}")).collect();
            let _ = write!(
                code,
                "\n_ROWS = ({},)\n\n\ndef grundy_value(x, y):\n    \"\"\"G(x, y) for x < {count}{either}; no pattern was found elsewhere.\"\"\"\n    \
                 x, y = int(x), int(y)\n{PYTHON_NATURAL_PAIR}    if x >= {count} and {symmetric} and y < {count}:\n        x, y = y, x\n    \
                 if x >= {count}:\n        raise ValueError(\"grundy_value: the pattern covers rows 0..{last} only\")\n    \
                 return _ROWS[x](y)\n",
                names.join(", "),
                count = rows.len(),
                last = rows.len() - 1,
                either = if *symmetric {
                    " or y < {count} (the table is symmetric)".replace("{count}", &rows.len().to_string())
                } else {
                    String::new()
                },
                symmetric = if *symmetric { "True" } else { "False" },
            );
            code.push_str("\n\ndef is_p_position(x, y):\n    return grundy_value(x, y) == 0\n");
        }
    }
}

fn cpp(pattern: &Pattern, code: &mut String) {
    code.push_str(
        "#include <algorithm>\n#include <cmath>\n#include <stdexcept>\n#include <utility>\n#include <vector>\n",
    );
    let component = match pattern {
        Pattern::Line(line) => {
            if line.gives_values() {
                cpp_line_value(line, "grundy_value", code);
                code.push_str("\nbool is_p_position(unsigned long long n) { return grundy_value(n) == 0; }\n");
            } else {
                cpp_line_p(line, code);
            }
            None
        }
        Pattern::Grid(grid) => {
            cpp_grid(grid, code);
            Some(())
        }
    };
    if pattern.gives_values() {
        let (element, call) = match component {
            None => ("unsigned long long", "grundy_value(c)"),
            Some(()) => ("std::pair<unsigned long long, unsigned long long>", "grundy_value(c.first, c.second)"),
        };
        let _ = write!(
            code,
            "\n// A sum's value: the xor of its components' values (the Sprague-Grundy theorem).\n\
             unsigned long long sum_value(const std::vector<{element}>& components) {{\n    \
             unsigned long long total = 0;\n    for (const auto& c : components) total ^= {call};\n    return total;\n}}\n"
        );
    }
}

fn cpp_array(name: &str, values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(|value| format!("{value}ULL")).collect();
    format!("    static const unsigned long long {name}[] = {{{}}};\n", items.join(", "))
}

/// A C++ statement throwing `std::out_of_range` with `message` (the Python's `ValueError` text).
fn cpp_refuse(message: &str) -> String {
    format!("throw std::out_of_range(\"{message}\");")
}

/// The refusal of a value past 2^64 − 1, which `unsigned long long` cannot hold.
fn cpp_too_large(name: &str) -> String {
    cpp_refuse(&format!("{name}: the value passes 2^64 - 1"))
}

fn cpp_line_value(pattern: &LinePattern, name: &str, code: &mut String) {
    let _ = writeln!(code, "\nunsigned long long {name}(unsigned long long n) {{");
    match pattern {
        LinePattern::Periodic { first, start, before, cycle, saltus } => {
            if *first > 0 {
                let _ = writeln!(
                    code,
                    "    if (n < {first}ULL) {}",
                    cpp_refuse(&format!("{name}: n must be at least {first}"))
                );
            }
            if plain_remainder(pattern) {
                let _ = writeln!(code, "    return n % {}ULL;\n}}", cycle.len());
                return;
            }
            if !before.is_empty() {
                code.push_str(&cpp_array("before", before));
                let _ = writeln!(code, "    if (n < {start}ULL) return before[n - {first}ULL];");
            }
            code.push_str(&cpp_array("cycle", cycle));
            let period = cycle.len();
            let since = if *start == 0 { "n".to_owned() } else { format!("(n - {start}ULL)") };
            let _ =
                writeln!(code, "    unsigned long long laps = {since} / {period}ULL, offset = {since} % {period}ULL;");
            if *saltus == 0 {
                code.push_str("    return cycle[offset];\n");
            } else {
                // cycle[offset] + laps * saltus fits exactly when laps is at most this quotient.
                let _ = writeln!(
                    code,
                    "    if (laps > (~0ULL - cycle[offset]) / {saltus}ULL) {}\n    return cycle[offset] + laps * {saltus}ULL;",
                    cpp_too_large(name)
                );
            }
        }
        LinePattern::Bitwise { form, shift } => {
            let least = least_heap(*form, *shift);
            if least > 0 {
                let refusal = cpp_refuse(&format!("{name}: n must be at least {least}"));
                let _ = writeln!(code, "    if (n < {least}ULL) {refusal}");
            }
            // m = n + shift may pass 2^64 − 1 (a positive shift near the top): m is then
            // 2^64 + the wrapped m, and each form is taken exactly from the wrapped m and the
            // carry, or refused where its value cannot fit.
            let carries = *shift > 0;
            if carries {
                let _ = writeln!(code, "    bool carried = n > ~0ULL - {shift}ULL;");
            }
            let _ = writeln!(code, "    unsigned long long m = n + ({shift}LL);");
            let ones = "(unsigned long long) __builtin_popcountll(m)";
            let too_large = cpp_too_large(name);
            let refuse_if_carried = |code: &mut String| {
                if carries {
                    let _ = writeln!(code, "    if (carried) {too_large}");
                }
            };
            let expression = match form {
                BitForm::Gray | BitForm::HighestBit => {
                    // Both keep m's highest bit: past 2^64 − 1 when m is.
                    refuse_if_carried(code);
                    if *form == BitForm::Gray {
                        "m ^ (m >> 1)".to_owned()
                    } else {
                        "1ULL << (63 - __builtin_clzll(m))".to_owned()
                    }
                }
                BitForm::LowestBit => {
                    if carries {
                        // 2^64 + m: its lowest bit is m's, or 2^64 itself when m is 0.
                        let _ = writeln!(code, "    if (carried && m == 0) {too_large}");
                    }
                    "m & (~m + 1)".to_owned()
                }
                BitForm::TwoAdicValuation => {
                    if carries {
                        let _ = writeln!(code, "    if (carried && m == 0) return 64;");
                    }
                    "(unsigned long long) __builtin_ctzll(m)".to_owned()
                }
                BitForm::Popcount => {
                    if carries {
                        format!("{ones} + (carried ? 1ULL : 0ULL)")
                    } else {
                        ones.to_owned()
                    }
                }
                BitForm::PopcountParity => {
                    if carries {
                        format!("({ones} + (carried ? 1ULL : 0ULL)) & 1ULL")
                    } else {
                        format!("{ones} & 1ULL")
                    }
                }
                BitForm::Odious | BitForm::Evil => {
                    // 2m + 1 passes 2^64 − 1 from m = 2^63 on.
                    refuse_if_carried(code);
                    let _ = writeln!(code, "    if (m >= (1ULL << 63)) {too_large}");
                    if *form == BitForm::Odious {
                        format!("2 * m + 1 - ({ones} & 1ULL)")
                    } else {
                        format!("2 * m + ({ones} & 1ULL)")
                    }
                }
            };
            let _ = writeln!(code, "    return {expression};");
        }
        LinePattern::PPositions { .. } => unreachable!("a P-positions pattern gives no values"),
    }
    code.push_str("}\n");
}

fn cpp_line_p(pattern: &LinePattern, code: &mut String) {
    if let LinePattern::PPositions { start, period, residues, early } = pattern {
        code.push_str("\nbool is_p_position(unsigned long long n) {\n");
        let _ = writeln!(code, "    if (n < {start}ULL) {{");
        for position in early {
            let _ = writeln!(code, "        if (n == {position}ULL) return true;");
        }
        code.push_str("        return false;\n    }\n");
        let _ = writeln!(code, "    unsigned long long residue = (n - {start}ULL) % {period}ULL;");
        for residue in residues {
            let _ = writeln!(code, "    if (residue == {residue}ULL) return true;");
        }
        code.push_str("    return false;\n}\n");
    }
}

const CPP_NIM_MUL: &str = "
// The nim-product of a and b (Conway): with F = 2^h, F*F = F + F/2.
unsigned long long grundy_nim_mul(unsigned long long a, unsigned long long b, int bits = 64) {
    if (a < 2 || b < 2) return a * b;
    while (bits > 2 && (std::max(a, b) >> (bits / 2)) == 0) bits /= 2;
    int h = bits / 2;
    unsigned long long mask = (h == 64) ? ~0ULL : ((1ULL << h) - 1);
    unsigned long long a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    unsigned long long low = grundy_nim_mul(a0, b0, h), high = grundy_nim_mul(a1, b1, h);
    unsigned long long cross = grundy_nim_mul(a0 ^ a1, b0 ^ b1, h);
    return ((cross ^ low) << h) ^ low ^ grundy_nim_mul(high, 1ULL << (h - 1), h);
}
";

fn cpp_grid(pattern: &GridPattern, code: &mut String) {
    // `guard`: statements before the value is computed.
    let value = |code: &mut String, guard: &str, expression: &str| {
        let _ = writeln!(
            code,
            "\nunsigned long long grundy_value(unsigned long long x, unsigned long long y) {{\n{guard}    return {expression};\n}}"
        );
        code.push_str(
            "\nbool is_p_position(unsigned long long x, unsigned long long y) { return grundy_value(x, y) == 0; }\n",
        );
    };
    match pattern {
        GridPattern::Form(form) => {
            if *form == PairForm::NimProduct {
                code.push_str(CPP_NIM_MUL);
            }
            let expression = match form {
                PairForm::Xor => "x ^ y".to_owned(),
                PairForm::NimProduct => "grundy_nim_mul(x, y)".to_owned(),
                PairForm::Sum => "x + y".to_owned(),
                PairForm::SumMod(modulus) => format!("(x % {modulus}ULL + y % {modulus}ULL) % {modulus}ULL"),
                PairForm::Min => "std::min(x, y)".to_owned(),
                PairForm::Max => "std::max(x, y)".to_owned(),
                PairForm::Difference => "x > y ? x - y : y - x".to_owned(),
            };
            // Only a sum can pass 2^64 − 1: every other form is at most its larger argument, or
            // a nim-product, which stays below 2^64.
            let guard = if *form == PairForm::Sum {
                format!("    if (x > ~0ULL - y) {}\n", cpp_too_large("grundy_value"))
            } else {
                String::new()
            };
            value(code, &guard, &expression);
        }
        GridPattern::XorOfLines { row, column } => {
            cpp_line_value(row, "grundy_row_value", code);
            cpp_line_value(column, "grundy_column_value", code);
            value(code, "", "grundy_row_value(x) ^ grundy_column_value(y)");
        }
        GridPattern::ProductOfLines { row, column } => {
            code.push_str(CPP_NIM_MUL);
            cpp_line_value(row, "grundy_row_value", code);
            cpp_line_value(column, "grundy_column_value", code);
            value(code, "", "grundy_nim_mul(grundy_row_value(x), grundy_column_value(y))");
        }
        GridPattern::Beatty { c } => {
            let d = c * c + 4;
            let _ = write!(
                code,
                "
// floor(sqrt(v)), exact; r <= v / r is r * r <= v without the square, which can pass 2^128.
static unsigned __int128 grundy_isqrt(unsigned __int128 v) {{
    unsigned __int128 r = (unsigned __int128) std::sqrt((long double) v);
    if (r > ~0ULL) r = ~0ULL;
    while (r > 0 && r > v / r) --r;
    while (r + 1 <= v / (r + 1)) ++r;
    return r;
}}

// a_k = floor(k * alpha), alpha = (2 - {c} + sqrt({d})) / 2, exactly, for k * k * {d} < 2^128.
static unsigned long long grundy_lower(unsigned long long k) {{
    unsigned __int128 wide = k;
    __int128 sum = (__int128) wide * ({linear}) + (__int128) grundy_isqrt(wide * wide * {d}U);
    return (unsigned long long) (sum / 2);
}}

// The P-position of gap {c_k} is (a_k, a_k + {c_k}). Past k = {k_most}, k * k * {d} would pass 2^128,
// and then a_k + {c_k} > k * ({c} + alpha) - 1 > k * sqrt({d}) - 1 >= 2^64 - 1: no such pair fits.
bool is_p_position(unsigned long long x, unsigned long long y) {{
    if (x > y) std::swap(x, y);
    unsigned long long gap = y - x;
    if (gap % {c}ULL != 0 || gap / {c}ULL > {k_most}ULL) return false;
    return grundy_lower(gap / {c}ULL) == x;
}}
",
                linear = 2 - *c as i64,
                k_most = (u128::MAX / u128::from(d)).isqrt(),
                c_k = if *c == 1 { "k".to_owned() } else { format!("{c}k") },
            );
        }
        GridPattern::Diagonal => {
            code.push_str("\nbool is_p_position(unsigned long long x, unsigned long long y) { return x == y; }\n");
        }
        GridPattern::Rows { rows, symmetric } => {
            for (x, row) in rows.iter().enumerate() {
                cpp_line_value(row, &format!("grundy_row_{x}"), code);
            }
            let count = rows.len();
            let _ = writeln!(
                code,
                "\n// G(x, y) for x < {count}{}; elsewhere no pattern was found: std::out_of_range.\n\
                 unsigned long long grundy_value(unsigned long long x, unsigned long long y) {{",
                if *symmetric { format!(" or y < {count} (the table is symmetric)") } else { String::new() }
            );
            if *symmetric {
                let _ = writeln!(code, "    if (x >= {count}ULL && y < {count}ULL) std::swap(x, y);");
            }
            code.push_str("    switch (x) {\n");
            for x in 0..count {
                let _ = writeln!(code, "        case {x}: return grundy_row_{x}(y);");
            }
            let _ = writeln!(
                code,
                "        default: {}\n    }}\n}}",
                cpp_refuse(&format!("grundy_value: the pattern covers rows 0..{} only", count - 1))
            );
            code.push_str(
                "\nbool is_p_position(unsigned long long x, unsigned long long y) { return grundy_value(x, y) == 0; }\n",
            );
        }
    }
}
