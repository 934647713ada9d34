"""The names of Parlor's WebSocket protocol for Python clients, tests and benchmarks.

Read from docs/protocol.json, which `parlor protocol` writes from the server's own frame tables,
so a frame is written `Client.sendText` or `Server.ready` and a name the protocol does not have
raises AttributeError at once instead of waiting for a frame that never comes.

    import parlor_protocol as protocol
    await socket.send(json.dumps({"type": protocol.Client.hello, "since": {}}))
    if frame["type"] == protocol.Server.ready: ...
"""

import functools
import json
import pathlib

TABLE = json.loads((pathlib.Path(__file__).resolve().parent.parent / "docs/protocol.json").read_text(encoding="utf-8"))


class _Names:
    """Attribute access to one list of names; an unknown name is an error, not None."""

    def __init__(self, what: str, names: dict, fields: dict | None = None):
        self._what = what
        self._names = names
        self._fields = fields or {}

    def __getattr__(self, name: str):
        try:
            return self._names[name]
        except KeyError:
            raise AttributeError(f"the protocol has no {self._what} named {name!r} (docs/protocol.json)") from None

    def __contains__(self, name: str) -> bool:
        return name in self._names

    def fields(self, name: str) -> list[dict]:
        """The fields a frame of this type carries (name, required)."""
        return self._fields[name]


def _frames(key: str, what: str) -> _Names:
    return _Names(what, {frame["type"]: frame["type"] for frame in TABLE[key]}, {frame["type"]: frame["fields"] for frame in TABLE[key]})


VERSION: int = TABLE["protocolVersion"]
Client = _frames("clientFrames", "client frame")
Server = _frames("serverFrames", "server frame")
CloseCode = _Names("close code", TABLE["closeCodes"])


@functools.cache
def marker(name: str) -> str:
    """`"type":"<name>"` as the server writes it (compact JSON), for a quick search in a frame's
    text before parsing it; `name` must be a frame type."""
    if name not in Client and name not in Server:
        raise AttributeError(f"the protocol has no frame named {name!r} (docs/protocol.json)")
    return f'"type":"{name}"'
