import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

extension RealBinaryTests {
    /// What `parlor serve` writes to its log, read from the real process.
    @Suite("The server's log")
    struct LogTests {
        @Test("--log-format json at trace: one JSON object per line with time, level and message; passwords, tokens and message texts appear nowhere; --metrics-port serves /metrics on loopback")
        func jsonLogsKeepSecrets() async throws {
            try await withScratch("parlor-log") { folder, client in
                try await run(data: folder.appendingPathComponent("data"), log: folder.appendingPathComponent("server.log"), client: client)
            }
        }

        private func run(data: URL, log: URL, client: HTTPClient) async throws {
            let (password, text) = ("correct-horse-battery-9", "a very private sentence 42")
            let metricsPort = try ParlorProcess.freePort()
            let options = ["--log-format", "json", "--log-level", "trace", "--metrics-port", "\(metricsPort)"]
            let (secrets, userID) = try await ParlorProcess.running(dataDirectory: data, log: log, options: options) { server in
                let signUp = try await HTTPAnswer.post(
                    "/api/auth/signup", ["username": "alice", "displayName": "Alice", "password": .string(password)], port: server.port, client: client)
                _ = try await HTTPAnswer.post("/api/auth/signup", ["username": "bob", "displayName": "Bob", "password": "password-bob"], port: server.port, client: client)
                let signIn = try await HTTPAnswer.post("/api/auth/signin", ["username": "alice", "password": .string(password)], port: server.port, client: client)
                let wrong = try await HTTPAnswer.post("/api/auth/signin", ["username": "alice", "password": "wrong-\(password)"], port: server.port, client: client)
                #expect(wrong.status == 401)
                let token = try #require(signIn.json["token"] as? String)
                let direct = try await HTTPAnswer.post("/api/conversations", ["members": ["bob"]], token: token, port: server.port, client: client)
                let conversation = try #require(direct.json["id"] as? String)
                let sent = try await HTTPAnswer.post(
                    "/api/conversations/\(conversation)/messages", ["id": .string(UUID().uuidString), "text": .string(text)], token: token,
                    port: server.port, client: client)
                #expect(sent.status == 201)

                let metrics = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(metricsPort)/metrics"), timeout: .seconds(10))
                #expect(metrics.status == .ok)
                let body = String(buffer: try await metrics.body.collect(upTo: 1 << 20))
                #expect(body.contains(#"parlor_messages_committed_total{kind="text"} 1"#), "\(body)")
                let user = try #require((signIn.json["user"] as? [String: Any])?["id"] as? String)
                return ([password, token, try #require(signUp.json["token"] as? String), text], user)
            }

            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count > 10, "trace level logs every request")
            var requestIDs = 0
            var linesNamingAlice = 0
            for line in lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
                #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
                if object["hb.request.id"] != nil { requestIDs += 1 }
                if object["user"] as? String == userID { linesNamingAlice += 1 }
            }
            #expect(requestIDs > 0, "request lines carry the request id")
            #expect(linesNamingAlice > 0, "a signed-in request's lines name the user")
            let whole = lines.joined(separator: "\n")
            for secret in secrets {
                #expect(!whole.contains(secret), "\(secret.prefix(6))… is in the log")
            }
        }

        @Test("An app outside the server: its credential is in neither the server's trace log nor the app runner's")
        func appCredentialsStayOutOfLogs() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-log-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (data, serverLog, runnerLog) = (folder.appendingPathComponent("data"), folder.appendingPathComponent("server.log"), folder.appendingPathComponent("runner.log"))
            let credential = try await ParlorProcess.running(
                dataDirectory: data, log: serverLog, options: ["--log-level", "trace", "--out-of-process", "org.parlor.hello"]
            ) { server in
                let credential = try String(contentsOf: data.appendingPathComponent("apps/org.parlor.hello.credential"), encoding: .utf8)
                #expect(credential.hasPrefix("parlor_app_"))
                let runner = Process()
                runner.executableURL = try ParlorProcess.binary()
                runner.arguments = ["apps", "run", "org.parlor.hello", "--server", "http://127.0.0.1:\(server.port)"]
                runner.environment = ProcessInfo.processInfo.environment.merging(["PARLOR_APP_SECRET": credential, "LOG_LEVEL": "trace"]) { _, new in new }
                #expect(FileManager.default.createFile(atPath: runnerLog.path, contents: nil))
                let output = try FileHandle(forWritingTo: runnerLog)
                runner.standardOutput = output
                runner.standardError = output
                try runner.run()
                let deadline = ContinuousClock.now + .seconds(30)
                var connected = false
                while !connected, ContinuousClock.now < deadline, runner.isRunning {
                    try await Task.sleep(for: .milliseconds(50))
                    connected = (try? String(contentsOf: runnerLog, encoding: .utf8))?.contains("org.parlor.hello is connected.") == true
                }
                runner.terminate()
                _ = await ParlorProcess.waitForExit(of: runner, within: ParlorProcess.stopPatience)
                #expect(connected, "the runner dialled in: \((try? String(contentsOf: runnerLog, encoding: .utf8)) ?? "")")
                return credential
            }
            for log in [serverLog, runnerLog] {
                let text = try String(contentsOf: log, encoding: .utf8)
                #expect(!text.isEmpty)
                #expect(!text.contains(credential), "\(log.lastPathComponent) holds the app's credential")
            }
        }
    }
}
