"""Writing a generated source file, or checking that the committed one is what its generator
writes now (`--check`, for the test command): one place for every generator in tools/."""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_or_check(description: str, output: str, source: str, generator: str, summary: str = "") -> int:
    """Parses the command line (`--check`), then writes `source` to `output` or compares them.
    Returns the exit status: 1 when `--check` finds the committed file out of date."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file is not what this writes")
    arguments = parser.parse_args()
    return settle(arguments.check, output, source, generator, summary)


def settle(check: bool, output: str, source: str, generator: str, summary: str = "") -> int:
    """Writes `source` to `output`, or with `check` compares them, for a generator that parses its
    own command line. Returns the exit status: 1 when the committed file is out of date."""
    relative = os.path.relpath(output, ROOT)
    suffix = f" ({summary})" if summary else ""
    if check:
        try:
            with open(output, encoding="utf-8") as file:
                committed = file.read()
        except FileNotFoundError:
            committed = None
        if committed != source:
            print(f"{relative} is not what {generator} writes: run it", file=sys.stderr)
            return 1
        print(f"{relative} is up to date{suffix}")
        return 0
    with open(output, "w", encoding="utf-8") as file:
        file.write(source)
    print(f"wrote {relative}{suffix}")
    return 0
