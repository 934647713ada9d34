import Foundation
@testable import LinkShare
import Testing

@Suite("LinkShare reads feedparser's well-formed RSS and Atom feeds as feedparser does")
struct FeedparserCorpusTests {
    @Test("At least 99% of the corpus agrees with feedparser, and every difference left is listed in DIFFERENCES.md, no more")
    func agreesWithFeedparser() throws {
        let corpus = try FeedparserCorpus()
        let paths = try FeedparserCorpus.feedPaths()
        #expect(paths.count > 600, "the corpus is missing: \(FeedparserCorpus.folder.path)")
        #expect(Set(paths) == Set(corpus.expected.files.keys), "expected.json is not of these feeds: run tools/feed-corpus-expected.py")
        var differences: [String: String] = [:]
        for path in paths {
            if let difference = try corpus.difference(at: path) { differences[path] = difference }
        }
        let agreeing = paths.count - differences.count
        let percent = Double(agreeing) * 100 / Double(max(paths.count, 1))
        print("feedparser corpus: \(agreeing) of \(paths.count) feeds read as \(corpus.expected.reference) reads them (\(String(format: "%.1f", percent))%)")
        #expect(percent >= 99, "only \(String(format: "%.1f", percent))% of the feeds agree with feedparser")

        let listed = try FeedparserCorpus.listedDifferences()
        for (path, difference) in differences.sorted(by: { $0.key < $1.key }) where listed[path] == nil {
            Issue.record("\(path) differs from feedparser and is not in DIFFERENCES.md: \(difference)")
        }
        for path in listed.keys.sorted() where differences[path] == nil {
            Issue.record("\(path) is in DIFFERENCES.md but now agrees with feedparser: take it off the list")
        }
    }
}
