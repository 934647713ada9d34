#!/usr/bin/env python3
"""Proves ParlorWasmKit's Unicode tables (ParlorSDK/Sources/ParlorWasmHost/ParlorWasmKit/unicode_tables.c) right
against the real thing: the same Swift code, compiled once as an Embedded Swift wasm32 module
linked with the tables (as WasmAppBuilder links an app, runtime.c included) and once natively
for this machine, where the standard library has its own Unicode data, is run over one corpus,
and every answer is compared. Native Swift is the oracle.

    python3 tools/check_unicode_tables.py            # exit 1 on a difference not explained
    python3 tools/check_unicode_tables.py --verbose  # also list every explained difference
    python3 tools/check_unicode_tables.py --tables broken.c  # see it fail on other tables

What the probe asks of each string: its NFC form (String._nfcCodeUnits, what hashing hashes; ==
and < normalize as they compare), lowercased(), uppercased(), each scalar's
properties.titlecaseMapping and canonicalCombiningClass; of each pair: a == b, b == a, a < b,
b < a, whether Set([a]) contains b, whether [a: 1][b] finds it, and whether their hash values
are equal.

The corpus: every scalar alone (0 to 10FFFF less surrogates), every column of every line of
NormalizationTest.txt and every pair of columns of a line (c1 == c2 == c3 and c4 == c5 must hold,
and the others generally not), pairs across neighbouring lines, hand-picked cases (é against
e + U+0301, Hangul syllables against jamo, combining marks in both orders, ß, ŉ, İ, Σ at a word's
end, ﬁ, Greek with tonos and ypogegrammeni, Cherokee, Georgian Mtavruli, Deseret…), and seeded
random strings of combining marks, starters and jamo, each against itself shuffled and
against the next. Apart from native Swift's answers, c1 == c2 == c3 and c4 == c5 must hold for
every line of NormalizationTest.txt (as must equal hashes, and neither string < the other).

A difference is explained, and does not fail the check, only when the tables could not have
known better: when a scalar involved (in the strings or in either answer) is not assigned in the
Unicode version the tables were generated from (the native standard library of Swift 6.3 has
Unicode 17.0 data; Debian 12's UCD is 15.0). Every other difference fails the check.

When the toolchain has its own wasm32 libswiftUnicodeDataTables.a, two more comparisons are
made with it: the probe linked with it must answer as native Swift does (which shows that the
Embedded standard library reads the tables as the native one does), and the six functions
themselves are compared with ours for every scalar (normalization data, decompositions, the
three case mappings as the standard library applies them) and for every composition pair, so
that values no String operation shows (NFC_QC Maybe against No, a spare NFD_QC bit) are checked
as well. The same rule explains those differences.

Needs the Swift toolchain (swiftc, with its clang and wasm-ld beside it, or SWIFTC/CLANG/WASM_LD),
the UCD (Debian's unicode-data) and the wasmtime Python package (pip install wasmtime).
"""

import argparse
import bz2
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = os.path.join(ROOT, "ParlorSDK", "Sources", "ParlorWasmHost", "ParlorWasmKit")
TABLES = os.path.join(KIT, "unicode_tables.c")
RUNTIME = os.path.join(KIT, "runtime.c")
GENERATOR = os.path.join(ROOT, "tools", "generate_unicode_tables.py")
DEFAULT_UCD = "/usr/share/unicode"
EMBEDDED_FLAGS = ["-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded", "-wmo", "-Osize",
                  "-Xfrontend", "-disable-stack-protector", "-parse-as-library"]
# Records per wasm instance: the runtime's allocator never frees, so each chunk gets a new one.
CHUNK = 20000
# Unexplained differences listed without --verbose (a broken table can make thousands).
UNEXPLAINED_SHOWN = 100

# ---------------------------------------------------------------------------------------------
# The probe: one Swift file of operations, and a wrapper for each target.

PROBE_CORE = r"""
// The operations of tools/check_unicode_tables.py, the same for the wasm32 module and native.
// Input: records of an operation byte ("S": one string, "P": a pair), then each string as a
// little-endian UInt32 length and its UTF-8. Output: for each record, a UInt32 length and the
// answer, whose fields are separated by 0xFF (a byte UTF-8 never holds).

struct ProbeReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func byte() -> UInt8 {
        position += 1
        return bytes[position - 1]
    }

    mutating func string() -> String {
        var length = 0
        for shift in 0..<4 { length |= Int(byte()) << (8 * shift) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
        position += length
        return text
    }
}

func probeSingle(_ text: String, into out: inout [UInt8]) {
    out += text._nfcCodeUnits
    out.append(0xFF)
    out += Array(text.lowercased().utf8)
    out.append(0xFF)
    out += Array(text.uppercased().utf8)
    out.append(0xFF)
    for scalar in text.unicodeScalars { out += Array(scalar.properties.titlecaseMapping.utf8) }
    out.append(0xFF)
    for scalar in text.unicodeScalars { out.append(scalar.properties.canonicalCombiningClass.rawValue) }
}

func probePair(_ a: String, _ b: String, into out: inout [UInt8]) {
    let set: Set<String> = [a]
    let dictionary: [String: Int] = [a: 1]
    for flag in [a == b, b == a, a < b, b < a, set.contains(b), dictionary[b] != nil, a.hashValue == b.hashValue] {
        out.append(flag ? 0x31 : 0x30)
    }
}

func probeBatch(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var reader = ProbeReader(bytes: input)
    var output: [UInt8] = []
    while reader.position < input.count {
        let operation = reader.byte()
        var answer: [UInt8] = []
        if operation == 0x53 {
            probeSingle(reader.string(), into: &answer)
        } else {
            let a = reader.string()
            probePair(a, reader.string(), into: &answer)
        }
        for shift in 0..<4 { output.append(UInt8(truncatingIfNeeded: answer.count >> (8 * shift))) }
        output += answer
    }
    return output
}
"""

