#if canImport(_FoundationICU)
internal import _FoundationICU
#endif

/// The legacy (non-Unicode) character sets of caption files, through ICU:
/// their names, converting to and from UTF-8, and telling which one a file
/// is in (ICU's charset detection, `ucsdet`).
///
/// The only file that calls ICU's converters and detector. ICU is reached
/// through the toolchain's Foundation (`_FoundationICU`, the ICU Foundation
/// itself is built on, with its full converter data) on Linux, as `Words`
/// reaches its word breaks; where that module is missing (Apple platforms)
/// no legacy set is known: such a file is read as Windows-1252 and not
/// edited, and `--input-encoding` accepts only the Unicode encodings and
/// Windows-1252.
///
/// Conversions stop at the first byte sequence that is not valid in the set
/// and at the first character the set cannot hold (ICU's `STOP` callbacks):
/// nothing is ever substituted, so a result is exact or there is none.
enum LegacyCharset {
    /// One of ICU's guesses: the set's name and ICU's confidence (0 to 100).
    struct Guess: Sendable, Equatable {
        /// The set's name as ICU's detector gives it (`Shift_JIS`, `GB18030`, `windows-1251`).
        var name: String
        /// ICU's confidence, 0 to 100.
        var confidence: Int
    }

    /// The most bytes the detector looks at: the start of a file is enough
    /// to tell its set, and detection time stays flat however long the file.
    static let detectionSample = 256 << 10

    /// The name reports give the set ICU knows as `name` (its preferred MIME
    /// name where ICU has one, else IANA's, else ICU's own), with `windows-`
    /// written `Windows-` as the rest of the tool writes it; nil when ICU
    /// does not know the name.
    static func displayName(of name: String) -> String? {
        #if canImport(_FoundationICU)
        return withConverter(name) { converter in
            var status = U_ZERO_ERROR
            guard let internalName = swift_ucnv_getName(converter, &status) else { return nil }
            var chosen: String?
            for standard in ["MIME", "IANA"] where chosen == nil {
                status = U_ZERO_ERROR
                if let standardName = swift_ucnv_getStandardName(internalName, standard, &status), status.rawValue <= U_ZERO_ERROR.rawValue {
                    chosen = String(cString: standardName)
                }
            }
            let result = chosen ?? String(cString: internalName)
            return result.lowercased().hasPrefix("windows-") ? "Windows-" + result.dropFirst("windows-".count) : result
        }
        #else
        return nil
        #endif
    }

    /// `bytes` in the set `name` as UTF-8, or nil when they are not valid in
    /// it (or ICU does not know it).
    static func decode(_ bytes: [UInt8], from name: String) -> [UInt8]? {
        #if canImport(_FoundationICU)
        guard !bytes.isEmpty else { return [] }
        return withConverter(name) { converter in
            var status = U_ZERO_ERROR
            swift_ucnv_setToUCallBack(converter, swift_UCNV_TO_U_CALLBACK_STOP, nil, nil, nil, &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, let count = Int32(exactly: bytes.count),
                  let capacity = Int32(exactly: bytes.count * 2 + 16) else { return nil }
            var units = [UInt16](repeating: 0, count: Int(capacity))
            let written = bytes.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { chars in
                    swift_ucnv_toUChars(converter, &units, capacity, chars.baseAddress, count, &status)
                }
            }
            guard status.rawValue <= U_ZERO_ERROR.rawValue, written >= 0, written <= capacity else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + bytes.count / 2)
            let failed = transcode(units[0..<Int(written)].makeIterator(), from: UTF16.self, to: UTF8.self,
                                   stoppingOnError: true) { out.append($0) }
            return failed ? nil : out
        }
        #else
        return nil
        #endif
    }

    /// The UTF-8 text `utf8` in the set `name`, or nil when a character
    /// cannot be written in it (or ICU does not know it).
    static func encode(_ utf8: [UInt8], to name: String) -> [UInt8]? {
        #if canImport(_FoundationICU)
        guard !utf8.isEmpty else { return [] }
        return withConverter(name) { converter in
            var status = U_ZERO_ERROR
            swift_ucnv_setFromUCallBack(converter, swift_UCNV_FROM_U_CALLBACK_STOP, nil, nil, nil, &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
            let units = Array(String(decoding: utf8, as: UTF8.self).utf16)
            guard let count = Int32(exactly: units.count),
                  var capacity = Int32(exactly: units.count * Int(swift_ucnv_getMaxCharSize(converter)) + 16) else { return nil }
            // Twice at most: a stateful set (ISO-2022) may need more than its
            // largest character times the count, and ICU then says how much.
            for _ in 0..<2 {
                var out = [UInt8](repeating: 0, count: Int(capacity))
                status = U_ZERO_ERROR
                let written = out.withUnsafeMutableBufferPointer { target in
                    target.withMemoryRebound(to: CChar.self) { chars in
                        swift_ucnv_fromUChars(converter, chars.baseAddress, capacity, units, count, &status)
                    }
                }
                if status == U_BUFFER_OVERFLOW_ERROR, written > capacity { capacity = written; continue }
                guard status.rawValue <= U_ZERO_ERROR.rawValue, written >= 0, written <= capacity else { return nil }
                out.removeSubrange(Int(written)...)
                return out
            }
            return nil
        }
        #else
        return nil
        #endif
    }

    #if canImport(_FoundationICU)
    /// `body` with ICU's converter for the set `name`, closed after; nil when ICU does not know the name.
    private static func withConverter<Result>(_ name: String, _ body: (OpaquePointer) -> Result?) -> Result? {
        var status = U_ZERO_ERROR
        guard let converter = swift_ucnv_open(name, &status), status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        defer { swift_ucnv_close(converter) }
        return body(converter)
    }
    #endif

    /// ICU's guesses for `bytes` (at most `detectionSample` of them), best
    /// first; none where ICU is missing.
    static func detect(_ bytes: [UInt8]) -> [Guess] {
        #if canImport(_FoundationICU)
        guard !bytes.isEmpty else { return [] }
        var status = U_ZERO_ERROR
        guard let detector = swift_ucsdet_open(&status), status.rawValue <= U_ZERO_ERROR.rawValue else { return [] }
        defer { swift_ucsdet_close(detector) }
        let sample = Array(bytes.prefix(detectionSample))
        var guesses: [Guess] = []
        sample.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                swift_ucsdet_setText(detector, chars.baseAddress, Int32(chars.count), &status)
                var found: Int32 = 0
                guard status.rawValue <= U_ZERO_ERROR.rawValue,
                      let matches = swift_ucsdet_detectAll(detector, &found, &status), status.rawValue <= U_ZERO_ERROR.rawValue else { return }
                for i in 0..<Int(max(0, found)) {
                    guard let match = matches[i], let name = swift_ucsdet_getName(match, &status) else { continue }
                    let confidence = swift_ucsdet_getConfidence(match, &status)
                    guard status.rawValue <= U_ZERO_ERROR.rawValue else { return }
                    guesses.append(Guess(name: String(cString: name), confidence: Int(confidence)))
                }
            }
        }
        return guesses
        #else
        return []
        #endif
    }
}
