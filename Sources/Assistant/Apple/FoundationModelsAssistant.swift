#if canImport(FoundationModels)
import FoundationModels

/// Apple's on-device model behind the `AssistantModel` seam.
///
/// Not compiled on Linux (no Foundation Models there). It maps the prompt's
/// answer schema to guided generation (`generationSchema(_:)`: keywords from
/// the allowed list, exactly three titles, the emoji from the schema's set),
/// then hands the generated content on as JSON, so the same
/// `SuggestionDecoder` validates it as it validates any other backend.
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

    /// Opens a session with the prompt's instructions and asks for an answer in the prompt's schema, returned as JSON.
    public func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        if case .unavailable(let reason) = Self.availability() {
            throw AssistantError.unavailable(reason)
        }
        let session = LanguageModelSession(instructions: prompt.instructions)
        let content: GeneratedContent
        do {
            content = try await session.respond(to: prompt.request, schema: try Self.generationSchema(prompt.schema)).content
        } catch let error as LanguageModelSession.GenerationError {
            // Busy is worth a retry; everything else keeps Apple's own error and text.
            switch error {
            case .rateLimited, .concurrentRequests:
                throw AssistantError.busy(AssistantError.message(for: error))
            default:
                throw error
            }
        }
        return ModelAnswer(text: content.jsonString)
    }

    /// The answer schema as Foundation Models' guided generation: keywords
    /// (one to `AnswerSchema.maximumKeywords`) chosen from the schema's list
    /// (any string when it is empty), exactly `AnswerSchema.titleCandidates`
    /// titles (the decoder keeps the first `AnswerSchema.titleCount` usable ones), and one emoji of the schema's set. Title lengths have no guide
    /// here; the decoder checks them, as it checks everything.
    static func generationSchema(_ schema: AnswerSchema) throws -> GenerationSchema {
        let allowed = schema.keywords
        let keyword = allowed.isEmpty
            ? DynamicGenerationSchema(type: String.self)
            : DynamicGenerationSchema(name: "Keyword", anyOf: allowed)
        let title = DynamicGenerationSchema(type: String.self)
        let root = DynamicGenerationSchema(name: "Suggestions", properties: [
            .init(name: "keywords", description: "Important words or short phrases copied exactly from the transcript",
                  schema: DynamicGenerationSchema(arrayOf: keyword, minimumElements: 1, maximumElements: AnswerSchema.maximumKeywords)),
            .init(name: "titles", description: "Short, distinct titles for the video that name its topic in new words",
                  schema: DynamicGenerationSchema(arrayOf: title, minimumElements: AnswerSchema.titleCandidates, maximumElements: AnswerSchema.titleCandidates)),
            .init(name: "emoji", description: "Exactly one emoji that fits the content",
                  schema: DynamicGenerationSchema(name: "Emoji", anyOf: schema.emoji)),
        ])
        return try GenerationSchema(root: root, dependencies: [])
    }
}
#endif
