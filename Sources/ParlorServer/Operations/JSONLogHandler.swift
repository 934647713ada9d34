import Foundation
import Logging
import Synchronization

/// One JSON object per line (`parlor serve --log-format json`), for log collectors: `time`
/// (ISO 8601, UTC, milliseconds), `level`, `message`, `label`, and the metadata as fields
/// (`hb.request.id` for a request, `user` once signed in). What goes in is what the code logs:
/// Parlor never logs passwords, tokens or message texts (a test reads the whole log for them).
///
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
/// ```
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: @Sendable (String) -> Void

    /// - Parameter output: where each line goes (standard error unless told).
    public init(label: String, output: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.output = output
    }

    /// Writes each line whole: lines from several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        writeLock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }
    private static let writeLock = Mutex(())

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var object: [String: Any] = fields.mapValues(Self.plain)
        object["time"] = Self.timestamp(Date())
        object["level"] = event.level.rawValue
        object["message"] = event.message.description
        object["label"] = label
        if let error = event.error { object["error"] = "\(error)" }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        output(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
