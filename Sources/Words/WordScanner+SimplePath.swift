#if canImport(_FoundationICU)
internal import _FoundationICU
#endif

/// A character's part in the word rules, as ICU's root word rules use it
/// (UAX #29's Word_Break classes, read from ICU; `complex` for what the
/// simple path leaves to ICU's iterator).
enum WordClass: UInt8 {
    /// Anything that neither makes nor joins a word (spaces, punctuation, symbols, emoji, regional indicators).
    case other
    /// ALetter: a letter outside the dictionary scripts (Latin, Greek, Cyrillic, Arabic, Hangul, …).
    case letter
    /// Numeric: a decimal digit.
    case number
    /// ExtendNumLet: `_` and the other connector punctuation.
    case joiner
    /// MidLetter (ICU leaves out the colons): joins two letters (`·`).
    case midLetter
    /// MidNum: joins two numbers (`,` `;`).
    case midNumber
    /// MidNumLet and Single_Quote: joins two letters or two numbers (`.` `'` `’`).
    case midBoth
    /// Extend and Format: belongs to the character before it (accents, variation selectors, the soft hyphen).
    case extend
    /// CR, LF and the other line separators.
    case newline
    /// A character the simple path does not handle: a dictionary script
    /// (Han, Hiragana, Katakana, Thai, Lao, Khmer, Burmese…), Hebrew letters,
    /// Hangul, the zero-width joiner, or a class this table does not know.
    case complex
}

/// Where the simple path puts the words it finds, one at a time.
protocol WordSink {
    /// Takes the next word; false stops the scan.
    mutating func take(_ word: Range<Int>) -> Bool
}

extension Array: WordSink where Element == Range<Int> {
    mutating func take(_ word: Range<Int>) -> Bool {
        append(word)
        return true
    }
}

/// How a simple-path scan ended.
enum SimpleScanEnd {
    /// Every word was handed over.
    case finished
    /// The sink stopped it.
    case stopped
    /// A `complex` character: the text needs ICU's iterator.
    case complex
}

extension WordScanner {
    /// The class of an ASCII byte: letters, digits, `_`, `.` and `'`
    /// (MidNumLet, Single_Quote), `,` and `;` (MidNum), CR, LF, VT and FF;
    /// the colon is MidLetter in UAX #29 but not in ICU's root rules.
    @inline(__always)
    static func asciiClass(_ b: UInt8) -> WordClass {
        if (b | 0x20) &- 0x61 < 26 { return .letter }
        if b &- 0x30 < 10 { return .number }
        switch b {
        case 0x5F: return .joiner                 // _
        case 0x2E, 0x27: return .midBoth          // . '
        case 0x2C, 0x3B: return .midNumber        // , ;
        case 0x0A...0x0D: return .newline
        default: return .other
        }
    }

    /// The classes of the scalars below `tableLimit` (Latin, Greek, Cyrillic,
    /// Arabic, Indic scripts, general punctuation…), read from ICU once.
    static let tableLimit: UInt32 = 0x3000
    static let classTable: [WordClass] = (0..<tableLimit).map { scalarClass($0) }

    /// The scripts ICU cuts into words by dictionary, not by spaces, and
    /// Hangul (`unspacedScript(_:)`).
    package enum UnspacedScript: Sendable {
        /// Han ideographs: one character can be a word.
        case han
        /// Hiragana: particles and endings, and some words.
        case hiragana
        /// Katakana.
        case katakana
        /// Hangul, whose words carry their particles.
        case hangul
        /// Line_Break=Complex_Context: Thai, Lao, Khmer, Myanmar…
        case complexContext
    }

    /// Which script `value` is a letter of when ICU cuts that script into
    /// words by dictionary, not by spaces ([$Han $Hiragana $Katakana],
    /// Line_Break=Complex_Context: Thai, Lao, Khmer, Myanmar…), or when it is
    /// Hangul, which ICU's rules do not join to letters of other scripts (and
    /// whose words carry their particles); nil for every other scalar.
    package static func unspacedScript(_ value: UInt32) -> UnspacedScript? {
        #if canImport(_FoundationICU)
        guard value >= 0x80 else { return nil }
        let c = UChar32(bitPattern: value)
        var status = U_ZERO_ERROR
        switch swift_uscript_getScript(c, &status).rawValue {
        case USCRIPT_HAN.rawValue: return .han
        case USCRIPT_HIRAGANA.rawValue: return .hiragana
        case USCRIPT_KATAKANA.rawValue: return .katakana
        case USCRIPT_HANGUL.rawValue: return .hangul
        default:
            return swift_u_getIntPropertyValue(c, UCHAR_LINE_BREAK) == Int32(U_LB_COMPLEX_CONTEXT.rawValue) ? .complexContext : nil
        }
        #else
        return nil
        #endif
    }

