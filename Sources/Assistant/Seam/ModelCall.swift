import Foundation

/// Calls a model with a time limit that holds even if the model ignores cancellation.
enum ModelCall {
    /// Returns the model's answer with its cost, or throws its error,
    /// `AssistantError.timedOut` after `timeout`, or `CancellationError`.
    static func answer(model: any AssistantModel, prompt: AssistantPrompt, timeout: Duration) async throws -> ModelAnswer {
        let outcome = Once()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ModelAnswer, any Error>) in
                outcome.install(continuation)
                let work = Task {
                    do {
                        outcome.finish(.success(try await model.respond(to: prompt)))
                    } catch {
                        outcome.finish(.failure(error))
                    }
                }
                // The limit: a task that sleeps for the timeout, cancelled when the call ends first.
                let limit = Task {
                    try await Task.sleep(for: timeout)
                    outcome.finish(.failure(AssistantError.timedOut(timeout)))
                }
                outcome.onFinish { work.cancel(); limit.cancel() }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }

    /// Resumes a continuation exactly once, whichever of answer, timer or cancellation comes first.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<ModelAnswer, any Error>?
        private var early: Result<ModelAnswer, any Error>?
        private var cleanup: (@Sendable () -> Void)?
        private var done = false

        func install(_ continuation: CheckedContinuation<ModelAnswer, any Error>) {
            let pending: Result<ModelAnswer, any Error>? = lock.withLock {
                if let early { return early }
                self.continuation = continuation
                return nil
            }
            if let pending { continuation.resume(with: pending) }
        }

        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let runNow: Bool = lock.withLock {
                if done { return true }
                cleanup = action
                return false
            }
            if runNow { action() }
        }

        func finish(_ result: Result<ModelAnswer, any Error>) {
            let (waiting, action): (CheckedContinuation<ModelAnswer, any Error>?, (@Sendable () -> Void)?) = lock.withLock {
                guard !done else { return (nil, nil) }
                done = true
                if continuation == nil { early = result }
                let pair = (continuation, cleanup)
                continuation = nil
                cleanup = nil
                return pair
            }
            waiting?.resume(with: result)
            action?()
        }
    }
}
