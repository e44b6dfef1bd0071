import Foundation

/// Which OpenAI-compatible server the HTTP backend talks to.
///
/// The servers agree on `POST /v1/chat/completions` but not on how a JSON
/// schema for the answer is sent: llama.cpp's `llama-server`, vLLM, Ollama's
/// `/v1` and OpenAI take `response_format: {"type": "json_schema", …}`, while
/// `llama-cpp-python`'s server rejects that form (HTTP 500, "Input should be
/// 'text' or 'json_object'") and takes `{"type": "json_object", "schema": …}`.
/// `auto` sends the first form and falls back to the second on that rejection.
public enum HTTPServerKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Detect: send `json_schema`, fall back to `json_object` when the server rejects it.
    case auto
    /// llama.cpp's `llama-server`.
    case llamaCpp = "llama-cpp"
    /// The `llama-cpp-python` package's server (`python3 -m llama_cpp.server`).
    case llamaCppPython = "llama-cpp-python"
    /// Ollama, through its OpenAI-compatible `/v1` routes.
    case ollama
    /// vLLM's OpenAI-compatible server.
    case vllm
    /// OpenAI itself, or a proxy with the same rules (adds `"strict": true`).
    case openai

    /// Parses the spelling used by `--server-kind` (`auto`, `llama-cpp`, …), ignoring case.
    public init(argument: String) throws {
        let spelling = argument.trimmingCharacters(in: .whitespaces).lowercased()
        guard let kind = HTTPServerKind(rawValue: spelling) else {
            throw HTTPConfigurationError.unknownServerKind(argument)
        }
        self = kind
    }

    /// The spelling `--server-kind` accepts.
    public var description: String { rawValue }

    /// Whether this server serves one model and ignores the request's `model` field,
    /// so a configured name that does not match `/v1/models` is not an error.
    var ignoresModelName: Bool {
        switch self {
        case .llamaCpp, .llamaCppPython: true
        case .auto, .ollama, .vllm, .openai: false
        }
    }
}
