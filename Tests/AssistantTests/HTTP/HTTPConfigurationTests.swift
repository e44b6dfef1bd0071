import Foundation
import Testing
import TestSupport
@testable import Assistant

@Suite struct HTTPConfigurationTests {
    static let secret = "sk-test-SECRET-7f3a9"

    @Test(arguments: [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
        ("https://models.example/v1", "https://models.example", "https://models.example/v1/chat/completions"),
        ("  http://localhost:11434/v1/  ", "http://localhost:11434", "http://localhost:11434/v1/chat/completions"),
        ("http://proxy.example/llm/", "http://proxy.example/llm", "http://proxy.example/llm/v1/chat/completions"),
        ("HTTP://Host.example:9931", "HTTP://Host.example:9931", "HTTP://Host.example:9931/v1/chat/completions"),
        ("http://[::1]:8080", "http://[::1]:8080", "http://[::1]:8080/v1/chat/completions"),
        // Pasted whole: the full chat-completions URL, or the models URL, name the same server.
        ("http://127.0.0.1:8080/v1/chat/completions", "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1/chat/completions/", "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
        ("http://localhost:11434/v1/models", "http://localhost:11434", "http://localhost:11434/v1/chat/completions"),
        ("http://proxy.example/llm/chat/completions", "http://proxy.example/llm", "http://proxy.example/llm/v1/chat/completions"),
    ])
    func acceptsHTTPEndpoints(given: String, endpoint: String, chatURL: String) throws {
        let configuration = try HTTPConfiguration(endpoint: given)
        #expect(configuration.endpoint.absoluteString == endpoint)
        #expect(configuration.url(for: "/v1/chat/completions").absoluteString == chatURL)
        #expect(configuration.serverKind == .auto)
        #expect(configuration.requestTimeout == 120)
        #expect(configuration.modelName == nil)
        #expect(!configuration.hasAPIKey)
    }

    @Test(arguments: [
        ("ftp://127.0.0.1/", HTTPConfigurationError.unsupportedScheme("ftp://127.0.0.1/")),
        ("localhost:8080", .unsupportedScheme("localhost:8080")),
        ("file:///tmp/socket", .unsupportedScheme("file:///tmp/socket")),
        ("http://", .missingHost("http://")),
        ("http:///v1", .missingHost("http:///v1")),
        ("not a url", .invalidEndpoint("not a url")),
        ("", .invalidEndpoint("")),
        ("http://host:8080/?key=1", .invalidEndpoint("http://host:8080/?key=1")),
    ])
    func refusesEndpointsItCannotUse(given: String, expected: HTTPConfigurationError) {
        #expect(throws: expected) { try HTTPConfiguration(endpoint: given) }
        #expect(expected.errorDescription?.isEmpty == false)
        #expect(expected.remedy.settings == [.endpoint])
        #expect(expected.recoverySuggestion?.contains("`endpoint`") == true)
    }

    @Test(arguments: [0.0, -1, .nan, .infinity, 100_000])
    func refusesTimeoutsThatAreNotPositiveSeconds(timeout: Double) {
        #expect(throws: HTTPConfigurationError.self) {
            try HTTPConfiguration(endpoint: "http://127.0.0.1:1", requestTimeout: timeout)
        }
    }

    @Test func readsTheEnvironment() throws {
        let environment = [
            "CAPTION_ASSISTANT_ENDPOINT": "http://10.0.0.5:8000",
            "CAPTION_ASSISTANT_MODEL": "qwen2.5:0.5b",
            "CAPTION_ASSISTANT_API_KEY": Self.secret,
        ]
        let configuration = try #require(try HTTPConfiguration.fromEnvironment(environment))
        #expect(configuration.endpoint.absoluteString == "http://10.0.0.5:8000")
        #expect(configuration.modelName == "qwen2.5:0.5b")
        #expect(configuration.hasAPIKey)
        #expect(configuration.apiKey?.secret == Self.secret)
        #expect(HTTPConfiguration.endpointIsSet(flag: nil, environment: environment))
    }

