import ActionLog
import Foundation

// Until the global session ids land on main (`JournalSession.uuid`), a stand-in derived from the
// session's header, stable for the same recording. Removed when main's `uuid` is merged.
extension JournalSession {
    package var uuid: UUID {
        var low: UInt64 = 0xcbf2_9ce4_8422_2325
        var high: UInt64 = 0x8422_2325_cbf2_9ce4
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
            }
            low = (low ^ 0xff) &* 0x0000_0100_0000_01b3
        }
        mix(self.name.utf8)
        mix(withUnsafeBytes(of: self.startedAt.timeIntervalSince1970.bitPattern.littleEndian, Array.init))
        mix(self.stateType.utf8)
        mix(self.actionType.utf8)
        mix(self.libraryVersion.utf8)
        var bytes = withUnsafeBytes(of: low.littleEndian, Array.init) + withUnsafeBytes(of: high.littleEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
