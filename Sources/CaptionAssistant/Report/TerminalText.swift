import Assistant

/// The one rule for text that reaches a terminal or a log (standard error's
/// warnings, failures, progress and summary lines, `check`'s text output).
///
/// Every name (a file's, a folder's) and every text a server sent is written
/// through `escaped(_:)` before it is printed, so that it stays on the line it
/// is printed on and cannot move the cursor, retitle the window, set the
/// clipboard or show a line the program did not write: a file named
/// `a\n3 files: 3 written, 0 failed` prints as `a\x0A3 files: …`, on one line.
///
/// What is escaped:
/// - every control character (Unicode `Cc`): C0 including line feed, tab and
///   carriage return, DEL and the C1 range, written `\xNN` — the form the
///   input plan already gives the bytes of names that are not UTF-8 (as `ls`
///   quotes such names);
/// - the line and paragraph separators (U+2028, U+2029, which some terminals
///   and log viewers break lines at) and the bidirectional controls (U+061C,
///   U+200E, U+200F, U+202A…U+202E, U+2066…U+2069, which make a line display
///   in another order than it is written), written `\u{XXXX}`.
/// Everything else (letters of any script, emoji with their joiners) is kept.
public enum TerminalText {
    /// `text` with every control character, line or paragraph separator and
    /// bidirectional control escaped (see the type's summary); `text` itself
    /// when it holds none.
    public static func escaped(_ text: String) -> String {
        // Fast path: printable ASCII only (almost every name and message).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if u.value < 0xA0, isEscaped(u) {
                out.append(contentsOf: hex(u.value, digits: 2, prefix: "\\x").unicodeScalars)
            } else if isEscaped(u) {
                out.append(contentsOf: ("\\u{" + hex(u.value, digits: 4, prefix: "") + "}").unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Whether `u` is written escaped.
    static func isEscaped(_ u: Unicode.Scalar) -> Bool {
        if ServerTextGate.isControl(u) { return true }
        switch u.value {
        case 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `value` in upper-case hexadecimal, at least `digits` long, after `prefix`.
    private static func hex(_ value: UInt32, digits: Int, prefix: String) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
