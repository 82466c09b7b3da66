import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// A small wrapper over the system libpq: one connection, statements with
/// their values sent as text, rows read as text, and libpq's pipeline mode
/// (a batch of statements sent without waiting for each one's answer, read
/// back after one sync): the store's second backend (issue #48).
///
/// The connection string is a libpq URL or `key=value` list. Its password,
/// if it holds one, is never shown: messages name the target by
/// `PostgresDatabase.redacted(_:)`; a password belongs in `PGPASSFILE` or the
/// service file.
public final class PostgresDatabase {
    public struct Failure: Error, CustomStringConvertible {
        /// The SQLSTATE, or "" when the failure was not the server's (a lost
        /// connection, a refused start).
        public let sqlState: String
        public let message: String
        public var description: String {
            sqlState.isEmpty ? "postgresql: \(message)" : "postgresql error \(sqlState): \(message)"
        }
        /// The connection is gone (class 08, 57P0x: the server shut down,
        /// or no answer at all): reconnecting may help; the open transaction is lost.
        public var isConnectionLost: Bool {
            sqlState.isEmpty || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
        }
        /// The disk is full on the server's side (53100), or another resource ran out (class 53).
        public var isResourceExhausted: Bool { sqlState.hasPrefix("53") }
        /// A unique or primary key constraint refused a row (23505).
        public var isUniqueViolation: Bool { sqlState == "23505" }
    }

    private var connection: OpaquePointer?
    /// The target as it may be shown: the connection string without its password.
    public let target: String
    /// The statements prepared on this connection, by name.
    private var prepared: Set<String> = []
    /// Whether the connection is in pipeline mode (`beginPipeline`).
    public private(set) var inPipeline = false
    /// The statements sent in the pipeline since its last sync, in order.
    private var pending = 0
    /// The statements prepared in the pipeline since its last sync, by their
    /// place in it: prepared only once the server answers their PREPARE (a
    /// failed statement before one makes the server skip it).
    private var preparing: [Int: String] = [:]

