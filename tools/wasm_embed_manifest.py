#!/usr/bin/env python3
"""Appends an app's manifest to a WebAssembly module as its `parlor.manifest` custom section
(docs/APPS-WASM.md §3), so the app is one file:

    tools/wasm_embed_manifest.py app.wasm manifest.json

A custom section may follow the others: id 0, its size, then its name and its bytes. The manifest
is checked to be JSON first; Parlor checks the rest when the module is added."""
import json
import sys

SECTION = b"parlor.manifest"


def leb128(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: wasm_embed_manifest.py MODULE.wasm MANIFEST.json")
    module, manifest_path = sys.argv[1], sys.argv[2]
    manifest = open(manifest_path, "rb").read()
    json.loads(manifest)
    with open(module, "rb") as file:
        if file.read(4) != b"\0asm":
            sys.exit(f"{module} is not a WebAssembly module")
    body = leb128(len(SECTION)) + SECTION + manifest
    with open(module, "ab") as file:
        file.write(b"\x00" + leb128(len(body)) + body)


if __name__ == "__main__":
    main()
