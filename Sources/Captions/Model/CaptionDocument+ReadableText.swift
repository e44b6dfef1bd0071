import Words

extension CaptionDocument {
    /// The text a viewer reads, of every cue, as one string: the cues'
    /// `appendReadableText` (with `lineBreak` for the line breaks inside a
    /// cue) joined with `cueSeparator`, as `String(decoding:as: UTF8.self)`
    /// reads those bytes.
    ///
    /// Built as bytes and made a string once; an SRT cue's text is copied
    /// from the source with no run or string made for it.
    public func readableText(cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        for index in cues.indices {
            if index > 0 { out.append(cueSeparator) }
            cues[index].appendReadableText(to: &out, lineBreak: lineBreak)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension CaptionDocument {
    /// What is said in every cue, as one string: `readableText` without the
    /// speaker labels, sound and music descriptions and credit lines
    /// (`CueLineParts`), cues joined with `cueSeparator` and the lines of a
    /// cue with `lineBreak`. A cue with none of these is as `readableText`
    /// has it; one with some has its spaces made single and its lines trimmed.
    public func spokenText(cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        var scratch: [UInt8] = []
        for index in cues.indices {
            if index > 0 { out.append(cueSeparator) }
            appendSpokenText(ofCue: index, to: &out, lineBreak: lineBreak, scratch: &scratch)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The start of `spokenText(cueSeparator:lineBreak:)` (`textStart`; `fewest` as there).
    public func spokenTextStart(characters: Int, cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20,
                                fewest: Bool = false) -> (text: String, cues: Int) {
        var scratch: [UInt8] = []
        return textStart(characters: characters, cueSeparator: cueSeparator, fewest: fewest) {
            appendSpokenText(ofCue: $0, to: &$1, lineBreak: lineBreak, scratch: &scratch)
        }
    }

    /// How many `Character`s `spokenText(cueSeparator:lineBreak:)` holds from cue `first` on (`textCharacters`).
    public func spokenTextCharacters(from first: Int, cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> Int {
        var scratch: [UInt8] = []
        return textCharacters(from: first, cueSeparator: cueSeparator) {
            appendSpokenText(ofCue: $0, to: &$1, lineBreak: lineBreak, scratch: &scratch)
        }
    }

    /// Appends what cue `index` says to `out` (`spokenText`'s rule for one
    /// cue). Its readable text is appended to `out` (lines split by `\n`)
    /// and kept there, its line breaks made `lineBreak`, when it has no part
    /// (`CueLineParts`), as most cues have none; else it is moved to
    /// `scratch` and what it says appended in its place.
    func appendSpokenText(ofCue index: Int, to out: inout [UInt8], lineBreak: UInt8, scratch: inout [UInt8]) {
        let start = out.count
        cues[index].appendReadableText(to: &out, lineBreak: 0x0A)
        let parts = out.withUnsafeBufferPointer { CueLineParts.parts(in: UnsafeBufferPointer(rebasing: $0[start...])) }
        if parts.isEmpty {
            guard lineBreak != 0x0A else { return }
            out.withUnsafeMutableBufferPointer { p in
                // Each line feed (`CueLineParts.lineFeed`: eight bytes at a time) made `lineBreak`.
                let text = UnsafeBufferPointer(p)
                var i = CueLineParts.lineFeed(from: start, in: text)
                while i < p.count {
                    p[i] = lineBreak
                    i = CueLineParts.lineFeed(from: i + 1, in: text)
                }
            }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: out[start...])
        out.removeSubrange(start...)
        scratch.withUnsafeBufferPointer { CueLineParts.appendSpokenText($0, parts: parts, lineBreak: lineBreak, to: &out) }
    }

    /// The start of the text that `appendCue` makes of each cue, cues joined
    /// with `cueSeparator`: its first `cues` cues, as few as hold more than
    /// `characters` `Character`s, with the separator after the last of them;
    /// all of it (and every cue) when the whole text holds no more.
    ///
    /// A cut of the text to at most `characters` `Character`s (the prompt's
    /// cap) falls inside this start, in a line that ends in it as in the whole
    /// text, so it cuts the same: a run that needs only that part makes no
    /// copy of a large file's text. `cueSeparator` must be an ASCII line
    /// break (no `Character` and no UTF-8 sequence reaches across it).
    ///
    /// Its `Character`s are counted only as the bytes reach twice the last
    /// count's (no `Character` is shorter than a byte), so the work and the
    /// memory stay within about twice what the start needs.
    ///
    /// With `fewest`, the start is the fewest cues that hold more: once the
    /// bytes could hold more (a byte at least for each `Character` still
    /// needed), each cue's new bytes are counted as it is added, apart from
    /// those before them (no `Character` reaches across a separator), so the
    /// counting still reads each byte once. For a caller that needs only the
    /// cut (the local fallback): the start then depends on nothing but where
    /// the count passes `characters`.
    public func textStart(characters: Int, cueSeparator: UInt8, fewest: Bool = false,
                          appendCue: (_ index: Int, _ out: inout [UInt8]) -> Void) -> (text: String, cues: Int) {
        var out: [UInt8] = []
        var countAt = characters < Int.max ? max(0, characters) + 1 : Int.max
        // With `fewest`: the `Character`s of out[..<countedTo], where a separator follows.
        var counted = 0, countedTo = 0
        for index in cues.indices {
            if index > 0 { out.append(cueSeparator) }
            appendCue(index, &out)
            guard out.count >= countAt, index + 1 < cues.count else { continue }
            if fewest {
                counted += out.withUnsafeBufferPointer { Self.characterCount(UnsafeBufferPointer(rebasing: $0[countedTo...])) }
                countedTo = out.count
                if counted > characters {
                    out.append(cueSeparator)
                    return (String(decoding: out, as: UTF8.self), index + 1)
                }
                let needed = max(0, characters) + 1 - counted
                countAt = needed > Int.max - out.count ? Int.max : out.count + needed
                // A CR at the end could make one `Character` with a separator that is a line feed: counted again whole.
                if out.last == 0x0D { counted = 0; countedTo = 0 }
                continue
            }
            if Self.characterCount(out) > characters {
                out.append(cueSeparator)
                return (String(decoding: out, as: UTF8.self), index + 1)
            }
            countAt = out.count < Int.max / 2 ? out.count * 2 : Int.max
        }
        return (String(decoding: out, as: UTF8.self), cues.count)
    }

    /// How many `Character`s `String(decoding: bytes, as: UTF8.self)` holds,
    /// counted without making that string: an ASCII byte followed by another
    /// ASCII byte (or the end) is a `Character` on its own, except CR LF,
    /// which is one of two (no grapheme rule joins two ASCII scalars other
    /// than CR LF, and none reaches across two ASCII scalars: the rule
    /// `CharacterSteps` steps by in `Assistant`). So the bytes cut between
    /// two ASCII bytes (not CR LF) into stretches whose `Character`s are
    /// counted apart: the ASCII ones a byte at a time, each other one (from
    /// the ASCII byte before a non-ASCII byte to the next such cut) as a
    /// string of its own.
    static func characterCount(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { characterCount($0) }
    }

    /// `characterCount(_:)` of the bytes `p`.
    static func characterCount(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        do {
            let n = p.count
            var count = 0, i = 0
            while i < n {
                // Eight ASCII bytes, none a CR, and an ASCII byte (or the end) after them: eight `Character`s.
                if i + 8 <= n, let base = p.baseAddress, i + 8 == n || p[i + 8] < 0x80,
                   ByteLanes.eightSingleASCII(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))) {
                    i += 8
                    count += 8
                    continue
                }
                let b = p[i]
                if b < 0x80 && (i + 1 == n || p[i + 1] < 0x80) {
                    i += b == 0x0D && i + 1 < n && p[i + 1] == 0x0A ? 2 : 1
                    count += 1
                    continue
                }
                // To the next cut between two ASCII bytes (not CR LF), or the end.
                var j = i + 1
                while j < n && !(p[j - 1] < 0x80 && p[j] < 0x80 && !(p[j - 1] == 0x0D && p[j] == 0x0A)) { j += 1 }
                count += String(decoding: UnsafeBufferPointer(rebasing: p[i..<j]), as: UTF8.self).count
                i = j
            }
            return count
        }
    }

    /// How many `Character`s the text that `appendCue` makes of each cue
    /// (cues joined with `cueSeparator`) holds from cue `first` on, its
    /// separators between those cues included, counted a few thousand cues
    /// at a time: the length of a text too large to make whole.
    /// `cueSeparator` must be an ASCII line break.
    public func textCharacters(from first: Int, cueSeparator: UInt8,
                               appendCue: (_ index: Int, _ out: inout [UInt8]) -> Void) -> Int {
        var total = 0
        var chunk: [UInt8] = []
        for index in max(0, first)..<max(first, cues.count) {
            appendCue(index, &chunk)
            guard index + 1 < cues.count else { break }
            chunk.append(cueSeparator)
            // Cut after a line break, which ends every Character and UTF-8 sequence.
            if chunk.count >= 1 << 16 {
                total += String(decoding: chunk, as: UTF8.self).count
                chunk.removeAll(keepingCapacity: true)
            }
        }
        return total + String(decoding: chunk, as: UTF8.self).count
    }
}
