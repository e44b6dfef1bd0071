/// A setting a person can change, as the library's advice names it.
///
/// The library says what to do in its own terms ("raise the request
/// timeout"); how a setting is spelled is the front end's: the command line
/// names its option (`--request-timeout`), an app the field in its settings.
/// Each front end gives its spellings as `SettingNames`.
///
/// The settings are an open set, as Foundation's `Notification.Name` is:
/// this module names the model's (`allCases`), and a module above it adds
/// the ones its own words name (`extension AssistantSetting { static let
/// resume = … }`), so one vocabulary and one way of spelling it serve every
/// layer without this one knowing the others' settings.
public struct AssistantSetting: RawRepresentable, Sendable, Hashable, CaseIterable {
    /// The setting's name in the library's own words (`requestTimeout`), unique across modules.
    public let rawValue: String

    /// The setting named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The address of the OpenAI-compatible model server.
    public static let endpoint = AssistantSetting(rawValue: "endpoint")
    /// The model the server is asked for.
    public static let modelName = AssistantSetting(rawValue: "modelName")
    /// The key sent to the server.
    public static let apiKey = AssistantSetting(rawValue: "apiKey")
    /// The CA certificates trusted for an `https://` server instead of the system's.
    public static let caFile = AssistantSetting(rawValue: "caFile")
    /// Which backend answers (named values: `auto`, `http`, `none`).
    public static let backend = AssistantSetting(rawValue: "backend")
    /// The deterministic test model.
    public static let fakeModel = AssistantSetting(rawValue: "fakeModel")
    /// A forced availability, for previews and tests.
    public static let simulatedAvailability = AssistantSetting(rawValue: "simulatedAvailability")
    /// How long to wait for a model that is getting ready.
    public static let waitForModel = AssistantSetting(rawValue: "waitForModel")
    /// How long one request to the model may take.
    public static let requestTimeout = AssistantSetting(rawValue: "requestTimeout")
    /// How long one file may spend on the model, every attempt together.
    public static let modelTimeLimit = AssistantSetting(rawValue: "modelTimeLimit")
    /// How many transcript characters are sent.
    public static let maxCharacters = AssistantSetting(rawValue: "maxCharacters")
    /// How many requests (one per file) are in flight at once.
    public static let concurrentRequests = AssistantSetting(rawValue: "concurrentRequests")
    /// Which actions (`AssistantAction`) a run asks for.
    public static let actions = AssistantSetting(rawValue: "actions")

    /// The settings this module's advice names (modules above add their own).
    public static let allCases: [AssistantSetting] = [
        .endpoint, .modelName, .apiKey, .caFile, .backend, .fakeModel, .simulatedAvailability, .waitForModel,
        .requestTimeout, .modelTimeLimit, .maxCharacters, .concurrentRequests, .actions,
    ]
}

/// The value advice gives a setting it names.
public enum SettingValue: Sendable, Hashable {
    /// A value the person chooses (the command line writes it `URL`, `SECONDS`).
    case placeholder
    /// This value (`none`, `120`).
    case literal(String)
}

/// How a front end spells the settings advice names.
///
/// `names[setting]` is the setting's name (`--endpoint`); a setting with no
/// name here is written as its name in this library with a backtick on each
/// side (so `endpoint` is written as it is here). A value follows the name after a space: a literal as
/// it is, a placeholder as `placeholders[setting]` (left out when there is none).
public struct SettingNames: Sendable, Hashable {
    /// Each setting's name.
    public var names: [AssistantSetting: String]
    /// Each setting's placeholder for a value the person chooses.
    public var placeholders: [AssistantSetting: String]

    /// Creates spellings; settings left out are written as the library names them.
    public init(names: [AssistantSetting: String] = [:], placeholders: [AssistantSetting: String] = [:]) {
        self.names = names; self.placeholders = placeholders
    }

    /// The library's own words: every setting by its name here, in backticks.
    public static let plain = SettingNames()

    /// How `setting`, with `value` when given, is written.
    public func spell(_ setting: AssistantSetting, _ value: SettingValue? = nil) -> String {
        let name = names[setting] ?? "`\(setting.rawValue)`"
        switch value {
        case nil: return name
        case .literal(let text)?: return name + " " + text
        case .placeholder?: return placeholders[setting].map { name + " " + $0 } ?? name
        }
    }
}
