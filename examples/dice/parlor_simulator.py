"""Parlor's simulator from Python: any number of people in one conversation with your app, no
server and no browser. It drives `parlor apps simulate` (docs/APPS.md, "Test it"), which hosts the
app as a server does, over its standard input and output or dialled in over WebSocket. Standard
library only (POSIX: it waits on pipes with `select`); copy this file next to your app's tests.

    with Simulator("manifest.json", ["python3", "dice.py"], people=["Alice", "Bob"]) as simulator:
        alice = simulator.person("Alice")
        alice.open_app("Dice")
        screen = alice.tap("Roll a die")
        assert "Roll" in screen["texts"]

Each action returns what the person sees afterwards (`screen`: the open app's `view`, its visible
`texts`, the `error` the app surface shows, the `staged` message). A send Parlor refuses, or an
action the person cannot take (no such control, nothing to tap), raises `SimulatorError`.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
from pathlib import Path

# How long one answer may take: longer than the simulator waits for the app (5 s a call, and 30 s
# for an app to dial in with listen=True), so the simulator's own sentence arrives first.
ANSWER_TIMEOUT = 60.0


class SimulatorError(Exception):
    """Parlor refused what the person did (`code` is Parlor's error code, such as actionRefused),
    or the simulator could not do it (`code` "simulator")."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def parlor_binary() -> str:
    """The `parlor` to run: $PARLOR_BINARY, this repository's debug build, or one on PATH."""
    if found := os.environ.get("PARLOR_BINARY"):
        return found
    built = Path(__file__).resolve().parents[2] / ".build" / "debug" / "parlor"
    if built.exists():
        return str(built)
    if found := shutil.which("parlor"):
        return found
    raise FileNotFoundError("No parlor to run the simulator: build it (swift build --product parlor) or set PARLOR_BINARY.")


class Simulator:
    """One conversation of `people` hosting one app. With `command`, the simulator starts the app
    and speaks to it over stdio; with `listen=True`, it waits for the app to dial in: start the app
    with the environment `app_environment()` gives."""

    def __init__(self, manifest: str | Path, command: list[str] | None = None, people=("Alice", "Bob"), listen: bool = False):
        arguments = [parlor_binary(), "apps", "simulate", str(manifest), "--people", ",".join(people)]
        # A .wasm app (docs/APPS-WASM.md) is run by the simulator itself: no command.
        arguments += ["--listen"] if listen else ["--", *command] if command else []
        self._process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        try:
            self.listening: dict | None = self._read()["listening"] if listen else None
        except BaseException:
            self.close()
            raise

    def app_environment(self) -> dict[str, str]:
        """PARLOR_URL and PARLOR_APP_SECRET for an app that dials in (`listen=True`)."""
        if self.listening is None:
            raise RuntimeError("This simulator starts the app itself; pass listen=True to have the app dial in.")
        return {"PARLOR_URL": self.listening["url"], "PARLOR_APP_SECRET": self.listening["secret"]}

    def person(self, name: str) -> Person:
        return Person(self, name)

    def request(self, **fields) -> dict:
        """Sends one request and returns the answer; raises SimulatorError when it is refused."""
        self._process.stdin.write(json.dumps(fields) + "\n")
        self._process.stdin.flush()
        answer = self._read()
        if not answer["ok"]:
            raise SimulatorError(answer["error"]["code"], answer["error"]["message"])
        return answer

    def _read(self) -> dict:
        ready, _, _ = select.select([self._process.stdout], [], [], ANSWER_TIMEOUT)
        line = self._process.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise SimulatorError("simulator", f"parlor apps simulate gave no answer (exit status {self._process.returncode}).")
        return json.loads(line)

    def close(self):
        """Ends the simulator (and the app it started): closing its input ends it."""
        if not self._process.stdin.closed:
            try:
                self._process.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process.stdout.close()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, *exc):
        self.close()


class Person:
    """Acts as one person: the actions of ParlorTesting's SimulatedParticipant (`open_app` is
    `openApp`), each returning the answer's `screen`, `transcript`, `posted` message or id."""

    def __init__(self, simulator: Simulator, name: str):
        self.simulator = simulator
        self.name = name

    def _do(self, action: str, **fields) -> dict:
        return self.simulator.request(**{"as": self.name, "do": action, **fields})

    def open_app(self, app: str) -> dict:
        return self._do("openApp", app=app)["screen"]

    def tap(self, control: str, index: int = 0) -> dict:
        """Taps the button, row, toggle or picker option labelled (or with the id) `control`."""
        return self._do("tap", control=control, index=index)["screen"]

    def type(self, text: str, field: str) -> dict:
        return self._do("type", text=text, field=field)["screen"]

    def submit(self, text: str, field: str) -> dict:
        return self._do("submit", text=text, field=field)["screen"]

    def set_toggle(self, control: str, on: bool) -> dict:
        return self._do("setToggle", control=control, on=on)["screen"]

    def choose(self, option: str, control: str) -> dict:
        return self._do("choose", option=option, control=control)["screen"]

    def close_modal(self) -> dict:
        return self._do("closeModal")["screen"]

    def expand(self) -> dict:
        return self._do("expand")["screen"]

    def collapse(self) -> dict:
        return self._do("collapse")["screen"]

    def dismiss_app(self) -> dict:
        return self._do("dismissApp")["screen"]

    def remove_staged(self) -> dict:
        return self._do("removeStaged")["screen"]

    def tap_message(self, containing: str | None = None) -> dict:
        """Taps the newest app bubble (whose text contains `containing`, when given)."""
        return self._do("tapMessage", **({"containing": containing} if containing else {}))["screen"]

    def screen(self) -> dict:
        return self._do("view")["screen"]

    def transcript(self) -> list[dict]:
        """What the person reads: each line's kind (bubble or summary), sender, text, namedText
        (participants by name), app and message."""
        return self._do("transcript")["transcript"]

    def send(self, text: str) -> dict:
        return self._do("send", text=text)["posted"]

    def send_staged(self) -> dict | None:
        return self._do("sendStaged").get("posted")

    def participant_id(self, app: str) -> str:
        return self._do("participantID", app=app)["participantID"]

    def hold_deliveries(self) -> dict:
        """What others send waits for this person until `release_deliveries`, as a slow network
        would: their app keeps acting on what it last saw, to stage a race."""
        return self._do("holdDeliveries")

    def release_deliveries(self) -> dict:
        return self._do("releaseDeliveries")

    def send_raw_message(self, message: dict, replacing: str | None = None, app: str | None = None) -> dict:
        """Commits `message` as a modified client could, past the app's own code but not Parlor's
        checks nor the app's validate: for testing that forged messages are refused."""
        fields = {"message": message}
        if replacing:
            fields["replacing"] = replacing
        if app:
            fields["app"] = app
        return self._do("sendRawMessage", **fields)["posted"]
