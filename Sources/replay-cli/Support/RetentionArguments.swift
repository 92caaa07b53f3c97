import ArgumentParser
import Foundation

/// `--max-bytes`: a number of bytes with an optional unit: `500000`, `800kB`, `20MB`, `1.5GiB`.
/// `kB`, `MB`, `GB` are powers of 1000, `KiB`, `MiB`, `GiB` powers of 1024; case does not matter.
struct ByteSize: ExpressibleByArgument, CustomStringConvertible {
    let bytes: Int
    /// As the user wrote it, for messages.
    let description: String

    /// A size given in bytes, written as `description`.
    init(bytes: Int, description: String) {
        self.bytes = bytes
        self.description = description
    }

    init?(argument: String) {
        guard let (number, unit) = splitQuantity(argument) else { return nil }
        let scales: [String: Double] = [
            "": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
            "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
        ]
        guard let scale = scales[unit.lowercased()] else { return nil }
        let value = (number * scale).rounded(.down)
        guard value >= 0, value < 9e18 else { return nil }
        bytes = Int(value)
        description = argument
    }

    /// `812 B`, `4.2 kB`, `1.3 MB`, `2.0 GB`: powers of 1000, one decimal.
    static func format(_ bytes: Int) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1e3: return "\(bytes) B"
        case ..<1e6: return String(format: "%.1f kB", value / 1e3)
        case ..<1e9: return String(format: "%.1f MB", value / 1e6)
        default: return String(format: "%.1f GB", value / 1e9)
        }
    }
}

/// `--older-than`: a number and a unit: `90s`, `30m`, `12h`, `7d`, `2w` (seconds, minutes, hours, days, weeks).
struct AgeLimit: ExpressibleByArgument, CustomStringConvertible {
    let duration: Duration
    /// As the user wrote it, for messages.
    let description: String

    init?(argument: String) {
        guard let (number, unit) = splitQuantity(argument) else { return nil }
        let seconds: [String: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let scale = seconds[unit.lowercased()], number * scale < 1e15 else { return nil }
        duration = .seconds(number * scale)
        description = argument
    }
}

/// `20MB` → (20, "MB"): a non-negative decimal number, then letters.
private func splitQuantity(_ text: String) -> (Double, String)? {
    let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = text.dropFirst(digits.count)
    guard !digits.isEmpty, digits.filter({ $0 == "." }).count <= 1, digits.first != ".",
        unit.allSatisfy({ $0.isASCII && $0.isLetter }), let number = Double(digits), number.isFinite
    else { return nil }
    return (number, String(unit))
}
