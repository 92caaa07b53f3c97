import ActionLog
import Foundation

/// Formats values for people.
enum Format {
    /// `2026-11-21T06:30:12.345678Z` (UTC): as journals write dates (`JournalDate`), everywhere the
    /// CLI shows a time; past the years 0001...9999 it writes, Foundation's ISO 8601 text.
    static func timestamp(_ date: Date) -> String {
        JournalDate.text(date) ?? timestampStyle.format(date)
    }

    /// A value made once.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `1.234s`, `+0.012s`
    static func seconds(_ interval: TimeInterval, sign: Bool = false) -> String {
        // Times come from files: an interval no clock measures (infinite, or past 31 years) is shown
        // as such, not as `infs` or three hundred digits.
        guard interval.isFinite else { return interval > 0 ? "∞" : "-∞" }
        let format = abs(interval) < 1e9 ? "%.3fs" : "%.3es"
        return (sign && interval >= 0 ? "+" : "") + String(format: format, interval)
    }

    /// Columns padded to their widest cell; the last column is not padded. Cells are escaped for a
    /// terminal (`displayEscaped`), so a newline in a name never breaks a row.
    static func table(_ rows: [[String]]) -> [String] {
        let rows = rows.map { $0.map(\.displayEscaped) }
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.columns(cell)) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

/// `1 session`, `2 sessions`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
