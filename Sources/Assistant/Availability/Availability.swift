/// Whether a model can answer now, and if not, why.
///
/// Not a Bool: each reason is a different problem for the person (permanent,
/// fixable by them, or temporary), so each gets its own wording in `Diagnostics`.
public enum Availability: Sendable, Hashable {
    /// The model can be called.
    case available
    /// The model cannot be called, for this reason.
    case unavailable(UnavailableReason)

    /// The one bit every service needs: may I call the model?
    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }
}

/// Why a model cannot answer.
public enum UnavailableReason: Sendable, Hashable {
    /// This device cannot run Apple Intelligence (hardware or region).
    case deviceNotEligible
    /// Apple Intelligence is switched off in Settings.
    case appleIntelligenceNotEnabled
    /// The model is still downloading or getting ready.
    case modelNotReady
    /// This build or operating system has no Foundation Models (as on Linux).
    case unsupportedPlatform
    /// The HTTP model server could not be reached.
    case serverUnreachable
    /// The HTTP server runs but does not serve the requested model.
    case modelMissing
    /// The person chose to run without a model (`--model none`).
    case modelTurnedOff
    /// The HTTP server's certificate is not signed by a trusted CA.
    case untrustedCertificate
    /// No CA certificates could be loaded to check an `https://` server.
    case noCABundle
    /// An `https://` endpoint answered in plain HTTP.
    case notTLS
    /// The HTTP server's response headers are over the limit.
    case headerTooLarge
    /// Anything else, with the system's or server's own words; treated as permanent.
    case unknown(String)
}
