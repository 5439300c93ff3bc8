// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The key the login limiter counts a client by.
enum ClientAddress {
    /// An IPv4 address as it is (an IPv4-mapped IPv6 address as IPv4); an IPv6 address by its
    /// /64 prefix, the block one host is usually given, so hopping through the addresses of
    /// one network earns no new budget.
    static func key(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12..<16].map { String($0) }.joined(separator: ".")
        }
        let digits = Array("0123456789abcdef")
        var out = ""
        for (i, b) in bytes[0..<8].enumerated() {
            if i > 0, i % 2 == 0 { out.append(":") }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return out + "::/64"
    }
}
