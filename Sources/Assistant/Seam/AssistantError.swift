import Foundation

/// Failures on the way to and from a model.
///
/// `AssistantService` retries only errors conforming to `TemporaryError` whose
/// `isTemporary` is true; any other error is permanent. Backends conform their
/// own error types (as the HTTP backend does) or throw these.
public enum AssistantError: TemporaryError, LocalizedError, Sendable, Hashable {
    /// The model cannot be called (the availability reason says why).
    case unavailable(UnavailableReason)
    /// The model did not answer within the time allowed.
    case timedOut(Duration)
    /// The model or its server is busy or overloaded (e.g. HTTP 429/503); the text is the server's.
    case busy(String)
    /// The model failed in a way that retrying will not fix; the text is the backend's.
    case failed(String)

    /// Temporary: not ready yet, a timeout, a busy server. Everything else is permanent.
    public var isTemporary: Bool {
        switch self {
        case .unavailable(let reason): return reason == .modelNotReady
        case .timedOut, .busy: return true
        case .failed: return false
        }
    }

    /// A message for the report, with the backend's own words where there are any.
    public var errorDescription: String? {
        switch self {
        case .unavailable(let reason):
            return "The model is unavailable: \(Diagnostics(reason).reasonRow)."
        case .timedOut(let limit):
            return "The model did not answer within \(Self.seconds(limit))."
        case .busy(let message):
            return "The model is busy: \(message)"
        case .failed(let message):
            return message
        }
    }

    /// A duration as a short text such as "60 s" or "0.25 s".
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if attoseconds == 0 { return "\(whole) s" }
        let value = Double(whole) + Double(attoseconds) / 1e18
        return "\((value * 1000).rounded() / 1000) s"
    }

    /// The most useful text for an error, for reports: its description if it has one, else its debug form.
    ///
    /// `localizedDescription` of a plain Swift error on Linux is a generic
    /// "operation could not be completed" line; this keeps the real text.
    public static func message(for error: any Error) -> String {
        if let localized = error as? LocalizedError, let text = localized.errorDescription, !text.isEmpty {
            return text
        }
        let text = String(describing: error)
        return text.isEmpty ? String(reflecting: type(of: error)) : text
    }
}
