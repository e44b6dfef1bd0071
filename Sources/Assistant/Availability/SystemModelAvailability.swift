#if canImport(FoundationModels)
import FoundationModels
#endif

/// The availability of Apple's on-device model on this build and system.
///
/// Without Foundation Models (Linux, older SDKs) or on an OS before iOS 26 /
/// macOS 26 it is `unsupportedPlatform`; otherwise it reads
/// `SystemLanguageModel.default.availability` afresh on every call.
public struct SystemModelAvailability: AvailabilityProvider {
    /// Creates the provider.
    public init() {}

    /// Reads the on-device model's availability now, or `unsupportedPlatform` where there is none.
    public func currentAvailability() async -> Availability {
        #if canImport(FoundationModels)
        if #available(iOS 26, macOS 26, visionOS 26, *) {
            return FoundationModelsAssistant.availability()
        }
        #endif
        return .unavailable(.unsupportedPlatform)
    }
}
