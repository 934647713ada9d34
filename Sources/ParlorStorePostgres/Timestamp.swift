import Foundation
import PostgresNIO

/// A `timestamptz` value as PostgreSQL keeps it: whole microseconds since 2000-01-01 UTC.
///
/// PostgresNIO's own `Date` coding truncates toward zero, so a date read back and written again
/// can lose a microsecond. This type rounds to the nearest microsecond instead, which makes
/// `Timestamp(Timestamp(date).date) == Timestamp(date)`: a date returned from a write equals the
/// same value read later.
struct Timestamp: Hashable, Sendable {
    var microseconds: Int64

    /// Seconds from 2000-01-01 (PostgreSQL's epoch) to 2001-01-01 (Foundation's reference date).
    private static let epochToReference: Double = 31_622_400

    init(microseconds: Int64) { self.microseconds = microseconds }

    init(_ date: Date) {
        let micros = ((date.timeIntervalSinceReferenceDate + Self.epochToReference) * 1_000_000).rounded()
        microseconds = Int64(exactly: micros) ?? (micros < 0 ? Int64.min / 2 : Int64.max / 2)
    }

    var date: Date { Date(timeIntervalSinceReferenceDate: Double(microseconds) / 1_000_000 - Self.epochToReference) }

    /// The current time as it reads back from a column.
    static func now() -> Date { Timestamp(Date()).date }
}

extension Timestamp: PostgresNonThrowingEncodable {
    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(microseconds)
    }
}

extension Timestamp: PostgresDecodable {
    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard type == .timestamptz || type == .timestamp, format == .binary, buffer.readableBytes == 8,
              let microseconds = buffer.readInteger(as: Int64.self)
        else { throw PostgresDecodingError.Code.typeMismatch }
        self.microseconds = microseconds
    }
}
