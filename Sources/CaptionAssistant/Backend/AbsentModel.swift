import Assistant

/// The model of a run that has none: its availability always says why, so
/// the service never calls it; if something did, it would fail with that reason.
struct AbsentModel: AssistantModel {
    var reason: UnavailableReason
    func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer { throw AssistantError.unavailable(reason) }
}
