// The UTF-8 checks and string making the parsers share.

/// The string of `run`, which is valid UTF-8. A run short enough for a string stored inline is
/// copied into one, with no second validation of what the parser has validated; a longer one goes
/// through `String(decoding:as:)`, which must allocate anyway.
@inline(__always) package func makeString(_ run: UnsafeBufferPointer<UInt8>) -> String {
    guard run.count <= 15, let base = run.baseAddress else { return String(decoding: run, as: UTF8.self) }
    // One ASCII character (a digit, a flag): a string made once, copied.
    if run.count == 1, base.pointee < 0x80 { return asciiCharacters[Int(base.pointee)] }
    return String(unsafeUninitializedCapacity: run.count) { buffer in
        guard let target = buffer.baseAddress else { return 0 }
        target.update(from: base, count: run.count)
        return run.count
    }
}

/// The string of each ASCII character, by its code.
private let asciiCharacters = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }

/// Whether `bytes` is well-formed UTF-8 (The Unicode Standard, table 3-7): no stray continuation
/// bytes, no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence. The same
/// bytes `String(validating:as:)` accepts, without its unspecialized generic path.
package func isWellFormedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let end = bytes.count
    @inline(__always) func isContinuation(_ offset: Int) -> Bool {
        index + offset < end && bytes[index + offset] & 0xC0 == 0x80
    }
    while index < end {
        let lead = bytes[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        switch lead {
        case 0xC2...0xDF:
            guard isContinuation(1) else { return false }
            index += 2
        case 0xE0...0xEF:
            guard isContinuation(1), isContinuation(2) else { return false }
            let second = bytes[index + 1]
            // E0 needs A0...BF (not overlong), ED needs 80...9F (not a surrogate).
            if lead == 0xE0, second < 0xA0 { return false }
            if lead == 0xED, second > 0x9F { return false }
            index += 3
        case 0xF0...0xF4:
            guard isContinuation(1), isContinuation(2), isContinuation(3) else { return false }
            let second = bytes[index + 1]
            // F0 needs 90...BF (not overlong), F4 needs 80...8F (not above U+10FFFF).
            if lead == 0xF0, second < 0x90 { return false }
            if lead == 0xF4, second > 0x8F { return false }
            index += 4
        default:
            // 80...C1: a continuation byte or an overlong two-byte lead; F5...FF: never in UTF-8.
            return false
        }
    }
    return true
}
