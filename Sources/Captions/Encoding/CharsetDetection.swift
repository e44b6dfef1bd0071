/// The one rule that says whether ICU's charset detection makes a file's
/// legacy encoding known, or leaves it ambiguous.
///
/// Every guess ICU gives (`ucsdet_detectAll`) is looked at, not only the best:
/// a guess is a candidate when the bytes decode in its set and converting the
/// text back gives the same bytes. The best candidate is known only when
///
/// - its confidence is at least `multiByteConfidence` (a double-byte set:
///   GB18030, Big5, EUC-KR, EUC-JP, Shift_JIS) or `singleByteConfidence`
///   (a single-byte set, which reads nearly any bytes: KOI8-R, Windows-125x,
///   ISO-8859-x), or, for a single-byte set, `unanimousConfidence` when no
///   guess reads the bytes as other text at all (English with one "café");
/// - no other candidate that decodes to different text is a rival: one with
///   a confidence of at least `rivalConfidence` and less than `rivalMargin` below
///   the best's (the Polish file Windows-1250 and ISO-8859-2 both read, the
///   Czech one Windows-1252 reads), or less than `doubleByteRivalMargin`
///   below it when both are double-byte sets (the EUC-JP file GB18030 also
///   reads at 72 of 100);
/// - and, for a single-byte best, neither EUC-KR nor EUC-JP reads the bytes
///   as other text at all: those sets accept few byte sequences, so one that
///   takes the whole file is a rival whatever ICU scores it (short Korean
///   text that ICU scores 50 as KOI8-R and 10 as EUC-KR). Shift_JIS, Big5
///   and GB18030 are left out there: their single bytes or wide ranges read
///   much Cyrillic and Latin text.
///
/// Otherwise the encoding is not known, and the candidates are named
/// (best first) for the message that asks for `--input-encoding`.
/// The thresholds were chosen on about 10,000 random short and long caption
/// files made with Python's codecs (Chinese, Japanese, Korean, Russian, Greek,
/// Polish, Czech, French, German) and checked with ICU's converters: with
/// them none was read as the wrong text, and about 60 of 100 were known.
public enum CharsetDetection {
    /// The lowest confidence (of 100) at which a double-byte set is believed.
    public static let multiByteConfidence = 30
    /// The lowest confidence (of 100) at which a single-byte set is believed.
    public static let singleByteConfidence = 40
    /// The lowest confidence (of 100) at which a single-byte set below
    /// `singleByteConfidence` is believed, when every reading gives the same text.
    public static let unanimousConfidence = 20
    /// The lowest confidence (of 100) at which another reading is a rival.
    public static let rivalConfidence = 30
    /// How far (of 100) below the best another reading must score not to be a rival.
    public static let rivalMargin = 30
    /// How far (of 100) below the best another double-byte reading must score
    /// not to be a rival, when the best is a double-byte set too.
    public static let doubleByteRivalMargin = 50

    /// What the detector made of a file's bytes.
    public enum Finding: Sendable, Equatable {
        /// Known: the set, the text as UTF-8, and ICU's confidence.
        case known(TextEncoding, utf8: [UInt8], confidence: Int)
        /// Not known: the sets that read the bytes (best first, possibly
        /// none) and why none was taken.
        case unknown(candidates: [TextEncoding], why: String)
    }

    /// The double-byte sets, as ICU's detector names them.
    static let doubleByte: Set<String> = ["GB18030", "Big5", "EUC-JP", "EUC-KR", "Shift_JIS"]
    /// The double-byte sets that accept few byte sequences (every byte above 0x7F in a pair of two from 0xA1...0xFE).
    static let strictDoubleByte: Set<String> = ["EUC-JP", "EUC-KR"]

    /// One reading of the bytes: the set (as ICU names it and as the tool does), the text, ICU's confidence.
    struct Candidate {
        var icuName: String
        var encoding: TextEncoding
        var utf8: [UInt8]
        var confidence: Int
    }

