"""The ``grundy`` command that ``pip install`` puts on the PATH: the command line tool compiled
into this package's extension, so that one build gives both (``grundy value nim 3 4 5``).

It behaves as the standalone binary does: the same arguments, output, exit status (2 for bad
input), and Ctrl-C (the run stops and exits with status 130).
"""

import signal
import sys

# Starts the command again for the children it runs of itself (script games' workers, `grundy
# serve`'s requests). `python -c` puts the working directory first on sys.path (and `serve`
# runs its children in the served folder): dropped, so that no file there shadows the package.
_CHILD = "import sys; del sys.path[0]; from grundy._command import main; sys.exit(main())"


def main(argv=None):
    """Runs ``grundy`` with ``argv`` (default ``sys.argv``, the program's name first) and returns
    its exit status."""
    from ._grundy import run_command

    arguments = list(sys.argv if argv is None else argv)
    if arguments and arguments[0] == "-c":
        # A child started as `python -c _CHILD ARGS…`.
        arguments[0] = "grundy"
    # The signals the command handles start as they do for a program of its own (the default
    # action): Python's own SIGINT handler would raise KeyboardInterrupt after the command
    # has already answered Ctrl-C with its exit status 130.
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)
    sys.stdout.flush()
    # Without a known interpreter (an embedded Python), the children run this executable.
    own_command = [sys.executable, "-c", _CHILD] if sys.executable else []
    return run_command(arguments, own_command)
