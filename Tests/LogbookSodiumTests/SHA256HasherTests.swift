// SPDX-License-Identifier: MIT
import LogbookPOSIX
import LogbookSodium
import Testing

/// SHA-256 through libsodium, the one every process uses (the journal's chain, device ids, the
/// place bundle's checksum): the FIPS 180-2 examples, and streaming equal to one call.
@Suite struct SHA256HasherTests {
    private func hex(_ bytes: [UInt8]) -> String { Hex.encode(SHA256Hasher.hash(bytes)) }

    @Test func knownVectors() {
        #expect(hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func pieceByPieceEqualsAllAtOnce() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 55, 56, 63, 64, 65, 999] {
            var d = SHA256Hasher()
            d.update(Array(data[..<split]))
            d.update(Array(data[split...]))
            #expect(Hex.encode(d.finalize()) == hex(data))
        }
    }
}
