#!/usr/bin/env python3
"""Writes what feedparser reads of each feed in LinkShare's feed corpus, for the corpus test.

The corpus is feedparser's own `tests/wellformed/` feeds (see
Tests/Apps/LinkShareTests/Syndication/feedparser/README.md). For every `*.xml` file under that
folder this runs feedparser (the reference parser) on the file's bytes and writes, to
`expected.json` beside them, whether feedparser found the XML well-formed and, for each entry, its
title and link as feedparser reports them, plus the title as a reader sees it:

- `title`, `titleType`: `entry.title` and `entry.title_detail.type`, as feedparser reports them
  (for HTML and XHTML titles, feedparser's sanitized HTML).
- `text`: the title as plain text, which is what LinkShare shows: for an HTML or XHTML title,
  feedparser's HTML with its tags removed, the content of `script` and `style` dropped and
  character references decoded (Python's own `html.parser`, not LinkShare's code); whitespace
  runs made one space, trimmed. Empty when the entry has no title.
- `link`: `entry.link` (feedparser resolves it against `xml:base` and the feed's address), or null.

Every file is parsed as if served from `https://feedparser.example/<folder>/<file>` with
`Content-Type: application/xml`; the Swift test gives LinkShare the same address.

    pip install feedparser==6.0.14
    python3 tools/feed-corpus-expected.py
"""

import html.parser
import json
import pathlib
import sys
import xml.sax

import feedparser

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "Tests/Apps/LinkShareTests/Syndication/feedparser"
FEED_URL = "https://feedparser.example/{path}"
REFERENCE_VERSION = "6.0.14"


class TextOfHTML(html.parser.HTMLParser):
    """The text of an HTML fragment: no tags, no script or style content, references decoded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def plain_text(value, content_type):
    """`value` as a reader sees it: HTML made text, whitespace collapsed."""
    if "html" in (content_type or ""):
        parser = TextOfHTML()
        parser.feed(value)
        parser.close()
        value = "".join(parser.parts)
    return " ".join(value.split())


def expected(path):
    """What feedparser reads of the feed at `path`, as one JSON object."""
    relative = path.relative_to(CORPUS).as_posix()
    result = feedparser.parse(
        path.read_bytes(),
        response_headers={"content-location": FEED_URL.format(path=relative), "content-type": "application/xml"},
    )
    # feedparser sets `bozo` for other reasons too (a content type it does not expect, an encoding
    # overridden); only an XML syntax error makes a feed "not well-formed" here.
    well_formed = not (result.bozo and isinstance(result.bozo_exception, xml.sax.SAXException))
    entries = []
    for entry in result.entries:
        title = entry.get("title", "")
        title_type = entry.get("title_detail", {}).get("type", "text/plain")
        entries.append({
            "title": title,
            "titleType": title_type,
            "text": plain_text(title, title_type),
            "link": entry.get("link") or None,
        })
    return relative, {"wellFormed": well_formed, "version": result.version or "", "entries": entries}


def main():
    if feedparser.__version__ != REFERENCE_VERSION:
        sys.exit(f"feedparser {feedparser.__version__}: the corpus is feedparser {REFERENCE_VERSION}'s; pip install feedparser=={REFERENCE_VERSION}")
    files = dict(expected(path) for path in sorted(CORPUS.rglob("*.xml")))
    document = {
        "reference": f"feedparser {REFERENCE_VERSION}",
        "feedURL": FEED_URL,
        "files": files,
    }
    out = CORPUS / "expected.json"
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(files)} feeds, {sum(not f['wellFormed'] for f in files.values())} not well-formed: {out}")


if __name__ == "__main__":
    main()
