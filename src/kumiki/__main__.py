"""``python -m kumiki``: the ``kumiki`` command, for an environment whose scripts folder is not on the PATH."""

from kumiki.cli import main

main()
