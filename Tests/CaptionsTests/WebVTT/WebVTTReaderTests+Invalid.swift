import Foundation
import Testing
@testable import Captions

/// Every file under `Fixtures/invalid/vtt/` fails with the error its
/// `EXPECTED` line names (read with the `.vtt` hint, as the command line
/// does for a `.vtt` file).
@Suite("WebVTT invalid files")
struct WebVTTInvalidTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String, code: CaptionError.Code, line: Int?
        var testDescription: String { file }
    }

    static func expectations() -> [Expectation] {
        guard let data = try? WebVTTTestSupport.fixture("invalid/vtt/EXPECTED") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { row in
            guard !row.hasPrefix("#") else { return nil }
            let f = row.split(separator: "\t").map(String.init)
            guard f.count == 3, let code = CaptionError.Code(rawValue: f[1]) else { return nil }
            return Expectation(file: f[0], code: code, line: Int(f[2]))
        }
    }

    @Test(arguments: expectations())
    func failsWithTheExpectedError(_ e: Expectation) throws {
        let data = try WebVTTTestSupport.fixture("invalid/vtt/" + e.file)
        do {
            let doc = try CaptionDocument.read(data, hint: .vtt)
            Issue.record("\(e.file) was read (\(doc.cues.count) cues) but must fail with \(e.code)")
        } catch let error as CaptionError {
            #expect(error.code == e.code)
            #expect(error.line == e.line)
            #expect(!(error.errorDescription ?? "").isEmpty)
        }
    }

    @Test func everyInvalidFileHasAnExpectation() throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("invalid/vtt").path)
            .filter { $0.hasSuffix(".vtt") }.sorted()
        #expect(files == Self.expectations().map(\.file).sorted())
        #expect(files.count >= 7)
    }

    @Test func theReaderItselfRejectsWithoutDetection() throws {
        // Straight to the reader, bypassing format detection.
        #expect(throws: CaptionError.self) { try WebVTTReader.parse(Array("WEBVTTX".utf8)) }
        #expect { try WebVTTReader.parse([]) } throws: { ($0 as? CaptionError)?.code == .emptyFile }
        #expect { try WebVTTReader.parse(Array("WEBVT".utf8)) } throws: { ($0 as? CaptionError)?.code == .badSignature }
        #expect { try WebVTTReader.parse([0x89, 0x50, 0x4E, 0x47, 0, 0, 0x0A]) } throws: { ($0 as? CaptionError)?.code == .binaryFile }
    }
}
