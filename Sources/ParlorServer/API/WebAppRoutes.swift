import Crypto
import Foundation
import Hummingbird
import NIOCore

/// The browser client as an installable web app. Its manifest (`/manifest.webmanifest`) and
/// icons are files of `Web/`, served as they are by the file middleware; its service worker is
/// `Web/sw.js`, served here at `/sw.js` (the root, so that its scope is all of Parlor) with the
/// build written above it: the client's version, a digest of every file of `Web/`, and the
/// paths of the shell the worker keeps for offline starts. A server with other files therefore
/// serves another worker, which browsers install in place of the old one (and its shell).
///
/// ```swift
/// let webApp = try WebAppRoutes(root: webRoot)
/// webApp.add(to: router)
/// ```
struct WebAppRoutes: Sendable {
    /// Where the service worker is served.
    static let workerPath = "/sw.js"
    /// The worker's file in `Web/`: never served as it is, nor kept in the shell.
    static let workerFile = "sw.js"
    static let workerContentType = "text/javascript; charset=utf-8"
    /// Browsers ask again each time (they check for a new worker at every start and reconnect).
    static let workerCacheControl = "no-cache"
    /// Where another app shares a link, text or photos (the manifest's `share_target`). The
    /// worker answers it in the browser, keeping what was shared on the device; the server only
    /// sees it when no worker runs yet, and then keeps nothing and sends the page to its picker,
    /// which says nothing arrived.
    static let shareAction = "/share"
    /// The page's "Send to…" picker.
    static let sharePage = "/#/share"

    /// A digest of the client's files, their paths and contents (16 hex digits).
    let version: String
    /// The paths the worker keeps, as the page asks for them (`/` for `index.html`), each with the
    /// SHA-256 of its contents in hex: the worker keeps a file only when its bytes are these, so a
    /// server restarted with other files meanwhile never fills this version's shell with them.
    let shell: [String: String]
    /// The worker's script as served.
    let worker: ByteBuffer

    /// Reads the client's files in `root`.
    /// - Throws: when a file of `root` cannot be read, or the worker's is missing.
    init(root: URL) throws {
        let files = FileManager.default
        let paths = try files.subpathsOfDirectory(atPath: root.path).filter { path in
            var isDirectory: ObjCBool = false
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return !name.hasPrefix(".") && files.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
        var hasher = SHA256()
        var script: Data?
        var shell: [String: String] = [:]
        for path in paths {
            let contents = try Data(contentsOf: root.appendingPathComponent(path))
            hasher.update(data: Data(path.utf8))
            hasher.update(data: withUnsafeBytes(of: UInt64(contents.count).bigEndian) { Data($0) })
            hasher.update(data: contents)
            if path == Self.workerFile {
                script = contents
            } else {
                let served = path == "index.html" ? "/" : "/" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
                shell[served] = Self.hex(SHA256.hash(data: contents))
            }
        }
        version = String(Self.hex(hasher.finalize()).prefix(16))
        self.shell = shell
        var worker = ByteBuffer(string: "const BUILD = ")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        worker.writeBytes(try encoder.encode(Build(version: version, shell: shell)))
        worker.writeString(";\n\n")
        guard let script else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: Self.workerFile]) }
        worker.writeBytes(script)
        self.worker = worker
    }

    /// What the worker is told above its script.
    private struct Build: Encodable {
        let version: String
        let shell: [String: String]
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    func add(to router: Router<some RequestContext>) {
        let response = Response(
            status: .ok,
            headers: [.contentType: Self.workerContentType, .cacheControl: Self.workerCacheControl],
            body: .init(byteBuffer: worker))
        router.get(RouterPath(Self.workerPath)) { _, _ in response }
        router.post(RouterPath(Self.shareAction)) { _, _ in
            Response(status: .seeOther, headers: [.location: Self.sharePage])
        }
        router.head(RouterPath(Self.workerPath)) { _, _ in
            var head = response
            head.body = .init()
            head.headers[.contentLength] = String(worker.readableBytes)
            return head
        }
    }
}
