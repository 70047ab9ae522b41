//! Any `guess --over` family: a range `NAME=A..B` and a template, parsed, filled and read as
//! linear items, or refused with a short error. Never a panic.
#![no_main]
use grundy::guess::template::{ParameterRange, Template};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (range, template) = text.split_once('\n').unwrap_or((text, "sub:{a},{b}"));
    if let Err(error) = ParameterRange::parse(range) {
        assert!(error.to_string().len() < 2000, "an error longer than 2000 bytes");
    }
    let names = ["a".to_owned(), "b".to_owned()];
    match Template::parse(template, &names) {
        Ok(parsed) => {
            let _ = parsed.fill(&[3, 1_000_000_000]);
            let _ = parsed.linear_items();
            let _ = parsed.uses();
        }
        Err(error) => assert!(error.to_string().len() < 2000, "an error longer than 2000 bytes"),
    }
    let script = Template::parse_names_only(template, &names);
    let _ = script.fill(&[0, 7]);
});
