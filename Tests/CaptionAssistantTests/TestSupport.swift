import Assistant
import Captions
import Foundation
import JSON
import Testing
@testable import CaptionAssistant

let sampleSRT = """
1
00:00:01,000 --> 00:00:03,000
The rocket is on the pad.

2
00:00:03,500 --> 00:00:06,000
<i>Launch</i> control: the rocket
is ready for launch.

"""

func fakeConfiguration(_ availability: Availability = .available, model: any AssistantModel = FakeAssistantModel(),
                       maxCharacters: Int = 3000, convertTo: CaptionFormat? = nil) -> PipelineConfiguration {
    let service = AssistantService(backendName: "fake", model: model, availability: FixedAvailability(availability),
                                   options: AssistantOptions(maxCharacters: maxCharacters, maxAttempts: 1))
    return PipelineConfiguration(backend: "fake", source: service, convertTo: convertTo)
}

/// As `fakeConfiguration`, but reported as a real model (`http`): later runs keep its
/// results per action (`EarlierOutput`), as they never keep the fake's.
func realModelConfiguration(_ availability: Availability = .available, model: any AssistantModel = FakeAssistantModel(),
                            convertTo: CaptionFormat? = nil) -> PipelineConfiguration {
    var configuration = fakeConfiguration(availability, model: model, convertTo: convertTo)
    configuration.backend = "http"
    configuration.settings.backend = "http"
    return configuration
}

/// A temporary folder removed when the test ends.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "caption-assistant-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ relative: String, _ text: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
}

extension ActionReport {
    /// An applied action with the fields given (for reports built by hand in tests).
    static func applied(_ id: AssistantAction, keywords: [String]? = nil, occurrences: Int? = nil, titles: [String]? = nil,
                        emoji: String? = nil, cue: Int? = nil) -> ActionReport {
        var action = ActionReport(id: id, state: .applied)
        action.keywords = keywords; action.occurrences = occurrences; action.titles = titles; action.emoji = emoji; action.cue = cue
        return action
    }
}

extension BatchReport.Totals {
    /// The totals of `files`, an entry's error under `files[i]`.
    init(_ files: [FileReport]) throws(ReportError) {
        self.init()
        for (i, f) in files.enumerated() {
            do { try add(f) } catch { throw error.at(i).under(.files) }
        }
    }
}

/// `report.json` of `files`, held whole: what a run that wrote them writes
/// (the product writes it one entry at a time, never holding the batch).
struct WholeReport {
    var files: [FileReport]

    /// The totals, counted from the entries.
    var totals: BatchReport.Totals {
        get throws(ReportError) { try BatchReport.Totals(files) }
    }

    /// `report.json` as one JSON tree: its envelope with the entries in `files`.
    func json() throws(ReportError) -> JSONValue {
        guard case .object(let pairs) = ReportEnvelope(totals: try totals).reportJSON else { return .null }
        return .object(pairs.map { $0.0 == ReportKeyName.files.rawValue ? ($0.0, .array(files.map(\.json))) : $0 })
    }

    /// `json().renderedBytes()`, written as the product writes it: the envelope's
    /// opening, the entries one at a time, its closing.
    func renderedBytes() throws(ReportError) -> [UInt8] {
        let envelope = ReportEnvelope(totals: try totals)
        var out = envelope.opening()
        for (i, file) in files.enumerated() {
            out += JSONStreamWriter.separator(first: i == 0)
            JSONStreamWriter.append(element: file.json, to: &out)
        }
        return out + envelope.closing(empty: files.isEmpty)
    }
}

extension FileProcessor.Outcome {
    /// The caption file to write, as `Data` (nil when the file failed).
    var caption: Data? { bytes.map { Data($0) } }
}

extension FileReport {
    /// Whether the output holds a result a real model gave (`modelResults`).
    var hasModelResults: Bool { !modelResults.isEmpty }
}

/// Checks `text` whole against the golden file `Goldens/NAME` beside this file.
/// `UPDATE_GOLDENS=1` (refused when `CI` is set) rewrites it, as the end-to-end
/// golden cases do; a golden that does not exist yet is written and reported.
func expectGolden(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens/" + name)
    let environment = ProcessInfo.processInfo.environment
    guard let golden = try? String(contentsOf: url, encoding: .utf8), environment["UPDATE_GOLDENS"] != "1" || environment["CI"] != nil else {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if environment["UPDATE_GOLDENS"] != "1" { Issue.record("golden \(name) did not exist; written from this run: review and commit it", sourceLocation: sourceLocation) }
        return
    }
    #expect(text == golden, "differs from Goldens/\(name) (UPDATE_GOLDENS=1 rewrites it)", sourceLocation: sourceLocation)
}
