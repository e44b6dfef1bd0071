import Testing
@testable import Captions

/// Reading a file (format detection, the UTF-8 check, the unmarked UTF-16
/// guess, SRT timing lines) against reference rules written a byte at a
/// time, on inputs built to hit the edges of the word-at-a-time code.
@Suite struct ReadStageReferenceTests {
    /// A small seeded generator, so every run tests the same inputs.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
    }

    // MARK: Format detection

    /// The detection rules a byte at a time, as they were written first.
    static func referenceDetect(_ bytes: [UInt8], hint: CaptionFormat?) -> String {
        var i = 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        if i == bytes.count { return "error emptyFile" }
        let head = bytes[i..<min(bytes.count, i + 4096)]
        if head.contains(0) && !head.contains(where: { $0 == 0x0A }) || bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return "error binaryFile"
        }
        if bytes[i...].starts(with: Array("WEBVTT".utf8)) { return "vtt" }
        if bytes[i] == UInt8(ascii: "<") {
            let s = String(decoding: head, as: UTF8.self)
            var rest = Substring(s)
            var ttml = false
            while let lt = rest.firstIndex(of: "<") {
                rest = rest[rest.index(after: lt)...]
                guard let first = rest.first else { break }
                if first == "?" || first == "!" { continue }
                let name = rest.prefix { !" \t\r\n/>".contains($0) }
                ttml = name == "tt" || name.hasSuffix(":tt")
                break
            }
            if ttml || hint == .ttml { return "ttml" }
            if let hint, hint == .srt || hint == .vtt { return hint.rawValue }
            return "error unrecognizedFormat"
        }
        if hint == .vtt { return "vtt" }
        let limit = min(bytes.count, 1 << 16)
        var j = 0
        while j + 2 < limit {
            if bytes[j] == 0x2D, bytes[j + 1] == 0x2D, bytes[j + 2] == 0x3E { return "srt" }
            j += 1
        }
        if let hint { return hint.rawValue }
        return "error unrecognizedFormat"
    }

    static func detect(_ bytes: [UInt8], hint: CaptionFormat?) -> String {
        do { return try CaptionFormat.detect(bytes, hint: hint).rawValue } catch let error as CaptionError {
            return "error \(error.code)"
        } catch { return "other error" }
    }

    @Test func detectionAgreesWithTheByteAtATimeRules() {
        var inputs: [[UInt8]] = [
            [], Array("  \r\n\t".utf8), Array("WEBVTT".utf8), Array(" \nWEBVTT\n".utf8), Array("WEBVT".utf8),
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], [0x89, 0x50, 0x4E], Array("a\0b".utf8), Array("a\0b\n".utf8),
            Array("<?xml version=\"1.0\"?><!-- c --><tt xmlns=\"x\">".utf8), Array("<html><body>".utf8),
            Array("<ttml:tt>".utf8), Array("<".utf8), Array("1\n00:00:01,000 --> 00:00:02,000\nA\n".utf8),
            Array("->".utf8), Array("-->".utf8), Array(">-->".utf8), Array("x--".utf8), Array("text only".utf8),
        ]
        // A NUL just inside and just outside the first 4096 bytes after the leading whitespace.
        for at in [4094, 4095, 4096, 4097] {
            var b = [UInt8](repeating: 0x20, count: 3) + [UInt8](repeating: 0x61, count: 5000)
            b[3 + at] = 0
            inputs.append(b)
        }
        // An arrow ending just inside, at, and just past the 64 KiB limit.
        for end in [65_534, 65_535, 65_536, 65_537] {
            var b = [UInt8](repeating: 0x61, count: 70_000)
            b[end - 2] = 0x2D; b[end - 1] = 0x2D; b[end] = 0x3E
            inputs.append(b)
        }
        var g = Seeded(state: 8)
        let alphabet: [UInt8] = [0x2D, 0x3E, 0x3C, 0x0A, 0x0D, 0x20, 0, 0x74, 0x57, 0x61]
        for _ in 0..<300 {
            inputs.append((0..<Int(g.next() % 24)).map { _ in alphabet[Int(g.next() % UInt64(alphabet.count))] })
        }
        for input in inputs {
            for hint in [nil, CaptionFormat.srt, .vtt, .ttml] {
                #expect(Self.detect(input, hint: hint) == Self.referenceDetect(input, hint: hint), "\(input.prefix(40)) \(String(describing: hint))")
            }
        }
    }

    // MARK: UTF-8 check

    /// `UTF8Check.scan` a byte at a time.
    static func referenceScan(_ bytes: [UInt8]) -> (Int, Int, Int?) {
        var invalid = 0, valid = 0
        var first: Int?
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i] < 0x80 { i += 1; continue }
                let len = UTF8Check.sequenceLength(p, i)
                if len > 0 { valid += 1; i += len } else {
                    invalid += 1
                    if first == nil { first = 1 + p[0..<i].filter { $0 == 0x0A }.count }
                    i += 1
                }
            }
        }
        return (invalid, valid, first)
    }

    @Test func utf8CheckAgreesAtEveryOffset() {
        let pieces: [[UInt8]] = [[0xFF], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x8E, 0xAC], [0xE2, 0x82], [0xC3]]
        for piece in pieces {
            for at in 0..<80 {
                var b = [UInt8](repeating: 0x61, count: 100)
                for k in stride(from: 5, to: 100, by: 11) { b[k] = 0x0A }
                b.replaceSubrange(at..<(at + piece.count), with: piece)
                for cut in [b.count, at + piece.count, at + 1] where cut <= b.count {
                    let input = Array(b[..<cut])
                    let r = UTF8Check.scan(input)
                    let (invalid, valid, first) = Self.referenceScan(input)
                    #expect(r.invalidSequences == invalid && r.validMultibyte == valid && r.firstInvalidLine == first, "\(piece) at \(at) cut \(cut)")
                }
            }
        }
    }

    // MARK: UTF-16 without a byte-order mark

    /// The unmarked UTF-16 guess a pair at a time.
    static func referenceGuess(_ raw: [UInt8]) -> TextEncoding? {
        let n = min(raw.count, 512) & ~1
        guard n >= 8 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for i in stride(from: 0, to: n, by: 2) {
            if raw[i] == 0 { evenZeros += 1 }
            if raw[i + 1] == 0 { oddZeros += 1 }
        }
        let pairs = n / 2
        if oddZeros * 10 >= pairs * 7 && evenZeros * 10 <= pairs { return .utf16LittleEndian }
        if evenZeros * 10 >= pairs * 7 && oddZeros * 10 <= pairs { return .utf16BigEndian }
        return nil
    }

    @Test func unmarkedUTF16GuessAgrees() {
        var g = Seeded(state: 16)
        var lengths = Array(0..<40) + Array(505..<520)
        lengths += [1000, 4096]
        for length in lengths {
            for density in [0, 3, 7, 9, 10] {
                for _ in 0..<6 {
                    // Zeros mostly in odd (or even) places, some on the other side and some 0x80 bytes.
                    let side = g.next() % 2
                    let raw: [UInt8] = (0..<length).map { i in
                        if UInt64(i % 2) == side, g.next() % 10 < UInt64(density) { return 0 }
                        if g.next() % 20 == 0 { return 0 }
                        return g.next() % 4 == 0 ? 0x80 : UInt8(0x20 + g.next() % 90)
                    }
                    #expect(SourceText.guessUnmarkedUTF16(raw) == Self.referenceGuess(raw), "\(length) \(density)")
                }
            }
        }
    }

    // MARK: SRT: line endings, marks and damage read alike

    /// A document's cues and warnings, with nothing that depends on byte offsets.
    static func summary(_ d: CaptionDocument) -> [String] {
        d.cues.map { "\($0.identifier ?? "-") \($0.start) \($0.end) \($0.settings ?? "-") \($0.line) \($0.plainText)" }
            + d.warnings.map(\.description)
    }

    @Test func lineEndingsAndMarksReadAlike() throws {
        let lf = """
        1
        00:00:01,000 --> 00:00:02,000  X1:10 Y1:20 \t
        <i>One</i>
        2
        00:00:02.5 --> 00:00:03,25
        Two

        99999999999999999999
        00:00:03,000 --> 00:00:04,000
        Three


        more three
        4
        00:00:05,000 --> 00:00:0
        5
        00:00:06
        7
        99999999999:00:00,000 --> 99999999999:00:00,001
        Far \u{FFFD}
        8
        00:00:01,000 --> 00:00:01,000
        Zero
        """
        let variants: [(String, [UInt8])] = [
            ("LF", Array(lf.utf8)),
            ("CRLF", Array(lf.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("CR", Array(lf.replacingOccurrences(of: "\n", with: "\r").utf8)),
            ("BOM", [0xEF, 0xBB, 0xBF] + Array(lf.utf8)),
            ("final LF", Array((lf + "\n").utf8)),
        ]
        let base = try CaptionDocument.read(SourceText.decode(bytes: variants[0].1), hint: .srt)
        #expect(base.cues.count == 5)
        #expect(base.cues.first?.settings == "X1:10 Y1:20")
        #expect(base.warnings.contains { $0.message.contains("'.' instead of ',' before the start") })
        #expect(base.warnings.contains { $0.message.contains("end time's milliseconds have 2 digits instead of 3: read as a decimal fraction (250 ms)") })
        for (name, bytes) in variants.dropFirst() {
            let doc = try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: .srt)
            #expect(Self.summary(doc) == Self.summary(base), "\(name)")
        }
        // Invalid UTF-8 in the text: the same cues, plus the decoding warning.
        var damaged = Array(lf.utf8)
        let at = try #require(damaged.firstIndex(of: 0xEF))  // the U+FFFD
        damaged.replaceSubrange(at..<(at + 3), with: [0xFF])
        damaged += Array("\n9\n00:00:09,000 --> 00:00:10,000\né à ü ö ä\n".utf8)
        let doc = try CaptionDocument.read(SourceText.decode(bytes: damaged), hint: .srt)
        #expect(doc.source.encoding == .utf8)
        #expect(doc.cues.count == 6)
        #expect(Array(doc.cues.prefix(5).map { "\($0.start) \($0.end) \($0.settings ?? "-") \($0.line)" })
                == base.cues.map { "\($0.start) \($0.end) \($0.settings ?? "-") \($0.line)" })
    }
}
