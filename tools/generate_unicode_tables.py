#!/usr/bin/env python3
"""Writes ParlorWasmKit's Unicode tables (ParlorSDK/Sources/ParlorWasmHost/ParlorWasmKit/unicode_tables.c): the
six symbols through which Embedded Swift's standard library reads Unicode data when a module
compares or hashes Strings (normalization) or changes their case, for a wasm32 module that is
linked without the toolchain's libswiftUnicodeDataTables.a.

    python3 tools/generate_unicode_tables.py                 # writes unicode_tables.c
    python3 tools/generate_unicode_tables.py --check         # exit 1 if the committed file differs
    python3 tools/generate_unicode_tables.py --ucd DIR       # read another copy of the UCD

The input is the Unicode Character Database as Debian's package unicode-data installs it in
/usr/share/unicode (Unicode 15.0.0 on Debian 12): UnicodeData.txt, DerivedNormalizationProps.txt
and SpecialCasing.txt. The output is deterministic (everything is emitted in scalar order).

What each symbol must return is what the Swift 6.3 standard library reads from it; the reading
side is in swiftlang/swift stdlib/public/core/UnicodeData.swift (_NormData, _DecompositionEntry),
NFD.swift, NFC.swift and UnicodeScalarProperties.swift (_getMapping), and the data that the
toolchain's own tables hold is what utils/gen-unicode-data/Sources/GenNormalization/*.swift and
GenScalarProps/Mappings.swift derive from the UCD. The values are the same as those tables give;
only the way they are stored is ours (sorted arrays searched by bisection, smaller than Swift's
perfect hashes and bit arrays, and simple to read):

- _swift_stdlib_getNormData(scalar) -> UInt16: canonical combining class << 3 | NFC_QC << 1 |
  NFD_QC, where NFC_QC is 0 Yes, 1 No, 2 Maybe, and NFD_QC is 1 for No. Hangul syllables'
  NFD_QC=No is not stored (the standard library adds it itself), as in Swift's generator.
- _swift_stdlib_getDecompositionEntry(scalar) -> UInt32: index << 18 | scalar, where index is the
  offset in _swift_stdlib_nfd_decompositions of a length byte followed by the UTF-8 of the
  scalar's full canonical decomposition (applied recursively, not reordered: the standard library
  sorts marks by combining class itself). For a scalar without one, any value whose low 18 bits
  are not the scalar (the library compares them to tell a hit from a miss).
- _swift_stdlib_getComposition(first, second) -> UInt32: the primary composite of the pair
  (canonical decompositions of two scalars, less Full_Composition_Exclusion), or 0xFFFFFFFF.
  Hangul syllables are composed by the library itself.
- _swift_stdlib_getMapping(scalar, kind) -> Int32: the simple mapping (UnicodeData.txt fields 12,
  13, 14 for kind 0 uppercase, 1 lowercase, 2 titlecase) as a distance to add to the scalar; 0
  when the field is empty (an empty titlecase field is NOT taken to mean the uppercase one, as
  Swift's generator does not) or for another kind.
- _swift_stdlib_getSpecialMapping(scalar, kind, &length) -> pointer: for a scalar with an
  unconditional line in SpecialCasing.txt, the UTF-8 of its full mapping of that kind and its
  length, the length being 0 where that mapping is one scalar (the library then falls back to the
  simple mapping); NULL for other scalars. Conditional lines (Final_Sigma, the lt/tr/az ones) are
  left out, as Swift's generator leaves them out: String.lowercased() maps Σ to σ everywhere.

The toolchain's own implementations of the six are stdlib/public/stubs/Unicode/
UnicodeNormalization.cpp and UnicodeScalarProps.cpp. They are internal to the standard library,
not a stable ABI: a later Swift may read them differently, which tools/check_unicode_tables.py
(the tables against native Swift, and against the toolchain's own wasm32 tables) would show.

Swift 6.3's own tables are of Unicode 17.0, the UCD here of 15.0: scalars assigned since (Garay,
Kirat Rai, Tulu-Tigalari, …, and the case mappings they gave older letters such as U+019B ƛ →
U+A7DC) are unknown to these tables, and treated as unassigned. Given a newer UCD (--ucd), the
generator writes tables of that version.
"""

