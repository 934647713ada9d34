#!/usr/bin/env python3
"""Writes the cases ParlorKit's HTMLEntities is checked against: inputs and what Python's
`html.unescape`, an independent implementation of the HTML standard's character references,
makes of them (ParlorSDK/Tests/ParlorKitTests/HTMLUnescapeCases.swift).

The inputs: every named reference as written and without its semicolon, each legacy name (one a
browser reads without `;`) followed by the characters that change how it reads, numeric
references at every edge (0, the C1 controls, surrogates,
noncharacters, past U+10FFFF, leading zeros, no digits, no semicolon), ambiguous ampersands
(`&notit;`, `&amp;amp;`, `AT&T`), and random strings from a seeded generator, so the output is
deterministic.

One deliberate difference: for a numeric reference to a control character or a noncharacter
(`&#1;`, `&#x7F;`, `&#xFFFE;`), `html.unescape` returns nothing, while the standard (and every
browser) keeps the character and only counts a parse error. The expected value of such a case
follows the standard (computed by `html.unescape` with Python's `_invalid_codepoints` emptied),
and the case also carries `html.unescape`'s own output, so the test shows the difference.

Usage:
    python3 tools/generate_html_unescape_cases.py          # (re)writes the Swift file
    python3 tools/generate_html_unescape_cases.py --check  # exit 1 if the committed file differs
"""

import html
import json
import os
import random
import sys
from html.entities import html5

from generated_file import write_or_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "ParlorSDK", "Tests", "ParlorKitTests", "HTMLUnescapeCases.swift")


def inputs():
    """Every input, in a fixed order, without repeats."""
    cases = []
    for name in sorted(html5):
        bare = name.rstrip(";")
        cases += [f"x&{name}y", f"&{bare} "]
        if not name.endswith(";"):  # a legacy name: what follows it decides
            cases += [f"&{bare}=1", f"&{bare}x;", f"&{bare}9", f"&{bare};;"]
    for number in range(0, 0xA1):
        cases += [f"&#{number};", "&#x%x" % number]
    numbers = [
        0x7F, 0x80, 0x81, 0x8D, 0x8F, 0x90, 0x96, 0x9D, 0x9F, 0xA0, 0xAD, 0x2028, 0xD7FF, 0xD800, 0xDBFF, 0xDC00,
        0xDFFF, 0xE000, 0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0x1FFFE,
        0x1FFFF, 0x10FFFD, 0x10FFFE, 0x10FFFF, 0x110000, 0x110001, 0xFFFFFFFF, 0x100000000, 10**30]
    for number in numbers:
        for digits in (str(number), "x%x" % number, "X%X" % number, "x%X" % number):
            cases += [f"&#{digits};", f"&#{digits}", f"a&#{digits}b", f"&#{digits};;", f"&#0000{digits}" if digits[0].isdigit() else f"&#{digits[0]}000{digits[1:]};"]
    cases += [
        "&", "&&", "&;", "& ;", "&#", "&#;", "&#x", "&#x;", "&#X;", "&#xg;", "&#xZZ;", "&#-1;", "&#+39;", "&# 39;", "&#12a;",
        "&#x12g;", "&#39", "&#39 ", "&#x27", "&#9" * 40, "&#" + "9" * 400 + ";", "&#x" + "F" * 400 + ";", "&#" + "0" * 400 + "65;",
        "&notit;", "&notin;", "&notin", "&noti;", "&not", "&not;", "&notx", "&amp;amp;", "&amp;lt;", "&ampamp", "&amp;&amp;",
        "&amp", "&amp;", "&AMP", "&AMP;", "&Amp;", "&amP;", "AT&T", "R&D; Q&A", "&foo;", "&foo", "a &&& b", "&lt&gt", "&ltx",
        "&lt;x", "&LT", "&lt=", "&copy=2", "?a=1&copy=2&region=eu&not=3&para=4&lang=en", "&region", "&reg;ion", "&regx",
        "&CounterClockwiseContourIntegral;", "&CounterClockwiseContourIntegral", "&CounterClockwiseContourIntegralx;",
        "&amp" + "x" * 40, "&" + "a" * 40 + ";", "&" + "a" * 40, "&nbsp&nbsp;", "&nbsp;&#160;&#xA0;", "&sup1&sup2&sup3",
        "&frac12;&frac14&frac34x", "&fjlig;", "&nvlt;", "&bne;", "&NewLine;", "&Tab;", "&ThickSpace;", "&acE;",
        "Recipes &raquo; Caf&eacute; Cr&egrave;me &ndash; Tom&rsquo;s &hellip;", "&#150; &#151; &#128; &#153;",
        "&é;", "&amp\u00e9", "&\u00e9amp;", "&amp\U0001F600;", "&#x1F600;\U0001F600&amp;", "&lt\u0301", "&lt;\u0301",
        "&\t", "&\n", "&amp\r", "&amp\f;", "&<", "&amp<", "&#<", "&#x<", "<&>", "&quot", "&quot;quot;", "&apos", "&apos;",
    ]
    generator = random.Random(20240611)
    names = sorted(html5)
    pieces = ["&", "&", "&#", "&#x", ";", ";", "#", "x", "X", "0", "1", "9", "a", "F", " ", "=", "é", "\U0001F600", "amp", "lt", "not"]
    for _ in range(800):
        text = ""
        for _ in range(generator.randint(1, 8)):
            choice = generator.random()
            if choice < 0.35:
                name = generator.choice(names)
                text += "&" + (name if generator.random() < 0.5 else name.rstrip(";"))[: generator.randint(1, len(name))]
            elif choice < 0.5:
                text += "&#" + generator.choice(["", "x", "X"]) + "".join(generator.choice("0123456789abcdefABCDEF") for _ in range(generator.randint(0, 9)))
            else:
                text += generator.choice(pieces)
        cases.append(text)
    seen = set()
    return [case for case in cases if not (case in seen or seen.add(case))]


def spec_unescape(text):
    """`html.unescape`, keeping what it drops but the standard keeps (see the docstring)."""
    dropped = html._invalid_codepoints
    html._invalid_codepoints = set()
    try:
        return html.unescape(text)
    finally:
        html._invalid_codepoints = dropped


def swift_source():
    """The Swift file's text."""
    rows = []
    for text in inputs():
        expected = spec_unescape(text)
        python = html.unescape(text)
        row = [text, expected] if python == expected else [text, expected, python]
        rows.append(json.dumps(row, ensure_ascii=True))
    body = ",\n".join(rows)
    if '"""##' in body or "\\##" in body:
        sys.exit("the cases cannot be written inside a ##\"\"\" literal")
    return (
        "// Generated by tools/generate_html_unescape_cases.py: what Python's html.unescape makes of each\n"
        "// input (the standard's value where html.unescape drops a character; then its own is the third\n"
        "// element). Do not edit: run the script to regenerate, and with `--check` to verify.\n\n"
        "/// The differential cases for `HTMLEntities`: a JSON array of `[input, expected]` or\n"
        "/// `[input, expected, html.unescape's output]`.\n"
        "enum HTMLUnescapeCases {\n"
        f"    /// {len(rows):,} cases.\n"
        '    static let json = ##"""\n'
        "[\n" + body + "\n]\n"
        '"""##\n'
        "}\n")


def main():
    return write_or_check(__doc__.split("\n")[0], OUTPUT, swift_source(), "tools/generate_html_unescape_cases.py", "")


if __name__ == "__main__":
    sys.exit(main())