    /// What ICU's guesses for `raw` make known (see the type's rule).
    public static func find(_ raw: [UInt8]) -> Finding {
        let candidates = readings(raw, LegacyCharset.detect(raw))
        guard let best = candidates.first else {
            return .unknown(candidates: [], why: "no legacy encoding ICU's detector guesses reads these bytes and converts back to them")
        }
        let multiByte = doubleByte.contains(best.icuName)
        let floor = multiByte ? multiByteConfidence : singleByteConfidence
        let others = candidates.dropFirst().filter { $0.utf8 != best.utf8 }
        let rivals = others.filter { other in
            if !multiByte, strictDoubleByte.contains(other.icuName) { return true }
            let margin = multiByte && doubleByte.contains(other.icuName) ? doubleByteRivalMargin : rivalMargin
            return other.confidence >= rivalConfidence && best.confidence - other.confidence < margin
        }
        let named = [best.encoding] + (rivals.isEmpty ? Array(others.prefix(2)) : rivals).map(\.encoding)
        if !rivals.isEmpty {
            return .unknown(candidates: unique(named), why: "the bytes read as different text in " + unique(named).map(\.rawValue).joined(separator: " and in ")
                + " (ICU's confidence " + ([best] + rivals).map { "\($0.confidence)" }.joined(separator: ", ") + " of 100)")
        }
        // Below the floor, a single-byte best is still known when nothing reads the bytes as other text:
        // there is no choice to make (English with one "café", which Windows-1252 and ISO-8859-2 read alike).
        guard best.confidence >= floor || (!multiByte && others.isEmpty && best.confidence >= unanimousConfidence) else {
            return .unknown(candidates: unique(named), why: "ICU's best guess, \(best.encoding.rawValue), has a confidence of \(best.confidence) of 100, below the \(floor) a \(multiByte ? "double" : "single")-byte encoding needs")
        }
        return .known(best.encoding, utf8: best.utf8, confidence: best.confidence)
    }

    /// The guesses that read `raw` and convert back to it, best first, each set once.
    /// ISO-8859-1 is read as Windows-1252 (ICU says ISO-8859-1 when no byte
    /// is in 0x80...0x9F, where they differ; Windows-1252 holds more), and a
    /// GB18030 file whose bytes are GBK text as well is taken as GBK (see `gbkOrGB18030`).
    static func readings(_ raw: [UInt8], _ guesses: [LegacyCharset.Guess]) -> [Candidate] {
        var out: [Candidate] = []
        for guess in guesses where !guess.name.hasPrefix("UTF-") && !out.contains(where: { $0.icuName == guess.name }) {
            let name = guess.name == "ISO-8859-1" ? TextEncoding.windows1252.rawValue : guess.name
            guard var encoding = TextEncoding(named: name), !encoding.isUnicode,
                  let decoded = SourceText.legacy(raw, as: encoding) else { continue }
            if guess.name == "GB18030" { encoding = gbkOrGB18030(raw, decoded) }
            out.append(Candidate(icuName: guess.name, encoding: encoding, utf8: decoded, confidence: guess.confidence))
        }
        return out
    }

    /// A file ICU detects as GB18030 is GBK (CP936) when its bytes are GBK
    /// text too (the same text, converting back to the same bytes): GB18030
    /// is a superset, and most such files are GBK, read by readers that know
    /// no four-byte sequence. So nothing GBK cannot hold (an emoji) is added
    /// to it; a file with GB18030's four-byte sequences stays GB18030, and
    /// `--input-encoding GB18030` declares it.
    static func gbkOrGB18030(_ raw: [UInt8], _ decoded: [UInt8]) -> TextEncoding {
        guard let gbk = TextEncoding(named: "GBK"), SourceText.legacy(raw, as: gbk) == decoded else { return TextEncoding(rawValue: "GB18030") }
        return gbk
    }

    /// `encodings` without repeats, in order.
    private static func unique(_ encodings: [TextEncoding]) -> [TextEncoding] {
        var seen: Set<TextEncoding> = []
        return encodings.filter { seen.insert($0).inserted }
    }
}
