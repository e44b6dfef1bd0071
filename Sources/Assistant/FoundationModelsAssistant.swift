#if canImport(FoundationModels)
import FoundationModels

/// Apple's on-device model behind the `AssistantModel` seam.
///
/// Not compiled on Linux (no Foundation Models there). It asks for a
/// `@Generable` answer with exactly three titles, then re-encodes it as JSON so
/// the same `SuggestionDecoder` validates it as it validates any other backend.
@available(iOS 26, macOS 26, visionOS 26, *)
public struct FoundationModelsAssistant: AssistantModel {
    /// Creates the backend for `SystemLanguageModel.default`.
    public init() {}

    /// Maps `SystemLanguageModel.default.availability` to our reasons; new reasons read as `unknown`.
    public static func availability() -> Availability {
        switch SystemLanguageModel.default.availability {
        case .available:
            return .available
        case .unavailable(let reason):
            switch reason {
            case .deviceNotEligible: return .unavailable(.deviceNotEligible)
            case .appleIntelligenceNotEnabled: return .unavailable(.appleIntelligenceNotEnabled)
            case .modelNotReady: return .unavailable(.modelNotReady)
            @unknown default: return .unavailable(.unknown(String(describing: reason)))
            }
        }
    }

    /// Opens a session with the prompt's instructions and asks for a `GeneratedSuggestions` answer, returned as JSON.
    public func respond(to prompt: String) async throws -> String {
        if case .unavailable(let reason) = Self.availability() {
            throw AssistantError.unavailable(reason)
        }
        // Qualified: FoundationModels has its own `Prompt` and `PromptBuilder`.
        let parts = Assistant.Prompt.split(prompt) ?? (instructions: Assistant.PromptBuilder.instructions, request: prompt)
        let session = LanguageModelSession(instructions: parts.instructions)
        let answer: GeneratedSuggestions
        do {
            answer = try await session.respond(to: parts.request, generating: GeneratedSuggestions.self).content
        } catch let error as LanguageModelSession.GenerationError {
            // Busy is worth a retry; everything else keeps Apple's own error and text.
            switch error {
            case .rateLimited, .concurrentRequests:
                throw AssistantError.busy(AssistantError.message(for: error))
            default:
                throw error
            }
        }
        return SuggestionDecoder.answer(keywords: answer.keywords, titles: answer.titles, emoji: answer.emoji)
    }
}

/// The structured answer Foundation Models fills in.
@available(iOS 26, macOS 26, visionOS 26, *)
@Generable
struct GeneratedSuggestions {
    @Guide(description: "Up to 10 important words or short phrases copied exactly from the transcript", .maximumCount(10))
    var keywords: [String]
    @Guide(description: "Three short, distinct titles for the video", .count(3))
    var titles: [String]
    @Guide(description: "Exactly one emoji that fits the content")
    var emoji: String
}
#endif
