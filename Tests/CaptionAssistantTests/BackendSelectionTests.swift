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
}
