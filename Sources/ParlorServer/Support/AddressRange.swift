import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `fd00::/8`), or one address
/// (`127.0.0.1`, a /32 or /128): what `--trusted-proxy` takes.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    private let network: [UInt8]
    private let prefixLength: Int

    /// Parses `text`; nil when it is not an address or a network in CIDR notation.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let length: Int
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...bytes.count * 8).contains(parsed) else { return nil }
            length = parsed
        } else {
            length = bytes.count * 8
        }
        network = Self.masked(bytes, to: length)
        prefixLength = length
    }

    /// Whether `address` (an IP address as text) is in this range; an IPv4 address written as
    /// IPv6 (`::ffff:10.0.0.1`) counts as IPv4.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if bytes.count == 16, network.count == 4, bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            bytes = Array(bytes.suffix(4))
        }
        return bytes.count == network.count && Self.masked(bytes, to: prefixLength) == network
    }

    public var description: String {
        let family = network.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefixLength)"
    }

    private static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func masked(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = min(8, max(0, length - index * 8))
            return bits == 8 ? byte : byte & ~(0xFF >> bits)
        }
    }
}

extension AddressRange: ExpressibleByStringLiteral {
    /// A range written in the code (`"127.0.0.1"`); a typo there is a programmer's error.
    public init(stringLiteral value: String) {
        guard let range = AddressRange(value) else { preconditionFailure("\(value) is not an address or a CIDR network") }
        self = range
    }
}
