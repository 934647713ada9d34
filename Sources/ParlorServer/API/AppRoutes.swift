import Foundation
import Hummingbird
import NIOPosix
import ParlorImages
import ParlorInput
import ParlorKit
import ParlorStore

/// `/api/apps`, `/api/drawer`, `/api/stickers`, `/assets/*` and `/blobs`: the store, the drawer,
/// sticker packs, app images and uploads.
struct AppRoutes {
    let drawers: Drawers
    let directory: AppDirectory
    let renderer: Renderer
    let uploads: Uploads
    let configuration: ServerConfiguration

    /// The types of uploads shown as images (anything else is downloaded).
    static let imageTypes: Set<String> = Set(ImageFormat.allCases.map(\.mimeType))

    /// What a file that is neither a recognised image nor a recording (`RecordingFormat`) is stored and served as.
    static let fileType = "application/octet-stream"

    func add(to router: Router<ParlorRequestContext>) {
        router.get("/api/apps") { _, context in
            let user = try context.requireUser()
            return try JSONBody.response(try await directory(for: user.id))
        }
        router.put("/api/drawer") { request, context in
            let user = try context.requireUser()
            let body = try await JSONBody.decode(Wire.DrawerOrder.self, from: request)
            try await drawers.setDrawer(body.items, of: user.id)
            return try JSONBody.response(try await directory(for: user.id))
        }
        router.post("/api/apps/:item/install") { _, context in
            let user = try context.requireUser()
            let item = try drawerItem(context)
            var drawer = try await drawers.drawer(of: user.id)
            if !drawer.contains(item) { drawer.append(item) }
            try await drawers.setDrawer(drawer, of: user.id)
            return try JSONBody.response(try await directory(for: user.id))
        }
        router.delete("/api/apps/:item/install") { _, context in
            let user = try context.requireUser()
            let item = try drawerItem(context)
            try await drawers.setDrawer(try await drawers.drawer(of: user.id).filter { $0 != item }, of: user.id)
            return try JSONBody.response(try await directory(for: user.id))
        }
        router.get("/assets/apps/:app/:file") { _, context in
            guard let app = context.parameters.get("app").flatMap({ directory.app(AppID($0)) }),
                  let url = context.parameters.get("file").flatMap(app.assetURL(named:))
            else { throw APIError.notFound }
            return try fileResponse(url)
        }
        router.get("/assets/stickers/:pack/:file") { _, context in
            guard let pack = context.parameters.get("pack"), let file = context.parameters.get("file"),
                  let image = directory.packImage(pack: pack, name: file)
            else { throw APIError.notFound }
            return Response(
                status: .ok, headers: [.contentType: image.mediaType, .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
        }
        router.post("/api/blobs") { request, context in
            let user = try context.requireUser()
            // `kind=file`: any file (sent as an attachment); without it, an image (apps' pictures).
            let kind = request.uri.queryParameters.get("kind")
            guard kind == nil || kind == "file" else { throw APIError.invalid("'kind' is file, or left out for an image.") }
            var request = request
            guard let buffer = try? await request.collectBody(upTo: uploads.maxBytes) else { throw uploads.tooLarge }
            let stored = try await uploads.store(buffer, anyFile: kind == "file", owner: user.id)
            return try JSONBody.response(
                Wire.Blob(hash: stored.hash, url: AppDirectory.uploadURL(stored.hash), contentType: stored.contentType, size: Int64(stored.size)),
                status: .created)
        }
        router.get("/blobs/:hash") { request, context in
            // Private: only who may see the upload gets it. Anyone signed in who may not gets the
            // 404 of a hash nobody uploaded; nobody signed in gets 401, whatever the hash.
            let user = try context.requireUser()
            guard let hash = context.parameters.get("hash"), hash.count == 64 else { throw APIError.notFound }
            // Asked again each time (a blob stops being shared when its message is unsent or the
            // viewer leaves), but its bytes are never sent twice: its hash is its ETag.
            let etag = "\"\(hash)\""
            if request.headers[.ifNoneMatch] == etag, try await uploads.isReadable(hash: hash, by: user.id) {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "private, no-cache"])
            }
            guard let blob = try await uploads.blob(hash: hash, readableBy: user.id) else { throw APIError.notFound }
            var headers: HTTPFields = [.contentType: blob.contentType, .cacheControl: "private, no-cache", .eTag: etag, .acceptRanges: "bytes"]
            // Only the images recognised by their bytes are shown; anything else is downloaded.
            if !Self.imageTypes.contains(blob.contentType) { headers[.contentDisposition] = "attachment" }
            // A media player asks for a recording by ranges.
            switch ByteRange.request(request.headers[.range], length: blob.data.count) {
            case .whole:
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: blob.data)))
            case .part(let range):
                headers[.contentRange] = range.contentRange(of: blob.data.count)
                let part = blob.data[blob.data.startIndex + range.first...blob.data.startIndex + range.last]
                return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: part)))
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(blob.data.count)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
        }
    }

    /// An upload as it is stored: an image (found by its bytes, whatever its name) within the
    /// pixel budget and with its metadata removed (`UploadedImage`: no Exif position, camera or
    /// time, no XMP, no comments; the pixels untouched), or any other file as it came (typed as a recording when it is one, `RecordingFormat`).
    /// - Parameter anyFile: whether files that are not images are taken (attachments).
    /// - Returns: the bytes to hash and store, and their media type.
    /// - Throws: `imageTooLarge` (413) over `budget`, with the limit; `unreadableImage` (400) for
    ///   an image that cannot be read (it would otherwise go out with its metadata);
    ///   `improperFileType` for a file that is not an image where only images are taken.
    static func cleaned(_ buffer: ByteBuffer, anyFile: Bool, budget: PixelBudget) async throws -> (Data, String) {
        let bytes = Array(buffer.readableBytesView)
        // Cleaning a photo of several megabytes takes a few milliseconds: off the event loop.
        let outcome = try await NIOThreadPool.singleton.runIfActive { () -> Result<PreparedImage, ImageRefusal> in
            do throws(ImageRefusal) { return .success(try UploadedImage.prepare(bytes, budget: budget)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let image):
            return (Data(image.bytes), image.info.format.mimeType)
        case .failure(let refusal) where refusal.code == .unsupportedFormat:
            guard anyFile else { throw MessagesError(.improperFileType, "Upload a PNG, JPEG, GIF or WebP image.") }
            return (Data(bytes), RecordingFormat(of: bytes)?.mediaType ?? fileType)
        case .failure(let refusal) where refusal.code == .unreadable:
            throw APIError(
                .badRequest, code: .unreadableImage,
                "\(refusal.message) Parlor removes a photo's hidden details (where and when it was taken) before sending it, and cannot with this file.")
        case .failure(let refusal):
            throw APIError(.contentTooLarge, code: .imageTooLarge, refusal.message)
        }
    }

    private func drawerItem(_ context: ParlorRequestContext) throws -> String {
        guard let item = context.parameters.get("item"), directory.contains(drawerItem: item) else {
            throw APIError(.notFound, code: .unknownApp, "There is no such app or sticker pack in the store.")
        }
        return item
    }

    private func directory(for user: UserID) async throws -> Wire.Directory {
        let drawer = try await drawers.drawer(of: user)
        var apps: [Wire.AppInfo] = []
        for app in directory.apps {
            apps.append(Wire.AppInfo(
                id: app.manifest.id, name: app.manifest.name, summary: app.manifest.summary,
                iconURL: await renderer.imageURL(app.manifest.icon, app: app.manifest.id), hasHomeSurface: app.manifest.hasHomeSurface,
                permissions: app.manifest.permissions, installed: drawer.contains(app.manifest.id.rawValue),
                isOutside: !directory.builtInIDs.contains(app.manifest.id), publisher: app.manifest.publisher))
        }
        var packs: [Wire.PackInfo] = []
        for entry in directory.packs {
            var stickers: [Wire.StickerRef] = []
            for sticker in entry.pack.stickers { stickers.append(await renderer.wire(sticker)) }
            packs.append(Wire.PackInfo(
                id: entry.pack.id, drawerID: AppDirectory.drawerID(ofPack: entry.pack.id), name: entry.pack.name, author: entry.pack.author,
                gridSize: entry.pack.gridSize, stickers: stickers, installed: drawer.contains(AppDirectory.drawerID(ofPack: entry.pack.id))))
        }
        return Wire.Directory(apps: apps, packs: packs, drawer: drawer)
    }

    private func fileResponse(_ url: URL) throws -> Response {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw APIError.notFound }
        return Response(
            status: .ok, headers: [.contentType: Self.mediaType(of: url), .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func mediaType(of url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "png", "apng": "image/png"
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        case "svg": "image/svg+xml"
        case "webp": "image/webp"
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