    /// Whether `value` is a letter of a script ICU cuts into words by
    /// dictionary, or Hangul (`unspacedScript(_:)`).
    package static func isDictionaryScript(_ value: UInt32) -> Bool {
        unspacedScript(value) != nil
    }

    /// The class of one scalar value: ASCII from `asciiClass(_:)`, the rest from ICU's properties.
    static func scalarClass(_ value: UInt32) -> WordClass {
        if value < 0x80 { return asciiClass(UInt8(value)) }
        #if canImport(_FoundationICU)
        let c = UChar32(bitPattern: value)
        if isDictionaryScript(value) { return .complex }
        switch UInt32(bitPattern: swift_u_getIntPropertyValue(c, UCHAR_WORD_BREAK)) {
        case U_WB_OTHER.rawValue, U_WB_REGIONAL_INDICATOR.rawValue, U_WB_WSEGSPACE.rawValue, U_WB_DOUBLE_QUOTE.rawValue:
            // Regional indicators pair up and spaces run together, but never into a word;
            // a double quote joins only Hebrew letters, which are `complex`.
            return .other
        case U_WB_ALETTER.rawValue: return .letter
        case U_WB_NUMERIC.rawValue: return .number
        case U_WB_EXTENDNUMLET.rawValue: return .joiner
        case U_WB_MIDLETTER.rawValue:
            // ICU's root rules: $MidLetter = [\p{Word_Break = MidLetter} - [\: \uFE55 \uFF1A]].
            return value == 0xFE55 || value == 0xFF1A ? .other : .midLetter
        case U_WB_MIDNUM.rawValue: return .midNumber
        case U_WB_MIDNUMLET.rawValue, U_WB_SINGLE_QUOTE.rawValue: return .midBoth
        case U_WB_EXTEND.rawValue, U_WB_FORMAT.rawValue: return .extend
        case U_WB_CR.rawValue, U_WB_LF.rawValue, U_WB_NEWLINE.rawValue: return .newline
        default: return .complex
        }
        #else
        return .complex
        #endif
    }

