#if canImport(_FoundationICU)
internal import _FoundationICU
#else
import Foundation
#endif

/// The one word rule: the words of a text are the segments between Unicode
/// word boundaries (UAX #29) that ICU's word break iterator marks as words
/// (letters, numbers, kana, ideographs), with ICU's dictionaries for the
/// scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer,
/// Burmese). Keyword candidates, the prompt's cut, the decoder's whole-word
/// test, the fake model and keyword emphasis all cut text into words here.
///
/// What that means in practice (ICU's root rules): `rocket_launch`, `don't`,
/// `l'homme`, `rocket's`, `U.S.A`, `3.14` and `1,000` are one word each;
/// hyphens, dashes, slashes, colons and white space separate words
/// (`real-time` is `real` and `time`); an accent written as a combining mark
/// belongs to its letter; emoji, symbols and punctuation are no words;
/// `東京タワー` and `ラーメン` are words of a Japanese sentence.
///
/// ICU is reached through the toolchain's Foundation (`_FoundationICU`, the
/// ICU that Foundation itself is built on and links) on Linux; where that
/// module does not exist (Apple platforms), through Foundation's
/// `enumerateSubstrings(in:options:)` with `.byWords`, which is ICU's word
/// break on those systems.
///
/// ICU's iterator costs about 50 ns a byte. Text whose characters all have
/// simple word-break classes (no dictionary script, no Hebrew, no joiner) is
/// cut by `scanSimple`, the same rules written out for those classes, which
/// a differential test keeps equal to ICU's answer.
///
/// Not `Sendable`: it owns an ICU iterator and a buffer. Make one per task.
package final class WordScanner {
    /// The words of the text given to the last `scan(_:)`, as UTF-8 byte ranges, in order.
    /// (Its accesses are not checked for exclusivity as the program runs: a
    /// scanner belongs to one task, and the check cost more than the scan of a short line.)
    @exclusivity(unchecked) package private(set) var words: [Range<Int>] = []
    /// Whether the last `scan(_:)` cut its text by the simple path alone
    /// (`scanSimple`: no character needed ICU's iterator). The words of such
    /// a text depend on no character more than one unit away from them.
    @exclusivity(unchecked) package private(set) var lastScanWasSimple = true

    #if canImport(_FoundationICU)
    private var iterator: OpaquePointer? = nil
    #endif

    /// A scanner with no words yet.
    package init() {}

    deinit {
        #if canImport(_FoundationICU)
        if let iterator { swift_ubrk_close(iterator) }
        #endif
    }

    /// Cuts `text` (UTF-8; invalid bytes are no part of any word) into words, replacing `words`.
    package func scan(_ text: UnsafeBufferPointer<UInt8>) {
        words.removeAll(keepingCapacity: true)
        lastScanWasSimple = true
        if Self.scanSimple(text, into: &words) == .finished { return }
        lastScanWasSimple = false
        scanWithICU(text)
    }

    /// Cuts `text` into words with ICU's iterator alone (no simple path):
    /// what the differential test compares `scanSimple` with.
    package func scanWithICU(_ text: UnsafeBufferPointer<UInt8>) {
        words.removeAll(keepingCapacity: true)
        guard let base = text.baseAddress, !text.isEmpty else { return }
        #if canImport(_FoundationICU)
        var status = U_ZERO_ERROR
        if iterator == nil {
            iterator = swift_ubrk_open(UBRK_WORD, "", nil, 0, &status)
        }
        guard let iterator, status.rawValue <= U_ZERO_ERROR.rawValue else {
            preconditionFailure("ICU's word break iterator could not be opened (error \(status.rawValue))")
        }
        let utext = base.withMemoryRebound(to: CChar.self, capacity: text.count) {
            swift_utext_openUTF8(nil, $0, Int64(text.count), &status)
        }
        defer { _ = swift_utext_close(utext) }
        swift_ubrk_setUText(iterator, utext, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else {
            preconditionFailure("ICU's word break iterator refused the text (error \(status.rawValue))")
        }
        var start = swift_ubrk_first(iterator)
        var end = swift_ubrk_next(iterator)
        while end != UBRK_DONE {
            // Statuses 0..<100 are UBRK_WORD_NONE: spaces, punctuation, symbols, emoji.
            if swift_ubrk_getRuleStatus(iterator) >= 100 { words.append(Int(start)..<Int(end)) }
            start = end
            end = swift_ubrk_next(iterator)
        }
        #else
        // Not compiled on Linux: Foundation's own word enumeration (ICU's word break on Apple platforms).
        let string = String(decoding: text, as: UTF8.self)
        guard string.utf8.count == text.count else { return }   // invalid UTF-8 was replaced: offsets would shift
        string.enumerateSubstrings(in: string.startIndex..<string.endIndex, options: [.byWords, .substringNotRequired]) { _, range, _, _ in
            let lower = string.utf8.distance(from: string.startIndex, to: range.lowerBound)
            words.append(lower..<lower + string.utf8.distance(from: range.lowerBound, to: range.upperBound))
        }
        #endif
    }

    /// The words of `text` as substrings (for callers that work on `String`s).
    package func words(in text: String) -> [Substring] {
        words(in: text[...])
    }

    /// The words of `text` as substrings of it (its indices stay valid in
    /// them), for callers that cut a part of a text into words.
    package func words(in text: Substring) -> [Substring] {
        var copy = text
        let ranges = copy.withUTF8 { p -> [Range<Int>] in
            scan(p)
            return words
        }
        // Walked forward from word to word, so the whole text is stepped through once.
        let utf8 = text.utf8
        var index = utf8.startIndex
        var offset = 0
        return ranges.map { r in
            let lower = utf8.index(index, offsetBy: r.lowerBound - offset)
            let upper = utf8.index(lower, offsetBy: r.count)
            index = upper
            offset = r.upperBound
            return text[lower..<upper]
        }
    }
}
