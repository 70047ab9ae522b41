//! A found pattern as code a solution can paste: a self-contained Python module or C++
//! functions (C++98 and up: no `auto`, no range-for, no `>>` closing two templates, no
//! `__int128`, no `long long` literal) defining `grundy_value(…)` (when the pattern gives values) and
//! `is_p_position(…)`, one argument per heap of the component, in exact integer arithmetic.
//!
//! The code is exact wherever it answers. Python's integers have no bound, so the module
//! answers every position, however large, and raises `ValueError` for what is not a position
//! the pattern covers (a heap below the first, a negative coordinate, a row no pattern was
//! found for). The C++ takes and returns `grundy_u64` (`unsigned long long`): it throws `std::out_of_range`
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
    /// C++ functions (C++98 and up) taking `unsigned long long`.
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

/// The comment marker of `language`, and the start of a file in it: for Python, the encoding
/// declaration. Python reads one in either of the first two lines' comments: ours comes first,
/// so that the game's text below cannot choose one (UTF-7 would turn its `+AAo-` into a line
/// break).
pub(super) fn file_start(language: Language) -> (&'static str, String) {
    match language {
        Language::Python => ("#", "# -*- coding: utf-8 -*-\n".to_owned()),
        Language::Cpp => ("//", String::new()),
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
    let (comment, mut code) = file_start(language);
    let _ = writeln!(code, "{comment} {}: {}", comment_text(&guess.game), found.formula());
    let _ = writeln!(code, "{comment} {} (grundy guess)", found.status_text(guess));
    let _ = writeln!(code, "{comment} {}", range_text(&found.pattern, language));
    match language {
        Language::Python => python(&found.pattern, &mut code),
        Language::Cpp => cpp(&found.pattern, &mut code),
    }
    Some(code)
}

/// What the code answers, for the comment at its top.
fn range_text(pattern: &Pattern, language: Language) -> String {
    let arguments = if matches!(pattern, Pattern::Grid(_)) { "x, y" } else { "n" };
    match language {
        Language::Python => {
            format!("Exact for every {arguments} (Python integers); ValueError where the pattern says nothing.")
        }
        Language::Cpp => format!(
            "Exact for every {arguments} from 0 to 2^64 - 1 (grundy_u64); std::out_of_range where the pattern says \
             nothing or a value passes 2^64 - 1. C++98 and up."
        ),
    }
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
        LinePattern::Bitwise { form, shift, first, start, before } => {
            let least = if before.is_empty() { least_heap(*form, *shift).max(*first) } else { *first };
            let _ = writeln!(code, "\ndef {name}(n):\n    n = int(n)");
            let _ =
                writeln!(code, "    if n < {least}:\n        raise ValueError(\"{name}: n must be at least {least}\")");
            if !before.is_empty() {
                let _ = writeln!(code, "    if n < {start}:\n        return ({},)[n - {first}]", list(before));
            }
            let _ = writeln!(code, "    m = n + ({shift})");
            let _ = writeln!(code, "    return {}", python_bit_expression(form));
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
                PairForm::LowestZeroOfOr => "(~(x | y) & ((x | y) + 1)).bit_length() - 1".to_owned(),
                PairForm::LowestZeroOfOrLessOne => {
                    "(~((x - 1) | (y - 1)) & (((x - 1) | (y - 1)) + 1)).bit_length() - 1".to_owned()
                }
            };
            if *form == PairForm::LowestZeroOfOrLessOne {
                let _ = writeln!(
                    code,
                    "\ndef grundy_value(x, y):\n    x, y = int(x), int(y)\n    if x < 1 or y < 1:\n        \
                     raise ValueError(\"grundy_value: x and y must be at least 1\")\n    return {expression}"
                );
                code.push_str("\n\ndef is_p_position(x, y):\n    return grundy_value(x, y) == 0\n");
                return;
            }
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
        GridPattern::BlockXor { size, cell } => {
            let rows: Vec<String> = cell.iter().map(|row| format!("({},)", list(row))).collect();
            let _ = writeln!(code, "\n_T = ({},)", rows.join(", "));
            value(code, &format!("{size} * ((x // {size}) ^ (y // {size})) + _T[x % {size}][y % {size}]"));
        }
        GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, block } => {
            let rows: Vec<String> = block.iter().map(|row| format!("({},)", list(row))).collect();
            let _ = writeln!(code, "\n_B = ({},)", rows.join(", "));
            value(
                code,
                &format!(
                    "_B[x % {period_x}][y % {period_y}] + {saltus_x} * (x // {period_x}) + {saltus_y} * (y // {period_y})"
                ),
            );
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
        GridPattern::PeriodicP { from, period_x, period_y, p_cells } => {
            let cells: Vec<String> = p_cells
                .iter()
                .enumerate()
                .flat_map(|(a, row)| {
                    row.iter().enumerate().filter(|(_, p)| **p).map(move |(b, _)| format!("({a}, {b})"))
                })
                .collect();
            let _ = write!(
                code,
                "\n_P = frozenset([{}])\n\n\ndef is_p_position(x, y):\n    x, y = int(x), int(y)\n    if x < {from} or y < {from}:\n        \
                 raise ValueError(\"is_p_position: x and y must be at least {from}\")\n    return (x % {period_x}, y % {period_y}) in _P\n",
                cells.join(", ")
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

/// The type every emitted C++ function takes and returns: `unsigned long long`, which C++98
/// lacks by name; a diagnostic pragma keeps `g++ -std=c++98 -pedantic` quiet about it.
const CPP_PREAMBLE: &str = "#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

// grundy_u64: unsigned long long, 0 to 2^64 - 1 (C++98 lacks the type's name but every compiler
// has it: the pragmas keep g++ -std=c++98 -pedantic quiet about it).
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \"-Wlong-long\"
#endif
typedef unsigned long long grundy_u64;
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
";

/// `value` as a C++ expression of type `grundy_u64` or a smaller unsigned type that converts to
/// it exactly, without a `long long` literal (C++98 has none).
fn cpp_u64(value: u64) -> String {
    if value <= u64::from(i32::MAX as u32) {
        value.to_string()
    } else if value <= u64::from(u32::MAX) {
        format!("{value}U")
    } else {
        format!("(((grundy_u64) {}U << 32) | {}U)", value >> 32, value & 0xFFFF_FFFF)
    }
}

/// The largest `grundy_u64`.
const CPP_MAX: &str = "(~(grundy_u64) 0)";

/// Which helpers a pattern's C++ calls (each emitted once, and only when called: an unused
/// function would be a warning under `-Wall -Werror`).
#[derive(Default)]
struct CppNeeds {
    popcount: bool,
    trailing_zeros: bool,
    highest_bit: bool,
    nim_product: bool,
    wide: bool,
}

impl CppNeeds {
    fn line(&mut self, pattern: &LinePattern) {
        if let LinePattern::Bitwise { form, shift, .. } = pattern {
            match form {
                BitForm::Popcount | BitForm::PopcountParity | BitForm::Odious | BitForm::Evil => self.popcount = true,
                BitForm::TwoAdicValuation => self.trailing_zeros = true,
                BitForm::HighestBit => self.highest_bit = true,
                BitForm::Gray | BitForm::LowestBit => {}
            }
            let _ = shift;
        }
    }

    fn of(pattern: &Pattern) -> CppNeeds {
        let mut needs = CppNeeds::default();
        match pattern {
            Pattern::Line(line) => needs.line(line),
            Pattern::Grid(grid) => match grid {
                GridPattern::Form(PairForm::NimProduct) => needs.nim_product = true,
                GridPattern::XorOfLines { row, column } => {
                    needs.line(row);
                    needs.line(column);
                }
                GridPattern::ProductOfLines { row, column } => {
                    needs.nim_product = true;
                    needs.line(row);
                    needs.line(column);
                }
                GridPattern::Rows { rows, .. } => rows.iter().for_each(|row| needs.line(row)),
                GridPattern::Beatty { .. } => needs.wide = true,
                _ => {}
            },
        }
        needs
    }

    fn emit(&self, code: &mut String) {
        if self.popcount {
            code.push_str(
                "\n// The number of 1 bits of m.\ninline grundy_u64 grundy_popcount(grundy_u64 m) {\n    \
                 grundy_u64 ones = 0;\n    for (; m != 0; m &= m - 1) ++ones;\n    return ones;\n}\n",
            );
        }
        if self.trailing_zeros {
            code.push_str(
                "\n// The exponent of the largest power of 2 dividing m (m >= 1).\ninline grundy_u64 grundy_trailing_zeros(grundy_u64 m) {\n    \
                 grundy_u64 zeros = 0;\n    for (; (m & 1) == 0; m >>= 1) ++zeros;\n    return zeros;\n}\n",
            );
        }
        if self.highest_bit {
            code.push_str(
                "\n// The largest power of 2 at most m (m >= 1).\ninline grundy_u64 grundy_highest_bit(grundy_u64 m) {\n    \
                 grundy_u64 bit = 1;\n    while (m >> 1 >= bit) bit <<= 1;\n    return bit;\n}\n",
            );
        }
        if self.nim_product {
            code.push_str(CPP_NIM_MUL);
        }
        if self.wide {
            code.push_str(CPP_WIDE);
        }
    }
}

fn cpp(pattern: &Pattern, code: &mut String) {
    code.push_str(CPP_PREAMBLE);
    CppNeeds::of(pattern).emit(code);
    let component = match pattern {
        Pattern::Line(line) => {
            if line.gives_values() {
                cpp_line_value(line, "grundy_value", code);
                code.push_str("\ninline bool is_p_position(grundy_u64 n) { return grundy_value(n) == 0; }\n");
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
            None => ("grundy_u64", "grundy_value(components[i])"),
            Some(()) => {
                ("std::pair<grundy_u64, grundy_u64>", "grundy_value(components[i].first, components[i].second)")
            }
        };
        // `> >`: C++98 reads `>>` as a shift.
        let list =
            if element.ends_with('>') { format!("std::vector<{element} >") } else { format!("std::vector<{element}>") };
        let _ = write!(
            code,
            "\n// A sum's value: the xor of its components' values (the Sprague-Grundy theorem).\n\
             inline grundy_u64 sum_value(const {list}& components) {{\n    \
             grundy_u64 total = 0;\n    for ({list}::size_type i = 0; i < components.size(); ++i) total ^= {call};\n    \
             return total;\n}}\n"
        );
    }
}

fn cpp_array(name: &str, values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(|&value| cpp_u64(value)).collect();
    format!("    static const grundy_u64 {name}[] = {{{}}};\n", items.join(", "))
}

/// A C++ statement throwing `std::out_of_range` with `message` (the Python's `ValueError` text).
fn cpp_refuse(message: &str) -> String {
    format!("throw std::out_of_range(\"{message}\");")
}

/// The refusal of a value past 2^64 − 1, which `grundy_u64` cannot hold.
fn cpp_too_large(name: &str) -> String {
    cpp_refuse(&format!("{name}: the value passes 2^64 - 1"))
}

fn cpp_line_value(pattern: &LinePattern, name: &str, code: &mut String) {
    let _ = writeln!(code, "\ninline grundy_u64 {name}(grundy_u64 n) {{");
    match pattern {
        LinePattern::Periodic { first, start, before, cycle, saltus } => {
            if *first > 0 {
                let _ = writeln!(
                    code,
                    "    if (n < {}) {}",
                    cpp_u64(*first),
                    cpp_refuse(&format!("{name}: n must be at least {first}"))
                );
            }
            if plain_remainder(pattern) {
                let _ = writeln!(code, "    return n % {};\n}}", cpp_u64(cycle.len() as u64));
                return;
            }
            if !before.is_empty() {
                code.push_str(&cpp_array("before", before));
                let _ = writeln!(code, "    if (n < {}) return before[n - {}];", cpp_u64(*start), cpp_u64(*first));
            }
            code.push_str(&cpp_array("cycle", cycle));
            let period = cpp_u64(cycle.len() as u64);
            let since = if *start == 0 { "n".to_owned() } else { format!("(n - {})", cpp_u64(*start)) };
            if *saltus == 0 {
                let _ = writeln!(code, "    return cycle[{since} % {period}];");
            } else {
                let _ = writeln!(code, "    grundy_u64 laps = {since} / {period}, offset = {since} % {period};");
                // cycle[offset] + laps * saltus fits exactly when laps is at most this quotient.
                let saltus = cpp_u64(*saltus);
                let _ = writeln!(
                    code,
                    "    if (laps > ({CPP_MAX} - cycle[offset]) / {saltus}) {}\n    return cycle[offset] + laps * {saltus};",
                    cpp_too_large(name)
                );
            }
        }
        LinePattern::Bitwise { form, shift, first, start, before } => {
            let least = if before.is_empty() { least_heap(*form, *shift).max(*first) } else { *first };
            if least > 0 {
                let refusal = cpp_refuse(&format!("{name}: n must be at least {least}"));
                let _ = writeln!(code, "    if (n < {}) {refusal}", cpp_u64(least));
            }
            if !before.is_empty() {
                code.push_str(&cpp_array("before", before));
                let _ = writeln!(code, "    if (n < {}) return before[n - {}];", cpp_u64(*start), cpp_u64(*first));
            }
            // m = n + shift may pass 2^64 − 1 (a positive shift near the top): m is then
            // 2^64 + the wrapped m, and each form is taken exactly from the wrapped m and the
            // carry, or refused where its value cannot fit.
            let carries = *shift > 0;
            if carries {
                let _ = writeln!(code, "    bool carried = n > {CPP_MAX} - {shift};");
            }
            let _ = match shift.cmp(&0) {
                std::cmp::Ordering::Less => writeln!(code, "    grundy_u64 m = n - {};", shift.unsigned_abs()),
                std::cmp::Ordering::Equal => writeln!(code, "    grundy_u64 m = n;"),
                std::cmp::Ordering::Greater => writeln!(code, "    grundy_u64 m = n + {shift};"),
            };
            let ones = "grundy_popcount(m)";
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
                    if *form == BitForm::Gray { "m ^ (m >> 1)".to_owned() } else { "grundy_highest_bit(m)".to_owned() }
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
                    "grundy_trailing_zeros(m)".to_owned()
                }
                BitForm::Popcount => {
                    if carries {
                        format!("{ones} + (carried ? 1 : 0)")
                    } else {
                        ones.to_owned()
                    }
                }
                BitForm::PopcountParity => {
                    if carries {
                        format!("({ones} + (carried ? 1 : 0)) & 1")
                    } else {
                        format!("{ones} & 1")
                    }
                }
                BitForm::Odious | BitForm::Evil => {
                    // 2m + 1 passes 2^64 − 1 from m = 2^63 on.
                    refuse_if_carried(code);
                    let _ = writeln!(code, "    if (m >= ((grundy_u64) 1 << 63)) {too_large}");
                    if *form == BitForm::Odious {
                        format!("2 * m + 1 - ({ones} & 1)")
                    } else {
                        format!("2 * m + ({ones} & 1)")
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
        code.push_str("\ninline bool is_p_position(grundy_u64 n) {\n");
        let _ = writeln!(code, "    if (n < {}) {{", cpp_u64(*start));
        for &position in early {
            let _ = writeln!(code, "        if (n == {}) return true;", cpp_u64(position));
        }
        code.push_str("        return false;\n    }\n");
        let _ = writeln!(code, "    grundy_u64 residue = (n - {}) % {};", cpp_u64(*start), cpp_u64(*period));
        for &residue in residues {
            let _ = writeln!(code, "    if (residue == {}) return true;", cpp_u64(residue));
        }
        code.push_str("    return false;\n}\n");
    }
}

const CPP_NIM_MUL: &str = "
// The nim-product (Conway): with F = 2^h and h a power of two, F * F = F + F/2 (nim-sum), and
// a product of numbers below F * F splits into three products of halves and one by F/2.
// a, b < 2^bits, bits a power of two at most 8: what builds the table below.
inline grundy_u64 grundy_nim_mul_small(grundy_u64 a, grundy_u64 b, int bits) {
    if (a < 2 || b < 2) return a * b;
    int h = bits / 2;
    grundy_u64 mask = ((grundy_u64) 1 << h) - 1;
    grundy_u64 a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    grundy_u64 low = grundy_nim_mul_small(a0, b0, h), high = grundy_nim_mul_small(a1, b1, h);
    grundy_u64 cross = grundy_nim_mul_small(a0 ^ a1, b0 ^ b1, h);
    return ((cross ^ low) << h) ^ low ^ grundy_nim_mul_small(high, (grundy_u64) 1 << (h - 1), h);
}

// The nim-products of two bytes, a 256 x 256 table built on the first call (64 KiB).
inline const unsigned char* grundy_nim_byte_table() {
    static unsigned char table[256 * 256];
    static bool ready = false;
    if (!ready) {
        for (int a = 0; a < 256; ++a)
            for (int b = 0; b < 256; ++b) table[a * 256 + b] = (unsigned char) grundy_nim_mul_small(a, b, 8);
        ready = true;
    }
    return table;
}

// a, b < 2^bits, bits a power of two from 8 to 64: at most 64 look-ups in the byte table.
inline grundy_u64 grundy_nim_mul_bits(grundy_u64 a, grundy_u64 b, int bits) {
    while (bits > 8 && ((a | b) >> (bits / 2)) == 0) bits /= 2;
    if (bits <= 8) return grundy_nim_byte_table()[a * 256 + b];
    int h = bits / 2;
    grundy_u64 mask = ((grundy_u64) 1 << h) - 1;
    grundy_u64 a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    grundy_u64 low = grundy_nim_mul_bits(a0, b0, h), high = grundy_nim_mul_bits(a1, b1, h);
    grundy_u64 cross = grundy_nim_mul_bits(a0 ^ a1, b0 ^ b1, h);
    return ((cross ^ low) << h) ^ low ^ grundy_nim_mul_bits(high, (grundy_u64) 1 << (h - 1), h);
}

// The nim-product of any a, b below 2^64 (it stays below 2^64).
inline grundy_u64 grundy_nim_mul(grundy_u64 a, grundy_u64 b) { return grundy_nim_mul_bits(a, b, 64); }
";

/// 128-bit products and an exact integer square root from 64-bit halves: no `__int128`.
const CPP_WIDE: &str = "
// A number below 2^128 as two 64-bit halves.
struct grundy_u128 {
    grundy_u64 high, low;
};

// a * b exactly, from four products of 32-bit halves.
inline grundy_u128 grundy_mul_wide(grundy_u64 a, grundy_u64 b) {
    const grundy_u64 half = 0xFFFFFFFFU;
    grundy_u64 a0 = a & half, a1 = a >> 32, b0 = b & half, b1 = b >> 32;
    grundy_u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    grundy_u64 middle = (p00 >> 32) + (p01 & half) + (p10 & half);
    grundy_u128 r;
    r.low = (middle << 32) | (p00 & half);
    r.high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    return r;
}

// a * d exactly, for d below 2^32 and a product below 2^128.
inline grundy_u128 grundy_mul_small_wide(grundy_u128 a, grundy_u64 d) {
    grundy_u128 r = grundy_mul_wide(a.low, d);
    r.high += a.high * d;
    return r;
}

inline bool grundy_at_most(grundy_u128 a, grundy_u128 b) {
    return a.high < b.high || (a.high == b.high && a.low <= b.low);
}

// floor(sqrt(v)) for any v below 2^128, exactly (a binary search on r * r <= v).
inline grundy_u64 grundy_isqrt_wide(grundy_u128 v) {
    grundy_u64 low = 0, high = ~(grundy_u64) 0;
    while (low < high) {
        grundy_u64 middle = low + (high - low) / 2 + 1;
        if (grundy_at_most(grundy_mul_wide(middle, middle), v)) low = middle; else high = middle - 1;
    }
    return low;
}
";

fn cpp_grid(pattern: &GridPattern, code: &mut String) {
    // `guard`: statements before the value is computed.
    let value = |code: &mut String, guard: &str, expression: &str| {
        let _ = writeln!(
            code,
            "\ninline grundy_u64 grundy_value(grundy_u64 x, grundy_u64 y) {{\n{guard}    return {expression};\n}}"
        );
        code.push_str("\ninline bool is_p_position(grundy_u64 x, grundy_u64 y) { return grundy_value(x, y) == 0; }\n");
    };
    match pattern {
        GridPattern::Form(form) => {
            let expression = match form {
                PairForm::Xor => "x ^ y".to_owned(),
                PairForm::NimProduct => "grundy_nim_mul(x, y)".to_owned(),
                PairForm::Sum => "x + y".to_owned(),
                PairForm::SumMod(modulus) => format!("(x % {modulus} + y % {modulus}) % {modulus}"),
                PairForm::Min => "std::min(x, y)".to_owned(),
                PairForm::Max => "std::max(x, y)".to_owned(),
                PairForm::Difference => "x > y ? x - y : y - x".to_owned(),
                PairForm::LowestZeroOfOr => "grundy_lowest_zero(x | y)".to_owned(),
                PairForm::LowestZeroOfOrLessOne => "grundy_lowest_zero((x - 1) | (y - 1))".to_owned(),
            };
            if matches!(form, PairForm::LowestZeroOfOr | PairForm::LowestZeroOfOrLessOne) {
                code.push_str(
                    "\n// The index of the lowest 0 bit of v.\ninline grundy_u64 grundy_lowest_zero(grundy_u64 v) {\n    \
                     grundy_u64 k = 0;\n    while (v & 1) { v >>= 1; ++k; }\n    return k;\n}\n",
                );
            }
            // Only a sum can pass 2^64 − 1: every other form is at most its larger argument, or
            // a nim-product, which stays below 2^64.
            let guard = if *form == PairForm::Sum {
                format!("    if (x > {CPP_MAX} - y) {}\n", cpp_too_large("grundy_value"))
            } else if *form == PairForm::LowestZeroOfOrLessOne {
                format!("    if (x < 1 || y < 1) {}\n", cpp_refuse("grundy_value: x and y must be at least 1"))
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
            cpp_line_value(row, "grundy_row_value", code);
            cpp_line_value(column, "grundy_column_value", code);
            value(code, "", "grundy_nim_mul(grundy_row_value(x), grundy_column_value(y))");
        }
        GridPattern::BlockXor { size, cell } => {
            let rows: Vec<String> = cell
                .iter()
                .map(|row| format!("{{{}}}", row.iter().map(|&v| cpp_u64(v)).collect::<Vec<_>>().join(", ")))
                .collect();
            let _ = writeln!(
                code,
                "\n// T(a, b) for a, b < {size}.\nstatic const grundy_u64 grundy_block[{size}][{size}] = {{{}}};",
                rows.join(", ")
            );
            // k * q + t fits exactly when q is at most (2^64 − 1 − t) / k.
            let guard = format!(
                "    grundy_u64 q = (x / {size}) ^ (y / {size}), t = grundy_block[x % {size}][y % {size}];\n    \
                 if (q > ({CPP_MAX} - t) / {size}) {}\n",
                cpp_too_large("grundy_value")
            );
            value(code, &guard, &format!("{size} * q + t"));
        }
        GridPattern::Periodic2D { period_x, period_y, saltus_x, saltus_y, block } => {
            let rows: Vec<String> = block
                .iter()
                .map(|row| format!("{{{}}}", row.iter().map(|&v| cpp_u64(v)).collect::<Vec<_>>().join(", ")))
                .collect();
            let _ = writeln!(
                code,
                "\n// G(x, y) for x < {period_x}, y < {period_y}.\nstatic const grundy_u64 grundy_block[{period_x}][{period_y}] = {{{}}};",
                rows.join(", ")
            );
            let (d, e) = (cpp_u64(*saltus_x), cpp_u64(*saltus_y));
            // Each term is added only when the total stays at most 2^64 − 1.
            let mut guard = format!(
                "    grundy_u64 total = grundy_block[x % {period_x}][y % {period_y}], laps_x = x / {period_x}, laps_y = y / {period_y};\n"
            );
            for (laps, saltus) in [("laps_x", &d), ("laps_y", &e)] {
                if saltus != "0" {
                    let _ = writeln!(
                        guard,
                        "    if ({laps} > ({CPP_MAX} - total) / {saltus}) {}\n    total += {laps} * {saltus};",
                        cpp_too_large("grundy_value")
                    );
                }
            }
            if d == "0" && e == "0" {
                guard.push_str("    (void) laps_x;\n    (void) laps_y;\n");
            }
            value(code, &guard, "total");
        }
        GridPattern::Beatty { c } => {
            let d = c * c + 4;
            let k_most = (u128::MAX / u128::from(d)).isqrt() as u64;
            // a_k = (k(2 − c) + r) / 2 with r = floor(sqrt(k²d)) ≥ k(c − 2); the halves are
            // added apart so that nothing passes 2^64 − 1.
            let lower = match c {
                1 => "k / 2 + r / 2 + ((k & 1) + (r & 1)) / 2".to_owned(),
                2 => "r / 2".to_owned(),
                c => format!("(r - k * {}) / 2", c - 2),
            };
            let _ = write!(
                code,
                "
// a_k = floor(k * alpha), alpha = (2 - {c} + sqrt({d})) / 2, exactly, for k <= {k_most} (k * k * {d} < 2^128).
inline grundy_u64 grundy_lower(grundy_u64 k) {{
    grundy_u64 r = grundy_isqrt_wide(grundy_mul_small_wide(grundy_mul_wide(k, k), {d}));
    return {lower};
}}

// The P-position of gap {c_k} is (a_k, a_k + {c_k}). Past k = {k_most}, k * k * {d} would pass 2^128,
// and then a_k + {c_k} > k * ({c} + alpha) - 1 > k * sqrt({d}) - 1 >= 2^64 - 1: no such pair fits.
inline bool is_p_position(grundy_u64 x, grundy_u64 y) {{
    if (x > y) std::swap(x, y);
    grundy_u64 gap = y - x;
    if (gap % {c} != 0 || gap / {c} > {k_most_literal}) return false;
    return grundy_lower(gap / {c}) == x;
}}
",
                k_most_literal = cpp_u64(k_most),
                c_k = if *c == 1 { "k".to_owned() } else { format!("{c}k") },
            );
        }
        GridPattern::Diagonal => {
            code.push_str("\ninline bool is_p_position(grundy_u64 x, grundy_u64 y) { return x == y; }\n");
        }
        GridPattern::PeriodicP { from, period_x, period_y, p_cells } => {
            let rows: Vec<String> = p_cells
                .iter()
                .map(|row| {
                    format!(
                        "{{{}}}",
                        row.iter().map(|&p| if p { "true" } else { "false" }).collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            let _ = writeln!(
                code,
                "\n// Whether (x mod {period_x}, y mod {period_y}) is a P-position.\nstatic const bool grundy_p_cells[{period_x}][{period_y}] = {{{}}};\n\n\
                 inline bool is_p_position(grundy_u64 x, grundy_u64 y) {{\n{}    \
                 return grundy_p_cells[x % {period_x}][y % {period_y}];\n}}",
                rows.join(", "),
                if *from > 0 {
                    format!(
                        "    if (x < {from} || y < {from}) {}\n",
                        cpp_refuse(&format!("is_p_position: x and y must be at least {from}"))
                    )
                } else {
                    String::new()
                }
            );
        }
        GridPattern::Rows { rows, symmetric } => {
            for (x, row) in rows.iter().enumerate() {
                cpp_line_value(row, &format!("grundy_row_{x}"), code);
            }
            let count = rows.len();
            let _ = writeln!(
                code,
                "\n// G(x, y) for x < {count}{}; elsewhere no pattern was found: std::out_of_range.\n\
                 inline grundy_u64 grundy_value(grundy_u64 x, grundy_u64 y) {{",
                if *symmetric { format!(" or y < {count} (the table is symmetric)") } else { String::new() }
            );
            if *symmetric {
                let _ = writeln!(code, "    if (x >= {count} && y < {count}) std::swap(x, y);");
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
                "\ninline bool is_p_position(grundy_u64 x, grundy_u64 y) { return grundy_value(x, y) == 0; }\n",
            );
        }
    }
}

/// The Python expression of the bitwise form `form` of `m` (what `G(n)` is, with `m = n + c`).
pub(super) fn python_bit_expression(form: &BitForm) -> String {
    let ones = "bin(m).count(\"1\")";
    match form {
        BitForm::Gray => "m ^ (m >> 1)".to_owned(),
        BitForm::LowestBit => "m & -m".to_owned(),
        BitForm::TwoAdicValuation => "(m & -m).bit_length() - 1".to_owned(),
        BitForm::Popcount => ones.to_owned(),
        BitForm::PopcountParity => format!("{ones} % 2"),
        BitForm::Odious => format!("2 * m + 1 - {ones} % 2"),
        BitForm::Evil => format!("2 * m + {ones} % 2"),
        BitForm::HighestBit => "1 << (m.bit_length() - 1)".to_owned(),
    }
}
