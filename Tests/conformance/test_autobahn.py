"""WebSocket conformance: the Autobahn TestSuite's fuzzing-client cases 1.* to 7.* and 9.*
(autobahn_cases.py), against `parlor serve` on the browser socket (/ws) and on the app dial-in
socket (/api/apps/connect), each case on a new connection.

A case passes graded OK, or NON-STRICT when NON-STRICT.md lists it for that socket with its reason
(Autobahn's INFORMATIONAL cases, 7.1.6 and 7.13.*, pass whatever happens, as in Autobahn's report).
A case graded NON-STRICT and not listed fails, and so does a case listed and graded OK: the file
is the exact set. Cases whose grade depends on timing alone are listed in its second table and may
be either. README.md says how the cases are adapted to Parlor.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import wsfuzz
from autobahn_cases import CASES

NON_STRICT_FILE = Path(__file__).resolve().parent / "NON-STRICT.md"
SOCKETS = ("ws", "app")


def listed():
    """NON-STRICT.md's two tables: {(socket, case id): reason} graded NON-STRICT, and those that
    may be graded OK or NON-STRICT, by timing."""
    always, either = {}, {}
    table = None
    for line in NON_STRICT_FILE.read_text().splitlines():
        if line.startswith("## "):
            table = either if "timing" in line.lower() else always
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if table is None or len(cells) < 3 or not re.fullmatch(r"\d+(\.\d+)+", cells[0]):
            continue
        for name in re.split(r"[,\s]+", cells[1].strip()):
            if name:
                table[(name, cells[0])] = cells[2]
    return always, either


ALWAYS, EITHER = listed()


def test_non_strict_file_names_real_cases():
    known = {(name, case.ID) for name in SOCKETS for case in CASES}
    unknown = sorted(set(ALWAYS) - known) + sorted(set(EITHER) - known)
    assert not unknown, f"NON-STRICT.md lists cases that do not exist: {unknown}"
    assert not set(ALWAYS) & set(EITHER), "NON-STRICT.md lists a case in both tables"


@pytest.mark.parametrize("socket_name,case", [(name, case) for name in SOCKETS for case in CASES],
                         ids=[f"{name}-{case.ID}" for name in SOCKETS for case in CASES])
def test_case(parlor, results, socket_name, case):
    server, endpoints = parlor
    protocol = wsfuzz.Protocol(endpoints[socket_name], case)
    protocol.run(limit=wsfuzz_limit(case))
    result = wsfuzz.Result(protocol.case)
    results[(socket_name, case.ID)] = result
    key = (socket_name, case.ID)
    context = f"\n{result.details}\n\nserver output (last lines):\n{''.join(list(server.output)[-15:])}"
    if result.grade == wsfuzz.FAILED:
        pytest.fail(f"{socket_name} {case.ID} FAILED: {result.reason}{context}", pytrace=False)
    if result.grade == wsfuzz.NON_STRICT and key not in ALWAYS and key not in EITHER:
        pytest.fail(f"{socket_name} {case.ID} is NON-STRICT and NON-STRICT.md does not list it: {result.reason}{context}", pytrace=False)
    if result.grade == wsfuzz.OK and key in ALWAYS:
        pytest.fail(f"{socket_name} {case.ID} is OK now, and NON-STRICT.md lists it as NON-STRICT ({ALWAYS[key]}): update the file.",
                    pytrace=False)


def wsfuzz_limit(case):
    """Seconds a case may take in all before it is dropped (its own waits end it far sooner)."""
    return 30 if case.ID.startswith("9.") else 15
