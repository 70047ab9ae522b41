//! Whole-number options written as contest statements write bounds: `--to 1e6` is
//! `--to 1000000`, as format files read `1e9` (`grundy::judge_format`). The command line's
//! words are rewritten before clap reads them, for every option whose value is an unsigned
//! integer (found in clap's own description of the command), so each command's `Args` keeps
//! its plain integer types.

use std::any::TypeId;
use std::ffi::OsString;

/// `MANTISSA e EXPONENT` (`1e6`, `25E3`) as its whole number, or `None` for any other word
/// (plain digits included: clap reads those) and for one too large for 64 bits.
fn exponent_form(text: &str) -> Option<u64> {
    let (mantissa, exponent) = text.split_once(['e', 'E'])?;
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    if !all_digits(mantissa) || !all_digits(exponent) {
        return None;
    }
    let mantissa: u64 = mantissa.parse().ok()?;
    let exponent: u32 = exponent.parse().ok()?;
    mantissa.checked_mul(10u64.checked_pow(exponent)?)
}

/// Whether clap reads `arg`'s value as an unsigned integer.
fn unsigned(arg: &clap::Arg) -> bool {
    let id = arg.get_value_parser().type_id();
    [TypeId::of::<u64>(), TypeId::of::<u32>(), TypeId::of::<usize>()].into_iter().any(|unsigned| id == unsigned)
}

/// Whether `--long` is an unsigned-integer option of `command` or of one of its subcommands.
fn unsigned_option(command: &clap::Command, long: &str) -> bool {
    command.get_arguments().any(|arg| arg.get_long() == Some(long) && unsigned(arg))
        || command.get_subcommands().any(|subcommand| unsigned_option(subcommand, long))
}

/// Whether `flag` (`--to`) is an option that takes an unsigned integer, for the message on a
/// negative value.
pub fn takes_unsigned(command: &clap::Command, flag: &str) -> bool {
    flag.strip_prefix("--").is_some_and(|long| unsigned_option(command, long))
}

/// `arguments` with every `1e6`-form value of an unsigned-integer option (`--to 1e6`,
/// `--to=1e6`) written out in digits; every other word as it was.
pub fn expand(arguments: Vec<OsString>, command: &clap::Command) -> Vec<OsString> {
    let mut expanded = Vec::with_capacity(arguments.len());
    let mut value_of_unsigned = false;
    let mut arguments = arguments.into_iter();
    for argument in arguments.by_ref() {
        let text = argument.to_str();
        if std::mem::take(&mut value_of_unsigned)
            && let Some(number) = text.and_then(exponent_form)
        {
            expanded.push(number.to_string().into());
            continue;
        }
        match text.and_then(|text| text.strip_prefix("--")) {
            Some("") => {
                // `--`: the rest are positional words.
                expanded.push(argument);
                break;
            }
            Some(option) => match option.split_once('=') {
                Some((long, value)) if unsigned_option(command, long) => {
                    match exponent_form(value) {
                        Some(number) => expanded.push(format!("--{long}={number}").into()),
                        None => expanded.push(argument),
                    }
                    continue;
                }
                Some(_) => {}
                None => value_of_unsigned = unsigned_option(command, option),
            },
            None => {}
        }
        expanded.push(argument);
    }
    expanded.extend(arguments);
    expanded
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Example {
        #[arg(long)]
        to: Option<u64>,
        #[arg(long)]
        name: Option<String>,
        words: Vec<String>,
    }

    fn expanded(words: &[&str]) -> Vec<String> {
        let arguments = words.iter().map(OsString::from).collect();
        expand(arguments, &Example::command()).into_iter().map(|word| word.into_string().unwrap()).collect()
    }

    #[test]
    fn exponent_form_is_a_whole_number() {
        assert_eq!(exponent_form("1e6"), Some(1_000_000));
        assert_eq!(exponent_form("25E3"), Some(25_000));
        assert_eq!(exponent_form("1e0"), Some(1));
        assert_eq!(exponent_form("1e19"), Some(10_000_000_000_000_000_000));
        assert_eq!(exponent_form("2e19"), None);
        assert_eq!(exponent_form("1e20"), None);
        for other in ["100", "e6", "1e", "1.5e3", "-1e3", "1e-3", "1e+3", "x"] {
            assert_eq!(exponent_form(other), None, "{other}");
        }
    }

    #[test]
    fn only_unsigned_options_are_rewritten() {
        assert_eq!(expanded(&["p", "--to", "1e6", "1e3"]), ["p", "--to", "1000000", "1e3"]);
        assert_eq!(expanded(&["p", "--to=2e2", "--name", "1e3"]), ["p", "--to=200", "--name", "1e3"]);
        assert_eq!(expanded(&["p", "--name=1e3", "--", "--to", "1e3"]), ["p", "--name=1e3", "--", "--to", "1e3"]);
        assert_eq!(expanded(&["p", "--to", "9e99"]), ["p", "--to", "9e99"]);
        let parsed = Example::try_parse_from(expanded(&["p", "--to", "1e6"])).unwrap();
        assert_eq!(parsed.to, Some(1_000_000));
    }
}
