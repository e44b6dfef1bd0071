import Foundation
import JSON

/// Why one of the tool's own files (a sidecar, `report.json`, a report part)
/// could not be read: which file, which value in it, and what is wrong.
///
/// The files are untrusted input (damaged, edited, or written by someone
/// else), so every value is checked as it is read, numbers included: a count
/// too large to add is this error, never an arithmetic trap.
public struct ReportError: Error, LocalizedError, Sendable, Equatable {
    /// The file, as messages name it (nil until the reader that opened it says).
    public var file: String?
    /// Where the value is, as `files[3].actions[0].state`; empty for the value itself.
    public var field: String
    /// What is wrong with it, as a predicate: "is missing", "is not a whole number".
    public var problem: String

    /// An error about the value being read.
    package init(_ problem: String) {
        self.file = nil; self.field = ""; self.problem = problem
    }

    /// The error as seen from the object that holds the value under `key`.
    package func under(_ key: String) -> ReportError {
        var error = self
        error.field = field.isEmpty ? key : field.hasPrefix("[") ? key + field : key + "." + field
        return error
    }

    /// The error as seen from the object that holds the value under `key`.
    func under(_ key: ReportKeyName) -> ReportError { under(key.rawValue) }

    /// The error as seen from the list that holds the value at `index`.
    package func at(_ index: Int) -> ReportError {
        var error = self
        error.field = "[\(index)]" + (field.isEmpty || field.hasPrefix("[") ? field : "." + field)
        return error
    }

    /// The error in the file `name`.
    package func inFile(_ name: String) -> ReportError {
        var error = self
        error.file = name
        return error
    }

    /// `report.json: files[3].cues is not a whole number from 0 up`.
    public var errorDescription: String? {
        (file.map { $0 + ": " } ?? "") + (field.isEmpty ? "the value" : field) + " " + problem
    }
}

/// A value a report holds: written as one JSON value, and read back from it.
///
/// Reading is strict (`init(reportJSON:)`: exactly what `reportJSON` writes,
/// or a `ReportError` naming what is not) or lenient (`lenient`: what can be
/// read, and a problem for each part that cannot), from the same definition.
package protocol ReportValue: Sendable {
    /// The value as reports write it.
    var reportJSON: JSONValue { get }
    /// Reads the value back: exactly what `reportJSON` writes, or an error.
    init(reportJSON json: JSONValue) throws(ReportError)
    /// Reads what can be read of the value, adding a problem for each part
    /// that cannot; nil when nothing of it can be read.
    static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> Self?
}

extension ReportValue {
    /// The value when it reads strictly; otherwise nil and the problem.
    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> Self? {
        do { return try Self(reportJSON: json) } catch {
            problems.append(error)
            return nil
        }
    }
}

/// An object of a report, declared by its table of keys (`keys`): the order
/// they are written in, when each is written, and how each is read. Its
/// writer and both readers come from that table, so a field added to it is
/// written and read everywhere at once.
package protocol ReportObject: ReportValue {
    /// What reading starts from: every optional value nil, every list empty.
    static var blank: Self { get }
    /// The keys, in the order they are written.
    static var keys: [ReportKey<Self>] { get }
    /// Checks what one value alone cannot (a shard index below its count);
    /// called at the end of a strict read.
    func validated() throws(ReportError)
}

extension ReportObject {
    package func validated() throws(ReportError) {}

    package var reportJSON: JSONValue {
        var pairs: [(String, JSONValue)] = []
        pairs.reserveCapacity(Self.keys.count)
        for key in Self.keys where key.isWritten(self) { pairs.append((key.name.rawValue, key.write(self))) }
        return .object(pairs)
    }

