import Foundation

extension SessionHeader {
    /// The session's globally unique id: the same session has it in every file it is copied,
    /// exported, imported or pushed to, so that a store that holds it already can say so.
    ///
    /// A session recorded by this version of ActionLog gets a random (version 4) UUID when it
    /// starts, stored with it. A session recorded before sessions had ids has one derived from what
    /// never changes in its header (name, start time to the microsecond, the ActionLog and app
    /// versions, the state and action types): every reader of every copy of it finds the same one,
    /// and exporting it writes that one down.
    ///
    /// ```swift
    /// let journal = try Journal(path: "app.actionlog")
    /// for session in try journal.sessions() {
    ///     print(session.uuid, session.name)   // e.g. 5F0C2E1A-9B7D-4C1E-8E8A-3D2B1C0F9A77 checkout
    /// }
    /// ```
    public var uuid: UUID { storedUUID ?? derivedUUID }

    /// The id derived from the header for a session that has none stored: a version-8 (custom) UUID
    /// whose 122 free bits are the 128-bit FNV-1a hash of the header's unchanging fields.
    package var derivedUUID: UUID {
        Self.derivedUUID(name: name, startedAt: startedAt, libraryVersion: libraryVersion, appVersion: appVersion, stateType: stateType, actionType: actionType)
    }

    /// ``derivedUUID`` of a header with these fields.
    package static func derivedUUID(
        name: String, startedAt: Date, libraryVersion: String, appVersion: String?, stateType: String, actionType: String
    ) -> UUID {
        var hash = FNV128()
        hash.add("actionlog-session")
        hash.add(name)
        // The time as the text form writes it: a session and its export derive the same id.
        hash.add(JSONLTime.text(startedAt))
        hash.add(libraryVersion)
        hash.add(appVersion ?? "")
        hash.add(stateType)
        hash.add(actionType)
        return hash.uuid(version: 8)
    }
}

/// FNV-1a over 128 bits (prime 2^88 + 0x13B, the published offset basis), each field followed by a
/// zero byte so that fields cannot run into one another. Not a cryptographic hash: an id, not a seal.
struct FNV128 {
    private var high: UInt64 = 0x6c62_272e_07bb_0142
    private var low: UInt64 = 0x62b8_2175_6295_c58d

    mutating func add(_ text: String) {
        addBytes(text.utf8)
        add(0)
    }

    mutating func addBytes(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// The hash as 32 lowercase hexadecimal digits.
    var hex: String {
        func padded(_ half: UInt64) -> String {
            let digits = String(half, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return padded(high) + padded(low)
    }

    private mutating func add(_ byte: UInt8) {
        low ^= UInt64(byte)
        // (high, low) × (2^88 + 0x13B) mod 2^128: the 2^88 part shifts low into high by 24 bits.
        let (carry, product) = low.multipliedFullWidth(by: 0x13B)
        high = (high &* 0x13B) &+ carry &+ (low << 24)
        low = product
    }

    /// The hash as a UUID with the given version and the RFC 9562 variant.
    func uuid(version: UInt8) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        bytes[6] = (bytes[6] & 0x0F) | (version << 4)
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
