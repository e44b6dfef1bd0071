import Assistant
import Foundation

/// Builds the HTTP backend's model, availability probe and diagnostics context from the options.
enum HTTPBackendFactory {
    struct Parts {
        var model: any AssistantModel
        var availability: any AvailabilityProvider
        var context: DiagnosticsContext
        var timeout: Duration
    }

    static func make(_ options: ModelOptions, environment: [String: String]) throws(UsageError) -> Parts {
        throw UsageError("the HTTP backend is not part of this build yet")
    }
}