PROBE_WASM = r"""
// The probe as a wasm32 module: the host writes a batch into memory it got from probe_alloc,
// and probe_run answers with the answers' address << 32 | their length.
nonisolated(unsafe) var answers: [UInt8] = []

@_expose(wasm, "probe_alloc")
@_cdecl("probe_alloc")
func probeAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
}

@_expose(wasm, "probe_run")
@_cdecl("probe_run")
func probeRun(_ pointer: UnsafePointer<UInt8>, _ length: Int32) -> Int64 {
    answers = probeBatch(UnsafeBufferPointer(start: pointer, count: Int(length)))
    let address = answers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return Int64(address) << 32 | Int64(answers.count)
}
"""

PROBE_NATIVE = r"""
// The probe as a native program: the batch on standard input, the answers on standard output.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct ProbeNative {
    static func main() {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            input += chunk[0..<count]
        }
        let output = input.withUnsafeBufferPointer { probeBatch($0) }
        output.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { exit(1) }
                offset += written
            }
        }
    }
}
"""

# The six functions called directly, for every scalar: the values the standard library would
# take from them, decoded as it decodes them (so that two tables laid out differently compare).
RAW_HARNESS = r"""
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
unsigned short _swift_stdlib_getNormData(u32 scalar);
u32 _swift_stdlib_getDecompositionEntry(u32 scalar);
extern const u8 *const _swift_stdlib_nfd_decompositions;
u32 _swift_stdlib_getComposition(u32 first, u32 second);
int _swift_stdlib_getMapping(u32 scalar, u8 mapping);
const u8 *_swift_stdlib_getSpecialMapping(u32 scalar, u8 mapping, __INTPTR_TYPE__ *length);

static u8 *put_utf8(u8 *out, u32 scalar) {
    if (scalar < 0x80) { *out++ = (u8)scalar; }
    else if (scalar < 0x800) { *out++ = (u8)(0xC0 | scalar >> 6); *out++ = (u8)(0x80 | (scalar & 0x3F)); }
    else if (scalar < 0x10000) { *out++ = (u8)(0xE0 | scalar >> 12); *out++ = (u8)(0x80 | (scalar >> 6 & 0x3F)); *out++ = (u8)(0x80 | (scalar & 0x3F)); }
    else { *out++ = (u8)(0xF0 | scalar >> 18); *out++ = (u8)(0x80 | (scalar >> 12 & 0x3F)); *out++ = (u8)(0x80 | (scalar >> 6 & 0x3F)); *out++ = (u8)(0x80 | (scalar & 0x3F)); }
    return out;
}

/* For each scalar in [first, first + count) that has anything: scalar (4 bytes), normalization
 * data (2), then length-prefixed UTF-8 of its decomposition and of its uppercase, lowercase and
 * titlecase mappings as Unicode.Scalar.Properties applies them (empty: the scalar itself). */
__attribute__((export_name("raw_dump"))) u32 raw_dump(u32 first, u32 count, u8 *out) {
    u8 *start = out;
    for (u32 scalar = first; scalar < first + count; scalar++) {
        if (scalar >= 0xD800 && scalar < 0xE000) continue;
        u8 record[128], *at = record + 6;
        int interesting = 0;
        u16 norm = _swift_stdlib_getNormData(scalar);
        if (norm) interesting = 1;
        record[0] = (u8)scalar; record[1] = (u8)(scalar >> 8); record[2] = (u8)(scalar >> 16); record[3] = 0;
        record[4] = (u8)norm; record[5] = (u8)(norm >> 8);
        u32 entry = _swift_stdlib_getDecompositionEntry(scalar);
        if ((entry & 0x3FFFF) == scalar) {
            const u8 *text = _swift_stdlib_nfd_decompositions + (entry >> 18);
            *at++ = *text;
            for (u8 i = 0; i < *text; i++) *at++ = text[1 + i];
            interesting = 1;
        } else {
            *at++ = 0;
        }
        for (u8 mapping = 0; mapping < 3; mapping++) {
            __INTPTR_TYPE__ length = 0;
            const u8 *special = _swift_stdlib_getSpecialMapping(scalar, mapping, &length);
            u8 *size = at++;
            if (special && length) {
                for (__INTPTR_TYPE__ i = 0; i < length; i++) *at++ = special[i];
            } else {
                int distance = _swift_stdlib_getMapping(scalar, mapping);
                if (distance) at = put_utf8(at, (u32)((int)scalar + distance));
            }
            *size = (u8)(at - size - 1);
            if (*size) interesting = 1;
        }
        if (!interesting) continue;
        for (u8 *byte = record; byte < at; byte++) *out++ = *byte;
    }
    return (u32)(out - start);
}

/* Every first scalar below `limit` that composes with `second`: (first, composite) pairs. */
__attribute__((export_name("raw_compositions"))) u32 raw_compositions(u32 second, u32 limit, u32 *out) {
    u32 found = 0;
    for (u32 first = 0; first < limit; first++) {
        u32 composite = _swift_stdlib_getComposition(first, second);
        if (composite != 0xFFFFFFFFu) { out[2 * found] = first; out[2 * found + 1] = composite; found++; }
    }
    return found;
}
"""


