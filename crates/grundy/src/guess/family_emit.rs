//! A family's pattern as code: `grundy_value(position…, parameters…)` and
//! `is_p_position(position…, parameters…)`, a Python module or C++ that compiles as C++98 and
//! later (no `auto`, no range-for, no `>>` closing templates, no 128-bit integers).
//!
//! With a family formula the code computes it, exactly: Python on integers of any size, C++ on
//! `unsigned long long` positions and parameters up to 10^17 (the linear forms are taken in
//! `long long`), throwing `std::out_of_range` where the Python raises `ValueError` and where a
//! value would pass 2^64 − 1. A proved formula refuses parameters outside its theorem's
//! domain; a checked one says in its first lines where it was checked.
//!
//! With no formula, a subtraction family (`sub:…`) gets its definition as a solver: the
//! values one by one by mex over the moves, until a window of `max S` consecutive values
//! repeats. From there the sequence is periodic, because every value from `max S` on depends
//! only on the `max S` values before it (the window argument): a theorem applied as the code
//! runs, not a guessed pattern. Other families with no formula get no code (the caller says
//! so).

use super::emit::{Language, comment_text, python_bit_expression};
use super::family::{CycleForm, FamilyFormula, FamilyGuess, PairFamily, Shape};
use super::grid::PairForm;
use super::line::BitForm;
use super::template::{Linear, Template};
use std::fmt::Write;

/// The most values the emitted subtraction solver computes before it gives up.
pub const SOLVER_LIMIT: u64 = 2_000_000;

/// The code for a family, or `Err` with the reason there is none.
///
/// # Errors
/// A sentence saying why no code is emitted (no formula and no solver for the family's rules,
/// or a formula the language cannot write exactly).
pub fn emit_family(family: &FamilyGuess, template: &Template, language: Language) -> Result<String, String> {
    let names = Names::of(&family.names());
    let (comment, mut code) = super::emit::file_start(language);
    let ranges: Vec<String> =
        family.parameters.iter().map(|range| format!("{} = {}..{}", range.name, range.low, range.high)).collect();
    let _ = write!(code, "{comment} {}: ", comment_text(&format!("{}, {}", family.template, ranges.join(", "))));
    let legend = format!("{comment} arguments: {}", comment_text(&names.legend()));
    let (position, arguments) = match family.shape {
        Shape::Line { .. } => (vec!["n".to_owned()], [vec!["n".to_owned()], names.code.clone()].concat()),
        Shape::Grid => {
            (vec!["x".to_owned(), "y".to_owned()], [vec!["x".to_owned(), "y".to_owned()], names.code.clone()].concat())
        }
    };
    match &family.formula {
        Some(formula) => {
            let _ = writeln!(code, "{}", comment_text(&formula.text(&names.user)));
            match &family.proof {
                Some(theorem) => {
                    let _ = writeln!(code, "{comment} proved: {}", comment_text(theorem));
                    let _ = writeln!(code, "{comment} {} (grundy guess)", comment_text(&family.checked_text()));
                }
                None => {
                    let _ = writeln!(
                        code,
                        "{comment} checked (not proved): {}; elsewhere it is a guess (grundy guess)",
                        comment_text(&family.checked_text())
                    );
                }
            }
            let _ = writeln!(code, "{legend}");
            match language {
                Language::Python => python_formula(family, formula, &names, &position, &arguments, &mut code)?,
                Language::Cpp => cpp_formula(family, formula, &names, &position, &arguments, &mut code)?,
            }
        }
        None => {
            let Some((prefix, items)) = template.linear_items() else {
                return Err(no_code(family));
            };
            if prefix != "sub" || family.shape != (Shape::Line { first: 0 }) {
                return Err(no_code(family));
            }
            let _ = writeln!(code, "no formula across the family was found: this is its definition, solved");
            let _ = writeln!(
                code,
                "{comment} Cost: for each set S, O((e + p) * |S|) time and memory for e + p values, e the preperiod and p the period;"
            );
            let _ =
                writeln!(code, "{comment} then O(1) per heap. It gives up past {SOLVER_LIMIT} values. (grundy guess)");
            let _ = writeln!(code, "{legend}");
            match language {
                Language::Python => python_solver(&items, &names, &mut code),
                Language::Cpp => cpp_solver(&items, &names, &mut code),
            }
        }
    }
    let call = arguments.join(", ");
    match language {
        _ if !family.formula.as_ref().is_none_or(FamilyFormula::gives_values) => {}
        Language::Python => {
            let _ = write!(code, "\n\ndef is_p_position({call}):\n    return grundy_value({call}) == 0\n");
        }
        Language::Cpp => {
            let declared: Vec<String> = arguments.iter().map(|name| format!("unsigned long long {name}")).collect();
            let _ =
                write!(code, "\nbool is_p_position({}) {{ return grundy_value({call}) == 0; }}\n", declared.join(", "));
        }
    }
    Ok(code)
}

