/// Checks WebVTT cue settings (`line:10% align:start`) the way the spec's
/// "parse the WebVTT cue settings" does, to say which ones a player ignores.
///
/// The settings themselves are kept verbatim in `Cue.settings`; this only
/// finds the tokens a player would skip (unknown names, bad values), one
/// reason per token.
enum WebVTTCueSettings {
    /// The reasons each ignored token in `p[start..<end]` is ignored, in order.
    static func problems(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [String] {
        var out: [String] = []
        var i = start
        while i < end {
            while i < end, isSpace(p[i]) { i += 1 }
            let tokenStart = i
            while i < end, !isSpace(p[i]) { i += 1 }
            guard i > tokenStart else { continue }
            let token = String(decoding: UnsafeBufferPointer(rebasing: p[tokenStart..<i]), as: UTF8.self)
            guard let colon = token.firstIndex(of: ":"), colon != token.startIndex,
                  token.index(after: colon) != token.endIndex else {
                out.append("cue setting '\(token)' is not name:value; players ignore it")
                continue
            }
            let name = String(token[..<colon]), value = String(token[token.index(after: colon)...])
            if let why = check(name: name, value: value) {
                out.append("cue setting '\(token)' \(why); players ignore it")
            }
        }
        return out
    }

    private static func check(name: String, value: String) -> String? {
        func split(_ v: String) -> (String, String?) {
            guard let c = v.firstIndex(of: ",") else { return (v, nil) }
            return (String(v[..<c]), String(v[v.index(after: c)...]))
        }
        switch name {
        case "region": return nil
        case "vertical": return ["rl", "lr"].contains(value) ? nil : "needs rl or lr"
        case "size": return isPercentage(value) ? nil : "needs a percentage from 0% to 100%"
        case "align":
            return ["start", "center", "end", "left", "right"].contains(value) ? nil : "needs start, center, end, left or right"
        case "position":
            let (pos, align) = split(value)
            guard isPercentage(pos) else { return "needs a percentage from 0% to 100%" }
            if let align, !["line-left", "center", "line-right"].contains(align) { return "has an alignment other than line-left, center or line-right" }
            return nil
        case "line":
            let (pos, align) = split(value)
            if let align, !["start", "center", "end"].contains(align) { return "has an alignment other than start, center or end" }
            if pos.hasSuffix("%") { return isPercentage(pos) ? nil : "needs a percentage from 0% to 100% or a line number" }
            return isLineNumber(pos) ? nil : "needs a line number or a percentage"
        default: return "is not a WebVTT cue setting"
        }
    }

    /// One or more digits, optionally `.` and one or more digits, then `%`; 0 to 100.
    static func isPercentage(_ s: String) -> Bool {
        guard s.hasSuffix("%") else { return false }
        let number = s.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }),
              let v = Double(number) else { return false }
        return v >= 0 && v <= 100
    }

    /// An optional leading `-`, digits, and at most one `.` between digits.
    static func isLineNumber(_ s: String) -> Bool {
        let body = s.hasPrefix("-") ? s.dropFirst() : Substring(s)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0C }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}
