//! The CLI's calls into the operating system's C interface (libc), each wrapped once in a safe
//! function with the invariant that makes it sound. The crate denies `unsafe` code; besides
//! this module only two places allow it, each for what cannot be wrapped: installing the
//! signal handlers (`signals::install`: the handler must be async-signal-safe) and the script
//! worker's global allocator (`script_worker/note.rs`).
#![allow(unsafe_code)]

use std::fs::File;
use std::process::Command;

/// This process's address-space limit (`ulimit -v`, `RLIMIT_AS`) in bytes, which no child can
/// exceed: `None` when unlimited.
pub fn address_space_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit struct, which `limit` is.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    Some(limit.rlim_cur)
}

/// How many files this process may have open (`ulimit -n`, the soft `RLIMIT_NOFILE`):
/// `u64::MAX` when unlimited or unknown.
pub fn open_file_limit() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit struct, which `limit` is.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return u64::MAX;
    }
    limit.rlim_cur
}

/// This machine's name (`gethostname`), if it has one.
pub fn host_name() -> Option<String> {
    let mut buffer = [0u8; 256];
    // SAFETY: gethostname writes at most `buffer.len()` bytes into `buffer`, which it owns.
    if unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) } != 0 {
        return None;
    }
    // The name may fill the buffer without a terminating NUL (then it was cut: not used).
    let end = buffer.iter().position(|&byte| byte == 0)?;
    let name = std::str::from_utf8(&buffer[..end]).ok()?.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

/// Whether process `pid` is alive (`kill(pid, 0)` does not fail with "no such process").
pub fn process_exists(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH))
}

/// Takes an exclusive `flock` on `file` without waiting: `Ok(false)` when another process
/// holds it (EWOULDBLOCK), an error for any other failure.
pub fn try_lock_exclusive(file: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor `file` keeps open for the call; no memory is involved.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::EWOULDBLOCK) { Ok(false) } else { Err(error) }
}

/// Sends SIGKILL to every process of group `group` (a child started with `process_group(0)`,
/// whose pid is its group id). Async-signal-safe: a signal handler may call it.
pub fn kill_process_group(group: i32) {
    if group > 0 {
        // SAFETY: kill(2) is async-signal-safe and involves no memory; the negative id names
        // the group, and a non-positive `group` (which would name other groups) is refused.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
}

/// Whether the child `pid` has exited, leaving it unreaped (`waitid` with `WNOWAIT`), so that
/// its process group id stays reserved until it is reaped.
pub fn exited_unreaped(pid: i32) -> std::io::Result<bool> {
    // SAFETY: waitid(2) on a child of ours, writing into a zeroed siginfo_t this function owns.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        if libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(info.si_pid() != 0)
    }
}

/// Writes `bytes` to stderr with one `write(2)`: no allocation, no lock, async-signal-safe
/// (what a signal handler or a failing allocator may do).
pub fn write_stderr(bytes: &[u8]) {
    // SAFETY: writes initialized bytes this function borrows to file descriptor 2.
    let _ = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

/// Ends the process at once with `status`: no destructors, no unwinding, no flushing (other
/// threads may be inside the work being abandoned). Async-signal-safe.
pub fn exit_now(status: i32) -> ! {
    // SAFETY: `_exit` is async-signal-safe and never returns.
    unsafe { libc::_exit(status) }
}

/// Makes the child that `command` starts a process group of its own, with its address space
/// capped at `bytes`, and (on Linux) killed when this process dies.
pub fn limit_child(command: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
    #[cfg(target_os = "linux")]
    let parent = std::process::id() as libc::pid_t;
    command.process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only calls the
    // async-signal-safe `prctl`, `getppid`, `setrlimit` and `_exit` on values it owns.
    unsafe {
        command.pre_exec(move || {
            #[cfg(target_os = "linux")]
            {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent died before the prctl: nobody would stop this worker.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
            }
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
