#!/usr/bin/env python3
"""Puts an app's manifest in a WebAssembly module as its `parlor.manifest` custom section
(docs/APPS-WASM.md §3), so the app is one file; a manifest already there is replaced:

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


def read_leb128(data: bytes, at: int) -> tuple[int, int]:
    """The unsigned LEB128 number at `at`, and where it ends."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def without_manifest(module: bytes) -> bytes:
    """`module` with its parlor.manifest sections left out."""
    kept, at = bytearray(module[:8]), 8
    while at < len(module):
        start = at
        kind = module[at]
        size, body = read_leb128(module, at + 1)
        at = body + size
        if kind == 0:
            length, name = read_leb128(module, body)
            if module[name:name + length] == SECTION:
                continue
        kept += module[start:at]
    return bytes(kept)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: wasm_embed_manifest.py MODULE.wasm MANIFEST.json")
    module, manifest_path = sys.argv[1], sys.argv[2]
    manifest = open(manifest_path, "rb").read()
    json.loads(manifest)
    with open(module, "rb") as file:
        data = file.read()
    if data[:4] != b"\0asm":
        sys.exit(f"{module} is not a WebAssembly module")
    body = leb128(len(SECTION)) + SECTION + manifest
    with open(module, "wb") as file:
        file.write(without_manifest(data) + b"\x00" + leb128(len(body)) + body)


if __name__ == "__main__":
    main()
