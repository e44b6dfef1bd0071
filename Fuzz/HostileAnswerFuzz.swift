import Assistant
import Captions
import Foundation

// libFuzzer entry point for hostile model answers through the whole file job; built by
// scripts/fuzz.sh together with the CaptionAssistant module's own sources (and the modules it
// imports). The fuzzed bytes are what the model answers, to the first request and to the repair.

/// The caption every answer is about (fixed: only the answer is the attacker's).
let hostileAnswerCaption = Array("""
    1
    00:00:01,000 --> 00:00:03,000
    The rocket launch was delayed at dawn.

    2
    00:00:03,500 --> 00:00:06,000
    The crew is ready; the guidance computer passed every check.

    """.utf8)

/// A model that answers every prompt with the fuzzed text, and keeps the size of each prompt.
final class HostileModel: AssistantModel, @unchecked Sendable {
    let answer: String
    private let lock = NSLock()
    private var sizes: [Int] = []
    init(_ answer: String) { self.answer = answer }
    var promptSizes: [Int] { lock.withLock { sizes } }
    func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        lock.withLock { sizes.append(prompt.text.utf8.count) }
        return ModelAnswer(text: answer)
    }
}

/// Runs `body` to the end on a detached task (the fuzzer's thread waits).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: T?
    Task.detached { result = await body(); done.signal() }
    done.wait()
    return result!  // set before the signal
}

/// The bounds every output of one file must keep whatever the answer (`ServerTextGate`'s, with the
/// fixed caption's own size): the sidecar and report entry, the repair request's growth, the caption.
let sidecarBound = 48 * 1024
let repairGrowthBound = 16 * 1024

/// Runs the file job with the fuzzed bytes as the model's answer and checks the gate's promises on
/// every output: each kept title and keyword has no control or hidden character and is within its
/// bytes; the sidecar (and so the report entry and the review made from it) is bounded in bytes and
/// holds no hidden character and nothing shaped like a bearer token; the repair request adds at
/// most `repairGrowthBound` bytes to the first; the caption grows by at most the markup and emoji.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostileAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let answer = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let model = HostileModel(answer)
    let service = AssistantService(backendName: "http", model: model, availability: FixedAvailability(.available))
    let processor = FileProcessor(configuration: PipelineConfiguration(backend: "http", source: service))
    let outcome = runBlocking { await processor.process(hostileAnswerCaption, input: "in/a.srt", hint: .srt) { _ in "a.srt" } }

    let sidecar = outcome.report.json.rendered()
    precondition(sidecar.utf8.count <= sidecarBound, "sidecar of \(sidecar.utf8.count) bytes")
    if let hidden = ServerTextGate.hiddenCharacter(in: sidecar) {
        preconditionFailure("sidecar holds U+\(String(hidden.value, radix: 16, uppercase: true))")
    }
    precondition(ServerTextGate.redacted(sidecar) == sidecar, "sidecar holds a bearer-shaped token")
    let sizes = model.promptSizes
    precondition(sizes.count <= 2, "\(sizes.count) requests for one file")
    if sizes.count == 2 { precondition(sizes[1] - sizes[0] <= repairGrowthBound, "the repair request grew by \(sizes[1] - sizes[0]) bytes") }
    for action in outcome.report.actions {
        for text in (action.titles ?? []) + (action.keywords ?? []) {
            precondition(ServerTextGate.flaw(text, maxCharacters: 100) == nil, "kept \(text.debugDescription)")
        }
    }
    if let bytes = outcome.bytes {
        // <b></b> around each occurrence of at most ten keywords, and one emoji: far below this.
        precondition(bytes.count <= hostileAnswerCaption.count + 4096, "caption grew to \(bytes.count) bytes")
    }
    return 0
}