/// A family's parameter names three ways: as the user wrote them (for comments, through
/// [`comment_text`]), as identifiers of the emitted code, and as they stand inside its string
/// literals (messages).
///
/// A user's name never becomes an identifier of the code: it may be a keyword (`if`, `class`,
/// `int`, `auto`), a builtin the code calls (`divmod`, `sorted`, `min`), a variable of the
/// emitted function itself (`r`, `period`, `n`, `moves`) or another parameter's name after any
/// rewriting. Each parameter is `param_NAME` instead: no keyword, builtin or name of the
/// emitted code starts with `param`, so it is distinct from all of them, and the map is
/// one-to-one. A name that could not stand in that form (a `__`, reserved in C++, a leading
/// `_`, any character but an ASCII letter, digit or `_`), or a name repeated, is `paramK`
/// instead, K its position, which no `param_NAME` can be.
struct Names {
    user: Vec<String>,
    code: Vec<String>,
    shown: Vec<String>,
}

impl Names {
    fn of(user: &[String]) -> Names {
        let plain = |name: &str| {
            !name.is_empty()
                && !name.starts_with('_')
                && !name.contains("__")
                && name.chars().all(|character| character.is_ascii_alphanumeric() || character == '_')
        };
        let mut code: Vec<String> = Vec::with_capacity(user.len());
        for (i, name) in user.iter().enumerate() {
            // A repeated name (possible only for a family built by hand) gets its position.
            let readable = format!("param_{name}");
            code.push(if plain(name) && !code.contains(&readable) { readable } else { format!("param{}", i + 1) });
        }
        // Inside a string literal a name of letters, digits and `_` stands as written; anything
        // else (a quote, a backslash, a `??`) could end the literal or change it: the identifier.
        let shown = user
            .iter()
            .zip(&code)
            .map(|(name, identifier)| {
                if !name.is_empty()
                    && name.chars().all(|character| character.is_ascii_alphanumeric() || character == '_')
                {
                    name.clone()
                } else {
                    identifier.clone()
                }
            })
            .collect();
        Names { user: user.to_vec(), code, shown }
    }

    /// `param_a is a, param_b is b`, for the comment that says which argument is which.
    fn legend(&self) -> String {
        self.code.iter().zip(&self.user).map(|(code, user)| format!("{code} is {user}")).collect::<Vec<_>>().join(", ")
    }
}

fn no_code(family: &FamilyGuess) -> String {
    format!(
        "no formula across the family {} was found, and its rules are not a subtraction set the code could solve: nothing to emit",
        family.template
    )
}

