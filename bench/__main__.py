"""``make bench``: every speed figure, measured on one core, as a table."""

from __future__ import annotations

import argparse
import platform

from bench import kuzushi_speed


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall-clock budget per figure (default 5)")
    args = parser.parse_args()
    print(f"Kumiki benchmarks — Python {platform.python_version()}, one process, {args.seconds:g} s a figure")
    width = 48
    for what, value, comment in kuzushi_speed.run(args.seconds):
        print(f"  {what:<{width}} {value:>12,.0f}   {comment}")


if __name__ == "__main__":
    main()
