import CommandLineSupport

/// A table printed a page of rows at a time: each column is as wide as its widest cell so far, so
/// the first rows print at once and the columns stay aligned within a page and rarely shift after.
///
/// Cells are escaped for a terminal (``Swift/String/displayEscaped``) as they are added, so a newline
/// or an escape sequence in a label never breaks a row or reaches the terminal.
struct StreamingTable {
    private var widths: [Int]
    private var rows: [[String]]
    /// The colour of cells, by row (as in ``rows``) and column.
    private var styles: [[Int: Style.Colour]]
    private let width: Int?

    /// - Parameters:
    ///   - header: the column names, printed first.
    ///   - width: the terminal's width to cut lines to, or `nil`.
    init(header: [String], width: Int?) {
        self.widths = header.map { DisplayWidth.columns($0) }
        self.rows = [header]
        self.styles = [[:]]
        self.width = width
    }

    /// Rows waiting to be printed.
    var pending: Int { rows.count }

    /// Adds a row; `styles` colours cells by column, on a terminal that takes colour (see ``Style``).
    mutating func add(_ row: [String], styles: [Int: Style.Colour] = [:]) {
        rows.append(row.map(\.displayEscaped))
        self.styles.append(styles)
    }

    /// Prints the waiting rows, padded to the widths seen so far.
    mutating func flush(into output: inout BufferedOutput) throws {
        for row in rows {
            for (index, cell) in row.enumerated() where index < row.count - 1 {
                if index >= widths.count { widths.append(0) }
                widths[index] = max(widths[index], DisplayWidth.columns(cell))
            }
        }
        for (row, style) in zip(rows, styles) {
            // Padded first, coloured after: the colour's escape sequences take no column.
            var cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }
            for (index, colour) in style where cells.indices.contains(index) {
                let cell = cells[index].trimmingTrailingSpaces()
                cells[index] = Style.apply(colour, cell) + String(repeating: " ", count: cells[index].count - cell.count)
            }
            let line = cells.joined(separator: "  ").trimmingTrailingSpaces()
            try output.write(Terminal.fit(line, width: width))
        }
        rows.removeAll(keepingCapacity: true)
        styles.removeAll(keepingCapacity: true)
    }
}
