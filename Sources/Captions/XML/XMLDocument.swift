internal import CLibXML2

/// The one place that talks to libxml2: it owns a parser context (and, when a
/// tree was built, the document) and frees both in `deinit`.
///
/// Parsing is always done with no network (`XML_PARSE_NONET`), no entity
/// substitution (no `XML_PARSE_NOENT`), no DTD loading or attribute defaulting,
/// and libxml2's default size and depth limits (no `XML_PARSE_HUGE`). An
/// external entity loader that refuses everything is installed once, as a
/// second line of defence. Errors are collected through a structured error
/// handler, so libxml2 never prints to standard error.
///
/// The bytes handed in are UTF-8 (`SourceText` transcodes other encodings), so
/// the document's own `encoding` declaration is ignored (`XML_PARSE_IGNORE_ENC`).
final class XMLDocument {
    let context: xmlParserCtxtPtr
    var document: xmlDocPtr?

    init(context: xmlParserCtxtPtr) {
        self.context = context
    }

    deinit {
        if let document { xmlFreeDoc(document) }
        xmlFreeParserCtxt(context)
    }

    /// libxml2's global set-up, done once per process (thread-safe: Swift runs
    /// a `static let` initializer exactly once).
    static let setUp: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    static var options: Int32 {
        Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
    }

    /// Checks that `bytes` (UTF-8) are a well-formed, namespace-well-formed XML
    /// document, streaming them through libxml2's SAX2 push parser without
    /// building a tree. Throws `CaptionError(.malformedXML)` with libxml2's line,
    /// column and message for the first error.
    static func checkWellFormed(_ bytes: [UInt8]) throws {
        _ = setUp
        let recorder = XMLErrorRecorder()
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            Unmanaged<XMLErrorRecorder>.fromOpaque(userData).takeUnretainedValue().record(error.pointee)
        }
        let userData = Unmanaged.passUnretained(recorder).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil) else {
            throw CaptionError(.malformedXML, message: "libxml2 could not start a parser (out of memory?)")
        }
        let owner = XMLDocument(context: context)
        owner.lockDown()
        let chunkSize = 1 << 18
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                var offset = 0
                repeat {
                    let length = min(chunkSize, buffer.count - offset)
                    let last = offset + length >= buffer.count
                    let status = xmlParseChunk(context, chars + offset, Int32(length), last ? 1 : 0)
                    offset += length
                    if status != 0 || recorder.first != nil { break }
                } while offset < buffer.count
            }
        }
        withExtendedLifetime(recorder) {}
        if let error = recorder.first { throw error }
        if context.pointee.wellFormed == 0 || context.pointee.nsWellFormed == 0 {
            throw CaptionError(.malformedXML, message: "the XML is not well-formed")
        }
        withExtendedLifetime(owner) {}
    }

    /// Options and fields that keep entity substitution, DTD loading and
    /// attribute defaulting off whatever the process-wide defaults are.
    private func lockDown() {
        xmlCtxtUseOptions(context, XMLDocument.options)
        context.pointee.replaceEntities = 0
        context.pointee.loadsubset = 0
        context.pointee.validate = 0
    }
}

/// Keeps the first error libxml2 reports during one parse.
private final class XMLErrorRecorder {
    var first: CaptionError?

    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let text = error.message.map { String(cString: $0) }?.trimmingTrailingNewlines ?? "unknown XML error"
        let kind = error.domain == Int32(XML_FROM_NAMESPACE.rawValue) ? "namespace error" : "the XML is not well-formed"
        first = CaptionError(.malformedXML,
                             line: error.line > 0 ? Int(error.line) : nil,
                             column: error.int2 > 0 ? Int(error.int2) : nil,
                             message: "\(kind): \(text)")
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s = s.dropLast() }
        return String(s)
    }
}