import argparse
import os
import re
import sys

from generated_file import ROOT, settle

OUTPUT = os.path.join(ROOT, "ParlorSDK", "Sources", "ParlorWasmHost", "ParlorWasmKit", "unicode_tables.c")
DEFAULT_UCD = "/usr/share/unicode"
UCD_FILES = ("UnicodeData.txt", "DerivedNormalizationProps.txt", "SpecialCasing.txt")

HANGUL_SYLLABLES = range(0xAC00, 0xD7A4)
MAX_SCALAR = 0x10FFFF
# Layout limits of the stored values (asserted as the tables are built).
DECOMP_INDEX_LIMIT = 1 << 14  # the standard library reads the index from 14 bits
DECOMP_SCALAR_LIMIT = 1 << 18  # ... and the scalar from the other 18
CASE_RUN_LENGTH_LIMIT = 1 << 11
CASE_TRIPLE_LIMIT = 1 << 8


# ---------------------------------------------------------------------------------------------
# Reading the UCD


def data_lines(path):
    """The data lines of a UCD file, comments and blank lines dropped, as lists of fields."""
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def file_version(path):
    """The Unicode version a UCD file says in its first line (`# Name-15.0.0.txt`), or None."""
    with open(path, encoding="utf-8") as file:
        first = file.readline()
    match = re.match(r"#\s*\S+-(\d+\.\d+\.\d+)\.txt", first)
    return match.group(1) if match else None


def scalar_range(text):
    """`0300` or `0300..036F` as a range of scalars."""
    if ".." in text:
        first, last = text.split("..")
        return range(int(first, 16), int(last, 16) + 1)
    return range(int(text, 16), int(text, 16) + 1)


class UCD:
    """What the tables are made of, read from one copy of the UCD."""

    def __init__(self, folder):
        paths = {name: os.path.join(folder, name) for name in UCD_FILES}
        for path in paths.values():
            if not os.path.exists(path):
                sys.exit(f"{path} is missing: install Debian's unicode-data package (apt-get install unicode-data)")
        versions = {file_version(paths[name]) for name in ("DerivedNormalizationProps.txt", "SpecialCasing.txt")}
        if len(versions) != 1 or None in versions:
            sys.exit(f"the UCD files in {folder} are not all of one Unicode version: {sorted(map(str, versions))}")
        self.version = versions.pop()

        # UnicodeData.txt: combining classes, canonical decompositions, simple case mappings.
        # Lines that open or close a range (<CJK Ideograph, First>) have none of them.
        self.ccc = {}
        self.decomposition = {}  # scalar -> [scalars], canonical only, as written (one level)
        self.simple = {}  # scalar -> (upper, lower, title), each a scalar or None
        for fields in data_lines(paths["UnicodeData.txt"]):
            scalar = int(fields[0], 16)
            if int(fields[3]):
                self.ccc[scalar] = int(fields[3])
            if fields[5] and not fields[5].startswith("<"):
                self.decomposition[scalar] = [int(part, 16) for part in fields[5].split()]
            mappings = tuple(int(field, 16) if field else None for field in fields[12:15])
            if mappings != (None, None, None):
                self.simple[scalar] = mappings

        # DerivedNormalizationProps.txt: quick-check values and Full_Composition_Exclusion.
        self.nfd_qc_no, self.nfc_qc_no, self.nfc_qc_maybe, self.composition_exclusions = set(), set(), set(), set()
        for fields in data_lines(paths["DerivedNormalizationProps.txt"]):
            scalars, prop = scalar_range(fields[0]), fields[1]
            if prop == "NFD_QC":
                # Swift's generator leaves out Hangul syllables' NFD_QC (the standard library
                # sets it itself), so their value is 0 as in its tables.
                if scalars != HANGUL_SYLLABLES:
                    self.nfd_qc_no.update(scalars)
            elif prop == "NFC_QC":
                (self.nfc_qc_no if fields[2] == "N" else self.nfc_qc_maybe).update(scalars)
            elif prop == "Full_Composition_Exclusion":
                self.composition_exclusions.update(scalars)

        # SpecialCasing.txt: the unconditional full mappings (a condition is a fifth field).
        self.special = {}  # scalar -> (upper, lower, title), each a list of scalars
        for fields in data_lines(paths["SpecialCasing.txt"]):
            if len(fields) > 5 and fields[4]:
                continue
            lower, title, upper = ([int(part, 16) for part in field.split()] for field in fields[1:4])
            self.special[int(fields[0], 16)] = (upper, lower, title)


