// Plain-text tables and number formatting for the report.

struct Table {
    var headers: [String]
    /// Columns aligned left (the others are right-aligned, as numbers are).
    var leftAligned: Set<Int> = [0]
    private var rows: [[String]] = []

    init(_ headers: [String], leftAligned: Set<Int> = [0]) {
        self.headers = headers
        self.leftAligned = leftAligned
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// A number with `digits` decimals, or with none when it is large.
func format(_ value: Double, digits: Int = 1) -> String {
    guard value.isFinite else { return "n/a" }
    let magnitude = abs(value)
    let decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? min(digits, 1) : digits
    return fixed(value, decimals: decimals)
}

/// `value` rounded to `decimals` decimals, with thousands separators in the integer part.
func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let integer = Int(rounded / scale)
    let fraction = Int(rounded - Double(integer) * scale)
    var text = grouped(integer)
    if decimals > 0 {
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return (value < 0 && rounded > 0 ? "-" : "") + text
}

func grouped(_ value: Int) -> String {
    let digits = String(abs(value))
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return (value < 0 ? "-" : "") + result
}

/// A rate in actions per second.
func rate(_ value: Double) -> String { fixed(value, decimals: 0) }

/// A ratio such as `12.3×`.
func ratio(_ value: Double) -> String {
    format(value, digits: value < 0.01 ? 4 : value < 0.1 ? 3 : value < 10 ? 2 : 1) + "×"
}

/// A duration given in seconds, in the unit that suits it.
func time(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "n/a" }
    if seconds >= 1 { return fixed(seconds, decimals: 2) + " s" }
    if seconds >= 1e-3 { return format(seconds * 1e3, digits: 2) + " ms" }
    return format(seconds * 1e6, digits: 1) + " µs"
}

func percent(_ fraction: Double) -> String { format(fraction * 100, digits: fraction < 0.1 ? 1 : 0) + "%" }

func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
