internal import CBuildInfo

/// Facts about this build of CaptionAssistant.
public enum CaptionAssistantVersion {
    /// The version `--version` prints (and `scripts/package.sh` names its artifact after).
    public static let current = "0.1.0"

    /// The commit this build was made from (`git rev-parse --short=12 HEAD`, with
    /// `-dirty` when the tree had changes), or `nil` when the build was not told.
    ///
    /// Only `scripts/package.sh` tells it, through a compiler definition (see
    /// `CBuildInfo`); a plain `swift build` or `swift run` does not know its commit.
    public static let commit: String? = caption_assistant_build_commit().flatMap { String(validatingCString: $0) }

    /// What `caption-assistant version` prints after the program's name:
    /// `0.1.0 (commit 0ba8de0c1a2b)`, or `0.1.0 (commit unknown)`.
    public static var description: String { description(commit: commit) }

    /// `description` for a given commit (`nil`: unknown).
    static func description(commit: String?) -> String {
        "\(current) (commit \(commit ?? "unknown"))"
    }
}