# ---------------------------------------------------------------------------------------------
# Building


def tool(name, variable, beside=None):
    """A toolchain program: from the environment, beside swiftc, or on the PATH."""
    if os.environ.get(variable):
        return os.environ[variable]
    if beside:
        candidate = os.path.join(os.path.dirname(os.path.realpath(beside)), name)
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if not found:
        sys.exit(f"{name} is not on the PATH: install the Swift toolchain (6.3 or later), or name it with {variable}=…")
    return found


def run(arguments, what):
    done = subprocess.run(arguments, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"building {what} failed:\n{' '.join(arguments)}\n{done.stdout}{done.stderr}")


class Build:
    """Everything the check compiles, in one temporary folder."""

    def __init__(self, work, tables):
        self.work = work
        self.tables = tables
        self.swiftc = tool("swiftc", "SWIFTC")
        self.clang = tool("clang", "CLANG", beside=self.swiftc)
        self.wasm_ld = tool("wasm-ld", "WASM_LD", beside=self.swiftc)
        library = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(self.swiftc))),
                               "lib", "swift", "embedded", "wasm32-unknown-none-wasm", "libswiftUnicodeDataTables.a")
        self.toolchain_tables = library if os.path.exists(library) else None
        for name, text in (("ProbeCore.swift", PROBE_CORE), ("ProbeWasm.swift", PROBE_WASM),
                           ("ProbeNative.swift", PROBE_NATIVE), ("raw.c", RAW_HARNESS)):
            with open(self.path(name), "w", encoding="utf-8") as file:
                file.write(text)

    def path(self, name):
        return os.path.join(self.work, name)

    def c_object(self, source, name):
        # -Wall -Werror: the tables must build clean with the flags an app's C is held to.
        run([self.clang, "--target=wasm32", "-nostdlib", "-Os", "-Wall", "-Wextra", "-Werror", "-c", source,
             "-o", self.path(name)], name)
        return self.path(name)

    def all(self):
        """Returns the native probe, and the wasm probes and raw harnesses by table name."""
        run([self.swiftc] + EMBEDDED_FLAGS + [self.path("ProbeCore.swift"), self.path("ProbeWasm.swift"),
             "-c", "-o", self.path("probe.o")], "the wasm32 probe")
        run([self.swiftc, "-O", "-parse-as-library", self.path("ProbeCore.swift"), self.path("ProbeNative.swift"),
             "-o", self.path("probe-native")], "the native probe")
        runtime = self.c_object(RUNTIME, "runtime.o")
        raw = self.c_object(self.path("raw.c"), "raw.o")
        tables = {"ours": [self.c_object(self.tables, "unicode_tables.o")]}
        if self.toolchain_tables:
            tables["toolchain"] = [self.toolchain_tables]
        probes, harnesses = {}, {}
        for name, objects in tables.items():
            probes[name] = self.path(f"probe-{name}.wasm")
            run([self.wasm_ld, "--no-entry", "--export=probe_alloc", "--export=probe_run", "--strip-debug",
                 self.path("probe.o"), runtime] + objects + ["-o", probes[name]], f"the probe with {name} tables")
            harnesses[name] = self.path(f"raw-{name}.wasm")
            run([self.wasm_ld, "--no-entry", "--export=malloc", "--strip-debug", raw, runtime] + objects
                + ["-o", harnesses[name]], f"the raw harness with {name} tables")
        return self.path("probe-native"), probes, harnesses

    def size_added(self):
        """The bytes the tables add to a module (against stubs of the six symbols): {(tables, module):
        bytes} for a module that uses == only and for the probe (==, hashing, case mappings)."""
        equality = self.path("Equality.swift")
        with open(equality, "w", encoding="utf-8") as file:
            file.write(r"""
@_expose(wasm, "probe_alloc")
@_cdecl("probe_alloc")
func probeAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
}

@_expose(wasm, "probe_equal")
@_cdecl("probe_equal")
func probeEqual(_ a: UnsafePointer<UInt8>, _ an: Int32, _ b: UnsafePointer<UInt8>, _ bn: Int32) -> Int32 {
    String(decoding: UnsafeBufferPointer(start: a, count: Int(an)), as: UTF8.self)
        == String(decoding: UnsafeBufferPointer(start: b, count: Int(bn)), as: UTF8.self) ? 1 : 0
}
""")
        stub = self.path("stub.c")
        with open(stub, "w", encoding="utf-8") as file:
            file.write("unsigned short _swift_stdlib_getNormData(unsigned s) { return (unsigned short)s; }\n"
                       "unsigned _swift_stdlib_getComposition(unsigned a, unsigned b) { return a ^ b; }\n"
                       "unsigned _swift_stdlib_getDecompositionEntry(unsigned s) { return s; }\n"
                       "const unsigned char *const _swift_stdlib_nfd_decompositions = 0;\n"
                       "int _swift_stdlib_getMapping(unsigned s, unsigned char m) { return (int)(s ^ m); }\n"
                       "const unsigned char *_swift_stdlib_getSpecialMapping(unsigned s, unsigned char m, long *n)"
                       " { *n = (long)(s ^ m); return 0; }\n")
        run([self.swiftc] + EMBEDDED_FLAGS + [equality, "-c", "-o", self.path("equality.o")], "the == probe")
        variants = [("stub", [self.c_object(stub, "stub.o")]), ("ours", [self.path("unicode_tables.o")])]
        if self.toolchain_tables:
            variants.append(("toolchain", [self.toolchain_tables]))
        sizes = {}
        for module, objects, exports in (("==", [self.path("equality.o")], ["probe_alloc", "probe_equal"]),
                                          ("probe", [self.path("probe.o")], ["probe_alloc", "probe_run"])):
            for name, tables in variants:
                output = self.path(f"size-{len(sizes)}.wasm")
                run([self.wasm_ld, "--no-entry", "--strip-debug"] + [f"--export={export}" for export in exports]
                    + objects + [self.path("runtime.o")] + tables + ["-o", output], f"the {module} probe ({name})")
                sizes[(name, module)] = os.path.getsize(output)
        return {(name, module): size - sizes[("stub", module)] for (name, module), size in sizes.items() if name != "stub"}


