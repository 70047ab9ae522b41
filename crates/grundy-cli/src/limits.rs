//! The memory the process may really use, for the library's table limit
//! (the run's [`grundy::control::Control`]): the smallest of the address-space limit
//! (`ulimit -v`, `RLIMIT_AS`), the cgroup's limit (v2 `memory.max`, v1
//! `memory.limit_in_bytes`) less what the cgroup already uses, and the memory available
//! (`MemAvailable` in `/proc/meminfo`); or exactly what `--memory-limit SIZE` says.

use grundy::error::{DEFAULT_MEMORY_LIMIT, quote};

/// Of what the process may use, the share one table may take: the rest is for the other
/// tables of the computation, the allocator's slack and the output.
const TABLE_SHARE_PERCENT: u128 = 80;

/// Parses a size: a number of bytes with an optional unit `K`, `M`, `G`, `T` (powers of
/// 1024, with or without `iB`/`B`), as in `--memory-limit 4G` or `512MiB`.
///
/// # Errors
/// One line naming the text.
pub fn parse_size(text: &str) -> Result<u128, String> {
    let trimmed = text.trim();
    let digits_end = trimmed.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(digits_end);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("bad size `{}`: write bytes or a number with K, M, G or T (`4G`)", quote(text))),
    };
    let value: f64 =
        number.parse().ok().filter(|value: &f64| value.is_finite() && *value > 0.0 && number.len() <= 20).ok_or_else(
            || format!("bad size `{}`: write a positive number of bytes, or with K, M, G or T (`4G`)", quote(text)),
        )?;
    let bytes = value * (1u128 << shift) as f64;
    if bytes > LARGEST_SIZE as f64 {
        return Err(format!("bad size `{}`: more than 16 EiB, all that a 64-bit process can address", quote(text)));
    }
    Ok(bytes as u128)
}

/// The largest size that means anything: a 64-bit address space.
const LARGEST_SIZE: u128 = 1 << 64;

/// The limit the process runs under, and what set it (for `--memory-limit` and the tests).
pub fn detected_limit() -> (u128, &'static str) {
    smallest_table_share(true)
}

/// The share [`TABLE_SHARE_PERCENT`] of the smallest of the limits on the process: the hard
/// ones (`ulimit -v`, the cgroup), which no flag can lift, and, with `available`, the memory
/// available now, which `--memory-limit` may overrule (swap, or memory about to be freed).
fn smallest_table_share(available: bool) -> (u128, &'static str) {
    let mut best = (DEFAULT_MEMORY_LIMIT * 100 / TABLE_SHARE_PERCENT, "the default of 15 GiB");
    let mut consider = |bytes: Option<u128>, source: &'static str| {
        if let Some(bytes) = bytes
            && bytes < best.0
        {
            best = (bytes, source);
        }
    };
    consider(address_space_room(), "the address-space limit (ulimit -v)");
    consider(cgroup_room(), "the cgroup's memory limit");
    if available {
        consider(meminfo("MemAvailable:"), "the memory available (MemAvailable)");
    }
    (best.0 * TABLE_SHARE_PERCENT / 100, best.1)
}

