import JSON

/// What `report.json` and a shard's report part hold around their entries,
/// declared in one key table as the entries are: `schemaVersion`, a part's
/// `shard`, `files` (the entries), `totals`, and a part's `entriesSHA256`.
///
/// Both files are written and read one entry at a time, so `files` is a
/// streamed key: the writer puts the keys before it (`opening`) and after it
/// (`closing`) around the entries, and the reader (`read`) hands the entries
/// over one by one and reads every other key by its name through the table.
/// A top-level key added to `keys` is written and read everywhere at once.
package struct ReportEnvelope: Sendable, Equatable {
    /// The schema version every report of this tool writes and reads.
    package static let schemaVersion = 1

    /// A part's header: which shard, of which plan (nil in `report.json`).
    package var shard: ReportPart?
    /// Figures for the entries, every one counted from them.
    package var totals = BatchReport.Totals()
    /// A part's SHA-256 of its entries (`entry` of each, one after the
    /// other), which `merge` checks: a part damaged inside a string still
    /// reads as JSON (nil in `report.json`).
    package var entriesSHA256: String?

    /// Everything before the first entry: the keys before `files`, and the opening of `files`.
    package func opening() -> [UInt8] {
        JSONStreamWriter.opening(pairs(Self.keys[..<Self.entriesKey]), list: ReportKeyName.files.rawValue)
    }

    /// Everything after the last entry (`empty`: there was none): the end of `files`, and the keys after it.
    package func closing(empty: Bool) -> [UInt8] {
        JSONStreamWriter.closing(pairs(Self.keys[(Self.entriesKey + 1)...]), empty: empty)
    }

    /// The keys of `table` this envelope writes, with their values.
    private func pairs(_ table: ArraySlice<ReportKey<ReportEnvelope>>) -> [(String, JSONValue)] {
        table.filter { $0.isWritten(self) }.map { ($0.name.rawValue, $0.write(self)) }
    }

    /// Where `files` is in the table.
    private static let entriesKey = keys.firstIndex { $0.name == .files } ?? keys.count

    /// Reads `report.json` or a part from the open file `descriptor` (named
    /// `name` in messages) one entry at a time: `header` with the envelope
    /// read from the keys before `files` (strictly, by the table), then
    /// `entry` with each entry in order; returns the whole envelope, read
    /// strictly. Throws `ReportError` (a key missing, unknown, out of order,
    /// or a value that is not what the table writes) or `JSONStream.Failure`
    /// (not JSON of this shape). `chunkSize` is for tests.
    package static func read(_ descriptor: Int32, name: String, chunkSize: Int = 1 << 20,
                             header: (ReportEnvelope) throws -> Void = { _ in },
                             entry: (JSONValue) throws -> Void) throws -> ReportEnvelope {
        var stream = JSONStream(descriptor: descriptor, name: name, chunkSize: chunkSize)
        let pairs = try stream.read(list: ReportKeyName.files.rawValue, header: { pairs in
            var value = blank
            try read(pairs, keys: keys[..<entriesKey], into: &value)
            try header(value)
        }, element: entry)
        return try ReportEnvelope(reportJSON: .object(pairs))
    }
}

extension ReportEnvelope: ReportObject {
    package static let blank = ReportEnvelope()

    /// `report.json`'s and a part's keys: the one table of them.
    package static let keys: [ReportKey<ReportEnvelope>] = [
        .derived(.schemaVersion) { _ in .int(ReportEnvelope.schemaVersion) },
        .ifPresent(.shard, \.shard),
        .streamed(.files),
        .value(.totals, \.totals),
        .ifPresent(.entriesSHA256, \.entriesSHA256),
    ]

    /// A part states its entries' SHA-256 and `report.json` does not.
    package func validated() throws(ReportError) {
        if shard != nil, entriesSHA256 == nil { throw ReportError("is missing").under(.entriesSHA256) }
        if shard == nil, entriesSHA256 != nil { throw ReportError("is there, but only a report part has one").under(.entriesSHA256) }
    }
}
