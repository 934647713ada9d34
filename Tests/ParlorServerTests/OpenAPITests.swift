import Foundation
import ParlorHost
import ParlorInput
@_spi(Hosting) import ParlorKit
import HTTPTypes
import Testing

/// docs/openapi.yaml against the server: the same routes both ways, and real responses that
/// conform to the documented statuses, media types and schemas.
@Suite("The OpenAPI document matches the server")
struct OpenAPITests {
    @Test("The spec reads, every operation documents responses, and every $ref resolves")
    func specIsWellFormed() throws {
        let spec = try OpenAPISpec.load()
        #expect(spec.root["openapi"]?.string == "3.1.0")
        #expect(spec.operations.count >= 25)
        for operation in spec.operations {
            #expect(spec.operation(operation)?["responses"]?.entries.isEmpty == false, "\(operation) has no responses")
        }
        var references: [String] = []
        func collect(_ node: YAMLNode) {
            switch node {
            case .map(let entries):
                for (key, value) in entries {
                    if key == "$ref", let target = value.string { references.append(target) } else { collect(value) }
                }
            case .list(let items): items.forEach(collect)
            case .scalar: break
            }
        }
        collect(spec.root)
        #expect(!references.isEmpty)
        for reference in Set(references) {
            #expect(spec.resolve(.map([("$ref", .scalar(reference))])) != .map([]), "\(reference) does not resolve")
        }
    }

    @Test("The Error schema's codes are exactly Parlor's own (Wire.ErrorCode) and the Messages codes, each listed once")
    func errorCodesAreTheTypedSet() throws {
        let spec = try OpenAPISpec.load()
        let codes = spec.root["components"]?["schemas"]?["Error"]?["properties"]?["error"]?["properties"]?["code"]?["enum"]
        let documented = try #require(codes).items.compactMap { $0.string }
        #expect(documented.count > 50)
        #expect(documented.count == Set(documented).count, "a code listed twice")
        let known = Set(Wire.ErrorCode.allCases.map(\.rawValue)).union(MessagesError.Code.all.map(\.name))
        #expect(Set(documented) == known, "missing: \(known.subtracting(documented).sorted()); not a code: \(Set(documented).subtracting(known).sorted())")
    }

    @Test("Every route the server's sources register is documented, and every documented operation is registered")
    func routesMatchTheSources() throws {
        let spec = try OpenAPISpec.load()
        let registered = try Self.registeredRoutes()
        #expect(registered.count >= 20, "the scan found the routes: \(registered)")
        let documented = Set(spec.operations.filter { spec.operation($0)?["x-static-files"]?.string != "true" })
        for route in registered.subtracting(documented).sorted(by: { $0.description < $1.description }) {
            Issue.record("\(route) is registered in Sources/ParlorServer but not documented in docs/openapi.yaml")
        }
        for operation in documented.subtracting(registered).sorted(by: { $0.description < $1.description }) {
            Issue.record("\(operation) is documented but no route registers it")
        }
    }

