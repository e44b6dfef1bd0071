import Foundation
import Testing
@testable import Captions

/// Fixture loading and run descriptions shared by the WebVTT test suites.
enum WebVTTTestSupport {
    /// The bytes of a fixture, by path under `Fixtures/`.
    static func fixture(_ path: String) throws -> Data {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try Data(contentsOf: root.appendingPathComponent(path))
    }

    /// Reads a fixture under `Fixtures/valid/vtt/` as WebVTT.
    static func valid(_ name: String) throws -> CaptionDocument {
        try CaptionDocument.read(fixture("valid/vtt/" + name), hint: .vtt)
    }

    /// Reads WebVTT text.
    static func read(_ text: String) throws -> CaptionDocument {
        try CaptionDocument.read(Data(text.utf8), hint: .vtt)
    }

    /// A compact description of runs: `t:text`, `m:markup`, `br`, with `+b`, `+i`, `+u` for styles.
    static func describe(_ runs: [TextRun]) -> [String] {
        runs.map { run in
            var s: String
            switch run.kind {
            case .text: s = "t:" + run.text
            case .markup: s = "m:" + run.text
            case .lineBreak: s = "br"
            }
            if run.style.contains(.bold) { s += "+b" }
            if run.style.contains(.italic) { s += "+i" }
            if run.style.contains(.underline) { s += "+u" }
            return s
        }
    }

    /// Warnings as `line: message-prefix` pairs are too brittle; tests check lines and a key phrase.
    static func lines(_ warnings: [CaptionWarning], containing phrase: String) -> [Int?] {
        warnings.filter { $0.message.contains(phrase) }.map(\.line)
    }

    /// Milliseconds of a time.
    static func ms(_ t: CaptionTime) -> Int64 { t.roundedMilliseconds }
}
