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

/// Opens `path`, relative to `folder` and free of symbolic links (a real path, resolved
/// before), for reading, as one step of resolution that cannot leave `folder`: `openat2` with
/// `RESOLVE_BENEATH` (an absolute path or a `..` above the folder fails with `EXDEV`),
/// `RESOLVE_NO_SYMLINKS` (a symbolic link swapped in for any part of the path since it was
/// resolved fails with `ELOOP`) and `RESOLVE_NO_MAGICLINKS` (no `/proc/self/fd/…`). Only a
/// regular file is returned (a FIFO or a device would block or never end).
///
/// # Errors
/// The system's error; `PermissionDenied` for a path outside the folder or not a regular file.
#[cfg(target_os = "linux")]
pub fn open_beneath(folder: &std::path::Path, path: &str) -> std::io::Result<File> {
    use std::ffi::CString;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    let outside = || std::io::Error::new(std::io::ErrorKind::PermissionDenied, "not a file inside the served folder");
    let relative = match std::path::Path::new(path).strip_prefix(folder) {
        Ok(inside) => inside,
        Err(_) if std::path::Path::new(path).is_absolute() => return Err(outside()),
        Err(_) => std::path::Path::new(path),
    };
    let folder_name = CString::new(folder.as_os_str().as_bytes()).map_err(|_| outside())?;
    let name = CString::new(relative.as_os_str().as_bytes()).map_err(|_| outside())?;
    // SAFETY: a plain `open` of a NUL-terminated path; the descriptor is owned at once.
    let directory = unsafe { libc::open(folder_name.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
    if directory < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `directory` was just opened and is owned by nothing else.
    let directory = unsafe { OwnedFd::from_raw_fd(directory) };
    // SAFETY: zeroed is a valid `open_how` (all fields integers); `openat2` reads it and the
    // NUL-terminated name, and returns a new descriptor or -1.
    let fd = unsafe {
        let mut how: libc::open_how = std::mem::zeroed();
        how.flags = (libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NONBLOCK) as u64;
        how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS;
        libc::syscall(
            libc::SYS_openat2,
            std::os::fd::AsRawFd::as_raw_fd(&directory),
            name.as_ptr(),
            &how as *const libc::open_how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    if fd < 0 {
        let error = std::io::Error::last_os_error();
        return Err(if error.raw_os_error() == Some(libc::EXDEV) { outside() } else { error });
    }
    // SAFETY: `openat2` returned a new descriptor, owned by nothing else.
    let file = unsafe { File::from_raw_fd(fd as i32) };
    if !file.metadata()?.is_file() {
        return Err(outside());
    }
    Ok(file)
}

/// Makes the child that `command` starts keep the descriptors `fds` open across `exec`, at
/// their numbers here (each `/dev/fd/N` for it), every other descriptor still closed at exec.
/// The caller keeps them open until the child has started.
pub fn keep_open_in_child(command: &mut Command, fds: &[i32]) {
    use std::os::unix::process::CommandExt;
    if fds.is_empty() {
        return;
    }
    let fds = fds.to_vec();
    // SAFETY: the closure runs in the child between fork and exec and only calls the
    // async-signal-safe `fcntl` on descriptors the parent holds open until the spawn returns.
    unsafe {
        command.pre_exec(move || {
            for &fd in &fds {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}