    /// Reads the object strictly: its keys in the table's order, each one
    /// there exactly when the writer writes it, no other key, and every value
    /// as its key reads it.
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .object(let pairs) = json else { throw ReportError("is not an object") }
        var value = Self.blank
        try Self.read(pairs, keys: Self.keys[...], into: &value)
        try value.validated()
        self = value
    }

    /// Reads `pairs` strictly into `value` as the stretch `keys` of the
    /// table (the whole table, or the keys before a streamed one): in that
    /// order, each key there exactly when the writer writes it, no other key.
    package static func read(_ pairs: [(String, JSONValue)], keys: ArraySlice<ReportKey<Self>>,
                             into value: inout Self) throws(ReportError) {
        var present = [Bool](repeating: false, count: keys.count)
        var next = 0
        for (k, key) in keys.enumerated() where next < pairs.count && pairs[next].0 == key.name.rawValue {
            do { try key.read(&value, pairs[next].1) } catch { throw error.under(key.name) }
            present[k] = true
            next += 1
        }
        if next < pairs.count {
            let name = pairs[next].0
            throw ReportError(Self.keys.contains { $0.name.rawValue == name } ? "is out of order or given twice" : "is not a key this object has")
                .under(name)
        }
        for (k, key) in keys.enumerated() where key.isWritten(value) != present[k] {
            throw ReportError(present[k] ? "is there, but this entry has none" : "is missing").under(key.name)
        }
    }

    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> Self? {
        leniently(json, problems: &problems)
    }

    /// Reads the object leniently: each key of the table found (in any order)
    /// is read as leniently as its value allows; a value that cannot be read
    /// is left out, and a key that is missing keeps its blank value; both are
    /// named in `problems` (a missing key only where the writer would write
    /// it). Keys the table does not have are passed over.
    package static func leniently(_ json: JSONValue, problems: inout [ReportError]) -> Self? {
        guard case .object(let pairs) = json else {
            problems.append(ReportError("is not an object"))
            return nil
        }
        var value = Self.blank
        var absent: [ReportKey<Self>] = []
        for key in Self.keys {
            guard let found = pairs.first(where: { $0.0 == key.name.rawValue }) else {
                absent.append(key)
                continue
            }
            var inner: [ReportError] = []
            key.readLeniently(&value, found.1, &inner)
            problems += inner.map { $0.under(key.name) }
        }
        // A key the writer would have written is named: what is shown in its place is only its blank value.
        for key in absent where key.isWritten(value) { problems.append(ReportError("is missing").under(key.name)) }
        return value
    }
}

/// One key of a report object: its name, when it is written and what, and
/// how it is read back (strictly and leniently).
package struct ReportKey<Root>: Sendable {
    /// The key.
    let name: ReportKeyName
    /// Whether the key is written for `root` (a key not written is read as its blank value).
    let isWritten: @Sendable (Root) -> Bool
    /// The value written (asked only when `isWritten`).
    let write: @Sendable (Root) -> JSONValue
    /// Reads the value into `root`, strictly.
    let read: @Sendable (inout Root, JSONValue) throws(ReportError) -> Void
    /// Reads what it can of the value into `root`; what it cannot goes to the problems.
    let readLeniently: @Sendable (inout Root, JSONValue, inout [ReportError]) -> Void

    /// A key with its value got and set by closures, written when `writtenIf` says
    /// (always, without it); `check` names what is wrong with a value read, or nil.
    @inline(__always)  // into the key tables: each key's closures made for its own type, not generic at run time
    static func value<V: ReportValue>(_ name: ReportKeyName, get: @escaping @Sendable (Root) -> V,
                                      set: @escaping @Sendable (inout Root, V) -> Void,
                                      writtenIf: (@Sendable (Root) -> Bool)? = nil,
                                      check: (@Sendable (V) -> String?)? = nil) -> ReportKey {
        ReportKey(name: name, isWritten: writtenIf ?? { _ in true }, write: { get($0).reportJSON },
                  read: { (root: inout Root, json: JSONValue) throws(ReportError) in
                      let v = try V(reportJSON: json)
                      if let problem = check?(v) { throw ReportError(problem) }
                      set(&root, v)
                  },
                  readLeniently: { root, json, problems in
                      guard let v = V.lenient(json, problems: &problems) else { return }
                      if let problem = check?(v) { problems.append(ReportError(problem)); return }
                      set(&root, v)
                  })
    }

    /// A key for the property at `path`.
    ///
    /// The property is read through the key path at run time: the tables
    /// written once a file (`FileReport`'s and the objects it holds) give
    /// `get:` a key path literal instead, which the compiler makes a direct read.
    @inline(__always)  // into the key tables: each key's closures made for its own type, not generic at run time
    static func value<V: ReportValue>(_ name: ReportKeyName, _ path: WritableKeyPath<Root, V> & Sendable,
                                      writtenIf: (@Sendable (Root) -> Bool)? = nil,
                                      check: (@Sendable (V) -> String?)? = nil) -> ReportKey {
        value(name, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 }, writtenIf: writtenIf, check: check)
    }

    /// A key written only when the optional value `get` gives has one.
    @inline(__always)  // into the key tables: each key's closures made for its own type, not generic at run time
    static func ifPresent<V: ReportValue>(_ name: ReportKeyName, get: @escaping @Sendable (Root) -> V?,
                                          set: @escaping @Sendable (inout Root, V) -> Void,
                                          check: (@Sendable (V) -> String?)? = nil) -> ReportKey {
        ReportKey(name: name, isWritten: { get($0) != nil }, write: { get($0)?.reportJSON ?? .null },
                  read: { (root: inout Root, json: JSONValue) throws(ReportError) in
                      let v = try V(reportJSON: json)
                      if let problem = check?(v) { throw ReportError(problem) }
                      set(&root, v)
                  },
                  readLeniently: { root, json, problems in
                      guard let v = V.lenient(json, problems: &problems) else { return }
                      if let problem = check?(v) { problems.append(ReportError(problem)); return }
                      set(&root, v)
                  })
    }

    /// A key written only when the optional property at `path` has a value.
    ///
    /// The property is read through the key path at run time: the tables
    /// written once a file (`FileReport`'s and the objects it holds) give
    /// `get:` a key path literal instead, which the compiler makes a direct read.
    @inline(__always)  // into the key tables: each key's closures made for its own type, not generic at run time
    static func ifPresent<V: ReportValue>(_ name: ReportKeyName, _ path: WritableKeyPath<Root, V?> & Sendable,
                                          check: (@Sendable (V) -> String?)? = nil) -> ReportKey {
        ifPresent(name, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 }, check: check)
    }

    /// The key of a list too long to hold (`report.json`'s `files`): read
    /// and written in pieces around the object's other keys (`JSONStream`,
    /// `JSONStreamWriter`), so the object itself holds an empty list in its place.
    static func streamed(_ name: ReportKeyName) -> ReportKey {
        ReportKey(name: name, isWritten: { _ in true }, write: { _ in .array([]) },
                  read: { (_: inout Root, json: JSONValue) throws(ReportError) in
                      guard case .array = json else { throw ReportError("is not a list") }
                  },
                  readLeniently: { _, _, _ in })
    }

    /// A key whose value follows from the keys before it (an action's label
    /// from its id, the schema version): a strict read checks it is that
    /// value; a lenient read passes over it.
    static func derived(_ name: ReportKeyName, _ value: @escaping @Sendable (Root) -> JSONValue) -> ReportKey {
        ReportKey(name: name, isWritten: { _ in true }, write: value,
                  read: { (root: inout Root, json: JSONValue) throws(ReportError) in
                      let expected = value(root)
                      guard json == expected else { throw ReportError("is not \(expected.oneLine(spaced: true))") }
                  },
                  readLeniently: { _, _, _ in })
    }
}

