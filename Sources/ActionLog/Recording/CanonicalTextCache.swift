/// The canonical JSON text of actions (or effects), remembered by their bytes when their type holds
/// no references, so that an action dispatched again is not encoded again.
///
/// Apps dispatch the same few actions over and over (`.increment`, `.setQuantity(index: 3,
/// quantity: 2)`), and encoding one through `Codable` costs more than storing it. For a type that
/// is plain data — no strings, arrays, classes or other references, only numbers, booleans and enums
/// of them (`_isPOD`) — equal bytes are an equal value, which encodes to the same JSON, as long as
/// `encode(to:)` depends on the value alone (the recorder assumes as much of states too: see
/// ``ChangeEncoder``). Other types are encoded every time. Not thread-safe: one writer uses it.
final class CanonicalTextCache<Value: Encodable> {
    /// By the values' bytes. Plain data holds no objects: nothing needs to be kept alive.
    private var texts: [Bits: [UInt8]] = [:]
    /// Whether values of the type are remembered at all: plain data (and, see ``Bits``, small).
    private let remembers = _isPOD(Value.self)

    /// At most this many texts are remembered; then they are forgotten, and encoded again as needed.
    static var capacity: Int { 1024 }

    /// Texts longer than this are not remembered.
    private static var longestRemembered: Int { 512 }

    /// How many texts are remembered now. For tests.
    var remembered: Int { texts.count }

    /// The canonical text of `value`, as UTF-8 bytes, redacted by `redactor`:
    /// `redactor.keyframe(encoder.encodeWhole(value)).canonicalBytes`. One cache serves one
    /// redactor: the texts it remembers are redacted.
    ///
    /// - Throws: what encoding `value` throws (nothing is remembered then).
    func text(of value: Value, encoder: EncodingContext, redactor: Redactor = .none) throws -> [UInt8] {
        guard remembers, let key = Bits(value) else { return try redactor.keyframe(encoder.encodeWhole(value)).canonicalBytes }
        if let text = texts[key] { return text }
        let text = try redactor.keyframe(encoder.encodeWhole(value)).canonicalBytes
        if text.count <= Self.longestRemembered {
            if texts.count >= Self.capacity { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
        return text
    }
}
