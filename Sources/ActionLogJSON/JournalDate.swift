import Foundation

/// Dates as journals write them for people: ISO 8601 in UTC with microseconds,
/// `2026-11-28T12:31:00.123456Z`. The DocC article on the file format ("Dates") documents it.
///
/// The text is computed from the `Date`'s own count (seconds since 2001) with integer calendar
/// arithmetic on the proleptic Gregorian calendar (days from a civil date and back), no Foundation
/// calendar or formatter: the same text on every platform, at the cost of a few divisions.
///
/// Reading what ``text(_:)`` wrote and writing it again gives the same text (`text(date(text)) == text`)
/// wherever a `Double` of seconds since 2001 holds the microseconds: for the years 1865 to 2137. Further
/// out the `Date` itself cannot hold every microsecond, and the text is exact to what it holds.
package enum JournalDate {
    /// Seconds from 1970 to 2001, the `Date` reference date.
    static let referenceOffset: Int64 = 978_307_200
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    static let firstSecond: Int64 = -62_135_596_800
    static let lastSecond: Int64 = 253_402_300_799

    /// `date` as `2026-11-28T12:31:00.123456Z`, rounded to the nearest microsecond; `nil` when it is
    /// not finite or its year, so rounded, is outside 0001...9999 (the caller then writes a number).
    ///
    /// ```swift
    /// JournalDate.text(Date(timeIntervalSince1970: 0))  // "1970-01-01T00:00:00.000000Z"
    /// ```
    package static func text(_ date: Date) -> String? {
        let reference = date.timeIntervalSinceReferenceDate
        // The bounds keep the conversion to Int64 safe; the exact range is checked after rounding.
        guard reference.isFinite, reference > -64_000_000_000, reference < 253_000_000_000 else { return nil }
        let whole = reference.rounded(.down)
        var micro = Int64(((reference - whole) * 1_000_000).rounded())
        var seconds = Int64(whole) + referenceOffset
        if micro == 1_000_000 {
            micro = 0
            seconds += 1
        }
        guard seconds >= firstSecond, seconds <= lastSecond else { return nil }
        let days = floorDivide(seconds, 86_400)
        let second = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return String(unsafeUninitializedCapacity: 27) { buffer in
            func put(_ value: Int64, _ width: Int, at start: Int) {
                var value = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(second / 3600, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(second / 60 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(second % 60, 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(micro, 6, at: 20)
            buffer[26] = UInt8(ascii: "Z")
            return 27
        }
    }

    /// The date `text` names: `YYYY-MM-DDTHH:MM:SS`, optionally `.` and 1 to 9 digits of a second
    /// (rounded to the microsecond), then `Z`; `nil` for anything else, an impossible date
    /// (`2026-02-29`) or a year outside 0001...9999 included.
    ///
    /// ```swift
    /// JournalDate.date("2026-11-28T12:31:00.123456Z")
    /// ```
    package static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    private static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes.count <= 30 else { return nil }
        func number(_ start: Int, _ width: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<start + width {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[bytes.count - 1] == UInt8(ascii: "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month, of: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var micro: Int64 = 0
        if bytes.count > 20 {
            let digits = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits), let fraction = number(20, digits) else { return nil }
            var scale: Int64 = 1
            for _ in 0..<(9 - digits) { scale *= 10 }
            let nanos = fraction * scale
            micro = (nanos + 500) / 1000
        } else if bytes.count != 20 {
            return nil
        }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceOffset) + Double(micro) / 1_000_000)
    }

    /// A decoder for journaled JSON: a `Date` reads from the ISO 8601 text ``text(_:)`` writes or
    /// from a number of seconds since 2001 (`JSONEncoder`'s default, what journals held before).
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard let date = date(text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: """
                        "\(text)" is not an ISO 8601 date in UTC such as "2026-11-28T12:31:00.123456Z"
                        """)
                }
                return date
            }
            return Date(timeIntervalSinceReferenceDate: try container.decode(Double.self))
        }
        return decoder
    }

    /// A `JSONEncoder` that writes dates as journals do: ``text(_:)``, or beyond the years it writes,
    /// seconds since 2001 (a date that is not finite throws, as `JSONEncoder` does for a `Double`).
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            if let text = text(date) { try container.encode(text) } else { try container.encode(date.timeIntervalSinceReferenceDate) }
        }
        return encoder
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian)

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date, for years 1...9999 (so nothing is negative before the shift).
    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivide(year, 400)
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a count of days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
