import Foundation

/// Which OpenAI-compatible server the HTTP backend talks to.
///
/// The servers agree on `POST /v1/chat/completions` but not on how a JSON
/// schema for the answer is sent: llama.cpp's `llama-server`, vLLM, Ollama's
/// `/v1` and OpenAI take `response_format: {"type": "json_schema", …}`, while
/// `llama-cpp-python`'s server rejects that form (HTTP 500, "Input should be
/// 'text' or 'json_object'") and takes `{"type": "json_object", "schema": …}`.
/// `auto` tells the server from what `GET /v1/models` says (`detect`) before
/// the first `POST`; when that cannot tell, it sends the first form and learns
/// the second from the server's rejection, once per run (`HTTPServerState`).
public enum HTTPServerKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Detect: from `GET /v1/models`, else from the server's rejection of `json_schema`.
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

    /// The kind the `owned_by` fields of a `GET /v1/models` list show, and
    /// why: `me` is llama-cpp-python's, `llamacpp` llama-server's, `vllm`
    /// vLLM's, `library` Ollama's (its models are owned by their namespace),
    /// `openai`/`system` OpenAI's; when they tell nothing, the answer's
    /// `Server` header (`server`): llama-server names itself `llama.cpp`
    /// (llama-cpp-python and vLLM both say `uvicorn`, which tells nothing).
    /// nil when neither tells.
    public static func detect(owners: [String], server: String? = nil) -> (kind: HTTPServerKind, reason: String)? {
        let known: [(String, HTTPServerKind)] = [("me", .llamaCppPython), ("llamacpp", .llamaCpp), ("vllm", .vllm),
                                                 ("library", .ollama), ("openai", .openai), ("system", .openai)]
        for (owner, kind) in known where owners.contains(owner) {
            return (kind, "GET /v1/models lists a model owned by \"\(owner)\"")
        }
        if let server, server.lowercased().hasPrefix("llama.cpp") {
            return (.llamaCpp, "GET /v1/models was answered by a server that calls itself \"llama.cpp\" (Server header)")
        }
        return nil
    }

    /// Whether this server serves one model and ignores the request's `model` field,
    /// so a configured name that does not match `/v1/models` is not an error.
    var ignoresModelName: Bool {
        switch self {
        case .llamaCpp, .llamaCppPython: true
        case .auto, .ollama, .vllm, .openai: false
        }
    }
}