/// The limit `--memory-limit` asks for, lowered to what the hard limits on the process allow:
/// a table past `ulimit -v` or the cgroup's limit cannot be had, so it is refused up front,
/// naming that limit, instead of failing to allocate after passing the check.
fn flag_limit(asked: u128, hard: (u128, &'static str)) -> u128 {
    if hard.1.starts_with("the default") { asked } else { asked.min(hard.0) }
}

/// The memory limit of the run's control: `--memory-limit` or, without it, what the system
/// says.
///
/// # Errors
/// A bad `--memory-limit` text.
pub fn memory_limit(flag: Option<&str>) -> anyhow::Result<u128> {
    let limit = match flag {
        Some(text) => {
            let asked = parse_size(text).map_err(|message| anyhow::anyhow!("--memory-limit: {message}"))?;
            flag_limit(asked, smallest_table_share(false))
        }
        None => detected_limit().0,
    };
    Ok(limit)
}

/// The bounds of the misère commands (`outcome --misere`, `moves --misere`): the library's
/// defaults, with `--max-positions` bounding the exhaustive search when it is given.
pub fn misere() -> grundy::misere::Limits {
    let defaults = grundy::misere::Limits::default();
    grundy::misere::Limits {
        max_positions: crate::script_worker::options().max_positions.unwrap_or(defaults.max_positions),
        ..defaults
    }
}

/// `RLIMIT_AS` less the address space already mapped (`VmSize`), when a limit is set.
fn address_space_room() -> Option<u128> {
    let limit = crate::os::address_space_limit()?;
    let used = proc_status("VmSize:").unwrap_or(0);
    Some(u128::from(limit).saturating_sub(used))
}

/// A `kB` field of `/proc/self/status`, in bytes.
fn proc_status(field: &str) -> Option<u128> {
    kilobytes_field(&std::fs::read_to_string("/proc/self/status").ok()?, field)
}

/// A `kB` field of `/proc/meminfo`, in bytes.
fn meminfo(field: &str) -> Option<u128> {
    kilobytes_field(&std::fs::read_to_string("/proc/meminfo").ok()?, field)
}

fn kilobytes_field(text: &str, field: &str) -> Option<u128> {
    let line = text.lines().find(|line| line.starts_with(field))?;
    let kilobytes: u128 = line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kilobytes * 1024)
}

/// The cgroup's limit less its usage: v2 (`memory.max`, `memory.current`) or v1
/// (`memory.limit_in_bytes`, `memory.usage_in_bytes`), for the process's own cgroup.
fn cgroup_room() -> Option<u128> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let read = |file: String| -> Option<u128> { std::fs::read_to_string(file).ok()?.trim().parse().ok() };
        if controllers.is_empty() {
            let base = format!("/sys/fs/cgroup{path}");
            if let Some(limit) = read(format!("{base}/memory.max")) {
                return Some(limit.saturating_sub(read(format!("{base}/memory.current")).unwrap_or(0)));
            }
        } else if controllers.split(',').any(|name| name == "memory") {
            for base in [format!("/sys/fs/cgroup/memory{path}"), "/sys/fs/cgroup/memory".to_owned()] {
                // v1 reports "no limit" as a huge number (2^63 rounded to pages).
                if let Some(limit) = read(format!("{base}/memory.limit_in_bytes")).filter(|&limit| limit < 1 << 60) {
                    return Some(limit.saturating_sub(read(format!("{base}/memory.usage_in_bytes")).unwrap_or(0)));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("4K"), Ok(4096));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("512mb"), Ok(512 << 20));
        for bad in ["", "G", "-1G", "4Q", "0", "1e400", "99999999999999999999T", "17000000T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("99999999999999999999T").unwrap_err().contains("more than 16 EiB"));
        assert_eq!(parse_size("16777216T"), Ok(1 << 64));
    }

    #[test]
    fn a_flag_past_a_hard_limit_is_lowered_to_it() {
        let ulimit = (5 << 30, "the address-space limit (ulimit -v)");
        assert_eq!(flag_limit(100 << 30, ulimit), 5 << 30);
        assert_eq!(flag_limit(1 << 30, ulimit), 1 << 30);
        // No hard limit: the flag is taken as given, past the default share too.
        assert_eq!(flag_limit(100 << 30, (DEFAULT_MEMORY_LIMIT, "the default of 15 GiB")), 100 << 30);
    }

    #[test]
    fn the_detected_limit_is_positive_and_below_the_machine() {
        let (limit, source) = detected_limit();
        assert!(limit > 0, "{source}");
        if let Some(total) = meminfo("MemTotal:") {
            assert!(limit <= total, "{limit} > {total} ({source})");
        }
    }
}
