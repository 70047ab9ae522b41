//! A judge format and an input read with it: `FORMAT\0INPUT`; without a NUL byte, the whole
//! text is read as an input of every built-in format too.
#![no_main]
use grundy::judge_format::{BUILTIN_FORMATS, JudgeFormat};
use libfuzzer_sys::fuzz_target;

fn one_line(error: &str) {
    assert!(!error.contains('\n') && error.len() < 2000, "{error}");
}

fuzz_target!(|text: &str| {
    match text.split_once('\0') {
        Some((format, input)) => match JudgeFormat::parse(format) {
            Ok(format) => {
                if let Err(error) = format.read(input) {
                    one_line(&error.0);
                }
                if let Ok(writer) = format.writer(input) {
                    let heaps: Vec<u64> = input.bytes().map(u64::from).take(8).collect();
                    if let Some(test) = writer.test(&heaps) {
                        let written = format.write(&[test]);
                        format.read(&written).expect("a written test reads back");
                    }
                }
            }
            Err(error) => one_line(&error.0),
        },
        None => {
            for (_, _, format) in BUILTIN_FORMATS {
                if let Err(error) = JudgeFormat::parse(format).expect("built in").read(text) {
                    one_line(&error.0);
                }
            }
        }
    }
});
