/// What a link card is read from in a page's head, found as a browser finds it: the `<meta>`
/// tags and the first `<title>`, up to the end of the head (its `</head>` or the `<body>` tag).
///
/// Only markup counts: a tag inside a comment, a script, a style sheet, a `<noscript>` (read as a
/// browser running scripts reads it), the title's own text or a `<template>` (whose content is
/// not part of the document) is not one, and neither is a `</head>` there.
struct HTMLHead: Sendable {
    /// The attributes of each `<meta>` tag, in the page's order.
    var metas: [[String: String]] = []
    /// The first `<title>`'s text, references decoded, white space as written; nil without one.
    var title: String?
    /// Whether the head ended (its `</head>` or the `<body>` tag, as markup): nothing after it is read.
    var isComplete = false

    init(parsing html: String) {
        var tokenizer = HTMLTokenizer(html)
        var templateDepth = 0
        var readingTitle = false
        while let token = tokenizer.next() {
            switch token {
            case .startTag(name: "template", _):
                templateDepth += 1
            case .endTag(name: "template"):
                templateDepth = max(0, templateDepth - 1)
            case _ where templateDepth > 0:
                continue
            case .startTag(name: "body", _), .endTag(name: "head"):
                isComplete = true
                return
            case .startTag(name: "meta", let attributes):
                metas.append(attributes)
            case .startTag(name: "title", _):
                readingTitle = title == nil
            case .text(let text) where readingTitle:
                title = text
                readingTitle = false
            case .startTag, .endTag, .text:
                continue
            }
        }
    }
}