// MARK: The values reports hold

extension String: ReportValue {
    package var reportJSON: JSONValue { .string(self) }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .string(let s) = json else { throw ReportError("is not a string") }
        self = s
    }
}

/// Every number a report holds is a count, a size, a position or a status:
/// a whole number from 0 up, within `Int` (a larger one is read as an error).
extension Int: ReportValue {
    package var reportJSON: JSONValue { .int(self) }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .int(let n) = json, n >= 0 else {
            if case .number = json { throw ReportError("is not a whole number that fits a count") }
            throw ReportError("is not a whole number from 0 up")
        }
        self = n
    }

    /// `self + other`, or an error naming what would overflow.
    func adding(_ other: Int) throws(ReportError) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard !overflow else { throw ReportError("is too large to add to the total (\(self) + \(other))") }
        return sum
    }
}

extension Bool: ReportValue {
    package var reportJSON: JSONValue { .bool(self) }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .bool(let b) = json else { throw ReportError("is not true or false") }
        self = b
    }
}

/// `null` for nil.
extension Optional: ReportValue where Wrapped: ReportValue {
    package var reportJSON: JSONValue { self?.reportJSON ?? .null }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        self = json == .null ? nil : try Wrapped(reportJSON: json)
    }
    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> Self? {
        if json == .null { return .some(nil) }
        return Wrapped.lenient(json, problems: &problems).map { .some($0) }
    }
}

/// A list; read leniently, an element that cannot be read is left out.
extension Array: ReportValue where Element: ReportValue {
    package var reportJSON: JSONValue { .array(map(\.reportJSON)) }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .array(let items) = json else { throw ReportError("is not a list") }
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do { out.append(try Element(reportJSON: item)) } catch { throw error.at(i) }
        }
        self = out
    }
    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> Self? {
        guard case .array(let items) = json else {
            problems.append(ReportError("is not a list"))
            return nil
        }
        var out: [Element] = []
        for (i, item) in items.enumerated() {
            var inner: [ReportError] = []
            if let element = Element.lenient(item, problems: &inner) { out.append(element) }
            problems += inner.map { $0.at(i) }
        }
        return out
    }
}

/// A name from a fixed set (a format, a state, an id): its raw value.
package protocol ReportName: ReportValue, RawRepresentable, CaseIterable where RawValue == String {}

extension ReportName {
    package var reportJSON: JSONValue { .string(rawValue) }
    package init(reportJSON json: JSONValue) throws(ReportError) {
        guard case .string(let s) = json else { throw ReportError("is not a string") }
        guard let value = Self(rawValue: s) else {
            throw ReportError("is \(JSONValue.string(s).oneLine(spaced: true)), not one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = value
    }
}
