#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Words

/// Reads WebVTT documents by the W3C parsing rules, over the UTF-8 bytes.
///
/// The signature, header, NOTE/STYLE/REGION blocks and cue blocks are found
/// the way the spec's "collect a WebVTT block" finds them (a line holding
/// `-->` on a block's first or second line is a timing line; anywhere else
/// it starts the next block; only an empty line ends a block). Nothing is
/// rewritten: the writer splices edits into the source bytes, so headers,
/// comments, style sheets, regions and settings come back as they came.
///
/// Where real files stray from the spec in cheap-to-read ways (a comma or
/// fewer than three millisecond digits) the cue is read and a warning says
/// so; what the spec drops (a bad timing line, STYLE after the first cue,
/// text outside any cue) is dropped with a warning naming the line.
///
/// For speed the parse works on the byte buffer and builds a `String` only
/// for each piece of text, identifier and markup.
///
/// A value of this type is the state of one parse (made only by `parse` and `WebVTTRunBuilder`).
struct WebVTTReader {
    /// One line of the input.
    struct Line {
        var start: Int, end: Int, next: Int
        var flags: UInt8
        var number: Int
        var isEmpty: Bool { start == end }
        var hasArrow: Bool { flags & WebVTTReader.arrow != 0 }
    }

    let p: UnsafeBufferPointer<UInt8>
    let classes: UnsafeBufferPointer<UInt8>
    let n: Int
    var pos = 0
    var lineNumber = 1
    var seenCue = false
    var cues: [Cue] = []
    var warnings = CaptionWarningLog()
    var blocks: [WebVTTReader.Block] = []
    var firstBadTiming: (line: Int, reason: String)?
    // Reused per cue.
    var textLines: [Line] = []
    var runs: [TextRun] = []
    var scratch: [UInt8] = []
    /// The array `p` points into; cues keep it to build their runs later.
    var source: [UInt8] = []
    var tagStack: [UInt8] = []
    // Reported once per document.
    var nulCount = 0, firstNulLine = 0
    var reportedTags = Set<String>()
    var reportedEntities = Set<String>()

    init(_ p: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>) {
        self.p = p; self.classes = classes; n = p.count
    }

    /// Reads the line at `pos` and moves past it.
    ///
    /// Eight bytes at a time while none of them is a line end, `<`, `>`,
    /// `&`, NUL or non-ASCII; byte by byte through a word that has one.
    @inline(__always)
    mutating func readLine() -> Line {
        let start = pos
        var i = pos, flags: UInt8 = 0
        if let base = p.baseAddress {
            let raw = UnsafeRawPointer(base)
            scan: while i < n {
                if i + 8 <= n, !Self.mayHoldSpecialByte(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                    i += 8
                    continue
                }
                let stop = min(i + 8, n)
                while i < stop {
                    let c = classes[Int(p[i])]
                    if c != 0 {
                        if c == WebVTTReader.lineEnd { break scan }
                        if c == WebVTTReader.greater, i - start >= 2, p[i - 1] == 0x2D, p[i - 2] == 0x2D { flags |= WebVTTReader.arrow }
                        flags |= c
                    }
                    i += 1
                }
            }
        }
        var next = i
        if i < n { next = p[i] == 0x0D && i + 1 < n && p[i + 1] == 0x0A ? i + 2 : i + 1 }
        let line = Line(start: start, end: i, next: next, flags: flags, number: lineNumber)
        pos = next
        if next > i { lineNumber += 1 }
        return line
    }

    /// Whether a word may hold a byte the line scanner must look at (false
    /// positives are fine: that word is then read byte by byte).
    @inline(__always)
    static func mayHoldSpecialByte(_ w: UInt64) -> Bool {
        (w & ByteLanes.highs) | ByteLanes.zeroBytes(w) | ByteLanes.bytes(w, equalTo: 0x0A) | ByteLanes.bytes(w, equalTo: 0x0D)
            | ByteLanes.bytes(w, equalTo: 0x3C) | ByteLanes.bytes(w, equalTo: 0x3E) | ByteLanes.bytes(w, equalTo: 0x26) != 0
    }

