// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

@testable import LogbookPlaces

@Suite struct NamedPlaceTests {
    let home = NamedPlace(name: "Home", latitude: 47.0, longitude: 7.0, radius: 200)
    let street = NamedPlace(name: "Street", latitude: 47.0, longitude: 7.0015, radius: 400)
    let office = NamedPlace(name: "Office", latitude: 47.01, longitude: 7.0, radius: 100)

    @Test func theNearestContainingCircleWins() {
        let all = [street, home, office]
        // 38 m east of Home's centre, 76 m from Street's: both contain it, Home is nearer.
        #expect(NamedPlace.containing(latitude: 47.0, longitude: 7.0005, in: all)?.name == "Home")
        // 300 m east: outside Home (200 m), inside Street.
        #expect(NamedPlace.containing(latitude: 47.0, longitude: 7.004, in: all)?.name == "Street")
        // A bigger circle does not win over a nearer centre, whatever the order.
        #expect(NamedPlace.containing(latitude: 47.0, longitude: 7.0009, in: all.reversed())?.name == "Street")
        #expect(NamedPlace.containing(latitude: 47.005, longitude: 7.0, in: all) == nil)
    }
}

@Suite struct SHA256DigestTests {
    @Test func knownVectors() {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Digest.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256Digest.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func pieceByPieceEqualsAllAtOnce() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 55, 56, 63, 64, 65, 999] {
            var d = SHA256Digest()
            d.update(Array(data[..<split]))
            d.update(Array(data[split...]))
            #expect(SHA256Digest.hexString(d.finalize()) == SHA256Digest.hex(data))
        }
    }
}
