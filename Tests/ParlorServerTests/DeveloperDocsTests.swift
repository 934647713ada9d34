import Crypto
import Foundation
import HTTPTypes
@testable import ParlorServer
import Testing

/// The SDK's documentation at `/docs/` (DeveloperDocs): the built site's files with its one inline
/// script allowed by hash, and a sentence saying how to build it when it is not there.
/// (Tests/e2e/test_docs.py reads the real site in Chromium.)
@Suite("The SDK's documentation at /docs/")
struct DeveloperDocsTests {
    @Test("Without a built site, /docs/ and its pages answer 404 saying to run scripts/docs; Parlor's own pages keep the strict policy")
    func notBuilt() async throws {
        try await TestServer().run(.router) { api in
            for path in ["/docs", "/docs/", "/docs/documentation/parlorkit/"] {
                let reply = try await api.get(path)
                #expect(reply.status == .notFound, "\(path)")
                #expect(reply.text.contains("run scripts/docs"), "\(path): \(reply.text)")
                #expect(reply.headers[.contentType] == "text/plain; charset=utf-8", "a sentence a browser shows as it is")
            }
            #expect(try await api.get("/").headers[.contentSecurityPolicy] == SecurityHeaders<ParlorRequestContext>.contentSecurityPolicy)
        }
    }

    @Test("A built site: /docs/ leads to the modules, a folder serves its index.html under a policy allowing only DocC's baseUrl script, an unknown page is a 404 with a way back")
    func built() async throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        let page = site.appendingPathComponent("documentation/parlorkit")
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        let html = #"<!doctype html><html><head><script>var baseUrl = "/docs/"</script></head><body>ParlorKit</body></html>"#
        try Data(html.utf8).write(to: page.appendingPathComponent("index.html"))

        try await TestServer { $0.docsDirectory = site }.run(.router) { api in
            let landing = try await api.get("/docs/")
            #expect(landing.status == .found)
            #expect(landing.headers[.location] == "/docs/documentation/")
            let served = try await api.get("/docs/documentation/parlorkit/")
            #expect(served.status == .ok && served.text == html)
            let policy = try #require(served.headers[.contentSecurityPolicy])
            // The hash of exactly the page's inline script, worked out here from the page.
            let script = #"var baseUrl = "/docs/""#
            let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
            #expect(policy.contains("script-src 'self' 'sha256-\(hash)';"), "\(policy)")
            #expect(!policy.contains("unsafe-inline") && policy.contains("frame-ancestors 'none'"))
            let missing = try await api.get("/docs/documentation/nothing/")
            #expect(missing.status == .notFound && missing.text.contains("/docs/documentation/"))
            // Nothing outside the site is reachable through it.
            #expect(try await api.get("/docs/../Package.swift").status != .ok)
            #expect(try await api.get("/docs/%2e%2e/%2e%2e/Package.swift").status != .ok)
        }
    }
}