    mutating func run() throws -> WebVTTReader.Parsed {
        try signature()
        cues.reserveCapacity(countArrows())
        if pos < n {
            // Header: a non-empty line right after the signature line starts it.
            if p[pos] != 0x0A && p[pos] != 0x0D { header() } else { _ = readLine() }
        }
        while pos < n {
            skipEmptyLines()
            if pos < n { collectBlock() }
        }
        if nulCount > 0 {
            warnings.warn(firstNulLine, "\(nulCount) NUL character(s) (the first on this line) are read as U+FFFD; the bytes are kept as they came")
        }
        if cues.isEmpty, let bad = firstBadTiming {
            throw CaptionError(.malformedTiming, line: bad.line,
                               message: "no cue could be read: the first timing line is not valid WebVTT (\(bad.reason)); write times as 00:00:01.000 --> 00:00:02.000")
        }
        return WebVTTReader.Parsed(cues: cues, warnings: warnings.finish(sortedByLine: true), blocks: blocks)
    }

    /// `WEBVTT`, then nothing, a space, a tab or a line end.
    mutating func signature() throws {
        var i = 0
        while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
        if i == n { throw CaptionError(.emptyFile, message: "the file is empty (no WEBVTT signature and no cues)") }
        let sig: [UInt8] = Array("WEBVTT".utf8)
        let ok = n - i >= 6 && (0..<6).allSatisfy { p[i + $0] == sig[$0] }
            && (n - i == 6 || [0x20, 0x09, 0x0A, 0x0D].contains(p[i + 6]))
        guard ok else {
            let head = p[0..<min(n, 4096)]
            if head.contains(0) {
                throw CaptionError(.binaryFile, line: 1, message: "this is binary data, not a WebVTT file")
            }
            let found = n - i >= 6 && (0..<6).allSatisfy { p[i + $0] == sig[$0] }
            throw CaptionError(.badSignature, line: 1, message: found
                ? "'WEBVTT' must be followed by a space, a tab or the end of the line (found '\(String(decoding: [p[i + 6]], as: UTF8.self))'); this is not a WebVTT file"
                : "a WebVTT file must begin with the line 'WEBVTT'; add it, or read this file as another format")
        }
        if i > 0 {
            while pos < i { _ = readLine() }
            warnings.warn(lineNumber, "the WEBVTT signature must be the very first thing in the file; blank lines or spaces before it were skipped (strict players reject this file)")
            pos = i
        }
        _ = readLine()
    }

    /// Header lines (`Kind:`, `Language:`, `X-TIMESTAMP-MAP=`…) up to an empty line or a timing line.
    mutating func header() {
        let first = pos, firstLine = lineNumber
        var last = pos
        while pos < n {
            let save = (pos, lineNumber)
            let line = readLine()
            if line.hasArrow {
                (pos, lineNumber) = save
                warnings.warn(line.number, "no blank line between the header and this timing line; the cue is read")
                break
            }
            if line.isEmpty { break }
            last = line.end
        }
        if last > first { blocks.append(.init(kind: .header, line: firstLine, range: first..<last)) }
    }

    /// Moves past a run of empty lines between blocks.
    mutating func skipEmptyLines() {
        while pos < n, p[pos] == 0x0A || p[pos] == 0x0D { _ = readLine() }
    }

    /// An upper bound on the number of cues: lines holding `-->`.
    func countArrows() -> Int {
        guard let base = p.baseAddress, n > 2 else { return 0 }
        var count = 0, i = 2
        while i < n, let hit = memchr(base + i, 0x3E, n - i) {
            let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if p[k - 1] == 0x2D, p[k - 2] == 0x2D { count += 1 }
            i = k + 1
        }
        return count
    }

