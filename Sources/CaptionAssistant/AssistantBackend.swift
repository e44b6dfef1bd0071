import Assistant

/// The model side of a run, built from the model options: which backend,
/// the suggestion source the pipeline asks, and the diagnostics wording.
struct AssistantBackend: Sendable {
    var selection: BackendSelection
    var source: any SuggestionSource
    var describe: @Sendable (UnavailableReason) -> ReasonInfo

    static func make(_ options: ModelOptions, maxCharacters: Int, environment: [String: String]) throws(UsageError) -> AssistantBackend {
        throw UsageError("the model backends are not wired in yet")
    }

    func waitForAvailability(_ seconds: Double?) async -> Availability {
        await source.currentAvailability()
    }
}