    /// Connects to `conninfo` (a URL `postgresql://…` or `key=value …`).
    /// The session speaks UTF-8, in UTC, and waits for each commit to reach
    /// the server's disk (`synchronous_commit` on), whatever the server's defaults.
    public init(_ conninfo: String) throws {
        target = PostgresDatabase.redacted(conninfo)
        var why = [CChar](repeating: 0, count: 256)
        guard ghost_pq_load(&why, why.count) == 1 else {
            throw Failure(sqlState: "", message: String(decoding: why.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let conn = PQconnectdb(conninfo) else {
            throw Failure(sqlState: "", message: "cannot allocate a connection to \(target)")
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = PostgresDatabase.clean(PQerrorMessage(conn))
            PQfinish(conn)
            throw Failure(sqlState: "", message: "cannot connect to \(target): \(message)")
        }
        connection = conn
        try execute("SET client_encoding = 'UTF8'; SET TIME ZONE 'UTC'; SET synchronous_commit = on; SET client_min_messages = warning")
    }

    deinit { close() }

    public func close() {
        if let connection { PQfinish(connection) }
        connection = nil
        prepared.removeAll()
        preparing.removeAll()
        inPipeline = false
        pending = 0
    }

    /// Whether the connection is still up, as libpq last saw it.
    public var isConnected: Bool { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The server's version number (150004 for 15.4).
    public var serverVersion: Int { connection.map { Int(PQserverVersion($0)) } ?? 0 }

    /// Whether a transaction is open (or failed and waiting for its ROLLBACK).
    public var isInTransaction: Bool {
        guard let connection else { return false }
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// `conninfo` with any password replaced by `***`: in a URL
    /// (`postgresql://user:secret@host`), as `password=` in a key list or in
    /// a URL's query (`?password=`).
    public static func redacted(_ conninfo: String) -> String {
        var text = conninfo
        if let scheme = text.firstRange(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        // password=… in a key list (up to a space) or a URL query (up to &).
        var out = ""
        var rest = Substring(text)
        while let r = rest.lowercased().firstRange(of: "password=").map({ found in
            // The same place in `rest` (lowercasing keeps ASCII's places; a password's key is ASCII).
            let start = rest.utf8.index(rest.startIndex, offsetBy: rest.lowercased().utf8.distance(from: rest.lowercased().startIndex, to: found.lowerBound))
            return start..<rest.utf8.index(start, offsetBy: 9)
        }) {
            out += rest[..<r.upperBound] + "***"
            let after = rest[r.upperBound...]
            if after.first == "'" {
                // A quoted value: up to the closing quote not escaped by a backslash.
                var i = after.index(after: after.startIndex)
                var escaped = false
                while i < after.endIndex, escaped || after[i] != "'" {
                    escaped = !escaped && after[i] == "\\"
                    i = after.index(after: i)
                }
                rest = i < after.endIndex ? after[after.index(after: i)...] : after[after.endIndex...]
            } else {
                rest = after[(after.firstIndex(where: { $0 == " " || $0 == "&" }) ?? after.endIndex)...]
            }
        }
        return out + rest
    }

    private static func clean(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "unknown error" }
        let text = String(cString: p)
        let trimmed = text.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed()
        return String(trimmed)
    }

    private func connectionFailure(_ what: String) -> Failure {
        Failure(sqlState: "", message: "\(what): \(connection.map { PostgresDatabase.clean(PQerrorMessage($0)) } ?? "the connection is closed")")
    }

    /// The failure a result reports, if it is one.
    private func failure(of result: OpaquePointer?) -> Failure? {
        guard let result else { return connectionFailure("no result") }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE, PGRES_PIPELINE_SYNC, PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_EMPTY_QUERY:
            return nil
        case PGRES_PIPELINE_ABORTED:
            return Failure(sqlState: "25P02", message: "an earlier statement in the pipeline failed")
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? PostgresDatabase.clean(PQresultErrorMessage(result))
            return Failure(sqlState: state, message: message)
        }
    }

    private func live() throws -> OpaquePointer {
        guard let connection else { throw Failure(sqlState: "", message: "the connection to \(target) is closed") }
        return connection
    }

    // MARK: One statement at a time

    /// Runs one or more statements without parameters (the simple query
    /// protocol), returning nothing. Not in a pipeline.
    public func execute(_ sql: String) throws {
        let conn = try live()
        precondition(!inPipeline, "execute is not for a pipeline")
        var firstFailure: Failure?
        guard PQsendQuery(conn, sql) == 1 else { throw connectionFailure("cannot send") }
        while let result = PQgetResult(conn) {
            if firstFailure == nil { firstFailure = failure(of: result) }
            PQclear(result)
        }
        if let firstFailure { throw firstFailure }
        if PQstatus(conn) != CONNECTION_OK { throw connectionFailure("connection lost") }
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, … and returns its rows.
    public func query(_ sql: String, _ values: [SQLValue] = []) throws -> PostgresRows {
        let conn = try live()
        precondition(!inPipeline, "query is not for a pipeline")
        let result = withParameters(values) { count, pointers in
            PQexecParams(conn, sql, count, nil, pointers, nil, nil, 0)
        }
        if let failure = failure(of: result) {
            PQclear(result)
            if PQstatus(conn) != CONNECTION_OK { throw connectionFailure("connection lost") }
            throw failure
        }
        return PostgresRows(result)
    }

    /// Runs one statement with `values`, returning nothing.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws {
        _ = try query(sql, values)
    }

    /// Calls `body` with `values` as libpq's array of C strings in text
    /// format (NULL for `.null`), valid during the call: every value's bytes
    /// in one buffer, each ended by a NUL (a copy per value was 15% of a
    /// letter's instructions, callgrind).
    private func withParameters<R>(_ values: [SQLValue], _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        var bytes: [CChar] = []
        bytes.reserveCapacity(values.count * 16)
        var starts: [Int] = []
        starts.reserveCapacity(values.count)
        for value in values {
            let text: String
            switch value {
            case .null:
                starts.append(-1)
                continue
            case .int(let v): text = String(v)
            case .real(let v): text = v.isFinite ? "\(v)" : (v.isNaN ? "NaN" : (v > 0 ? "Infinity" : "-Infinity"))
            case .text(let v): text = v
            }
            starts.append(bytes.count)
            for byte in text.utf8 { bytes.append(CChar(bitPattern: byte)) }
            bytes.append(0)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            let pointers: [UnsafePointer<CChar>?] = starts.map { start in
                start < 0 ? nil : buffer.baseAddress.map { $0 + start }
            }
            return pointers.withUnsafeBufferPointer { body(Int32(values.count), $0.baseAddress) }
        }
    }

    // MARK: Pipeline mode

    /// Enters pipeline mode: `send` queues statements without waiting for
    /// their answers; `sync()` ends a batch and reads every answer.
    public func beginPipeline() throws {
        let conn = try live()
        guard !inPipeline else { return }
        guard PQenterPipelineMode(conn) == 1 else { throw connectionFailure("cannot enter pipeline mode") }
        inPipeline = true
    }

    /// Leaves pipeline mode (after a `sync()`, with nothing pending).
    public func endPipeline() throws {
        let conn = try live()
        guard inPipeline else { return }
        guard PQexitPipelineMode(conn) == 1 else { throw connectionFailure("cannot leave pipeline mode") }
        inPipeline = false
    }

    /// Prepares `sql` under `name` on this connection, once (outside a pipeline,
    /// or inside it: then its answer is read at the next `sync()`).
    public func prepare(_ name: String, _ sql: String) throws {
        guard !prepared.contains(name) else { return }
        let conn = try live()
        if inPipeline {
            guard PQsendPrepare(conn, name, sql, 0, nil) == 1 else { throw connectionFailure("cannot send a PREPARE") }
            preparing[pending] = name
            pending += 1
        } else {
            let result = PQprepare(conn, name, sql, 0, nil)
            defer { PQclear(result) }
            if let failure = failure(of: result) { throw failure }
        }
        prepared.insert(name)
    }

    public func isPrepared(_ name: String) -> Bool { prepared.contains(name) }

    /// Queues the prepared statement `name` with `values`, in the pipeline.
    public func send(prepared name: String, _ values: [SQLValue]) throws {
        let conn = try live()
        precondition(inPipeline, "send is for a pipeline")
        let sent = withParameters(values) { count, pointers in
            PQsendQueryPrepared(conn, name, count, pointers, nil, nil, 0)
        }
        guard sent == 1 else { throw connectionFailure("cannot send") }
        pending += 1
    }

    /// Queues `sql` with `values` (parsed by the server each time), in the pipeline.
    public func send(_ sql: String, _ values: [SQLValue] = []) throws {
        let conn = try live()
        precondition(inPipeline, "send is for a pipeline")
        let sent = withParameters(values) { count, pointers in
            PQsendQueryParams(conn, sql, count, nil, pointers, nil, nil, 0)
        }
        guard sent == 1 else { throw connectionFailure("cannot send") }
        pending += 1
    }

    /// How many statements wait for `sync()`.
    public var pendingCount: Int { pending }

    /// Ends the batch: sends a sync, then reads the answer of every
    /// statement sent since the last one, in order. The first failure is
    /// thrown after every answer was read (a failed statement aborts the
    /// ones after it up to the sync, and its transaction), so the
    /// connection is ready for the next batch either way. `rows` receives
    /// each statement's answer (its rows, or the count it changed), by its
    /// place in the batch.
    public func sync(rows: ((Int, PostgresRows) -> Void)? = nil) throws {
        let conn = try live()
        precondition(inPipeline, "sync is for a pipeline")
        // A PREPARE of the batch whose answer was not a success (skipped
        // after a failed statement, or failed) prepared nothing: forgotten,
        // so that its statement is prepared again when next used.
        let preparing = self.preparing
        self.preparing = [:]
        var preparedNow: Set<Int> = []
        defer { for (i, name) in preparing where !preparedNow.contains(i) { prepared.remove(name) } }
        guard PQpipelineSync(conn) == 1 else {
            pending = 0
            throw connectionFailure("cannot send the sync")
        }
        var firstFailure: Failure?
        var index = 0
        let expected = pending
        pending = 0
        // Each statement's answer is its results then a NULL; the sync's is PGRES_PIPELINE_SYNC.
        while true {
            guard let result = PQgetResult(conn) else {
                // The NULL after each statement's results.
                index += 1
                if PQstatus(conn) != CONNECTION_OK || index > expected {
                    throw firstFailure ?? connectionFailure(index > expected ? "the pipeline is out of step" : "connection lost")
                }
                continue
            }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            if status == PGRES_COMMAND_OK, preparing[index] != nil { preparedNow.insert(index) }
            if let failure = failure(of: result) {
                if firstFailure == nil { firstFailure = failure }
                PQclear(result)
            } else if let rows, status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                rows(index, PostgresRows(result))
            } else {
                PQclear(result)
            }
            if PQstatus(conn) != CONNECTION_OK {
                throw firstFailure ?? connectionFailure("connection lost")
            }
        }
        if let firstFailure { throw firstFailure }
    }

    // MARK: COPY

    /// Sends rows into `table`'s `columns` with `COPY … FROM STDIN` (text
    /// format), each row's values escaped for it. Not in a pipeline.
    public func copy(into table: String, columns: [String],
                     rows produce: (_ emit: ([SQLValue]) throws -> Void) throws -> Void) throws {
        let conn = try live()
        precondition(!inPipeline, "copy is not for a pipeline")
        let start = PQexec(conn, "COPY \(table)(\(columns.joined(separator: ", "))) FROM STDIN")
        if let failure = failure(of: start) { PQclear(start); throw failure }
        PQclear(start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush() throws {
            guard !buffer.isEmpty else { return }
            let ok = buffer.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { PQputCopyData(conn, $0.baseAddress, Int32($0.count)) }
            }
            buffer.removeAll(keepingCapacity: true)
            guard ok == 1 else { throw connectionFailure("COPY failed") }
        }
        do {
            try produce { row in
                for (i, value) in row.enumerated() {
                    if i > 0 { buffer.append(0x09) }
                    PostgresDatabase.appendCopyText(value, to: &buffer)
                }
                buffer.append(0x0A)
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch {
            // End the COPY as failed, so the connection is usable (and its transaction aborted).
            _ = PQputCopyEnd(conn, "the rows could not be read")
            while let result = PQgetResult(conn) { PQclear(result) }
            throw error
        }
        guard PQputCopyEnd(conn, nil) == 1 else { throw connectionFailure("COPY failed") }
        var firstFailure: Failure?
        while let result = PQgetResult(conn) {
            if firstFailure == nil { firstFailure = failure(of: result) }
            PQclear(result)
        }
        if let firstFailure { throw firstFailure }
    }

    /// A value in COPY's text format: `\N` for NULL, backslash, tab, newline
    /// and carriage return escaped.
    static func appendCopyText(_ value: SQLValue, to buffer: inout [UInt8]) {
        switch value {
        case .null: buffer += [0x5C, 0x4E]
        case .int(let v): buffer += Array(String(v).utf8)
        case .real(let v): buffer += Array("\(v)".utf8)
        case .text(let v):
            for byte in v.utf8 {
                switch byte {
                case 0x5C: buffer += [0x5C, 0x5C]
                case 0x09: buffer += [0x5C, 0x74]
                case 0x0A: buffer += [0x5C, 0x6E]
                case 0x0D: buffer += [0x5C, 0x72]
                default: buffer.append(byte)
                }
            }
        }
    }
}

/// A statement's rows, as libpq returned them (text format), freed with it.
public final class PostgresRows {
    private let result: OpaquePointer?
    public let count: Int
    public let columnCount: Int

    init(_ result: OpaquePointer?) {
        self.result = result
        count = result.map { Int(PQntuples($0)) } ?? 0
        columnCount = result.map { Int(PQnfields($0)) } ?? 0
    }

    deinit { PQclear(result) }

    /// Rows an UPDATE, INSERT or DELETE changed.
    public var changed: Int {
        guard let result, let p = PQcmdTuples(result) else { return 0 }
        return Int(String(cString: p)) ?? 0
    }

    public func isNull(_ row: Int, _ column: Int) -> Bool {
        guard let result, row < count, column < columnCount else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// The value's text, or nil for NULL (or a place outside the rows).
    public func text(_ row: Int, _ column: Int) -> String? {
        guard let result, !isNull(row, column), let p = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        return String(cString: p)
    }

    public func int(_ row: Int, _ column: Int) -> Int? { text(row, column).flatMap { Int($0) } }

    public func double(_ row: Int, _ column: Int) -> Double? { text(row, column).flatMap { Double($0) } }

    /// The column's name.
    public func name(_ column: Int) -> String {
        guard let result, column < columnCount, let p = PQfname(result, Int32(column)) else { return "" }
        return String(cString: p)
    }

    /// How the column's values are read back as `SQLValue`s: PostgreSQL's
    /// integer types as `.int`, its floating point ones as `.real`, the rest as `.text`.
    public func kind(_ column: Int) -> SQLValueKind {
        guard let result, column < columnCount else { return .text }
        switch PQftype(result, Int32(column)) {
        case 20, 21, 23, 26: return .int          // int8, int2, int4, oid
        case 700, 701, 1700: return .real         // float4, float8, numeric
        case 16: return .bool
        default: return .text
        }
    }

    /// The value at (`row`, `column`) as an `SQLValue` of its column's kind.
    public func value(_ row: Int, _ column: Int) -> SQLValue {
        guard let text = text(row, column) else { return .null }
        switch kind(column) {
        case .int: return Int64(text).map { .int($0) } ?? .text(text)
        case .real: return Double(text).map { .real($0) } ?? .text(text)
        case .bool: return .int(text == "t" ? 1 : 0)
        case .text: return .text(text)
        }
    }
}

/// How a PostgreSQL column reads back (`PostgresRows.kind`).
public enum SQLValueKind: Sendable { case int, real, text, bool }