# ---------------------------------------------------------------------------------------------
# Running


def encode_batch(records):
    out = bytearray()
    for record in records:
        out += b"S" if len(record) == 1 else b"P"
        for text in record:
            data = text.encode("utf-8")
            out += struct.pack("<I", len(data)) + data
    return bytes(out)


def decode_answers(blob):
    answers, position = [], 0
    while position < len(blob):
        (length,) = struct.unpack_from("<I", blob, position)
        answers.append(bytes(blob[position + 4:position + 4 + length]))
        position += 4 + length
    return answers


def run_native(program, records):
    done = subprocess.run([program], input=encode_batch(records), capture_output=True)
    if done.returncode != 0:
        sys.exit(f"the native probe failed: {done.stderr.decode(errors='replace')}")
    return decode_answers(done.stdout)


def run_wasm(engine, module, records):
    import wasmtime

    answers = []
    for start in range(0, len(records), CHUNK):
        store = wasmtime.Store(engine)  # a new instance (and memory) for each chunk
        exports = wasmtime.Instance(store, module, []).exports(store)
        memory = exports["memory"]
        batch = encode_batch(records[start:start + CHUNK])
        place = exports["probe_alloc"](store, len(batch))
        memory.write(store, batch, place)
        result = exports["probe_run"](store, place, len(batch)) & 0xFFFFFFFFFFFFFFFF
        address, length = result >> 32, result & 0xFFFFFFFF
        answers += decode_answers(memory.read(store, address, address + length))
    return answers


class RawHarness:
    """The six functions of one set of tables, called directly (RAW_HARNESS in a wasm32 module)."""

    BUFFER_SIZE = 1 << 22

    def __init__(self, engine, path):
        import wasmtime

        self.store = wasmtime.Store(engine)
        self.exports = wasmtime.Instance(self.store, wasmtime.Module.from_file(engine, path), []).exports(self.store)
        self.buffer = self.exports["malloc"](self.store, self.BUFFER_SIZE)

    def read(self, length):
        assert length <= self.BUFFER_SIZE
        return self.exports["memory"].read(self.store, self.buffer, self.buffer + length)

    def values(self):
        """scalar -> (normalization data, decomposition, uppercase, lowercase, titlecase) for every
        scalar that has any of them."""
        values = {}
        for first in range(0, 0x110000, 0x10000):
            blob, position = self.read(self.exports["raw_dump"](self.store, first, 0x10000, self.buffer)), 0
            while position < len(blob):
                scalar, norm = struct.unpack_from("<IH", blob, position)
                position += 6
                texts = []
                for _ in range(4):
                    size = blob[position]
                    texts.append(bytes(blob[position + 1:position + 1 + size]).decode("utf-8"))
                    position += 1 + size
                values[scalar] = (norm, *texts)
        return values

    def compositions(self, seconds):
        """{(first, second): composite} for every second in `seconds` and first below 0x20000
        (Swift's generator asserts that a first scalar fits in 17 bits; all of Unicode's do)."""
        pairs = {}
        for second in sorted(seconds):
            found = self.exports["raw_compositions"](self.store, second, 0x20000, self.buffer)
            words = struct.unpack_from(f"<{2 * found}I", self.read(8 * found))
            for index in range(found):
                pairs[(words[2 * index], second)] = words[2 * index + 1]
        return pairs


# ---------------------------------------------------------------------------------------------
# The corpus


def assigned_scalars(ucd):
    """Every scalar UnicodeData.txt assigns (ranges such as <CJK Ideograph, First> expanded)."""
    assigned, first = set(), None
    with open(os.path.join(ucd, "UnicodeData.txt"), encoding="utf-8") as file:
        for line in file:
            fields = line.split(";")
            scalar = int(fields[0], 16)
            if fields[1].endswith(", First>"):
                first = scalar
            elif fields[1].endswith(", Last>"):
                assigned.update(range(first, scalar + 1))
            else:
                assigned.add(scalar)
    return assigned