# ---------------------------------------------------------------------------------------------
# Building the tables


def norm_data(ucd):
    """scalar -> the 16-bit value of _swift_stdlib_getNormData, for scalars where it is not 0."""
    values = {}
    for scalar in ucd.nfd_qc_no:
        values[scalar] = values.get(scalar, 0) | 1
    for scalar in ucd.nfc_qc_no:
        values[scalar] = values.get(scalar, 0) | 2
    for scalar in ucd.nfc_qc_maybe:
        values[scalar] = values.get(scalar, 0) | 4
    for scalar, ccc in ucd.ccc.items():
        values[scalar] = values.get(scalar, 0) | ccc << 3
    return values


def norm_runs(values):
    """The value of every scalar as runs: one `start << 11 | value` where the value changes (the
    first at 0), so a scalar's value is that of the last run starting at or before it."""
    # A value can only change at a scalar that has one or just after one.
    boundaries = {0} | set(values) | {scalar + 1 for scalar in values if scalar < MAX_SCALAR}
    runs, previous = [], None
    for scalar in sorted(boundaries):
        value = values.get(scalar, 0)
        assert value < 1 << 11, "a normalization value needs more than 11 bits"
        if value != previous:
            runs.append(scalar << 11 | value)
            previous = value
    return runs


def utf8(scalars):
    return "".join(map(chr, scalars)).encode("utf-8")


def full_decomposition(ucd, scalar):
    """The canonical decomposition applied until nothing decomposes, in the order written (as
    Swift's generator does it in Decomp.swift)."""
    if scalar not in ucd.decomposition:
        return [scalar]
    return [part for first in ucd.decomposition[scalar] for part in full_decomposition(ucd, first)]


def decompositions(ucd):
    """(entries, blob): for each decomposable scalar in order, `offset << 18 | scalar`, and the
    blob of length-prefixed UTF-8 strings they point into (identical ones stored once)."""
    blob, offsets, entries = bytearray(), {}, []
    for scalar in sorted(ucd.decomposition):
        text = utf8(full_decomposition(ucd, scalar))
        if text not in offsets:
            offsets[text] = len(blob)
            assert len(text) < 256
            blob.append(len(text))
            blob += text
        assert scalar < DECOMP_SCALAR_LIMIT and offsets[text] < DECOMP_INDEX_LIMIT
        entries.append(offsets[text] << 18 | scalar)
    return entries, bytes(blob)


def compositions(ucd):
    """Every primary composite as `first << 42 | second << 21 | composite`, in order of the pair."""
    entries = []
    for composite, parts in ucd.decomposition.items():
        if composite in ucd.composition_exclusions:
            continue
        assert len(parts) == 2, f"U+{composite:04X} composes from {len(parts)} scalars"
        entries.append(parts[0] << 42 | parts[1] << 21 | composite)
    return sorted(entries)


