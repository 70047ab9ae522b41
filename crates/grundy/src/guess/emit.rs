//! A found pattern as code a solution can paste: a self-contained Python module or C++17
//! functions defining `grundy_value(…)` (when the pattern gives values) and
//! `is_p_position(…)`, one argument per heap of the component, in exact integer arithmetic.

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
    let _ = writeln!(code, "{comment} {}: {}", guess.game, found.formula());
    let _ = writeln!(code, "{comment} {} (grundy guess)", found.status_text(guess));
    match language {
        Language::Python => python(&found.pattern, &mut code),
        Language::Cpp => cpp(&found.pattern, &mut code),
    }
    Some(code)
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
            let least = form.least_argument();
            let _ = writeln!(code, "\ndef {name}(n):\n    m = int(n) + ({shift})");
            let _ = writeln!(code, "    if m < {least}:\n        raise ValueError(\"{name}: n is out of range\")");
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
def _nim_mul(a, b, bits=64):
    \"\"\"The nim-product of a and b (Conway): with F = 2^h, F*F = F + F/2.\"\"\"
    if a < 2 or b < 2:
        return a * b
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

fn python_grid(pattern: &GridPattern, code: &mut String) {
    let value = |code: &mut String, expression: &str| {
        let _ = writeln!(code, "\ndef grundy_value(x, y):\n    x, y = int(x), int(y)\n    return {expression}");
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
                 x, y = sorted((int(x), int(y)))\n    gap = y - x\n    return gap % {c} == 0 and _lower(gap // {c}) == x\n",
                linear = 2 - *c as i64
            );
        }
        GridPattern::Diagonal => {
            code.push_str("\ndef is_p_position(x, y):\n    return int(x) == int(y)\n");
        }
        GridPattern::Rows { rows, symmetric } => {
            for (x, row) in rows.iter().enumerate() {
                python_line_value(row, &format!("_row_{x}"), code);
            }
            let names: Vec<String> = (0..rows.len()).map(|x| format!("_row_{x}")).collect();
            let _ = write!(
                code,
                "\n_ROWS = ({},)\n\n\ndef grundy_value(x, y):\n    \"\"\"G(x, y) for x < {count}{either}; no pattern was found elsewhere.\"\"\"\n    \
                 x, y = int(x), int(y)\n    if x >= {count} and {symmetric} and y < {count}:\n        x, y = y, x\n    \
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
    code.push_str("#include <algorithm>\n#include <cmath>\n#include <utility>\n#include <vector>\n");
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

fn cpp_line_value(pattern: &LinePattern, name: &str, code: &mut String) {
    let _ = writeln!(code, "\nunsigned long long {name}(unsigned long long n) {{");
    match pattern {
        LinePattern::Periodic { first, start, before, cycle, saltus } => {
            if *first > 0 {
                let _ = writeln!(code, "    if (n < {first}ULL) return 0;  // n starts at {first}");
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
            let _ = writeln!(code, "    return cycle[offset] + laps * {saltus}ULL;");
        }
        LinePattern::Bitwise { form, shift } => {
            let least = form.least_argument() as i64 - shift;
            if least > 0 {
                let _ = writeln!(code, "    if (n < {least}ULL) return 0;  // out of range");
            }
            let _ = writeln!(code, "    unsigned long long m = n + ({shift}LL);");
            let ones = "(unsigned long long) __builtin_popcountll(m)";
            let expression = match form {
                BitForm::Gray => "m ^ (m >> 1)".to_owned(),
                BitForm::LowestBit => "m & (~m + 1)".to_owned(),
                BitForm::TwoAdicValuation => "(unsigned long long) __builtin_ctzll(m)".to_owned(),
                BitForm::Popcount => ones.to_owned(),
                BitForm::PopcountParity => format!("{ones} & 1ULL"),
                BitForm::Odious => format!("2 * m + 1 - ({ones} & 1ULL)"),
                BitForm::Evil => format!("2 * m + ({ones} & 1ULL)"),
                BitForm::HighestBit => "1ULL << (63 - __builtin_clzll(m))".to_owned(),
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
    let value = |code: &mut String, expression: &str| {
        let _ = writeln!(
            code,
            "\nunsigned long long grundy_value(unsigned long long x, unsigned long long y) {{\n    return {expression};\n}}"
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
            value(code, &expression);
        }
        GridPattern::XorOfLines { row, column } => {
            cpp_line_value(row, "grundy_row_value", code);
            cpp_line_value(column, "grundy_column_value", code);
            value(code, "grundy_row_value(x) ^ grundy_column_value(y)");
        }
        GridPattern::ProductOfLines { row, column } => {
            code.push_str(CPP_NIM_MUL);
            cpp_line_value(row, "grundy_row_value", code);
            cpp_line_value(column, "grundy_column_value", code);
            value(code, "grundy_nim_mul(grundy_row_value(x), grundy_column_value(y))");
        }
        GridPattern::Beatty { c } => {
            let d = c * c + 4;
            let _ = write!(
                code,
                "
// floor(sqrt(v)), exact.
static unsigned __int128 grundy_isqrt(unsigned __int128 v) {{
    unsigned __int128 r = (unsigned __int128) std::sqrt((long double) v);
    while (r > 0 && r * r > v) --r;
    while ((r + 1) * (r + 1) <= v) ++r;
    return r;
}}

// a_k = floor(k * alpha), alpha = (2 - {c} + sqrt({d})) / 2, exactly (k up to 10^18).
static unsigned long long grundy_lower(unsigned long long k) {{
    unsigned __int128 wide = k;
    __int128 sum = (__int128) wide * ({linear}) + (__int128) grundy_isqrt(wide * wide * {d}U);
    return (unsigned long long) (sum / 2);
}}

bool is_p_position(unsigned long long x, unsigned long long y) {{
    if (x > y) std::swap(x, y);
    unsigned long long gap = y - x;
    return gap % {c}ULL == 0 && grundy_lower(gap / {c}ULL) == x;
}}
",
                linear = 2 - *c as i64
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
                "\n// G(x, y) for x < {count}{}; elsewhere no pattern was found and the answer is ~0ULL.\n\
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
            code.push_str("        default: return ~0ULL;\n    }\n}\n");
            code.push_str(
                "\nbool is_p_position(unsigned long long x, unsigned long long y) { return grundy_value(x, y) == 0; }\n",
            );
        }
    }
}