def normalization_test(ucd):
    """The lines of NormalizationTest.txt (plain or as Debian ships it, bz2), as 5 strings each."""
    path = os.path.join(ucd, "NormalizationTest.txt")
    opener = open
    if not os.path.exists(path):
        path, opener = path + ".bz2", bz2.open
    lines = []
    with opener(path, "rt", encoding="utf-8") as file:
        for line in file:
            line = line.split("#", 1)[0].strip()
            if line and not line.startswith("@"):
                columns = line.split(";")[:5]
                lines.append(["".join(chr(int(part, 16)) for part in column.split()) for column in columns])
    return lines


HAND_PICKED_SINGLES = [
    "", "abc", "ABC", "Hello, World!", "é", "e\u0301", "Å", "A\u030a", "\u212b", "\u00c5",
    "ß", "ẞ", "ŉ", "İ", "ı", "i\u0307", "ΣΑΣ", "ὈΔΥΣΣΕΎΣ", "ΌΣΟΣ σ", "Σ", "ς", "ﬁ", "ﬀ", "ﬃ", "ﬆ", "և",
    "ΐ", "ΰ", "Ά", "ά", "ᾳ", "ᾼ", "ᾷ", "ᾈ", "ǅ", "ǆ", "Ǆ", "ǈ", "ǋ", "ǲ", "ꭰꮿ", "ᏸᏹᏺᏻᏼᏽ", "ᎠᏴᏵ",
    "ა", "Ა", "ჰ", "Ჰ", "Ჽ", "Ჾ", "Ჿ", "ჽ", "𐐀𐐧𐐨𐑏", "𐓀𐓘", "𐲀𐳀", "𑢠𑣀", "𖹀𖹠", "𞤀𞤢",
    "ǰ", "ẖẗẘẙẚ", "Ⅰⅰ", "ⓐⒶ", "ǈ", "Ω", "\u2126", "K", "\u212a", "Ꭓ", "ꭓ", "ȿ", "Ȿ", "ɐ", "Ɐ",
    "\uac00", "\u1100\u1161", "\uac01", "\u1100\u1161\u11a8", "\uac00\u11a8", "\ud7a3", "\u1112\u1175\u11c2",
    "\u1100\u1161\u11a7", "\u1100\u1100\u1161", "\u1161\u1100", "\u3131\u314f",
    "a\u0323\u0307", "a\u0307\u0323", "ạ\u0307", "ȧ\u0323", "a\u0305\u0300", "a\u0300\u0305", "à\u0305",
    "q\u0307\u0323", "q\u0323\u0307", "\u1e0b\u0323", "\u1e0d\u0307", "d\u0323\u0307", "\u0344", "\u0308\u0301",
    "\u0958", "\u0915\u093c", "\u2adc", "\u2add\u0338", "\U0001d15e", "\U0001d157\U0001d165", "\u0f73",
    "\u0f71\u0f72", "\u0f72\u0f71", "\u05b8\u05b9\u05b1\u0591\u05c3\u05b0\u05ac\u059f",
    "\u0592\u05b7\u05bc\u05a5\u05b0\u05c0\u05c4\u05ad", "\u1100\uac00\u11a8", "\u0300", "\u0300a", "a\u0300a\u0300",
    "\U00011099\U000110ba", "\U0001109a", "\U00011131\U00011127", "\U0001112e", "\U00011347\U0001133e",
    "\U0001134b", "\U000114b9\U000114ba", "\U000114bb", "\U00011935\U00011930", "\U00011938",
    "\u00c7\u0301", "\u1e08", "C\u0327\u0301", "C\u0301\u0327", "\u1e09", "\u01d5", "\u00fc\u0304",
    "\u2000", "\u2002", "\uf900", "\U0002f800", "\U0002fa1d", "\u0340", "\u0341", "\u0343", "\u0374", "\u037e",
    "\u0387", "\u1f71", "\u1fbb", "\u00b4", "\u1ffd", "\u1fee", "\u0385",
    "\U00016ea0\U00016ebb", "\u1c89\u1c8a", "\ua7dc\u019b", "\ua7cb\u0264", "\U00016d68", "\U00016d67\U00016d67",
    "\U000113c5", "\U000113c2\U000113c2", "\U00010d50\U00010d70", "\U0001e5d0", "\u2c2f\u2c5f",
]