    /// One block, by the spec's "collect a WebVTT block".
    mutating func collectBlock() {
        var lineCount = 0
        var seenArrow = false
        var buffered = 0
        var firstLine: Line?
        var lastLine: Line?
        var kind: WebVTTReader.Block.Kind?
        var timing: (line: Line, start: Int64, end: Int64, settings: Range<Int>?)?
        var identifier: Line?
        textLines.removeAll(keepingCapacity: true)
        var textFlags: UInt8 = 0
        var badTiming = false
        while pos < n {
            let save = (pos, lineNumber)
            let line = readLine()
            lineCount += 1
            let sawEOF = line.next == line.end
            if line.hasArrow {
                if lineCount == 1 || (lineCount == 2 && !seenArrow) {
                    seenArrow = true
                    if let t = parseTiming(line) {
                        timing = (line, t.start, t.end, t.settings)
                        if buffered == 1, let id = firstLine {
                            identifier = id
                            if startsWithWord(id, "NOTE") {
                                warnings.warn(id.number, "a NOTE line directly above a timing line is read as the cue's identifier; put a blank line between them")
                            }
                        }
                        buffered = 0
                        seenCue = true
                    } else {
                        badTiming = true
                    }
                } else {
                    (pos, lineNumber) = save
                    if timing != nil || buffered > 0 || badTiming {
                        warnings.warn(line.number, "no blank line before this timing line; a new cue starts here")
                    }
                    break
                }
            } else if line.isEmpty {
                break
            } else {
                if lineCount == 2, !seenArrow, buffered == 1, let first = firstLine {
                    let k: WebVTTReader.Block.Kind? = isKeywordLine(first, "STYLE") ? .style : isKeywordLine(first, "REGION") ? .region : nil
                    if let k {
                        if seenCue {
                            warnings.warn(first.number, "\(k == .style ? "STYLE" : "REGION") blocks must come before the first cue; this one is ignored by players (kept in the file)")
                        } else {
                            kind = k; buffered = 0
                        }
                    }
                }
                if timing != nil {
                    textLines.append(line); textFlags |= line.flags
                } else {
                    if firstLine == nil { firstLine = line }
                    buffered += 1
                }
                lastLine = line
            }
            if sawEOF { break }
        }
        if let timing {
            makeCue(timing: timing, identifier: identifier, textFlags: textFlags)
            return
        }
        guard let first = firstLine else { return }
        let end = lastLine?.end ?? first.end
        if let kind {
            blocks.append(.init(kind: kind, line: first.number, range: first.start..<end))
        } else if startsWithWord(first, "NOTE") {
            blocks.append(.init(kind: .note, line: first.number, range: first.start..<end))
        } else if !badTiming && !isKeywordLine(first, "STYLE") && !isKeywordLine(first, "REGION") {
            var message = "text outside any cue is ignored (a block with no timing line)"
            if let previous = cues.last, previous.runs.isEmpty, previous.textRange.lowerBound <= first.start {
                message += "; the cue at line \(previous.line) has no text: a blank line after a timing line ends the cue"
            }
            warnings.warn(first.number, message)
        }
    }

    /// Whether the line is `word` followed by nothing, a space, a tab.
    func startsWithWord(_ line: Line, _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard line.end - line.start >= w.count else { return false }
        for k in 0..<w.count where p[line.start + k] != w[k] { return false }
        let after = line.start + w.count
        return after == line.end || p[after] == 0x20 || p[after] == 0x09
    }

    /// Whether the line is exactly `word` plus optional trailing whitespace (STYLE, REGION).
    func isKeywordLine(_ line: Line, _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard line.end - line.start >= w.count else { return false }
        for k in 0..<w.count where p[line.start + k] != w[k] { return false }
        for k in (line.start + w.count)..<line.end where !WebVTTCueSettings.isSpace(p[k]) { return false }
        return true
    }

    /// "Collect WebVTT cue timings and settings" on a line; warns and returns nil on failure.
    mutating func parseTiming(_ line: Line) -> (start: Int64, end: Int64, settings: Range<Int>?)? {
        var i = line.start
        let end = line.end
        func skipSpace() { while i < end, WebVTTCueSettings.isSpace(p[i]) { i += 1 } }
        func fail(_ reason: String) -> (Int64, Int64, Range<Int>?)? {
            let text = String(decoding: UnsafeBufferPointer(rebasing: p[line.start..<line.end]), as: UTF8.self)
            warnings.warn(line.number, "cue ignored: the timing line '\(text)' is not valid WebVTT (\(reason))")
            if firstBadTiming == nil { firstBadTiming = (line.number, reason) }
            return nil
        }
        skipSpace()
        let startTS = WebVTTTimestamp.parse(p, &i, end: end, lenient: true)
        guard case let .success(start) = startTS else {
            if case let .failure(f) = startTS { return fail("start time: " + f.reason) }
            return nil
        }
        skipSpace()
        guard end - i >= 3, p[i] == 0x2D, p[i + 1] == 0x2D, p[i + 2] == 0x3E else { return fail("'-->' must follow the start time") }
        i += 3
        skipSpace()
        let endTS = WebVTTTimestamp.parse(p, &i, end: end, lenient: true)
        guard case let .success(stop) = endTS else {
            if case let .failure(f) = endTS { return fail("end time: " + f.reason) }
            return nil
        }
        if let why = start.deviation ?? stop.deviation {
            warnings.warn(line.number, "timing is not strict WebVTT (\(why)); read as \(CaptionTime(milliseconds: start.milliseconds)) --> \(CaptionTime(milliseconds: stop.milliseconds)), but strict players skip this cue")
        }
        if stop.milliseconds < start.milliseconds {
            warnings.warn(line.number, "the cue ends before it starts; kept as written")
        }
        // Settings: the rest of the line, without surrounding whitespace.
        skipSpace()
        var settingsEnd = end
        while settingsEnd > i, WebVTTCueSettings.isSpace(p[settingsEnd - 1]) { settingsEnd -= 1 }
        var settings: Range<Int>?
        if settingsEnd > i {
            settings = i..<settingsEnd
            for problem in WebVTTCueSettings.problems(p, from: i, to: settingsEnd) { warnings.warn(line.number, problem) }
        }
        return (start.milliseconds, stop.milliseconds, settings)
    }