    /// `router.get("/path/:id")`-style registrations in Sources/ParlorServer, as spec operations.
    static func registeredRoutes() throws -> Set<OpenAPISpec.Operation> {
        let folder = OpenAPISpec.packageRoot.appendingPathComponent("Sources/ParlorServer")
        let pattern = try NSRegularExpression(pattern: #"router\.(get|post|put|patch|delete|head|socket)\(\s*"([^"]*)""#)
        let unsupported = try NSRegularExpression(pattern: #"router\.(on|group|addRoutes)\(|RouteCollection"#)
        var routes: Set<OpenAPISpec.Operation> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            let range = NSRange(source.startIndex..., in: source)
            if unsupported.firstMatch(in: source, range: range) != nil {
                Issue.record("\(file.lastPathComponent) registers routes in a way this test cannot read; extend OpenAPITests.registeredRoutes")
            }
            for match in pattern.matches(in: source, range: range) {
                guard let methodRange = Range(match.range(at: 1), in: source), let pathRange = Range(match.range(at: 2), in: source) else { continue }
                let method = source[methodRange] == "socket" ? "GET" : source[methodRange].uppercased()
                let path = source[pathRange].split(separator: "/", omittingEmptySubsequences: false)
                    .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
                routes.insert(.init(method: method, path: path))
            }
        }
        return routes
    }

    @Test("Every documented operation answers on a running server with a documented status, media type and schema")
    func responsesConform() async throws {
        let spec = try OpenAPISpec.load()
        let calls = try await TestServer().run(.live) { api in try await SpecScenario(api: api).run() }
        var exercised: Set<OpenAPISpec.Operation> = []
        for call in calls {
            guard let template = spec.template(for: call.path) else {
                Issue.record("\(call.method) \(call.path) matches no documented path")
                continue
            }
            let operation = OpenAPISpec.Operation(method: call.method, path: template)
            exercised.insert(operation)
            let context = "\(operation) → \(call.reply.status.code)"
            #expect(!(call.reply.status == .notFound && call.reply.body.isEmpty), "\(context): the router has no such route")
            guard let response = spec.response(operation, status: call.reply.status.code) else {
                Issue.record("\(context) is not a documented status: \(call.reply.text.prefix(200))")
                continue
            }
            let contentType = call.reply.headers[.contentType] ?? ""
            let media = response["content"]?.entries ?? []
            if media.isEmpty {
                #expect(call.reply.body.isEmpty, "\(context): documented without a body, got \(call.reply.text.prefix(100))")
                continue
            }
            guard let (mediaType, content) = media.first(where: { Self.contentType(contentType, matches: $0.key) }) else {
                Issue.record("\(context): Content-Type '\(contentType)' is not one of \(media.map(\.key))")
                continue
            }
            guard mediaType == "application/json", let schema = content["schema"] else { continue }
            let value = try JSONDecoder().decode(JSONValue.self, from: call.reply.body)
            for problem in spec.problems(value, schema: schema) { Issue.record("\(context): \(problem)") }
        }
        let missing = Set(spec.operations).subtracting(exercised)
        #expect(missing.isEmpty, "operations the scenario never called: \(missing.sorted { $0.description < $1.description })")
    }

    static func contentType(_ header: String, matches mediaType: String) -> Bool {
        let actual = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if mediaType.hasSuffix("/*") { return actual.hasPrefix(mediaType.dropLast()) }
        return actual == mediaType
    }

    @Test("Methods a documented path does not list get 405 methodNotAllowed with Allow naming the documented ones")
    func undocumentedMethodsAreNotAnswered() async throws {
        let spec = try OpenAPISpec.load()
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            // Static files (the browser client) are not API routes: other methods find nothing there.
            let paths = Set(spec.operations.filter { spec.operation($0)?["x-static-files"]?.string != "true" }.map(\.path))
            for path in paths {
                let documented = Set(spec.operations.filter { $0.path == path }.map(\.method))
                let concrete = path.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                    .replacingOccurrences(of: "{user}", with: alice.id.description).replacingOccurrences(of: "{item}", with: "org.parlor.hello")
                    .replacingOccurrences(of: "{app}", with: "org.parlor.iconstore").replacingOccurrences(of: "{file}", with: "iconstore.png")
                    .replacingOccurrences(of: "{pack}", with: "p").replacingOccurrences(of: "{hash}", with: "h")
                for method in ["GET", "PUT", "POST", "DELETE", "PATCH"] where !documented.contains(method) {
                    let reply = try await api.request(try #require(HTTPRequest.Method(method)), concrete, as: alice, json: [:])
                    #expect(reply.status == .methodNotAllowed, "\(method) \(path) answers \(reply.status.code): \(reply.text.prefix(100))")
                    #expect(reply.errorCode == "methodNotAllowed")
                    let allow = Set((reply.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allow == documented, "\(method) \(path): Allow \(allow)")
                }
            }
        }
    }
}
