import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct BackendSelectionTests {
    @Test func choosesPerDesign() {
        var options = ModelOptions()
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false)
                == BackendSelection(kind: .none, reportName: "none", fixedReason: .unsupportedPlatform))
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: false).kind == .http)
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: true).kind == .foundation)
        options.backend = .foundation
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false)
                == BackendSelection(kind: .none, reportName: "foundation", fixedReason: .unsupportedPlatform))
        options.backend = .none
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: true).kind == .none)
        options.backend = .http
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: true).kind == .http)
        options.fake = true
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false).reportName == "fake")
    }

    /// `--model auto` asks the same "is an endpoint set" as the HTTP configuration does: a
    /// CAPTION_ASSISTANT_ENDPOINT of only spaces is no endpoint (it chose HTTP, then failed for want of one).
    @Test func anEndpointOfOnlySpacesIsNoEndpoint() throws {
        let blank = try AssistantBackend.make(ModelOptions(), maxCharacters: 3000, environment: ["CAPTION_ASSISTANT_ENDPOINT": "  "])
        #expect(blank.selection.kind != .http)
        let set = try AssistantBackend.make(ModelOptions(), maxCharacters: 3000, environment: ["CAPTION_ASSISTANT_ENDPOINT": " http://127.0.0.1:9 "])
        #expect(set.selection.kind == .http)
    }
}