/// Python: the arguments as integers, the position checked, the theorem's domain refused.
fn python_prologue(family: &FamilyGuess, names: &Names, position: &[String], arguments: &[String], code: &mut String) {
    let _ = writeln!(code, "\ndef grundy_value({}):", arguments.join(", "));
    let _ = writeln!(
        code,
        "    {} = {}",
        arguments.join(", "),
        arguments.iter().map(|a| format!("int({a})")).collect::<Vec<_>>().join(", ")
    );
    let first = match family.shape {
        Shape::Line { first } => first,
        Shape::Grid => 0,
    };
    for coordinate in position {
        let _ = writeln!(
            code,
            "    if {coordinate} < {first}:\n        raise ValueError(\"grundy_value: {coordinate} must be at least {first}\")"
        );
    }
    for (name, shown) in names.code.iter().zip(&names.shown) {
        let _ = writeln!(
            code,
            "    if {name} < 0:\n        raise ValueError(\"grundy_value: {shown} must be at least 0\")"
        );
    }
    for form in &family.proof_domain {
        let _ = writeln!(
            code,
            "    if {} < 1:\n        raise ValueError(\"grundy_value: the theorem needs {} >= 1\")",
            form.code(&names.code, ""),
            ascii_text(form, names)
        );
    }
}

fn python_formula(
    family: &FamilyGuess,
    formula: &FamilyFormula,
    names: &Names,
    position: &[String],
    arguments: &[String],
    code: &mut String,
) -> Result<(), String> {
    let linear = |form: &Linear| form.code(&names.code, "");
    let refuse_below_one = |code: &mut String, what: &str, form: &Linear| {
        let _ = writeln!(
            code,
            "    {what} = {}\n    if {what} < 1:\n        raise ValueError(\"grundy_value: {what} = {} is below 1 here\")",
            linear(form),
            ascii_text(form, names)
        );
    };
    match formula {
        FamilyFormula::Beatty { c } => {
            let _ = write!(
                code,
                "\nfrom math import isqrt\n\n\ndef _lower(k, c):\n    \"\"\"a_k = floor(k * alpha), alpha = (2 - c + sqrt(c * c + 4)) / 2, exactly.\"\"\"\n    \
                 return (k * (2 - c) + isqrt(k * k * (c * c + 4))) // 2\n"
            );
            python_p_prologue(names, arguments, code);
            let _ = writeln!(
                code,
                "    c = {}\n    if c < 1:\n        raise ValueError(\"is_p_position: c = {} is below 1 here\")",
                linear(c),
                ascii_text(c, names)
            );
            code.push_str(
                "    x, y = sorted((x, y))\n    gap = y - x\n    return gap % c == 0 and _lower(gap // c, c) == x\n",
            );
            return Ok(());
        }
        FamilyFormula::Diagonal => {
            python_p_prologue(names, arguments, code);
            code.push_str("    return x == y\n");
            return Ok(());
        }
        _ => {}
    }
    python_prologue(family, names, position, arguments, code);
    match formula {
        FamilyFormula::Periodic { first, start, before, period, saltus, cycle } => {
            if !before.is_empty() {
                let _ = writeln!(
                    code,
                    "    if n < {start}:\n        return ({},)[n - {first}]",
                    before.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                );
            }
            refuse_below_one(code, "period", period);
            let since = if *start == 0 { "n".to_owned() } else { format!("n - {start}") };
            let _ = writeln!(code, "    laps, r = divmod({since}, period)");
            let growth = if saltus.is_constant() && saltus.constant == 0 {
                String::new()
            } else {
                let _ = writeln!(
                    code,
                    "    saltus = {}\n    if saltus < 0:\n        raise ValueError(\"grundy_value: the saltus is negative here\")",
                    linear(saltus)
                );
                " + laps * saltus".to_owned()
            };
            match cycle {
                CycleForm::Table(values) => {
                    let _ = writeln!(
                        code,
                        "    return ({},)[r]{growth}",
                        values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                    );
                }
                CycleForm::Remainder => {
                    let _ = writeln!(code, "    return r{growth}");
                }
                CycleForm::Blocks { width, tail } => {
                    refuse_below_one(code, "width", width);
                    let _ = writeln!(code, "    q = r // width");
                    if let Some(tail) = tail {
                        let _ = writeln!(
                            code,
                            "    if q % 2 == 0 and r >= {}:\n        return {}{growth}",
                            linear(&tail.from),
                            tail.value
                        );
                    }
                    let _ = writeln!(code, "    return q % 2{growth}");
                }
            }
        }
        FamilyFormula::Bitwise { form, shift, .. } => {
            let _ = writeln!(code, "    m = n + {}", linear(shift));
            let least = form.least_argument();
            let _ = writeln!(
                code,
                "    if m < {least}:\n        raise ValueError(\"grundy_value: n + {} must be at least {least}\")",
                ascii_text(shift, names)
            );
            let _ = writeln!(code, "    return {}", python_bit_expression(form));
        }
        FamilyFormula::Pair(pair) => {
            let expression = match pair {
                PairFamily::Fixed(PairForm::Xor) => "x ^ y".to_owned(),
                PairFamily::Fixed(PairForm::Sum) => "x + y".to_owned(),
                PairFamily::Fixed(PairForm::Min) => "min(x, y)".to_owned(),
                PairFamily::Fixed(PairForm::Max) => "max(x, y)".to_owned(),
                PairFamily::Fixed(PairForm::Difference) => "abs(x - y)".to_owned(),
                PairFamily::Fixed(PairForm::SumMod(modulus)) => format!("(x + y) % {modulus}"),
                PairFamily::Fixed(PairForm::NimProduct) => {
                    return Err("a family of nim-products: emit one game with `grundy guess GAME --emit`".to_owned());
                }
                PairFamily::Fixed(PairForm::LowestZeroOfOr | PairForm::LowestZeroOfOrLessOne) => {
                    return Err(
                        "a family of lowest-0-bit forms: emit one game with `grundy guess GAME --emit`".to_owned()
                    );
                }
                PairFamily::SumMod(modulus) => {
                    refuse_below_one(code, "modulus", modulus);
                    "(x + y) % modulus".to_owned()
                }
            };
            let _ = writeln!(code, "    return {expression}");
        }
        FamilyFormula::BashPlusOne { below, take } => {
            // The theorem's domain (k ≥ 1) is refused in the prologue.
            let _ = writeln!(code, "    k = {}", linear(take));
            let _ = writeln!(
                code,
                "    if k % {below} != 0:\n        return n % {below}\n    r = n % (k + 1)\n    return {below} if r == k else r % {below}"
            );
        }
        FamilyFormula::Beatty { .. } | FamilyFormula::Diagonal => unreachable!("handled above"),
    }
    Ok(())
}

