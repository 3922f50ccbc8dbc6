"""``make bench``: every speed figure, measured on one core, as a table."""

from __future__ import annotations

import argparse
import platform

from bench import (
    arena_speed,
    blokus3d_speed,
    interop_speed,
    kozo_speed,
    kuzushi_speed,
    physics_compas,
    physics_speed,
    server_views,
    towerbrix_repair,
    web_idle,
)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall-clock budget per figure (default 5)")
    args = parser.parse_args()
    print(f"Kumiki benchmarks — Python {platform.python_version()}, one process, {args.seconds:g} s a figure")
    width = 52
    figures = [
        row
        for module in (kuzushi_speed, blokus3d_speed, kozo_speed, physics_speed, physics_compas)
        for row in module.run(args.seconds)
    ]
    for what, value, comment in figures:
        number = f"{value:>12,.3f}" if value < 10 else f"{value:>12,.0f}"
        print(f"  {what:<{width}} {number}   {comment}")
    print("The interop adapters against the native API (python -m bench.interop_speed):")
    for what, value, comment in interop_speed.run(min(args.seconds, 3.0)):
        print(f"  {what:<{width}} {value:>12,.0f}   {comment}")
    print("The web server's view of a long game, on the event loop (python -m bench.server_views):")
    try:
        for what, value, comment in server_views.run():
            print(f"  {what:<{width}} {value:>12,.3f}   {comment}")
    except ImportError as error:  # the server is the 'web' extra
        print(f"  not measured: {error}")
    print("The hard TowerBrix teammate's slowest repairs, now and the plain way (python -m bench.towerbrix_repair):")
    for what, value, comment in towerbrix_repair.run():
        print(f"  {what:<{width}} {value:>12,.2f}   {comment}")
    print("An idle 3D board in headless Chromium, drawn on demand and at every frame (python -m bench.web_idle):")
    try:
        for what, value, comment in web_idle.run(seconds=min(args.seconds, 5.0)):
            print(f"  {what:<{width}} {value:>12,.1f}   {comment}")
    except ImportError as error:  # Playwright is the 'e2e' extra; Chromium comes from apt
        print(f"  not measured: {error}")
    print("The arena, on every core (python -m bench.arena_speed):")
    for what, value, comment in arena_speed.run():
        print(f"  {what:<{width}} {value:>12,.2f}   {comment}")


if __name__ == "__main__":
    main()
