/// Facts about this build of CaptionAssistant.
public enum CaptionAssistantVersion {
    /// The version `--version` prints and reports record.
    public static let current = "0.1.0"
}