/// Python: `is_p_position`'s head for a family of P-positions patterns (no `grundy_value`).
fn python_p_prologue(names: &Names, arguments: &[String], code: &mut String) {
    let _ = writeln!(code, "\ndef is_p_position({}):", arguments.join(", "));
    let _ = writeln!(
        code,
        "    {} = {}",
        arguments.join(", "),
        arguments.iter().map(|a| format!("int({a})")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(
        code,
        "    if x < 0 or y < 0:\n        raise ValueError(\"is_p_position: x and y must be at least 0\")"
    );
    for (name, shown) in names.code.iter().zip(&names.shown) {
        let _ = writeln!(
            code,
            "    if {name} < 0:\n        raise ValueError(\"is_p_position: {shown} must be at least 0\")"
        );
    }
}

/// A linear form as ASCII text, for messages inside the code.
fn ascii_text(form: &Linear, names: &Names) -> String {
    form.text(&names.shown).replace('−', "-").replace('·', "*")
}

fn python_solver(items: &[Linear], names: &Names, code: &mut String) {
    let set: Vec<String> = items.iter().map(|item| item.code(&names.code, "")).collect();
    let _ = write!(
        code,
        "
_SOLVED = {{}}


def _sequence(moves):
    \"\"\"The values of the subtraction game with set `moves`, until a window of max(moves)
    values repeats: (values, start, period), G(n) = values[start + (n - start) % period] past
    the values computed (the window argument).\"\"\"
    if moves in _SOLVED:
        return _SOLVED[moves]
    width = max(moves)
    values = []
    seen = {{}}
    n = 0
    while True:
        options = set(values[n - s] for s in moves if s <= n)
        g = 0
        while g in options:
            g += 1
        values.append(g)
        n += 1
        if n >= width:
            window = tuple(values[n - width:])
            if window in seen:
                found = (values, seen[window], n - width - seen[window])
                _SOLVED[moves] = found
                return found
            seen[window] = n - width
        if n > {SOLVER_LIMIT}:
            raise ValueError(\"grundy_value: no period within {SOLVER_LIMIT} values\")
"
    );
    let _ = writeln!(code, "\n\ndef grundy_value(n, {}):", names.code.join(", "));
    let _ = writeln!(code, "    n = int(n)");
    let _ = writeln!(
        code,
        "    {} = {}",
        names.code.join(", "),
        names.code.iter().map(|a| format!("int({a})")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(code, "    if n < 0:\n        raise ValueError(\"grundy_value: n must be at least 0\")");
    let _ = writeln!(code, "    moves = tuple(sorted(set(({},))))", set.join(", "));
    let _ = writeln!(
        code,
        "    if moves[0] < 1:\n        raise ValueError(\"grundy_value: every move must take at least 1\")"
    );
    code.push_str(
        "    values, start, period = _sequence(moves)\n    if n < len(values):\n        return values[n]\n    \
         return values[start + (n - start) % period]\n",
    );
}

/// C++: the declarations and the checks of `grundy_value`'s arguments.
fn cpp_prologue(family: &FamilyGuess, names: &Names, position: &[String], arguments: &[String], code: &mut String) {
    let declared: Vec<String> = arguments.iter().map(|name| format!("unsigned long long {name}")).collect();
    let _ = writeln!(code, "\nunsigned long long grundy_value({}) {{", declared.join(", "));
    let first = match family.shape {
        Shape::Line { first } => first,
        Shape::Grid => 0,
    };
    if first > 0 {
        for coordinate in position {
            let _ = writeln!(
                code,
                "    if ({coordinate} < {first}ULL) throw std::out_of_range(\"grundy_value: {coordinate} must be at least {first}\");"
            );
        }
    }
    cpp_parameter_guard(names, "grundy_value", code);
    for form in &family.proof_domain {
        let _ = writeln!(
            code,
            "    if ({} < 1LL) throw std::out_of_range(\"grundy_value: the theorem needs {} >= 1\");",
            cpp_linear(form, &names.code),
            ascii_text(form, names)
        );
    }
}

fn cpp_parameter_guard(names: &Names, function: &str, code: &mut String) {
    for (name, shown) in names.code.iter().zip(&names.shown) {
        let _ = writeln!(
            code,
            "    if ({name} > 100000000000000000ULL) throw std::out_of_range(\"{function}: {shown} must be at most 10^17\");"
        );
    }
}

/// A linear form in `long long` (the parameters are at most 10^17, the coefficients small).
fn cpp_linear(form: &Linear, names: &[String]) -> String {
    let mut terms = Vec::new();
    for (&c, name) in form.coefficients.iter().zip(names) {
        match c {
            0 => {}
            1 => terms.push(format!("(long long) {name}")),
            c => terms.push(format!("{c}LL * (long long) {name}")),
        }
    }
    if form.constant != 0 || terms.is_empty() {
        terms.push(format!("{}LL", form.constant));
    }
    format!("({})", terms.join(" + ").replace("+ -", "- "))
}

fn cpp_formula(
    family: &FamilyGuess,
    formula: &FamilyFormula,
    names: &Names,
    position: &[String],
    arguments: &[String],
    code: &mut String,
) -> Result<(), String> {
    code.push_str("#include <algorithm>\n#include <stdexcept>\n");
    let linear = |form: &Linear| cpp_linear(form, &names.code);
    let at_least_one = |code: &mut String, what: &str, form: &Linear| {
        let _ = writeln!(
            code,
            "    long long {what} = {};\n    if ({what} < 1LL) throw std::out_of_range(\"grundy_value: {what} = {} is below 1 here\");",
            linear(form),
            ascii_text(form, names)
        );
    };
    let declared: Vec<String> = arguments.iter().map(|name| format!("unsigned long long {name}")).collect();
    match formula {
        FamilyFormula::Beatty { .. } => {
            return Err("C++ for a family of Beatty pairs needs 128-bit integers: use --emit python".to_owned());
        }
        FamilyFormula::Diagonal => {
            let _ = writeln!(code, "\nbool is_p_position({}) {{", declared.join(", "));
            cpp_parameter_guard(names, "is_p_position", code);
            code.push_str("    return x == y;\n}\n");
            return Ok(());
        }
        _ => {}
    }
    cpp_prologue(family, names, position, arguments, code);
    match formula {
        FamilyFormula::Periodic { first, start, before, period, saltus, cycle } => {
            if !before.is_empty() {
                let items: Vec<String> = before.iter().map(|value| format!("{value}ULL")).collect();
                let _ = writeln!(code, "    static const unsigned long long before[] = {{{}}};", items.join(", "));
                let _ = writeln!(code, "    if (n < {start}ULL) return before[n - {first}ULL];");
            }
            at_least_one(code, "period", period);
            let since = if *start == 0 { "n".to_owned() } else { format!("(n - {start}ULL)") };
            let growing = !(saltus.is_constant() && saltus.constant == 0);
            if growing {
                let _ = writeln!(code, "    unsigned long long laps = {since} / (unsigned long long) period;");
            }
            let _ = writeln!(code, "    unsigned long long r = {since} % (unsigned long long) period;");
            if growing {
                let _ = writeln!(
                    code,
                    "    long long saltus = {};\n    if (saltus < 0LL) throw std::out_of_range(\"grundy_value: the saltus is negative here\");",
                    linear(saltus)
                );
            }
            // value + laps * saltus, refused where it passes 2^64 - 1.
            let finish = |code: &mut String, value: &str| {
                if growing {
                    let _ = writeln!(
                        code,
                        "    {{\n        unsigned long long v = {value}, s = (unsigned long long) saltus;\n        \
                         if (s != 0 && laps > (~0ULL - v) / s) throw std::out_of_range(\"grundy_value: the value passes 2^64 - 1\");\n        \
                         return v + laps * s;\n    }}"
                    );
                } else {
                    let _ = writeln!(code, "    return {value};");
                }
            };
            match cycle {
                CycleForm::Table(values) => {
                    let items: Vec<String> = values.iter().map(|value| format!("{value}ULL")).collect();
                    let _ = writeln!(code, "    static const unsigned long long cycle[] = {{{}}};", items.join(", "));
                    finish(code, "cycle[r]");
                }
                CycleForm::Remainder => finish(code, "r"),
                CycleForm::Blocks { width, tail } => {
                    at_least_one(code, "width", width);
                    let _ = writeln!(code, "    unsigned long long q = r / (unsigned long long) width;");
                    if let Some(tail) = tail {
                        let _ = writeln!(code, "    long long from = {};", linear(&tail.from));
                        let _ = writeln!(
                            code,
                            "    if (q % 2ULL == 0ULL && (from <= 0LL || r >= (unsigned long long) from)) {{"
                        );
                        let mut inner = String::new();
                        finish(&mut inner, &format!("{}ULL", tail.value));
                        for line in inner.lines() {
                            let _ = writeln!(code, "    {line}");
                        }
                        code.push_str("    }\n");
                    }
                    finish(code, "q % 2ULL");
                }
            }
        }
        FamilyFormula::Bitwise { form, shift, .. } => {
            let _ = writeln!(code, "    long long shift = {};", linear(shift));
            code.push_str(
                "    if (shift < 0LL && n < (unsigned long long) (-shift)) throw std::out_of_range(\"grundy_value: n + shift is negative\");\n    \
                 if (shift > 0LL && n > ~0ULL - (unsigned long long) shift) throw std::out_of_range(\"grundy_value: n + shift passes 2^64 - 1\");\n    \
                 unsigned long long m = shift < 0LL ? n - (unsigned long long) (-shift) : n + (unsigned long long) shift;\n",
            );
            if form.least_argument() > 0 {
                let _ = writeln!(
                    code,
                    "    if (m < {}ULL) throw std::out_of_range(\"grundy_value: n + shift must be at least {}\");",
                    form.least_argument(),
                    form.least_argument()
                );
            }
            let popcount = "grundy_popcount(m)";
            let expression = match form {
                BitForm::Gray => "m ^ (m >> 1)".to_owned(),
                BitForm::LowestBit => "m & (~m + 1ULL)".to_owned(),
                BitForm::TwoAdicValuation => "grundy_popcount((m & (~m + 1ULL)) - 1ULL)".to_owned(),
                BitForm::Popcount => popcount.to_owned(),
                BitForm::PopcountParity => format!("{popcount} & 1ULL"),
                BitForm::Odious | BitForm::Evil => {
                    code.push_str(
                        "    if (m >= (1ULL << 63)) throw std::out_of_range(\"grundy_value: the value passes 2^64 - 1\");\n",
                    );
                    if *form == BitForm::Odious {
                        format!("2ULL * m + 1ULL - ({popcount} & 1ULL)")
                    } else {
                        format!("2ULL * m + ({popcount} & 1ULL)")
                    }
                }
                BitForm::HighestBit => "grundy_highest_bit(m)".to_owned(),
            };
            let _ = writeln!(code, "    return {expression};");
            // Portable helpers (no compiler builtins), placed before grundy_value.
            let helpers = "\nstatic unsigned long long grundy_popcount(unsigned long long m) {\n    unsigned long long count = 0;\n    \
                           while (m) { m &= m - 1ULL; ++count; }\n    return count;\n}\n\n\
                           static unsigned long long grundy_highest_bit(unsigned long long m) {\n    \
                           while (m & (m - 1ULL)) m &= m - 1ULL;\n    return m;\n}\n";
            let at = code.rfind("\nunsigned long long grundy_value(").unwrap_or(code.len());
            code.insert_str(at, helpers);
        }
        FamilyFormula::Pair(pair) => {
            let expression = match pair {
                PairFamily::Fixed(PairForm::Xor) => "x ^ y".to_owned(),
                PairFamily::Fixed(PairForm::Sum) => {
                    code.push_str(
                        "    if (x > ~0ULL - y) throw std::out_of_range(\"grundy_value: the value passes 2^64 - 1\");\n",
                    );
                    "x + y".to_owned()
                }
                PairFamily::Fixed(PairForm::Min) => "std::min(x, y)".to_owned(),
                PairFamily::Fixed(PairForm::Max) => "std::max(x, y)".to_owned(),
                PairFamily::Fixed(PairForm::Difference) => "x > y ? x - y : y - x".to_owned(),
                PairFamily::Fixed(PairForm::SumMod(modulus)) => {
                    format!("(x % {modulus}ULL + y % {modulus}ULL) % {modulus}ULL")
                }
                PairFamily::Fixed(PairForm::NimProduct) => {
                    return Err("a family of nim-products: emit one game with `grundy guess GAME --emit`".to_owned());
                }
                PairFamily::Fixed(PairForm::LowestZeroOfOr | PairForm::LowestZeroOfOrLessOne) => {
                    return Err(
                        "a family of lowest-0-bit forms: emit one game with `grundy guess GAME --emit`".to_owned()
                    );
                }
                PairFamily::SumMod(modulus) => {
                    at_least_one(code, "modulus", modulus);
                    "(x % (unsigned long long) modulus + y % (unsigned long long) modulus) % (unsigned long long) modulus"
                        .to_owned()
                }
            };
            let _ = writeln!(code, "    return {expression};");
        }
        FamilyFormula::BashPlusOne { below, take } => {
            at_least_one(code, "k", take);
            let _ = writeln!(
                code,
                "    if ((unsigned long long) k % {below}ULL != 0ULL) return n % {below}ULL;\n    \
                 unsigned long long r = n % ((unsigned long long) k + 1ULL);\n    \
                 return r == (unsigned long long) k ? {below}ULL : r % {below}ULL;"
            );
        }
        FamilyFormula::Beatty { .. } | FamilyFormula::Diagonal => unreachable!("handled above"),
    }
    code.push_str("}\n");
    Ok(())
}

fn cpp_solver(items: &[Linear], names: &Names, code: &mut String) {
    let _ = write!(
        code,
        "#include <algorithm>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <vector>

// The values of one subtraction set, until a window of max(S) values repeats: then
// G(n) = values[start + (n - start) % period] past the values computed (the window argument).
struct grundy_sequence {{
    std::vector<unsigned long long> values;
    unsigned long long start, period;
}};

static const grundy_sequence& grundy_solve(const std::vector<unsigned long long>& moves) {{
    static std::map<std::vector<unsigned long long>, grundy_sequence> solved;
    std::map<std::vector<unsigned long long>, grundy_sequence>::iterator known = solved.find(moves);
    if (known != solved.end()) return known->second;
    grundy_sequence sequence;
    std::vector<unsigned long long>& values = sequence.values;
    unsigned long long width = moves.back();
    // A hash of each window of `width` values, to the window's start (compared in full on a hit).
    const unsigned long long base = 1000003ULL;
    unsigned long long top = 1ULL;
    for (unsigned long long i = 1; i < width; ++i) top *= base;
    std::map<unsigned long long, unsigned long long> seen;
    unsigned long long hash = 0;
    std::vector<char> present(moves.size() + 2);
    for (unsigned long long n = 0;; ++n) {{
        std::fill(present.begin(), present.end(), 0);
        for (std::size_t i = 0; i < moves.size() && moves[i] <= n; ++i) {{
            unsigned long long option = values[n - moves[i]];
            if (option < present.size()) present[option] = 1;
        }}
        unsigned long long g = 0;
        while (present[g]) ++g;
        values.push_back(g);
        if (n + 1 > width) hash -= values[n - width] * top;
        hash = hash * base + g;
        if (n + 1 >= width) {{
            unsigned long long here = n + 1 - width;
            std::map<unsigned long long, unsigned long long>::iterator hit = seen.find(hash);
            if (hit != seen.end() && std::equal(values.begin() + hit->second, values.begin() + hit->second + width, values.begin() + here)) {{
                sequence.start = hit->second;
                sequence.period = here - hit->second;
                return solved[moves] = sequence;
            }}
            if (hit == seen.end()) seen[hash] = here;
        }}
        if (n > {SOLVER_LIMIT}ULL) throw std::length_error(\"grundy_value: no period within {SOLVER_LIMIT} values\");
    }}
}}
"
    );
    let declared: Vec<String> = names.code.iter().map(|name| format!("unsigned long long {name}")).collect();
    let _ = writeln!(code, "\nunsigned long long grundy_value(unsigned long long n, {}) {{", declared.join(", "));
    cpp_parameter_guard(names, "grundy_value", code);
    let _ = writeln!(
        code,
        "    long long items[] = {{{}}};",
        items.iter().map(|item| cpp_linear(item, &names.code)).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(code, "    std::vector<unsigned long long> moves;");
    let _ = writeln!(code, "    for (std::size_t i = 0; i < {}; ++i) {{", items.len());
    code.push_str(
        "        if (items[i] < 1LL) throw std::out_of_range(\"grundy_value: every move must take at least 1\");\n        \
         moves.push_back((unsigned long long) items[i]);\n    }\n    \
         std::sort(moves.begin(), moves.end());\n    moves.erase(std::unique(moves.begin(), moves.end()), moves.end());\n    \
         const grundy_sequence& sequence = grundy_solve(moves);\n    \
         if (n < sequence.values.size()) return sequence.values[n];\n    \
         return sequence.values[sequence.start + (n - sequence.start) % sequence.period];\n}\n",
    );
}
