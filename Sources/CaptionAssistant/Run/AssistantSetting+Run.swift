import Assistant

/// The settings of a batch run that this module's words name: in reports
/// ("run the same command with `resume`"), in errors and in remedies. Like
/// the model's settings, they are named here in the library's own terms;
/// each front end spells them (`SettingNames`): the command line as the
/// options of its table that set them.
///
/// They are `AssistantSetting`s, added by this module: one vocabulary, one
/// way of spelling it, while `Assistant` (the model seam) knows nothing of
/// batches, output folders or caption encodings.
extension AssistantSetting {
    /// The folder the outputs, sidecars and `report.json` are written to.
    public static let outputFolder = AssistantSetting(rawValue: "outputFolder")
    /// The encoding a caption file written in its own format gets (values: `keep`, `utf-8`).
    public static let outputEncoding = AssistantSetting(rawValue: "outputEncoding")
    /// The encoding the caption files are in, declared rather than detected (a name such as `GBK` or `Shift_JIS`).
    public static let inputEncoding = AssistantSetting(rawValue: "inputEncoding")
    /// Skipping the files an earlier run already wrote completely with the same options.
    public static let resume = AssistantSetting(rawValue: "resume")
    /// Which shard of the inputs this run processes (values: `INDEX/COUNT`, `auto`).
    public static let shard = AssistantSetting(rawValue: "shard")
    /// How many shards there are, for an array job that gives only the index.
    public static let shardCount = AssistantSetting(rawValue: "shardCount")
    /// The format every input is read as, whatever its extension (values: `srt`, `vtt`, `ttml`).
    public static let readFormat = AssistantSetting(rawValue: "readFormat")

    /// The run settings this module's words name.
    public static let runSettings: [AssistantSetting] = [.outputFolder, .outputEncoding, .inputEncoding, .resume, .shard, .shardCount, .readFormat]
}
