/// A paragraph's text (text nodes and CDATA, with their namespace scopes),
/// the cue it becomes, and the end of the document (open-ended cues).
extension TTMLReader {
    /// Adds a text node or CDATA section to the paragraph's runs, noting its namespace scope.
    mutating func addText(_ range: Range<Int>, cdata: Bool) {
        guard let frame = stack.last else { return }
        if text.add(range, cdata: cdata, style: frame.style.textStyle, preserve: frame.preserve) {
            noteRunScope(range.lowerBound)
        }
    }

    /// Records a run's namespace scope when a namespace was redeclared inside the paragraph.
    mutating func noteRunScope(_ start: Int) {
        guard buildRuns, namespaces.bindings.count > paragraphBindings else { return }
        let contentPrefix = namespaces.prefix(boundTo: TTMLNamespace(role: .content, family: family), allowDefault: true) ?? ""
        let index = scope(contentPrefix: Array(contentPrefix.utf8))
        if index != paragraphScope { payload.runScopes[start] = index }
    }

    mutating func finishParagraph(_ frame: Frame, contentEnd: Int) {
        guard !buildRuns else { return }
        inParagraph = false
        let end = frame.end ?? frame.latestChildEnd
        let lower = min(paragraphContentStart, contentEnd)
        let context = TTMLParagraphContext(
            bytes: source, definitions: definitions ?? makeDefinitions(line: paragraphLine),
            bindings: bindingSnapshot?.bindings ?? namespaces.bindings,
            contentPrefix: payload.scopes.indices.contains(Int(paragraphScope)) ? payload.scopes[Int(paragraphScope)].contentPrefix : "",
            style: paragraphStyle, preserve: paragraphPreserve,
            innerNamespaces: payload.paragraphsWithInnerNamespaces.contains(cues.count))
        let cue = Cue(bytes: source, identifier: paragraphID, identifierRange: paragraphIDRange, start: frame.begin,
                      end: end ?? frame.begin, settings: nil, line: paragraphLine, textRange: lower..<contentEnd,
                      builder: .ttml(context))
        if end == nil { unresolvedEnds.append(cues.count) }
        if let end, end < frame.begin {
            log.warn(paragraphLine, "the paragraph ends (\(end)) before it begins (\(frame.begin))")
        }
        cues.append(cue)
        payload.cueScopes.append(paragraphScope)
    }


    mutating func finish() -> Result {
        payload.openEnded = unresolvedEnds
        if !unresolvedEnds.isEmpty {
            let latest = cues.reduce(CaptionTime.zero) { max($0, $1.end, $1.start) }
            for index in unresolvedEnds {
                let start = cues[index].start
                var end = latest > start ? latest : start
                var j = index + 1
                while j < cues.count, j <= index + 64 {
                    if cues[j].start > start { end = cues[j].start; break }
                    j += 1
                }
                cues[index].end = end
            }
            let first = cues[unresolvedEnds[0]].line
            let count = unresolvedEnds.count
            log.append(CaptionWarning(line: first,
                message: "\(count == 1 ? "a paragraph has" : "\(count) paragraphs have") no end time (no end or dur on it or any parent): each is shown until the next paragraph begins, the last until the latest end in the document"))
        }
        if cues.isEmpty { log.append(CaptionWarning(line: nil, message: "the document has no <p> elements in its <body>: there are no cues")) }
        // A prefix for declaring the styling namespace: one never bound to anything else.
        let uri = payload.stylingURI
        var candidate = "tts"
        var suffix = 1
        while let uris = declaredPrefixes[candidate], uris != [uri] {
            suffix += 1
            candidate = "tts\(suffix)"
        }
        payload.declarationPrefix = candidate
        if payload.scopes.isEmpty { payload.scopes = [TTMLPayload.Scope(contentPrefix: "", stylingPrefix: nil)] }
        return Result(cues: cues, warnings: log.finish(), payload: payload)
    }
}
