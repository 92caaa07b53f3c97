import CSQLite

/// CRC-32C (Castagnoli): the polynomial 0x1EDC6F41 (0x82F63B78 reflected), initial value and final
/// XOR 0xFFFFFFFF, bits reflected in and out, as iSCSI (RFC 3720, appendix B.4), ext4 and Btrfs
/// use it. Computed eight bytes at a time from eight tables of 256 entries ("slicing by 8").
///
/// What a journal stores beside each row (``RowChecksum``): a 32-bit CRC detects every change of
/// up to three bits, every burst of up to 32 bits, and any other change but for one in 2^32.
enum CRC32C {
    /// The reflected polynomial.
    static let polynomial: UInt32 = 0x82F6_3B78

    /// Eight tables of 256 entries, one after the other: table 0 is the byte-at-a-time table, and
    /// entry `i` of table `k` is what entry `i` of table `k - 1` becomes after eight more zero bits.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[byte] = crc
        }
        for table in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC of `bytes`.
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var state = RowChecksum()
        state.add(bytes)
        return state.crc
    }

    /// `state` (the running register, not yet inverted) after `buffer`.
    static func update(_ state: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard var pointer = buffer.baseAddress else { return state }
        var remaining = buffer.count
        var crc = state
        tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
                let low = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                let high = table[3 * 256 + Int((word >> 32) & 0xFF)] ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ table[256 + Int((word >> 48) & 0xFF)] ^ table[Int(word >> 56)]
                crc = low ^ high
                pointer += 8
                remaining -= 8
            }
            while remaining > 0 {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)]
                pointer += 1
                remaining -= 1
            }
        }
        return crc
    }
}

/// The CRC-32C of a row's values, each as the file stores it: a tag for its SQLite type (0 NULL,
/// 1 integer, 2 real, 3 text, 4 blob), then an integer as 8 bytes little-endian, a real number as
/// the 8 bytes of its IEEE 754 bit pattern little-endian (negative zero as zero, as SQLite reads it
/// back), a text or a blob as its length in 8 bytes little-endian and its bytes. Values are fed in
/// the order of their columns; the type tag and the length keep two rows whose values differ from
/// feeding the same bytes.
///
/// The writer feeds what it binds; a reader feeds what it reads (``Row/checksum(of:)``), so a value
/// SQLite gives back of another type than the one written (a text where an integer was) never matches.
struct RowChecksum {
    private var state: UInt32 = 0xFFFF_FFFF

    /// The CRC of what was fed so far.
    var crc: UInt32 { ~state }

    private mutating func add(raw value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { state = CRC32C.update(state, $0) }
    }

    private mutating func tag(_ tag: UInt8) {
        withUnsafeBytes(of: tag) { state = CRC32C.update(state, $0) }
    }

    /// Bytes as they are, without a tag or a length (``CRC32C/checksum(_:)``).
    mutating func add(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { state = CRC32C.update(state, UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { state = CRC32C.update(state, $0) } }
    }

    mutating func null() { tag(0) }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        tag(1)
        add(raw: UInt64(bitPattern: value))
    }

    mutating func real(_ value: Double?) {
        guard let value else { return null() }
        tag(2)
        add(raw: (value == 0 ? 0 : value).bitPattern)
    }

    mutating func text(_ bytes: (some Collection<UInt8>)?) {
        guard let bytes else { return null() }
        tag(3)
        add(raw: UInt64(bytes.count))
        add(bytes)
    }

    mutating func blob(_ bytes: UnsafeRawBufferPointer) {
        tag(4)
        add(raw: UInt64(bytes.count))
        state = CRC32C.update(state, bytes)
    }

    /// A bound value.
    mutating func value(_ value: SQLiteValue) {
        switch value {
        case .null: null()
        case .integer(let int): integer(int)
        case .real(let double): real(double)
        case .text(let text): self.text(text.utf8)
        case .blob(let bytes): bytes.withUnsafeBytes { blob($0) }
        }
    }

    /// The CRC of `values`, fed in order.
    static func of(_ values: some Sequence<SQLiteValue>) -> UInt32 {
        var checksum = RowChecksum()
        for value in values { checksum.value(value) }
        return checksum.crc
    }
}

