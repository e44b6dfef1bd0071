import Foundation
import Testing
@testable import Captions

@Suite struct WebVTTDumpTests {
    @Test func dump() throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        for sub in ["valid/vtt", "invalid/vtt"] {
            let dir = root.appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".vtt") {
                let data = try Data(contentsOf: dir.appendingPathComponent(name))
                print("=== \(sub)/\(name)")
                do {
                    let doc = try CaptionDocument.read(data, hint: .vtt)
                    for c in doc.cues {
                        print("cue line \(c.line) id=\(c.identifier.map { "\"\($0)\"" } ?? "nil") \(c.start)-->\(c.end) settings=\(c.settings ?? "nil") range=\(c.textRange)")
                        for r in c.runs { print("   \(r.kind) \(r.text.debugDescription) style=\(r.style.rawValue) \(r.source)") }
                    }
                    for w in doc.warnings { print("  W \(w)") }
                    #expect(try doc.write() == data)
                } catch { print("  ERROR \(error) \((error as? CaptionError).map { "\($0.code) \($0.line as Any)" } ?? "")") }
            }
        }
    }
}
