import Assistant
import Foundation

/// Builds the HTTP backend's model, availability probe and diagnostics
/// context from the options and the environment (flags win over
/// `CAPTION_ASSISTANT_*` variables; `HTTPConfiguration` owns those rules).
enum HTTPBackendFactory {
    /// The pieces the run needs.
    struct Parts {
        var model: any AssistantModel
        var availability: any AvailabilityProvider
        var context: DiagnosticsContext
        var timeout: Duration
    }

    static func make(_ options: ModelOptions, environment: [String: String]) throws(UsageError) -> Parts {
        let configuration: HTTPConfiguration
        do {
            let kind = try options.serverKind.map { try HTTPServerKind(argument: $0) }
            guard let resolved = try HTTPConfiguration.resolve(
                endpoint: options.endpoint, modelName: options.modelName, serverKind: kind,
                requestTimeout: options.requestTimeout, environment: environment) else {
                throw UsageError("'--model http' needs a server address: add --endpoint URL or set \(HTTPConfiguration.endpointVariable)")
            }
            configuration = resolved
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError(AssistantError.message(for: error))
        }
        let model = HTTPAssistantModel(configuration: configuration, instructions: PromptBuilder.instructions,
                                       promptSeparator: Prompt.separator)
        // The service's own limit sits just above the server request's, so the
        // request's timeout (with its clearer message) fires first.
        let timeout = Duration.milliseconds(Int64((configuration.requestTimeout * 1000).rounded())) + .seconds(5)
        return Parts(model: model, availability: HTTPAvailabilityProbe(configuration: configuration),
                     context: DiagnosticsContext(endpoint: configuration.displayEndpoint, modelName: configuration.modelName),
                     timeout: timeout)
    }
}
