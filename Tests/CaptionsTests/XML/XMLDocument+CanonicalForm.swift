import CLibXML2
@testable import Captions

extension XMLDocument {
    /// The canonical form (Canonical XML 1.0, with comments) of a document,
    /// read with the product's libxml2 set-up and options, to compare XML
    /// documents apart from formatting.
    static func canonicalForm(of bytes: [UInt8]) throws -> [UInt8] {
        _ = setUp
        guard let context = xmlNewParserCtxt() else {
            throw CaptionError(.malformedXML, message: "libxml2 could not start a parser (out of memory?)")
        }
        let owner = XMLDocument(context: context)
        context.pointee.sax.pointee.serror = { _, _ in }
        guard bytes.count < Int(Int32.max) else {
            throw CaptionError(.tooLarge, message: "the document is too large for libxml2")
        }
        owner.document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                xmlCtxtReadMemory(context, chars, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document = owner.document else {
            let message = xmlCtxtGetLastError(context).flatMap { $0.pointee.message.map { String(cString: $0) } }
            throw CaptionError(.malformedXML, message: message ?? "the XML is not well-formed")
        }
        var output: UnsafeMutablePointer<xmlChar>?
        let length = xmlC14NDocDumpMemory(document, nil, Int32(XML_C14N_1_0.rawValue), nil, 1, &output)
        guard let output, length >= 0 else {
            throw CaptionError(.malformedXML, message: "libxml2 could not write the canonical form")
        }
        let result = Array(UnsafeBufferPointer(start: output, count: Int(length)))
        ca_xml_free(output)
        return result
    }
}