    @Test func flagsOverrideTheEnvironment() throws {
        let environment = [
            "CAPTION_ASSISTANT_ENDPOINT": "http://10.0.0.5:8000",
            "CAPTION_ASSISTANT_MODEL": "from-env",
            "CAPTION_ASSISTANT_API_KEY": "env-key",
        ]
        let configuration = try #require(try HTTPConfiguration.resolve(
            endpoint: "http://127.0.0.1:9000",
            modelName: "from-flag",
            apiKey: "flag-key",
            serverKind: .ollama,
            requestTimeout: 7.5,
            environment: environment
        ))
        #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(configuration.modelName == "from-flag")
        #expect(configuration.apiKey?.secret == "flag-key")
        #expect(configuration.serverKind == .ollama)
        #expect(configuration.requestTimeout == 7.5)

        let partly = try #require(try HTTPConfiguration.resolve(modelName: "from-flag", environment: environment))
        #expect(partly.endpoint.absoluteString == "http://10.0.0.5:8000")
        #expect(partly.modelName == "from-flag")
        #expect(partly.apiKey?.secret == "env-key")
    }

    @Test func emptyValuesCountAsUnset() throws {
        let environment = ["CAPTION_ASSISTANT_ENDPOINT": "  ", "CAPTION_ASSISTANT_MODEL": "", "CAPTION_ASSISTANT_API_KEY": ""]
        #expect(try HTTPConfiguration.fromEnvironment(environment) == nil)
        #expect(try HTTPConfiguration.resolve(endpoint: "", environment: [:]) == nil)
        #expect(!HTTPConfiguration.endpointIsSet(flag: "", environment: environment))
        #expect(HTTPConfiguration.endpointIsSet(flag: "http://h", environment: [:]))
        let configuration = try #require(try HTTPConfiguration.resolve(endpoint: "http://h:1", environment: environment))
        #expect(configuration.modelName == nil)
        #expect(!configuration.hasAPIKey)
    }

    @Test func aBadEndpointInTheEnvironmentIsAnError() {
        #expect(throws: HTTPConfigurationError.unsupportedScheme("ws://h")) {
            try HTTPConfiguration.fromEnvironment(["CAPTION_ASSISTANT_ENDPOINT": "ws://h"])
        }
    }

    @Test func theAPIKeyIsNeverPrinted() throws {
        let configuration = try HTTPConfiguration(
            endpoint: "http://127.0.0.1:8080", modelName: "m", apiKey: Self.secret, serverKind: .vllm
        )
        var dumped = ""
        dump(configuration, to: &dumped)
        let printed = [
            configuration.description,
            configuration.debugDescription,
            String(describing: configuration),
            String(reflecting: configuration),
            "\(configuration)",
            "\([configuration])",
            dumped,
        ]
        for text in printed {
            #expect(!text.contains(Self.secret), "key leaked in: \(text)")
            #expect(!text.contains("SECRET"))
        }
        #expect(configuration.description.contains("API key set"))
        #expect(configuration.description.contains("http://127.0.0.1:8080"))
        #expect(configuration.description.contains("vllm"))
        #expect(dumped.contains("hasAPIKey"))
    }

    @Test func credentialsInTheEndpointAreNotShown() throws {
        let configuration = try HTTPConfiguration(endpoint: "http://alice:hunter2@127.0.0.1:8080/base")
        #expect(configuration.displayEndpoint == "http://127.0.0.1:8080/base")
        #expect(!configuration.description.contains("hunter2"))
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("hunter2"))

        let error = HTTPConfigurationError.unsupportedScheme(HTTPConfiguration.redactedForError("ftp://alice:hunter2@host"))
        #expect(throws: error) { try HTTPConfiguration(endpoint: "ftp://alice:hunter2@host") }
        #expect(error.errorDescription?.contains("hunter2") == false)
    }

    @Test(arguments: HTTPServerKind.allCases)
    func parsesEveryServerKindItNames(kind: HTTPServerKind) throws {
        #expect(try HTTPServerKind(argument: kind.rawValue) == kind)
        #expect(try HTTPServerKind(argument: kind.rawValue.uppercased()) == kind)
    }

    @Test func refusesAnUnknownServerKindAndListsTheKnownOnes() {
        #expect(throws: HTTPConfigurationError.unknownServerKind("llamacpp")) { try HTTPServerKind(argument: "llamacpp") }
        let suggestion = HTTPConfigurationError.unknownServerKind("x").recoverySuggestion ?? ""
        #expect(suggestion.contains("llama-cpp-python"))
        #expect(suggestion.contains("ollama"))
    }
}
