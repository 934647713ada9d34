import Foundation
import Hummingbird
import ParlorInput
import ParlorKit
import ParlorStore
import ParlorWasmHost

/// `/api/admin/apps`: what `parlor apps` does, over HTTP, for the operator only (`AdminGate`).
struct AdminRoutes {
    let registrations: AppRegistrations
    /// Told of every change, so connections of removed apps and replaced credentials close.
    let remoteApps: RemoteApps
    /// The apps built in, whose ids and names a registered app may not take.
    let directory: AppDirectory
    let gate: AdminGate
    /// What a WebAssembly app may use (its module's size among them).
    let wasmLimits: WasmLimits

    /// The type of a WebAssembly module's body.
    static let wasmContentType = "application/wasm"

    func add(to router: Router<ParlorRequestContext>) {
        router.get("/api/admin/apps") { request, context in
            try await gate.check(request, context)
            var apps: [Wire.RegisteredAppInfo] = []
            for app in try await registrations.list() {
                apps.append(Wire.RegisteredAppInfo(app, connections: await remoteApps.connectionCount(of: app.manifest.id)))
            }
            return try JSONBody.response(apps)
        }
        router.post("/api/admin/apps") { request, context in
            try await gate.check(request, context)
            if request.headers[.contentType]?.lowercased().hasPrefix(Self.wasmContentType) == true {
                let app = try await registrations.add(
                    module: try await module(of: request), limits: wasmLimits, builtIn: directory.builtInManifests)
                try await remoteApps.sync()
                return try JSONBody.response(Wire.RegisteredAppInfo(app, connections: 0), status: .created)
            }
            let manifest = try await JSONBody.decode(AppManifest.self, from: request)
            let secret = try await registrations.add(manifest, builtIn: directory.builtInManifests)
            try await remoteApps.sync()
            return try JSONBody.response(Wire.AppCredential(app: manifest.id, credential: secret), status: .created)
        }
        router.put("/api/admin/apps/:app/module") { request, context in
            try await gate.check(request, context)
            let app = try await registrations.upgrade(
                module: try await module(of: request), limits: wasmLimits, builtIn: directory.builtInManifests, id: try appID(context))
            try await remoteApps.sync()
            return try JSONBody.response(Wire.RegisteredAppInfo(app, connections: 0))
        }
        router.delete("/api/admin/apps/:app") { request, context in
            try await gate.check(request, context)
            try await registrations.remove(try appID(context))
            try await remoteApps.sync()
            return Response(status: .noContent)
        }
        router.post("/api/admin/apps/:app/credential") { request, context in
            try await gate.check(request, context)
            let id = try appID(context)
            let secret = try await registrations.rotateSecret(of: id)
            try await remoteApps.sync()
            return try JSONBody.response(Wire.AppCredential(app: id, credential: secret))
        }
    }

    /// A module's bytes, up to the limit.
    private func module(of request: Request) async throws -> Data {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: wasmLimits.maxModuleBytes) else {
            throw APIError(.contentTooLarge, code: .bodyTooLarge, "The module is larger than \(wasmLimits.maxModuleBytes) bytes, the limit.")
        }
        return Data(buffer: buffer)
    }

    private func appID(_ context: ParlorRequestContext) throws -> AppID {
        guard let id = context.parameters.get("app"), id.count <= AppRegistrations.maxIDLength else { throw APIError.notFound }
        return AppID(id)
    }
}
