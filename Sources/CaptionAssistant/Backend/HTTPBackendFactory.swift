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

    /// The message for a configuration refused: an endpoint error names where
    /// the endpoint came from (the endpoint setting as `names` spells it, or
    /// `CAPTION_ASSISTANT_ENDPOINT` when it was not given) and the form
    /// expected; others add their remedy, spelled by `names`.
    static func explained(_ error: any Error, flag endpoint: String?, names: SettingNames) -> String {
        let message = AssistantError.message(for: error)
        guard let refused = error as? HTTPConfigurationError else { return message }
        switch refused {
        case .invalidEndpoint, .unsupportedScheme, .missingHost:
            let fromEnvironment = (endpoint ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            let source = fromEnvironment ? "\(HTTPConfiguration.endpointVariable) (from the environment)" : names.spell(.endpoint)
            return "\(source): \(message) Give the server's base URL, as http://HOST:PORT (or https://), e.g. http://127.0.0.1:8080"
                + (fromEnvironment ? ", or unset \(HTTPConfiguration.endpointVariable)." : ".")
        default:
            return message + " " + refused.remedy.rendered(names)
        }
    }

    static func make(_ options: ModelOptions, environment: [String: String], names: SettingNames) throws(SettingsError) -> Parts {
        let configuration: HTTPConfiguration
        do {
            let kind = try options.serverKind.map { try HTTPServerKind(argument: $0) }
            guard let resolved = try HTTPConfiguration.resolve(
                endpoint: options.endpoint, modelName: options.modelName, serverKind: kind,
                requestTimeout: options.requestTimeout, caFile: options.caFile, environment: environment) else {
                let advice: Advice = "'\(.backend, .literal("http"))' needs a server address: add \(.endpoint, .placeholder) or set \(HTTPConfiguration.endpointVariable)"
                throw SettingsError(advice.rendered(names))
            }
            configuration = resolved
        } catch let error as SettingsError {
            throw error
        } catch {
            throw SettingsError(explained(error, flag: options.endpoint, names: names))
        }
        let model = HTTPAssistantModel(configuration: configuration)
        // The service's own limit sits just above the server request's, so the
        // request's timeout (with its clearer message) fires first.
        let timeout = Duration.milliseconds(Int64((configuration.requestTimeout * 1000).rounded())) + .seconds(5)
        var context = DiagnosticsContext(endpoint: configuration.displayEndpoint, modelName: configuration.modelName)
        context.settingNames = names
        context.proxy = configuration.proxy?.summary
        return Parts(model: model, availability: HTTPAvailabilityProbe(configuration: configuration), context: context, timeout: timeout)
    }
}
