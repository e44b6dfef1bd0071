import Assistant
import Captions
import Foundation
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