HAND_PICKED_PAIRS = [
    ("é", "e\u0301"), ("Å", "A\u030a"), ("\u212b", "Å"), ("\u212b", "A\u030a"), ("\u2126", "Ω"), ("\u212a", "K"),
    ("\uac00", "\u1100\u1161"), ("\uac01", "\u1100\u1161\u11a8"), ("\uac01", "\uac00\u11a8"),
    ("\ud7a3", "\u1112\u1175\u11c2"), ("\uac00", "\uac00\u11a7"), ("\u1100\u1161\u11a7", "\uac00\u11a7"),
    ("a\u0323\u0307", "a\u0307\u0323"), ("ạ\u0307", "ȧ\u0323"), ("a\u0305\u0300", "a\u0300\u0305"),
    ("à\u0305", "a\u0300\u0305"), ("à\u0305", "a\u0305\u0300"), ("\u1e0b\u0323", "\u1e0d\u0307"),
    ("\u1e0b\u0323", "d\u0323\u0307"), ("\u0344", "\u0308\u0301"), ("\u0958", "\u0915\u093c"),
    ("\U0001d15e", "\U0001d157\U0001d165"), ("\u0f73", "\u0f71\u0f72"), ("\u0f71\u0f72", "\u0f72\u0f71"),
    ("\u1e08", "\u00c7\u0301"), ("\u1e08", "C\u0327\u0301"), ("\u1e08", "C\u0301\u0327"),
    ("\u01d5", "\u00fc\u0304"), ("\u01d5", "U\u0308\u0304"), ("\u2000", "\u2002"), ("\u0340", "\u0300"),
    ("\u037e", ";"), ("\u0387", "\u00b7"), ("\u1f71", "\u03ac"), ("\u1fee", "\u0385"), ("\u00b4", "\u1ffd"),
    ("\U00011099\U000110ba", "\U0001109a"), ("\U00011131\U00011127", "\U0001112e"), ("\U00011347\U0001133e", "\U0001134b"),
    ("\U00011935\U00011930", "\U00011938"), ("\U00016d68", "\U00016d67\U00016d67"), ("\U000113c5", "\U000113c2\U000113c2"),
    ("ß", "ss"), ("ß", "SS"), ("ﬁ", "fi"), ("a", "b"), ("", "a"), ("", ""), ("a", "a\u0300"), ("a\u0300", "b"),
    ("\u00e0", "b"), ("\u00e0", "a\u0301"), ("\uac00", "\uac01"), ("\u1100\u1161", "\u1100\u1162"),
    ("e\u0301\u0301", "\u00e9\u0301"), ("\u0300e", "\u0300\u00e9"), ("Σ", "σ"), ("ς", "σ"), ("İ", "i\u0307"),
]

# What the random strings are made of: starters that compose, combining marks of many classes,
# Hangul jamo and syllables, and letters whose case maps to several scalars.
RANDOM_POOL = (
    "aeiouAEIOUcdnsyzCDNSYZ" "\u00e0\u00e9\u00c5\u00c7\u00fc\u01b0\u03b1\u03b9\u03c9\u0391\u0399\u03a9\u0415\u0435\u0418\u0438"
    "\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0313\u0314\u0323\u0324\u0327\u0328\u0331\u0338\u0342\u0345"
    "\u0305\u0316\u031b\u0334\u0335\u0359\u035c\u035d\u0591\u05b0\u05b7\u05bc\u064b\u0651\u093c\u094d\u0e48\u0f71\u0f72\u0f80\u302a\u3099"
    "\u1100\u1101\u1112\u1161\u1162\u1175\u11a7\u11a8\u11c2\uac00\uac01\ub098\ud7a3\u3131"
    "ßŉİıΣσςﬁﬀᾳᾼǅǰΐ\u0345\u1fb6\u0399"
)


def random_strings(count, seed=20240611):
    """Seeded random strings of 1 to 8 scalars from RANDOM_POOL."""
    generator = random.Random(seed)
    strings = []
    for _ in range(count):
        strings.append("".join(generator.choice(RANDOM_POOL) for _ in range(generator.randint(1, 8))))
    return strings


def shuffled_marks(text, generator):
    """The string with every scalar after the first shuffled: marks change order (equivalent
    only when no two of one combining class swap) and starters move too; the oracle says which
    results are still canonically equivalent."""
    scalars = list(text)
    if len(scalars) > 2:
        middle = scalars[1:]
        generator.shuffle(middle)
        scalars[1:] = middle
    return "".join(scalars)


EQUIVALENT_GROUP = "NormalizationTest.txt equivalent pairs"
EQUIVALENT_COLUMNS = ((0, 1), (0, 2), (1, 2), (3, 4))


def corpus(ucd):
    """[(group, records)]: a record is (string,) or (string, string)."""
    groups = []
    singles = [chr(scalar) for scalar in range(0x110000) if not 0xD800 <= scalar < 0xE000]
    groups.append(("every scalar alone", [(text,) for text in singles]))
    lines = normalization_test(ucd)
    columns = [(column,) for line in lines for column in line]
    groups.append(("NormalizationTest.txt columns", columns))
    # Columns c1, c2, c3 (NFC, source, NFD) are canonically equivalent, and so are c4, c5 (NFKC,
    # NFKD); the other pairs of a line are equivalent only where the compatibility mapping is empty.
    groups.append((EQUIVALENT_GROUP, [(line[i], line[j]) for line in lines for i, j in EQUIVALENT_COLUMNS]))
    others = [(i, j) for i in range(5) for j in range(i + 1, 5) if (i, j) not in EQUIVALENT_COLUMNS]
    groups.append(("NormalizationTest.txt other pairs in a line", [(line[i], line[j]) for line in lines for i, j in others]))
    across = [(lines[k][i], lines[k + 1][j]) for k in range(len(lines) - 1) for i, j in ((0, 0), (2, 1), (1, 2))]
    groups.append(("NormalizationTest.txt pairs across lines", across))
    groups.append(("hand-picked strings", [(text,) for text in HAND_PICKED_SINGLES]))
    groups.append(("hand-picked pairs", HAND_PICKED_PAIRS + [(b, a) for a, b in HAND_PICKED_PAIRS]))
    strings = random_strings(30000)
    generator = random.Random(7)
    groups.append(("random strings", [(text,) for text in strings]))
    groups.append(("random strings against their reordering",
                   [(text, shuffled_marks(text, generator)) for text in strings]))
    groups.append(("random strings against the next", list(zip(strings, strings[1:]))))
    return groups