    /// The class of the scalar at byte `i` and its length; a byte that does
    /// not start a valid UTF-8 sequence is one `other` byte.
    @inline(__always)
    static func classAt(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (WordClass, Int) {
        let b = p[i]
        if b < 0x80 { return (asciiClass(b), 1) }
        let n = p.count
        var value: UInt32
        var length: Int
        switch b {
        case 0xC2...0xDF: length = 2; value = UInt32(b & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(b & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(b & 0x07)
        default: return (.other, 1)
        }
        guard i + length <= n else { return (.other, 1) }
        for k in 1..<length {
            let c = p[i + k]
            guard c & 0xC0 == 0x80 else { return (.other, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        // Overlong forms, surrogates and values past U+10FFFF are not valid UTF-8.
        if (length == 3 && (value < 0x800 || (0xD800...0xDFFF).contains(value))) || (length == 4 && (value < 0x10000 || value > 0x10FFFF)) {
            return (.other, 1)
        }
        return (value < tableLimit ? classTable[Int(value)] : scalarClass(value), length)
    }

    /// One unit of the rules: a character with the extend and format
    /// characters after it (UAX #29 WB4), which take its class; after a line
    /// break or at the start, extend characters stand alone as `other`.
    /// `complex` when any character of it is; `extended` when extend
    /// characters followed.
    @inline(__always)
    static func unit(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> (WordClass, end: Int, extended: Bool) {
        var (c, length) = classAt(p, i)
        let base = i + length
        var end = base
        if c == .newline { return (c, end, false) }
        if c == .extend { c = .other }
        while end < p.count {
            let b = p[end]
            if b < 0x80 { break }   // no ASCII character extends
            let (next, l) = classAt(p, end)
            if next == .complex { return (.complex, end, false) }
            if next != .extend { break }
            end += l
        }
        return (c, end, end > base)
    }

    /// The last offset at or before `offset` (clamped to `p`) where a
    /// `scanSimple` of `p`'s bytes from there on finds the words of `p` that
    /// start there or after: 0, or just after an ASCII byte that no word
    /// holds, joins or extends (class `other` or `newline`). The scan passes
    /// each such byte alone, with no word open, and reads only forward.
    static func simpleScanStart(atOrBefore offset: Int, in p: UnsafeBufferPointer<UInt8>) -> Int {
        var s = min(max(offset, 0), p.count)
        while s > 0 {
            let b = p[s - 1]
            if b < 0x80 {
                let c = asciiClass(b)
                if c == .other || c == .newline { return s }
            }
            s -= 1
        }
        return 0
    }

    /// Cuts `text` into words by ICU's root rules for the classes other than
    /// `complex` (UAX #29 WB5–WB13b, with ICU's statuses: a segment is a word
    /// when it holds a letter or a number, or is two or more joiners, unless
    /// it ends with a joiner that extend characters follow), handing each to
    /// `sink`; ends `complex` as soon as it meets a `complex` character (the
    /// sink then has part of the words).
    static func scanSimple<Sink: WordSink>(_ p: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> SimpleScanEnd {
        let n = p.count
        var i = 0
        while i < n {
            // ASCII outside words: skipped a byte at a time.
            let b = p[i]
            if b < 0x80 && !((b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x5F) { i += 1; continue }
            let (first, firstEnd, firstExtended) = b < 0x80 ? (asciiClass(b), i + 1, false) : unit(p, at: i)
            switch first {
            case .complex: return .complex
            case .letter, .number, .joiner: break
            default: i = firstEnd; continue
            }
            let start = i
            var end = firstEnd
            var last = first
            var joiners = first == .joiner ? 1 : 0
            var letterOrNumber = first != .joiner
            var lastExtended = firstExtended
            while end < n {
                // A run of ASCII letters and digits: no decoding, no look-ahead.
                var c = p[end]
                if (c | 0x20) &- 0x61 < 26 || c &- 0x30 < 10 {
                    var digit = c &- 0x30 < 10
                    end += 1
                    while end < n {
                        c = p[end]
                        let isDigit = c &- 0x30 < 10
                        guard isDigit || (c | 0x20) &- 0x61 < 26 else { break }
                        digit = isDigit
                        end += 1
                    }
                    letterOrNumber = true; last = digit ? .number : .letter; lastExtended = false
                    if end == n { break }
                }
                if c < 0x80 {
                    let cls = asciiClass(c)
                    if cls == .joiner {
                        joiners += 1; last = .joiner; lastExtended = false; end += 1
                        continue
                    }
                    // Only the mid classes may join across; anything else ends the word.
                    if cls != .midLetter && cls != .midNumber && cls != .midBoth { break }
                } else {
                    // Extend and format characters belong to the unit before them (WB4).
                    let (cls, length) = classAt(p, end)
                    if cls == .extend {
                        lastExtended = true
                        end += length
                        continue
                    }
                }
                let (next, nextEnd, nextExtended) = unit(p, at: end)
                switch next {
                case .complex:
                    return .complex
                case .letter, .number, .joiner:
                    // WB5, WB8–WB10, WB13a, WB13b.
                    if next == .joiner { joiners += 1 } else { letterOrNumber = true }
                    last = next
                    lastExtended = nextExtended
                    end = nextEnd
                    continue
                case .midLetter, .midNumber, .midBoth:
                    // WB6/WB7 (letter, mid, letter) and WB11/WB12 (number, mid, number).
                    let joins = last == .letter ? next != .midNumber : last == .number && next != .midLetter
                    if joins && nextEnd < n {
                        let (after, afterEnd, afterExtended) = unit(p, at: nextEnd)
                        if after == .complex { return .complex }
                        if after == last {
                            lastExtended = afterExtended
                            end = afterEnd
                            continue
                        }
                    }
                default:
                    break
                }
                break
            }
            // ICU's status for a segment ending in a joiner with extend characters is "no word".
            if (letterOrNumber || joiners >= 2) && !(last == .joiner && lastExtended) {
                guard sink.take(start..<end) else { return .stopped }
            }
            i = end
        }
        return .finished
    }
}
