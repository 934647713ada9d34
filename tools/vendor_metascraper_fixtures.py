#!/usr/bin/env python3
"""Vendors real pages' heads, and what metascraper reads from them, as link-card fixtures.

metascraper (https://github.com/microlinkhq/metascraper, MIT) keeps real pages in
packages/metascraper/test/integration/<site>/input.html, each with the address it was read from
(index.js) and the metadata metascraper reads from it (snapshots/index.js.md, written by AVA).
This script copies, for the pages whose head is under --max-head characters, the page up to its
<body> start tag (where Python's html.parser, which knows comments and <script>/<style>, finds
it; the whole page when it has none) into OUT/pages/<site>.html, and the address and the title,
description, image and publisher metascraper found into OUT/expected.json.

    tools/vendor_metascraper_fixtures.py ~/src/metascraper Tests/ParlorInputTests/Fixtures/metascraper

The output is deterministic: run it again on the same commit and nothing changes.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

FIELDS = ("title", "description", "image", "publisher")


class BodyFinder(HTMLParser):
    """Finds where the first <body> start tag begins, as a tokenizer sees the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.body = None

    def handle_starttag(self, tag, attrs):
        if tag == "body" and self.body is None:
            self.body = self.getpos()


def head_of(page):
    """The page up to its <body> start tag (html.parser counts lines by "\\n" only)."""
    finder = BodyFinder()
    finder.feed(page)
    finder.close()
    if finder.body is None:
        return page
    line, column = finder.body
    lines = page.split("\n")
    return "\n".join(lines[: line - 1]) + ("\n" if line > 1 else "") + lines[line - 1][:column]


def js_string(text):
    """A single-quoted JavaScript string's body, unescaped."""
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", lambda m: {
        "n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(m.group(1), chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" and len(m.group(1)) == 5 else m.group(1)), text)


def snapshots(markdown):
    """{test name: {field: value}} from an AVA snapshot report (index.js.md)."""
    found = {}
    name = None
    lines = markdown.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("## "):
            name = line[3:].strip()
            found[name] = {}
            continue
        match = re.match(r"^      (\w+): (.*)$", line)
        if not match or name is None:
            continue
        key, value = match.groups()
        if value == "null,":
            found[name][key] = None
        elif value.startswith("'") and value.endswith("',"):
            found[name][key] = js_string(value[1:-2])
        elif value.startswith("`"):
            parts = [value[1:]]
            while not parts[-1].endswith("`,"):
                parts.append(lines[index][6:])
                index += 1
            text = "".join(part.replace("␊", "\n") if part.endswith("␊") else part for part in parts)
            found[name][key] = text[:-2].replace("\\`", "`")
        else:
            found[name][key] = value.rstrip(",")
    return found


def cases(integration):
    """(case name, page path, address, expected fields) for each page metascraper tests."""
    for site in sorted(os.listdir(integration)):
        folder = os.path.join(integration, site)
        script_path = os.path.join(folder, "index.js")
        report_path = os.path.join(folder, "snapshots", "index.js.md")
        if not (os.path.isfile(script_path) and os.path.isfile(report_path)):
            continue
        with open(script_path, encoding="utf-8") as file:
            script = file.read()
        with open(report_path, encoding="utf-8") as file:
            reports = snapshots(file.read())
        tests = re.findall(r"test\('([^']+)'.*?const url =\s*'([^']+)'.*?resolve\(__dirname, '([^']+)'\)", script, re.S)
        if not tests:
            address = re.search(r"const url =\s*'([^']+)'", script)
            title = re.search(r"test\)?\('([^']+)'", script)
            page = re.search(r"resolve\(__dirname, '([^']+)'\)", script)
            if address and title and page:
                tests = [(title.group(1), address.group(1), page.group(1))]
        for test, address, page in tests:
            if test not in reports:
                continue
            case = site if len(tests) == 1 else site + "-" + os.path.splitext(os.path.basename(page))[0]
            yield case, os.path.join(folder, page), address, reports[test]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("metascraper", help="a checkout of github.com/microlinkhq/metascraper")
    parser.add_argument("out", help="the fixture folder to write")
    parser.add_argument("--max-head", type=int, default=32_000, help="largest head vendored, in characters")
    arguments = parser.parse_args()

    integration = os.path.join(arguments.metascraper, "packages", "metascraper", "test", "integration")
    os.makedirs(os.path.join(arguments.out, "pages"), exist_ok=True)
    expected = {}
    for case, page_path, address, report in cases(integration):
        with open(page_path, encoding="utf-8") as file:
            head = head_of(file.read())
        if len(head) > arguments.max_head:
            continue
        with open(os.path.join(arguments.out, "pages", case + ".html"), "w", encoding="utf-8", newline="") as file:
            file.write(head)
        expected[case] = {"url": address, **{field: report.get(field) for field in FIELDS}}
    with open(os.path.join(arguments.out, "expected.json"), "w", encoding="utf-8") as file:
        json.dump(expected, file, ensure_ascii=False, indent=1, sort_keys=True)
        file.write("\n")
    print(f"{len(expected)} pages vendored into {arguments.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