# ---------------------------------------------------------------------------------------------
# Comparing


def describe(text):
    return " ".join(f"{ord(c):04X}" for c in text) if text else "(empty)"


FIELD_NAMES = ("NFC", "lowercased", "uppercased", "titlecase", "ccc")
PAIR_FLAGS = ("a==b", "b==a", "a<b", "b<a", "set", "dict", "hash")


def answer_fields(record, answer):
    """An answer as named, readable fields."""
    if len(record) == 2:
        return {name: answer[index:index + 1].decode() for index, name in enumerate(PAIR_FLAGS)}
    parts = answer.split(b"\xff")
    fields = {name: parts[index].decode("utf-8") for index, name in enumerate(FIELD_NAMES[:4])}
    fields["ccc"] = ",".join(str(value) for value in parts[4])
    return fields


def scalars_of(texts):
    return {ord(c) for text in texts for c in text}


def shown_field(name, fields):
    """A field of an answer for a report line: strings as their scalars, the rest as they are."""
    return describe(fields[name]) if name in FIELD_NAMES[:4] else fields[name]


def compare_answers(groups, reference, subject, what):
    """Every difference of `subject` from `reference` as (changed fields, line, the scalars
    involved), and the count of answers compared."""
    differences, compared, position = [], 0, 0
    for group, records in groups:
        for record in records:
            expected, got = reference[position], subject[position]
            position += 1
            compared += 1
            if expected == got:
                continue
            expected_fields, got_fields = answer_fields(record, expected), answer_fields(record, got)
            changed = [name for name in expected_fields if expected_fields[name] != got_fields[name]]
            line = (f"{group}: [{'] ['.join(describe(text) for text in record)}] "
                    + "; ".join(f"{name}: {what} {shown_field(name, got_fields)}, native {shown_field(name, expected_fields)}"
                                for name in changed))
            involved = scalars_of(record) | scalars_of(expected_fields.values()) | scalars_of(got_fields.values())
            differences.append((changed, line, involved))
    assert position == len(reference) == len(subject)
    return differences, compared


def explain(differences, assigned):
    """(explained, unexplained): a difference is explained when a scalar it involves is not
    assigned in the tables' Unicode version, so the tables cannot know it."""
    explained, unexplained = [], []
    for changed, line, involved in differences:
        new = sorted(scalar for scalar in involved if scalar not in assigned)
        if new:
            shown = " ".join(f"U+{scalar:04X}" for scalar in new[:4]) + (" …" if len(new) > 4 else "")
            explained.append((changed, f"{line}  (not in the tables' Unicode: {shown})"))
        else:
            unexplained.append((changed, line))
    return explained, unexplained


def compare_raw(ours, theirs):
    """Every difference between our functions' values and the toolchain's, as compare_answers."""
    (our_values, our_pairs), (their_values, their_pairs) = ours, theirs
    differences = []
    names = ("normalization data", "decomposition", "uppercase", "lowercase", "titlecase")
    empty = (0, "", "", "", "")
    for scalar in sorted(set(our_values) | set(their_values)):
        mine, other = our_values.get(scalar, empty), their_values.get(scalar, empty)
        for index, name in enumerate(names):
            if mine[index] == other[index]:
                continue
            if index == 0:
                line = f"U+{scalar:04X} {name}: ours {mine[0]:#x}, toolchain's {other[0]:#x}"
                involved = {scalar}
            else:
                line = f"U+{scalar:04X} {name}: ours {describe(mine[index])}, toolchain's {describe(other[index])}"
                involved = {scalar} | scalars_of([mine[index], other[index]])
            differences.append(([name], line, involved))
    for pair in sorted(set(our_pairs) | set(their_pairs)):
        mine, other = our_pairs.get(pair), their_pairs.get(pair)
        if mine == other:
            continue
        line = (f"U+{pair[0]:04X} + U+{pair[1]:04X} composes to: ours {'nothing' if mine is None else f'U+{mine:04X}'}, "
                f"toolchain's {'nothing' if other is None else f'U+{other:04X}'}")
        involved = set(pair) | {value for value in (mine, other) if value is not None}
        differences.append((["composition"], line, involved))
    return differences


def inequivalent(groups, answers):
    """The pairs of EQUIVALENT_GROUP that `answers` does not find equal (==, hashing, not <)."""
    failures, position = [], 0
    for group, records in groups:
        for record in records:
            if group == EQUIVALENT_GROUP and answers[position] != b"1100111":
                failures.append((["equivalence"], f"[{'] ['.join(describe(text) for text in record)}] answered "
                                 + ", ".join(f"{flag} {value}" for flag, value in answer_fields(record, answers[position]).items())))
            position += 1
    return failures


