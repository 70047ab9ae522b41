//! Running the program under check: `bash -c CMD`, timed, in its own process group, killed
//! with everything it started at the deadline or when grundy gets a signal.

use crate::output::Stop;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The program's process group, known to the signal handler while it runs (the handler kills
/// it on SIGINT, SIGTERM or SIGHUP), forgotten when dropped.
struct Registered(u32);

impl Registered {
    fn new(pid: u32) -> Registered {
        crate::signals::add_worker(pid);
        Registered(pid)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        crate::signals::remove_worker(self.0);
    }
}

/// The most of a program's output `check` holds: a quarter of the run's memory limit
/// (`--memory-limit`; the output, its answers and the tests share it), at most 1 GiB.
pub fn output_limit(control: &grundy::control::Control) -> u64 {
    u64::try_from(control.memory_limit() / 4).unwrap_or(u64::MAX).min(1 << 30)
}

/// Runs `bash -c command` with `input` on stdin; its stdout, or a clear error when it fails,
/// hangs past `timeout` seconds, or prints too much.
///
/// The program runs in its own process group. When bash exits, whatever it left running in the
/// background is killed with the group (its answer is complete; a stray `sleep` must not hold
/// the output pipe open), and at the deadline the whole group is killed. The pipes are read on
/// threads that are never waited for past the deadline: a descendant that left the group and
/// keeps a pipe open cannot hang the check.
pub fn run_program(command: &str, input: String, timeout: f64, output_limit: u64) -> anyhow::Result<String> {
    use std::os::unix::process::CommandExt;
    use std::sync::mpsc::{Receiver, channel};
    if !(timeout > 0.0 && timeout <= 1e6) {
        anyhow::bail!("--timeout {timeout}: expected seconds between 0 and 1000000");
    }
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so that a timeout stops everything it started.
        .process_group(0)
        .spawn()
        .map_err(|error| anyhow::anyhow!("cannot run `{command}` with bash: {error}"))?;
    let group = child.id() as libc::pid_t;
    // A signal to grundy kills the program's whole group with the script workers'.
    let _registered = Registered::new(child.id());
    let mut stdin = child.stdin.take().expect("piped");
    // Written and read on threads, so that neither pipe can fill up and block the other.
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    fn read_on_a_thread(source: impl Read + Send + 'static, limit: u64) -> Receiver<Vec<u8>> {
        let (sender, receiver) = channel();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = source.take(limit).read_to_end(&mut text);
            let _ = sender.send(text);
        });
        receiver
    }
    // One byte past the limit read: a program that prints more is refused, not cut short.
    let stdout = read_on_a_thread(child.stdout.take().expect("piped"), output_limit.saturating_add(1));
    let stderr = read_on_a_thread(child.stderr.take().expect("piped"), 1 << 20);
    let kill_group = || crate::os::kill_process_group(group);
    let deadline = Instant::now() + Duration::from_secs_f64(timeout);
    let timed_out = || anyhow::anyhow!("the program `{command}` did not finish within {timeout} s (--timeout)");
    loop {
        if crate::os::exited_unreaped(group)? {
            break;
        }
        if let Some(signal) = crate::signals::received() {
            kill_group();
            let _ = child.wait();
            return Err(Stop::Interrupted(format!(
                "stopped by signal {signal} while the program `{command}` ran (its process group was killed)"
            ))
            .into());
        }
        if Instant::now() >= deadline {
            kill_group();
            let _ = child.wait();
            return Err(timed_out());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // bash has exited and is not reaped yet: its group id is still ours to kill.
    kill_group();
    let status = child.wait()?;
    let until_deadline = || deadline.saturating_duration_since(Instant::now());
    let output = stdout.recv_timeout(until_deadline()).map_err(|_| {
        anyhow::anyhow!(
            "the program `{command}` exited, but a process it started outside its process group kept its output open past {timeout} s (--timeout)"
        )
    })?;
    let errors = String::from_utf8_lossy(&stderr.recv_timeout(until_deadline()).unwrap_or_default()).into_owned();
    if output.len() as u64 > output_limit {
        anyhow::bail!(
            "the program `{command}` printed more than {}, the most its output may be here (a quarter of the memory limit, at most 1 GiB: --memory-limit)",
            grundy::error::human_bytes(u128::from(output_limit))
        );
    }
    if !status.success() {
        let first_error = errors.lines().find(|line| !line.trim().is_empty()).unwrap_or("").trim();
        let said = if first_error.is_empty() { String::new() } else { format!(": {first_error}") };
        anyhow::bail!("the program `{command}` failed ({status}){said}");
    }
    String::from_utf8(output).map_err(|_| anyhow::anyhow!("the program `{command}` printed text that is not UTF-8"))
}