def case_runs(ucd):
    """(runs, triples) for the simple mappings. A triple is the distances (upper, lower, title)
    of a scalar; a run covers `length` scalars from `start` whose triples alternate A, B, A, B…
    (A == B for a plain range; B may be "no mapping"), which is how case pairs are laid out
    (0100 Ā, 0101 ā, …). Stored as `start | length << 21 | A << 32 | B << 40`."""
    none = (0, 0, 0)

    def triple(scalar):
        mappings = ucd.simple.get(scalar)
        if mappings is None:
            return none
        return tuple(0 if target is None else target - scalar for target in mappings)

    triples, index = [none], {none: 0}
    runs, scalars, position = [], sorted(s for s in ucd.simple if triple(s) != none), 0
    while position < len(scalars):
        start = scalars[position]
        pattern = (triple(start), triple(start + 1))
        length = 1
        while length < CASE_RUN_LENGTH_LIMIT - 1 and start + length <= MAX_SCALAR and triple(start + length) == pattern[length % 2]:
            length += 1
        if length % 2 == 0 and pattern[1] == none:
            length -= 1  # a run ends on a mapped scalar
        for part in pattern:
            if part not in index:
                index[part] = len(triples)
                triples.append(part)
        assert len(triples) <= CASE_TRIPLE_LIMIT
        runs.append(start | length << 21 | index[pattern[0]] << 32 | index[pattern[1]] << 40)
        end = start + length
        while position < len(scalars) and scalars[position] < end:
            position += 1
    return runs, triples


def special_mappings(ucd):
    """(scalars, offsets, blob): for each scalar with unconditional special casing, where its
    record starts in the blob: three length-prefixed UTF-8 strings, uppercase, lowercase,
    titlecase, a mapping to a single scalar being stored as length 0 (as in Swift's tables)."""
    scalars, offsets, blob = [], [], bytearray()
    for scalar in sorted(ucd.special):
        scalars.append(scalar)
        offsets.append(len(blob))
        for mapping in ucd.special[scalar]:
            text = b"" if len(mapping) == 1 else utf8(mapping)
            assert len(text) < 256
            blob.append(len(text))
            blob += text
    assert len(blob) < 1 << 16
    return scalars, offsets, bytes(blob)


# ---------------------------------------------------------------------------------------------
# Writing the C file