extension Row {
    /// The CRC of the row's `columns` as stored (``RowChecksum``). Read before any other read of
    /// those columns converts one to another type: SQLite's type of a value is undefined after a
    /// conversion.
    func checksum(of columns: some Sequence<Int32>) -> UInt32 {
        var checksum = RowChecksum()
        for column in columns {
            switch sqlite3_column_type(statement.handle, column) {
            case SQLITE_INTEGER: checksum.integer(sqlite3_column_int64(statement.handle, column))
            case SQLITE_FLOAT: checksum.real(sqlite3_column_double(statement.handle, column))
            case SQLITE_TEXT, SQLITE_BLOB:
                let isText = sqlite3_column_type(statement.handle, column) == SQLITE_TEXT
                let pointer = sqlite3_column_blob(statement.handle, column)
                let count = Int(sqlite3_column_bytes(statement.handle, column))
                let bytes = UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count > 0 ? count : 0)
                if isText { checksum.text(bytes) } else { checksum.blob(bytes) }
            default: checksum.null()
            }
        }
        return checksum.crc
    }

    /// The stored checksum in `column`: `.none` for NULL (a row written before checksums), `.some(nil)`
    /// for a value that is not an integer a writer stores (a damaged row).
    func storedChecksum(_ column: Int32) -> UInt64?? {
        switch sqlite3_column_type(statement.handle, column) {
        case SQLITE_NULL: return .none
        case SQLITE_INTEGER: return .some(UInt64(bitPattern: sqlite3_column_int64(statement.handle, column)))
        default: return .some(nil)
        }
    }
}

/// The checksums of the journal's rows: which tables have the column, and what a mismatch says.
enum Checksums {
    /// The tables whose rows carry a `checksum` column.
    static let tables = ["entries", "handlers", "calls"]

    /// The column's name in each of ``tables``.
    static let column = "checksum"

    /// The tables among ``tables`` that have the column in the file `connection` reads: asked once
    /// per connection (a file gains the column when a writer of this version opens it; a reader
    /// that opened it before reads on without checking until it opens the file again).
    static func tablesWithColumn(_ connection: Connection) throws(SQLiteError) -> Set<String> {
        if let known = connection.checksummedTables { return known }
        let statement = try connection.cachedStatement(
            "SELECT 1 FROM pragma_table_info(?1) WHERE name = 'checksum'")
        var present: Set<String> = []
        for table in tables {
            try statement.bind([.text(table)])
            defer { statement.reset() }
            if try statement.step() { present.insert(table) }
        }
        connection.checksummedTables = present
        return present
    }

    /// Adds the column to each of ``tables`` that lacks it, in a writer's transaction: rows already
    /// there read NULL (no checksum), and an older ActionLog, which names the columns it reads and
    /// writes, reads and writes the file as before (its rows have none).
    static func addMissingColumns(_ connection: Connection) throws {
        connection.checksummedTables = nil
        guard try tablesWithColumn(connection).count < tables.count else { return }
        try connection.transaction {
            connection.checksummedTables = nil
            let present = try tablesWithColumn(connection)
            for table in tables where try !present.contains(table) && connection.hasTable(table) {
                // Both names are constants of this library, never input.
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER")
            }
        }
        connection.checksummedTables = nil
    }

}

/// What a reader found of a row's checksum. Found before anything else is read of the row (a read
/// may convert a column to another type), reported after every other check of the row has passed.
enum ChecksumCheck: Sendable, Equatable {
    /// The row has none: written before checksums, or by an older ActionLog.
    case absent
    case matches
    case mismatch
    /// The checksum column holds something else than an integer.
    case misstored

    /// Compares each half of the checksum in `column` (32 bits from `shift`) with the CRC of its columns.
    init(_ row: Row, column: Int32, halves: [(shift: UInt64, columns: [Int32])]) {
        guard let stored = row.storedChecksum(column) else {
            self = .absent
            return
        }
        guard let stored else {
            self = .misstored
            return
        }
        let matches = halves.allSatisfy { UInt64(row.checksum(of: $0.columns)) == (stored >> $0.shift) & 0xFFFF_FFFF }
        self = matches ? .matches : .mismatch
    }

    /// What a reader says of `what` (`the entry`, `call 2`), or `nil` when nothing is wrong.
    func problem(_ what: String) -> String? {
        switch self {
        case .absent, .matches: nil
        case .mismatch: "\(what) does not match its checksum: its bytes changed after ActionLog wrote it"
        case .misstored: "the checksum of \(what) is not stored as an integer: the row changed after ActionLog wrote it"
        }
    }
}
