/// The runs of one TTML paragraph as its text nodes, CDATA sections and `br`
/// elements arrive: references decoded, white space handled as
/// `xml:space="default"` (collapsed to one space, trimmed before a line break
/// and at the paragraph's end) or `preserve`, and each text run keeping the
/// byte range of its raw text for the writer.
struct TTMLParagraphText {
    private let raw: XMLBytes
    /// The runs so far.
    private(set) var runs: [TextRun] = []
    private var lastWasSpace = true
    /// The run that ends with a collapsible space, if the text so far ends with one.
    private var trailingSpaceRun: Int?
    private var scratch: [UInt8] = []

    init(_ raw: XMLBytes) { self.raw = raw }

    /// Reserves room for a text node's decoded bytes.
    mutating func reserveCapacity(_ count: Int) { scratch.reserveCapacity(count) }

    /// Adds the text of `range` (a text node, or the inside of a CDATA section
    /// when `cdata`): whether it made a run (text that is all collapsed space makes none).
    mutating func add(_ range: Range<Int>, cdata: Bool, style: TextStyle, preserve: Bool) -> Bool {
        guard !range.isEmpty else { return false }
        scratch.removeAll(keepingCapacity: true)
        // The decoded text is never longer than the raw: room for it at once (a large node is not regrown, and copied, on the way).
        scratch.reserveCapacity(range.count)
        let runIndex = runs.count
        var k = range.lowerBound
        let end = min(range.upperBound, raw.n)
        while k < end {
            let b = raw.p[k]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                var length = 1
                if b == 0x0D, k + 1 < end, raw.p[k + 1] == 0x0A { length = 2 }
                whitespace(b == 0x0D ? 0x0A : b, preserve: preserve, runIndex: runIndex)
                k += length
            } else if b == UInt8(ascii: "&"), !cdata, let ref = raw.reference(at: k, limit: end) {
                if ref.scalar == 0x20 || ref.scalar == 0x09 || ref.scalar == 0x0A || ref.scalar == 0x0D {
                    whitespace(UInt8(ref.scalar), preserve: preserve, runIndex: runIndex)
                } else {
                    UTF8Repair.appendScalar(ref.scalar, to: &scratch)
                    lastWasSpace = false; trailingSpaceRun = nil
                }
                k += ref.length
            } else {
                scratch.append(b)
                lastWasSpace = false; trailingSpaceRun = nil
                k += 1
            }
        }
        guard !scratch.isEmpty else { return false }
        runs.append(TextRun(kind: .text, text: String(decoding: scratch, as: UTF8.self), style: style, source: range))
        // A large node's room is not kept for the small ones that follow.
        if scratch.capacity > 1 << 16 { scratch = [] }
        return true
    }

    @inline(__always) private mutating func whitespace(_ b: UInt8, preserve: Bool, runIndex: Int) {
        if preserve {
            scratch.append(b)
            lastWasSpace = false; trailingSpaceRun = nil
        } else if !lastWasSpace {
            scratch.append(0x20)
            lastWasSpace = true; trailingSpaceRun = runIndex
        }
    }

    /// Adds a line break (`tag` is the `br` element's bytes), first trimming
    /// the collapsible space before it unless white space is preserved.
    mutating func lineBreak(_ tag: Range<Int>, style: TextStyle, preserve: Bool) {
        if !preserve { trimTrailingSpace() }
        runs.append(TextRun(kind: .lineBreak, text: "\n", style: style, source: tag))
        lastWasSpace = true
        trailingSpaceRun = nil
    }

    /// Drops the collapsible space that ends the paragraph's text so far (before a line break or the end).
    mutating func trimTrailingSpace() {
        defer { trailingSpaceRun = nil }
        guard let t = trailingSpaceRun, runs.indices.contains(t) else { return }
        var bytes = Array(runs[t].text.utf8)
        guard bytes.last == 0x20 else { return }
        bytes.removeLast()
        if bytes.isEmpty { runs.remove(at: t) } else { runs[t].text = String(decoding: bytes, as: UTF8.self) }
    }
}
