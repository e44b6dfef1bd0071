/// Timing: the document's timing parameters, each element's begin, end
/// and dur resolved against its parent (par and seq), and its inline style.
extension TTMLReader {
    mutating func readParameters(line: Int) {
        for a in attributes where namespaces.namespace(of: a).role == .parameter {
            timing.apply(parameter: raw.string(a.localName), value: raw.decodedString(a.value), line: line, warnings: &log)
        }
    }

    mutating func time(_ a: XMLAttribute, on element: Range<Int>, line: Int) -> CaptionTime? {
        let value = raw.slice(a.value)
        let parsed = value.contains(UInt8(ascii: "&")) ? timing.parse(raw.decodedValue(a.value)) : timing.parse(value)
        switch parsed {
        case let .time(t, note):
            if let note { log.warn(line, "\(raw.string(a.name)) on <\(raw.string(element))>: \(note)") }
            return t
        case let .invalid(reason):
            log.warn(line, "\(raw.string(a.name)) on <\(raw.string(element))> ignored: \(reason)")
            return nil
        }
    }

    mutating func timeAndStyle(_ frame: inout Frame, parent: Frame?, line: Int, name: Range<Int>) throws {
        var begin: CaptionTime?, end: CaptionTime?, dur: CaptionTime?
        var region: String?, styleIDs: [Substring] = []
        var inline = TTMLStyleState()
        for a in attributes {
            if a.colon < 0 {
                let local = a.name
                if buildRuns, raw.equals(local, "begin") || raw.equals(local, "end") || raw.equals(local, "dur") { continue }
                if raw.equals(local, "begin") { begin = time(a, on: name, line: line) }
                else if raw.equals(local, "end") { end = time(a, on: name, line: line) }
                else if raw.equals(local, "dur") { dur = time(a, on: name, line: line) }
                else if raw.equals(local, "timeContainer") {
                    let v = raw.decodedString(a.value)
                    if v == "seq" { frame.seq = true } else if v != "par" {
                        log.warn(line, "timeContainer=\"\(v)\" is neither \"par\" nor \"seq\"; read as par")
                    }
                } else if raw.equals(local, "style") {
                    styleIDs = raw.decodedString(a.value).split(separator: " ")
                } else if raw.equals(local, "region") {
                    region = raw.decodedString(a.value)
                } else if raw.equals(local, "start") || raw.equals(local, "stop") || raw.equals(local, "duration") {
                    log.warn(line, "\(raw.string(local))= is not a TTML timing attribute (begin, end, dur); ignored")
                }
            } else {
                let ns = namespaces.namespace(of: a)
                if ns.role == .styling {
                    inline.apply(attribute: raw.string(a.localName), value: raw.decodedString(a.value))
                } else if ns.role == .content {
                    let local = a.localName
                    if raw.equals(local, "begin") || raw.equals(local, "end") || raw.equals(local, "dur") {
                        log.warn(line, "\(raw.string(a.name)) is in the TTML element namespace; timing attributes have no prefix. Read as \(raw.string(local))")
                        let t = time(a, on: name, line: line)
                        if raw.equals(local, "begin") { begin = begin ?? t } else if raw.equals(local, "end") { end = end ?? t } else { dur = dur ?? t }
                    }
                }
            }
        }

        // Timing (TTML2 §12.2, Appendix I): relative to the parent's begin (par)
        // or the previous sibling's end (seq); end and dur: the earlier wins.
        frame.timed = !buildRuns
        let reference = parent.map { $0.seq ? $0.cursor : $0.begin } ?? .zero
        var b = reference
        if let begin {
            if let sum = reference.adding(begin) { b = sum } else { log.warn(line, "begin on <\(raw.string(name))> overflows; the parent's begin is used") }
        }
        var e: CaptionTime?
        if let end {
            if let sum = reference.adding(end) { e = sum } else { log.warn(line, "end on <\(raw.string(name))> overflows; ignored") }
        }
        if let dur {
            if dur.numerator <= 0 { log.warn(line, "dur on <\(raw.string(name))> must be greater than zero") }
            if let sum = b.adding(dur) { e = e.map { min($0, sum) } ?? sum } else { log.warn(line, "dur on <\(raw.string(name))> overflows; ignored") }
        }
        let parentEnd = parent?.end
        if let explicit = e {
            frame.explicitEnd = true
            frame.end = parentEnd.map { min($0, explicit) } ?? explicit
        } else {
            frame.explicitEnd = false
            frame.end = parentEnd
        }
        if let parentEnd, b > parentEnd {
            log.warn(line, "<\(raw.string(name))> begins at \(b) after its parent ends at \(parentEnd); it is never shown")
        }
        frame.begin = b
        frame.cursor = b

        // Style: inherited, then region, referential (chained), inline.
        if let region { frame.style.overlay(styleSheet.region(region, line: line, warnings: &log)) }
        for id in styleIDs { frame.style.overlay(styleSheet.style(String(id), line: line, warnings: &log)) }
        frame.style.overlay(inline)
    }
}