def c_array(declaration, values, per_line, form):
    lines = [declaration + " = {"]
    for start in range(0, len(values), per_line):
        lines.append("    " + ",".join(form(value) for value in values[start:start + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines) + "\n"


def hex_form(value):
    return hex(value)


def c_source(ucd, command):
    runs = norm_runs(norm_data(ucd))
    decomp_entries, decomp_blob = decompositions(ucd)
    comp_entries = compositions(ucd)
    case, triples = case_runs(ucd)
    special_scalars, special_offsets, special_blob = special_mappings(ucd)
    data_bytes = (4 * len(runs) + 4 * len(decomp_entries) + len(decomp_blob) + 8 * len(comp_entries)
                  + 8 * len(case) + 12 * len(triples) + 4 * len(special_scalars) + 2 * len(special_offsets) + len(special_blob))
    summary = (f"Unicode {ucd.version}: {len(runs)} normalization runs, {len(decomp_entries)} decompositions "
               f"({len(decomp_blob)} bytes of UTF-8), {len(comp_entries)} compositions, {len(case)} case runs of "
               f"{len(triples)} distance triples, {len(special_scalars)} special casings: {data_bytes} bytes of data")
    # The summary again, wrapped for the header comment.
    wrapped, line = [], ""
    for word in summary.split(" "):
        if line and len(line) + 1 + len(word) > 92:
            wrapped.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    wrapped.append(line + ".")
    summary_comment = "\n * ".join(wrapped)

    out = []
    out.append(f"""\
/* Generated by tools/generate_unicode_tables.py from the Unicode Character Database {ucd.version}
 * (UnicodeData.txt, DerivedNormalizationProps.txt, SpecialCasing.txt, as Debian's unicode-data
 * package installs them in /usr/share/unicode). Do not edit: run
 * `{command}` to regenerate it, with --check to verify it, and
 * `python3 tools/check_unicode_tables.py` to compare it with native Swift.
 *
 * The Unicode data Embedded Swift's standard library reads when a module compares, hashes or
 * normalizes Strings (==, <, Set/Dictionary keys) or changes their case (lowercased(),
 * uppercased(), Unicode.Scalar.Properties' mappings and canonicalCombiningClass), for a wasm32
 * module linked without the toolchain's libswiftUnicodeDataTables.a. The values are those the
 * Swift 6.3 standard library expects (stdlib/public/core/UnicodeData.swift, NFD.swift, NFC.swift,
 * UnicodeScalarProperties.swift); the generator's docstring says what each function returns.
 * Scalars assigned after Unicode {ucd.version} have no data here (Swift 6.3's own tables are of
 * Unicode 17.0): they are treated as unassigned (no decomposition, combining class 0, no case
 * mapping), and so are case mappings that later versions gave older scalars (U+019B ƛ, U+0264 ɤ).
 *
 * {summary_comment}
 * Built by the Swift toolchain's clang (--target=wasm32 -nostdlib), without libc headers. */

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define NO_COMPOSITION 0xFFFFFFFFu

""")

    out.append("""\
/* Normalization data of every scalar, as runs: `start << 11 | value` where the value changes, so
 * a scalar's value is that of the last run starting at or before it. */
""")
    out.append(c_array(f"static const u32 norm_runs[{len(runs)}]", runs, 10, hex_form))
    out.append("""
unsigned short _swift_stdlib_getNormData(unsigned int scalar) {
    if (scalar < 0xC0 || scalar > 0x10FFFF) return 0;
    /* The first run starting after the scalar; the one before it holds the scalar. */
    u32 after = (scalar + 1) << 11;
    u32 low = 0, high = sizeof norm_runs / sizeof norm_runs[0];
    while (low < high) {
        u32 middle = low + (high - low) / 2;
        if (norm_runs[middle] < after) low = middle + 1; else high = middle;
    }
    return (unsigned short)(norm_runs[low - 1] & 0x7FF);
}

""")

    out.append("""\
/* Full canonical decompositions: a length byte, then that many bytes of UTF-8. */
""")
    out.append(c_array(f"static const u8 nfd_strings[{len(decomp_blob)}]", list(decomp_blob), 24, str))
    out.append("""
const u8 *const _swift_stdlib_nfd_decompositions = nfd_strings;

/* Each decomposable scalar, in order, as the standard library reads it: its decomposition's
 * offset in nfd_strings << 18 | the scalar. */
""")
    out.append(c_array(f"static const u32 decomposition_entries[{len(decomp_entries)}]", decomp_entries, 8, hex_form))
    out.append("""
unsigned int _swift_stdlib_getDecompositionEntry(unsigned int scalar) {
    u32 low = 0, high = sizeof decomposition_entries / sizeof decomposition_entries[0];
    while (low < high) {
        u32 middle = low + (high - low) / 2;
        u32 key = decomposition_entries[middle] & 0x3FFFF;
        if (key == scalar) return decomposition_entries[middle];
        if (key < scalar) low = middle + 1; else high = middle;
    }
    /* Low 18 bits that are not the scalar: the library takes that as "no decomposition". */
    return (scalar + 1) & 0x3FFFF;
}

/* Primary composites as `first << 42 | second << 21 | composite`, in order of the pair. */
""")
    out.append(c_array(f"static const u64 composition_entries[{len(comp_entries)}]", comp_entries, 5, hex_form))
    out.append("""
unsigned int _swift_stdlib_getComposition(unsigned int first, unsigned int second) {
    if (first > 0x10FFFF || second > 0x10FFFF) return NO_COMPOSITION;
    u64 pair = (u64)first << 21 | second;
    u32 low = 0, high = sizeof composition_entries / sizeof composition_entries[0];
    while (low < high) {
        u32 middle = low + (high - low) / 2;
        u64 key = composition_entries[middle] >> 21;
        if (key == pair) return (u32)(composition_entries[middle] & 0x1FFFFF);
        if (key < pair) low = middle + 1; else high = middle;
    }
    return NO_COMPOSITION;
}

/* Simple case mappings as distances {uppercase, lowercase, titlecase}; 0 is "none". */
""")
    out.append(c_array(f"static const int case_distances[{len(triples)}][3]", triples, 6,
                       lambda triple: "{%d,%d,%d}" % triple))
    out.append("""
/* Runs of scalars whose distances alternate between two triples A and B (case pairs), as
 * `start | length << 21 | A << 32 | B << 40`, in order of start. */
""")
    out.append(c_array(f"static const u64 case_runs[{len(case)}]", case, 6, hex_form))
    out.append("""
int _swift_stdlib_getMapping(unsigned int scalar, unsigned char mapping) {
    if (mapping > 2) return 0;
    /* The first run starting after the scalar; the one before it may hold the scalar. */
    u32 low = 0, high = sizeof case_runs / sizeof case_runs[0];
    while (low < high) {
        u32 middle = low + (high - low) / 2;
        if ((u32)(case_runs[middle] & 0x1FFFFF) <= scalar) low = middle + 1; else high = middle;
    }
    if (low == 0) return 0;
    u64 run = case_runs[low - 1];
    u32 offset = scalar - (u32)(run & 0x1FFFFF);
    if (offset >= (u32)(run >> 21 & 0x7FF)) return 0;
    u32 triple = (u32)(offset & 1 ? run >> 40 & 0xFF : run >> 32 & 0xFF);
    return case_distances[triple][mapping];
}

/* Unconditional special casing (SpecialCasing.txt): for each scalar, three length-prefixed UTF-8
 * strings, uppercase, lowercase, titlecase; length 0 where the mapping is one scalar. */
""")
    out.append(c_array(f"static const u8 special_strings[{len(special_blob)}]", list(special_blob), 24, str))
    out.append(c_array(f"static const u32 special_scalars[{len(special_scalars)}]", special_scalars, 10, hex_form))
    out.append(c_array(f"static const u16 special_offsets[{len(special_offsets)}]", special_offsets, 16, str))
    out.append("""
const u8 *_swift_stdlib_getSpecialMapping(unsigned int scalar, unsigned char mapping, __INTPTR_TYPE__ *length) {
    u32 low = 0, high = sizeof special_scalars / sizeof special_scalars[0];
    while (low < high) {
        u32 middle = low + (high - low) / 2;
        if (special_scalars[middle] == scalar) {
            if (mapping > 2) return 0;
            const u8 *text = special_strings + special_offsets[middle];
            for (unsigned char skip = 0; skip < mapping; skip++) text += 1 + *text;
            *length = *text;
            return text + 1;
        }
        if (special_scalars[middle] < scalar) low = middle + 1; else high = middle;
    }
    return 0;
}
""")
    return "".join(out), summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file is not what this writes")
    parser.add_argument("--ucd", default=DEFAULT_UCD, help=f"the folder of the UCD files (default {DEFAULT_UCD})")
    parser.add_argument("--output", default=OUTPUT, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    command = "python3 tools/generate_unicode_tables.py"
    if os.path.abspath(arguments.ucd) != DEFAULT_UCD:
        command += f" --ucd {arguments.ucd}"
    source, summary = c_source(UCD(arguments.ucd), command)
    return settle(arguments.check, arguments.output, source, "tools/generate_unicode_tables.py", summary)

if __name__ == "__main__":
    sys.exit(main())
