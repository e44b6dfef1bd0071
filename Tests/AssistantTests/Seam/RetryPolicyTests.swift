import Foundation
import Testing
import TestSupport
@testable import Assistant

/// The retry policy (`AssistantOptions.retryPolicy`, `HTTPAssistantError.isTemporary`)
/// class by class, through the service and the HTTP backend against a server:
/// how many requests the server got, the pauses asked of the clock, and the
/// action's reason.
@Suite(.mayBlock) struct RetryPolicyTests {
    static let transcript = "The rocket launch was delayed. The rocket crew waited."
    static let answer = #"{"keywords":["rocket"],"titles":["Up we go","Launch day","Crew waits"],"emoji":"🚀"}"#

    /// Runs one file's model call against `endpoint` with 3 attempts, pauses of 2 s and 4 s (no jitter).
    func run(_ endpoint: String, timeout: Double = 10, clock: ManualWaitClock = ManualWaitClock()) async throws -> AssistantResult {
        let configuration = try HTTPConfiguration(endpoint: endpoint, serverKind: .llamaCpp, requestTimeout: timeout)
        let model = HTTPAssistantModel(configuration: configuration)
        let service = AssistantService(backendName: "http", model: model, availability: FixedAvailability(.available),
                                       options: AssistantOptions(retryJitter: 0), clock: clock)
        return await service.suggest(transcript: Self.transcript)
    }

    static let temporaryReplies: [(String, HTTPTestReply)] = [
        ("HTTP 408", .respond(408, #"{"error":"request timeout"}"#)),
        ("HTTP 429", .respond(429, #"{"error":"rate limited"}"#)),
        ("HTTP 502", .respond(502, "bad gateway")),
        ("HTTP 503", .respond(503, #"{"error":"busy"}"#)),
        ("HTTP 504", .respond(504, "gateway timeout")),
        ("closed without answer", .close),
        ("reset", .raw([], reset: true)),
        ("cut short", .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"choices\":".utf8))),
    ]

    @Test(arguments: temporaryReplies)
    func aTemporaryFailureIsTriedThreeTimes(name: String, reply: HTTPTestReply) async throws {
        let server = try HTTPTestServer { _, _ in reply }
        defer { server.stop() }
        let clock = ManualWaitClock()
        let result = try await run(server.endpoint, clock: clock)
        #expect(server.requests.count == 3, "\(name)")
        #expect(result.attempts == 3)
        #expect(clock.sleeps == [.seconds(2), .seconds(4)])
        #expect(result.suggestions?.titles.failureMessage?.hasSuffix("(after 3 attempts)") == true, "\(name)")
    }

    static let permanentReplies: [(String, HTTPTestReply)] = [
        ("HTTP 500", .respond(500, #"{"error":{"message":"the request exceeds the available context size"}}"#)),
        ("HTTP 400", .respond(400, #"{"error":"bad request"}"#)),
        ("HTTP 401", .respond(401, #"{"error":"no key"}"#)),
        ("HTTP 404", .respond(404, #"{"error":"not found"}"#)),
        ("HTTP 501", .respond(501, "not implemented")),
        ("over the size limit", .respond(200, String(repeating: " ", count: HTTPTransport.maximumAnswerBytes + 1))),
        ("not a chat completion", .respond(200, "<html></html>")),
        ("a redirect", .redirect("http://127.0.0.1:1/v1/chat/completions")),
    ]

    @Test(arguments: permanentReplies)
    func aPermanentFailureIsTriedOnce(name: String, reply: HTTPTestReply) async throws {
        let server = try HTTPTestServer { _, _ in reply }
        defer { server.stop() }
        let clock = ManualWaitClock()
        let result = try await run(server.endpoint, clock: clock)
        #expect(server.requests.count == 1, "\(name)")
        #expect(result.attempts == 1)
        #expect(clock.sleeps.isEmpty)
        #expect(result.error != nil)
    }

    /// The server hangs until the test ends; each attempt ends at the 0.3 s request timeout.
    @Test func noAnswerInTimeIsTriedThreeTimes() async throws {
        let server = try HTTPTestServer { _, _ in .hang(seconds: 600) }
        defer { server.stop() }
        let result = try await run(server.endpoint, timeout: 0.3)
        #expect(server.requests.count == 3)
        #expect(result.attempts == 3)
        #expect(result.error?.contains("did not answer in time") == true)
    }

    @Test func aRefusedConnectionIsTriedThreeTimes() async throws {
        let port = try HTTPTestServer.refusedPort()
        let clock = ManualWaitClock()
        let result = try await run("http://127.0.0.1:\(port)", clock: clock)
        #expect(result.attempts == 3)
        #expect(clock.sleeps == [.seconds(2), .seconds(4)])
        #expect(result.error?.contains("connection refused") == true)
    }

    /// Retry-After longer than the backoff's pause is waited for.
    @Test func retryAfterLengthensThePause() async throws {
        let server = try HTTPTestServer { _, index in
            index == 0 ? .respondWithHeaders(503, ["Retry-After": "7"], #"{"error":"busy"}"#) : .completion(Self.answer)
        }
        defer { server.stop() }
        let clock = ManualWaitClock()
        let result = try await run(server.endpoint, clock: clock)
        #expect(result.error == nil)
        #expect(result.attempts == 2)
        #expect(clock.sleeps == [.seconds(7)])
    }

    /// A Retry-After shorter than the backoff's pause does not shorten it.
    @Test func aShortRetryAfterKeepsTheBackoff() async throws {
        let server = try HTTPTestServer { _, index in
            index == 0 ? .respondWithHeaders(429, ["Retry-After": "1"], #"{"error":"slow down"}"#) : .completion(Self.answer)
        }
        defer { server.stop() }
        let clock = ManualWaitClock()
        _ = try await run(server.endpoint, clock: clock)
        #expect(clock.sleeps == [.seconds(2)])
    }

    /// A server that asks for more than the longest pause (30 s) is not tried
    /// again, and the reason says why.
    @Test func aRetryAfterOverTheCapEndsTheRetriesAndSaysSo() async throws {
        let server = try HTTPTestServer { _, _ in .respondWithHeaders(429, ["Retry-After": "120"], #"{"error":"quota"}"#) }
        defer { server.stop() }
        let clock = ManualWaitClock()
        let result = try await run(server.endpoint, clock: clock)
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
        let reason = try #require(result.suggestions?.emoji.failureMessage)
        #expect(reason.contains("HTTP 429"))
        #expect(reason.hasSuffix("(no further attempt after 1: the server asked to wait 120 s (Retry-After), more than the 30 s a retry waits at most)"))
    }

    /// The statuses the policy names are the ones `isTemporary` retries, and 500 is not one.
    @Test func thePolicyNamesTheStatusesItRetries() {
        for status in 100..<600 {
            let error = HTTPAssistantError(kind: .status(status), endpoint: "e")
            #expect(error.isTemporary == HTTPAssistantError.temporaryStatuses.contains(status))
            #expect(AssistantOptions().retryPolicy.contains("\(status)") == HTTPAssistantError.temporaryStatuses.contains(status), "\(status)")
        }
    }
}