def summarize(title, explained, unexplained, verbose, list_explained=True):
    by_kind = {}
    for kinds, _ in explained:
        for kind in kinds:
            by_kind[kind] = by_kind.get(kind, 0) + 1
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(by_kind.items()))
    if not explained and not unexplained:
        print(f"  {title}: no difference")
        return
    print(f"  {title}: {len(unexplained)} unexplained, {len(explained)} explained by the Unicode version"
          + (f" ({kinds})" if kinds else ""))
    shown = unexplained if verbose else unexplained[:UNEXPLAINED_SHOWN]
    for _, line in shown:
        print(f"    UNEXPLAINED {line}")
    if len(shown) < len(unexplained):
        print(f"    … and {len(unexplained) - len(shown)} more (--verbose lists them all)")
    if verbose or list_explained:
        for _, line in explained:
            print(f"    explained {line}")
    elif explained:
        print("    (--verbose lists them)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ucd", default=DEFAULT_UCD, help="the UCD the tables were generated from")
    parser.add_argument("--verbose", action="store_true", help="list every explained difference too")
    parser.add_argument("--tables", default=TABLES, help="check another tables file (to see the check fail on a broken one)")
    arguments = parser.parse_args()
    started = time.time()
    try:
        import wasmtime
    except ImportError:
        sys.exit("the check needs the wasmtime Python package: pip install wasmtime")

    if os.path.abspath(arguments.tables) == TABLES:
        generator = subprocess.run([sys.executable, GENERATOR, "--check", "--ucd", arguments.ucd], capture_output=True, text=True)
        print((generator.stdout + generator.stderr).strip())
        if generator.returncode != 0:
            return 1

    assigned = assigned_scalars(arguments.ucd)
    groups = corpus(arguments.ucd)
    records = [record for _, records in groups for record in records]
    with tempfile.TemporaryDirectory(prefix="unicode-tables-") as work:
        build = Build(work, arguments.tables)
        native, probes, harnesses = build.all()
        sizes = build.size_added()
        print(f"built the probes ({time.time() - started:.0f} s)")
        for module, what in (("==", "a module that uses == only"), ("probe", "the probe (==, hashing, case mappings)")):
            toolchain = sizes.get(("toolchain", module))
            print(f"unicode_tables.c adds {sizes[('ours', module)]} bytes to {what}; the toolchain's "
                  f"libswiftUnicodeDataTables.a {'is not there' if toolchain is None else f'adds {toolchain}'}")
        reference = run_native(native, records)
        print(f"native: {len(reference)} answers ({time.time() - started:.0f} s)")
        engine = wasmtime.Engine()
        answers = {}
        for name, path in probes.items():
            answers[name] = run_wasm(engine, wasmtime.Module.from_file(engine, path), records)
            whose = "our" if name == "ours" else "the toolchain's"
            print(f"wasm32 probe with {whose} tables: {len(answers[name])} answers ({time.time() - started:.0f} s)")
        raw = {}
        if "toolchain" in harnesses:
            tables = {name: RawHarness(engine, path) for name, path in harnesses.items()}
            values = {name: harness.values() for name, harness in tables.items()}
            # Every scalar the library may ask a composition for: NFC_QC Maybe or No in either.
            seconds = {scalar for table in values.values() for scalar, value in table.items() if value[0] & 6}
            raw = {name: (values[name], harness.compositions(seconds)) for name, harness in tables.items()}
            print(f"the six functions: {len(raw['ours'][0])} and {len(raw['toolchain'][0])} scalars with data, "
                  f"{len(raw['ours'][1])} and {len(raw['toolchain'][1])} compositions ({time.time() - started:.0f} s)")

    print("corpus: " + ", ".join(f"{group} {len(items)}" for group, items in groups))
    failed = False
    print("differences from native Swift (the oracle):")
    differences, compared = compare_answers(groups, reference, answers["ours"], "ours")
    explained, unexplained = explain(differences, assigned)
    summarize(f"wasm32 with unicode_tables.c, {compared} answers", explained, unexplained, arguments.verbose)
    failed |= bool(unexplained)
    # What the Unicode standard itself says, whatever native Swift answers.
    equivalent = len(dict(groups)[EQUIVALENT_GROUP])
    for name, given in (("native Swift", reference), ("wasm32 with unicode_tables.c", answers["ours"])):
        failures = inequivalent(groups, given)
        print(f"  {name}: {equivalent - len(failures)} of NormalizationTest.txt's {equivalent} equivalent pairs equal")
        for _, line in failures[:UNEXPLAINED_SHOWN]:
            print(f"    NOT EQUAL {line}")
        failed |= bool(failures)
    if "toolchain" in answers:
        # The control: the same module with the toolchain's own tables (as new as native's) must
        # answer exactly as native Swift, so every difference of it is unexplained.
        differences, compared = compare_answers(groups, reference, answers["toolchain"], "toolchain's")
        control = [(changed, line) for changed, line, _ in differences]
        summarize(f"wasm32 with the toolchain's libswiftUnicodeDataTables.a, {compared} answers", [], control, arguments.verbose)
        failed |= bool(control)
    if not raw:
        print("the toolchain has no wasm32 libswiftUnicodeDataTables.a: no comparison with its tables")
    else:
        print("differences from the toolchain's own tables, function by function:")
        explained, unexplained = explain(compare_raw(raw["ours"], raw["toolchain"]), assigned)
        summarize("every scalar and composition pair", explained, unexplained, arguments.verbose, list_explained=False)
        failed |= bool(unexplained)
    print(f"{'FAILED' if failed else 'passed'} in {time.time() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