    mutating func makeCue(timing: (line: Line, start: Int64, end: Int64, settings: Range<Int>?), identifier: Line?, textFlags: UInt8) {
        runs.removeAll(keepingCapacity: true)
        let textRange: Range<Int>
        if let first = textLines.first, let last = textLines.last {
            textRange = first.start..<last.end
            for line in textLines where p[line.start] == 0x20 || p[line.start] == 0x09 { warnIfBlank(line) }
            // Runs are built when asked (`Cue.runs`); tokenizing here only
            // collects the warnings, and plain text has none to collect.
            if textFlags & (WebVTTReader.less | WebVTTReader.ampersand | WebVTTReader.nul) != 0 {
                tokenize(textRange, firstLine: first.number, start: timing.start, end: timing.end)
            }
        } else {
            textRange = timing.line.next..<timing.line.next
        }
        let id = identifier.map { makeString($0.start, $0.end, flags: $0.flags, line: $0.number, entities: false) }
        cues.append(Cue(bytes: source, identifier: id, identifierRange: identifier.map { $0.start..<$0.end },
                        start: CaptionTime(milliseconds: timing.start), end: CaptionTime(milliseconds: timing.end),
                        settings: timing.settings, line: timing.line.number, textRange: textRange, builder: .webVTT))
    }

    mutating func warnIfBlank(_ line: Line) {
        for k in line.start..<line.end where !WebVTTCueSettings.isSpace(p[k]) { return }
        warnings.warn(line.number, "this line holds only spaces: WebVTT does not treat it as a blank line, so the cue text goes on (players show an empty line)")
    }

    /// A `String` from raw text bytes on one line: entities decoded (unless
    /// `entities` is false, as for identifiers), NUL and invalid UTF-8 read as U+FFFD.
    mutating func makeString(_ start: Int, _ end: Int, flags: UInt8, line: Int, entities: Bool = true) -> String {
        let piece = UnsafeBufferPointer(rebasing: p[start..<end])
        if flags & (WebVTTReader.ampersand | WebVTTReader.nul | WebVTTReader.nonASCII) == 0 {
            return String(decoding: piece, as: UTF8.self)
        }
        if flags & (WebVTTReader.ampersand | WebVTTReader.nul) == 0, UTF8Repair.isValid(piece) {
            return String(decoding: piece, as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        var i = start
        while i < end {
            let b = p[i]
            if b == 0 {
                nulCount += 1
                if nulCount == 1 { firstNulLine = line }
            } else if b == UInt8(ascii: "&") {
                if !entities { scratch.append(b); i += 1; continue }
                if case let .unknownName(name) = WebVTTEntities.reference(p, at: i, end: end), reportedEntities.insert(name).inserted {
                    warnings.warn(line, "'&\(name);' is not a character reference this reader knows; kept as written")
                }
            }
            let u = WebVTTEntities.unit(p, at: i, end: end)
            if let s = u.scalar { UTF8Repair.appendScalar(s, to: &scratch) } else {
                for k in i..<(i + u.raw) { scratch.append(p[k]) }
            }
            i += u.raw
        }
        return String(decoding: scratch, as: UTF8.self)
    }
}
