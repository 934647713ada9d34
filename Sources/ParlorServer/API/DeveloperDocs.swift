import Crypto
import Foundation
import Hummingbird
import NIOCore
import Logging

/// The SDK's documentation for app developers (DocC: ParlorKit and ParlorTesting), served at
/// `/docs/` from the static site `scripts/docs` builds (`ServerConfiguration.docsDirectory`).
///
/// DocC's pages carry one inline script, `var baseUrl = "/docs/"`, written for the path the site
/// was built for: these pages get Parlor's strict policy with that one script allowed by its hash,
/// nothing else inline. Without a built site, `/docs/` says how to build it.
struct DeveloperDocs: Sendable {
    /// Where the documentation is served (the site is built with `--hosting-base-path docs`).
    static let path = "/docs"
    /// Where a person lands: the list of modules.
    static let landing = "/docs/documentation/"
    /// The one inline script in DocC's pages.
    static let inlineScript = #"var baseUrl = "/docs/""#
    /// Said at `/docs/` when the site is not built on this server.
    static let notBuilt = "The SDK's documentation is not built on this server: run scripts/docs in Parlor's folder (about a minute), then reload."

    static var contentSecurityPolicy: String {
        let hash = Data(SHA256.hash(data: Data(inlineScript.utf8))).base64EncodedString()
        return "default-src 'self'; script-src 'self' 'sha256-\(hash)'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// A 404 a person reads in their browser: the sentence as plain text.
    struct Missing: HTTPResponseError {
        let sentence: String
        var status: HTTPResponse.Status { .notFound }

        func response(from request: Request, context: some RequestContext) throws -> Response {
            Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: sentence + "\n")))
        }
    }

    /// Whether `path` is one of the documentation's.
    static func serves(_ path: String) -> Bool { path == Self.path || path.hasPrefix(Self.path + "/") }

    /// The built site, if there is one.
    let root: URL?

    /// Serves the site's files (a folder's `index.html` for the folder), sends `/docs` and
    /// `/docs/` to the list of modules, and answers anything else under `/docs/` with a 404 that
    /// says what is missing.
    func add(to router: Router<some RequestContext>, logger: Logger) {
        if let root {
            router.middlewares.add(
                FileMiddleware(root.path, urlBasePath: Self.path, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
        }
        let built = root != nil
        // The router takes `/docs/` as `/docs`.
        router.get(RouterPath(Self.path)) { _, _ -> Response in
            guard built else { throw Missing(sentence: Self.notBuilt) }
            return Response(status: .found, headers: [.location: Self.landing])
        }
        // Thrown, not returned: the file middleware serves the site's file when the route says 404.
        router.get(RouterPath(Self.path + "/**")) { _, _ -> Response in
            throw Missing(sentence: built ? "There is no such page in the SDK's documentation; start again at \(Self.landing)." : Self.notBuilt)
        }
    }
}
