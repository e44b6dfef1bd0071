import Captions
import Assistant
import Foundation

/// The model side of a run, built from the model options: the backend chosen,
/// the service the pipeline asks once per file, and the words diagnostics use.
package struct AssistantBackend: Sendable {
    /// Which backend, and its name in reports.
    package var selection: BackendSelection
    /// Availability → prompt → model → validation, once per file.
    package var service: AssistantService
    /// The endpoint and model name diagnostics may mention.
    package var diagnosticsContext: DiagnosticsContext
    /// The HTTP backend's probe, which can list the models the server offers; nil for other backends.
    var httpProbe: HTTPAvailabilityProbe? = nil

    /// Builds the backend. Throws a `SettingsError` for options that cannot work
    /// together (an unknown simulated availability, the HTTP backend without
    /// an endpoint, a bad endpoint or server kind). `names` spells the settings
    /// that errors, remedies and reasons name (the command line's options).
    package static func make(_ options: ModelOptions, maxCharacters: Int, environment: [String: String],
                             names: SettingNames = .plain) throws(SettingsError) -> AssistantBackend {
        let endpointSet = HTTPConfiguration.endpointIsSet(flag: options.endpoint, environment: environment)
        let selection = BackendSelection.choose(options, endpointConfigured: endpointSet)
        var model: any AssistantModel
        var provider: any AvailabilityProvider
        var context = DiagnosticsContext()
        context.settingNames = names
        var timeout = Duration.seconds(60)
        var probe: HTTPAvailabilityProbe?

        switch selection.kind {
        case .fake:
            if options.failingFake {
                model = FailingAssistantModel(error: options.fakeError.map { AssistantError.failed($0) } ?? FailingAssistantModel.testFailure)
            } else {
                // The command line never reads the prompts back, so the fake keeps none (memory stays flat).
                model = FakeAssistantModel(recordsPrompts: false, delay: .milliseconds(options.fakeDelayMilliseconds))
            }
            provider = FixedAvailability(.available)
        case .none:
            let reason = selection.fixedReason ?? .unsupportedPlatform
            model = AbsentModel(reason: reason)
            provider = FixedAvailability(.unavailable(reason))
        case .foundation:
            #if canImport(FoundationModels)
            if #available(iOS 26, macOS 26, visionOS 26, *) {
                model = FoundationModelsAssistant()
                provider = SystemModelAvailability()
            } else {
                model = AbsentModel(reason: .unsupportedPlatform)
                provider = FixedAvailability(.unavailable(.unsupportedPlatform))
            }
            #else
            model = AbsentModel(reason: .unsupportedPlatform)
            provider = FixedAvailability(.unavailable(.unsupportedPlatform))
            #endif
        case .http:
            let http = try HTTPBackendFactory.make(options, environment: environment, names: names)
            model = http.model
            provider = http.availability
            context = http.context
            timeout = http.timeout
            probe = http.availability as? HTTPAvailabilityProbe
        }

        if let name = options.simulatedAvailability {
            guard let forced = Availability(name: name) else {
                let advice: Advice = "'\(.simulatedAvailability)' must be available or one of \(UnavailableReason.acceptedNames.joined(separator: ", ")) (got '\(name)')"
                throw SettingsError(advice.rendered(names))
            }
            if forced.isAvailable && model is AbsentModel {
                let advice: Advice = "'\(.simulatedAvailability, .literal("available"))' needs a model to call; add \(.fakeModel) or choose a backend with \(.backend)"
                throw SettingsError(advice.rendered(names))
            }
            provider = FixedAvailability(forced)
        }

        // Waiting for a model that is getting ready happens once, before the
        // batch (`waitForAvailability`); each file then re-reads availability once.
        var serviceOptions = AssistantOptions(maxCharacters: maxCharacters, timeout: timeout, waitForModel: .zero,
                                              fileTimeLimit: options.modelTimeLimit.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        serviceOptions.settingNames = names
        let service = AssistantService(
            backendName: selection.reportName, model: model, availability: provider,
            options: serviceOptions)
        return AssistantBackend(selection: selection, service: service, diagnosticsContext: context,
                                httpProbe: options.simulatedAvailability == nil ? probe : nil)
    }

    /// The options that shape every output of a batch run with these
    /// model options, recorded in sidecars for `--resume`.
    package func settings(_ options: ModelOptions, maxCharacters: Int, convertTo: CaptionFormat?,
                          writeOptions: WriteOptions = WriteOptions()) -> OutputSettings {
        var model = diagnosticsContext.modelName
        if selection.kind == .fake && options.failingFake {
            model = "failing test model: " + (options.fakeError ?? "default error")
        }
        return OutputSettings(
            backend: selection.reportName, model: model, endpoint: diagnosticsContext.endpoint,
            serverKind: selection.kind == .http ? options.serverKind : nil,
            simulatedAvailability: options.simulatedAvailability, maxCharacters: maxCharacters,
            convertTo: convertTo, writeOptions: writeOptions)
    }

    /// Reads availability, waiting up to `seconds` for a model that is getting ready.
    ///
    /// When the model is not ready and there is time to wait, `waiting` is
    /// called once first (the command line says it is waiting), and the
    /// diagnostics from then on say how long was waited instead of advising
    /// `--wait-for-model`.
    package mutating func waitForAvailability(_ seconds: Double?, waiting: (Double) -> Void = { _ in }) async -> Availability {
        let first = await service.availability.currentAvailability()
        guard let seconds, seconds > 0, first == .unavailable(.modelNotReady) else { return first }
        waiting(seconds)
        diagnosticsContext.waitedSeconds = seconds
        let gate = AvailabilityGate(provider: service.availability)
        return await gate.waitUntilAvailable(timeout: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The diagnostics for a reason, naming this backend's endpoint and model.
    package func describe(_ reason: UnavailableReason) -> Diagnostics {
        Diagnostics(reason, context: diagnosticsContext)
    }

    /// The HTTP server's kind and why it is believed (`--server-kind`, or what
    /// `GET /v1/models` showed), once known; nil for other backends.
    package var serverKind: (kind: HTTPServerKind, reason: String)? { httpProbe?.state?.serverKind }

    /// The models the HTTP server lists, when it matters to the person (`check`
    /// on an available server or on `modelMissing`): those the run's probe kept,
    /// else asked now; also kept in
    /// the diagnostics so the `modelMissing` remedy can name them.
    package mutating func servedModels(for availability: Availability) async -> [String] {
        guard let httpProbe, availability == .available || availability == .unavailable(.modelMissing) else { return [] }
        // What the probe behind `availability` listed, when it kept it: `check` asks the server once, not twice.
        let served: [String]
        if let state = httpProbe.state, !state.servedModels.isEmpty {
            served = state.servedModels
        } else {
            served = await httpProbe.probe().servedModels
        }
        diagnosticsContext.servedModels = served
        return served
    }
}
