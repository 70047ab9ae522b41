"""``python -m grundy …``: the ``grundy`` command (see ``grundy._command``)."""

import sys

from grundy._command import main

if __name__ == "__main__":
    sys.exit(main(["grundy", *sys.argv[1:]]))
