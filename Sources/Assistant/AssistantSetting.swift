/// A setting a person can change, as the library's advice names it.
///
/// The library says what to do in its own terms ("raise the request
/// timeout"); how a setting is spelled is the front end's: the command line
/// names its option (`--request-timeout`), an app the field in its settings.
/// Each front end gives its spellings as `SettingNames`.
public enum AssistantSetting: String, Sendable, Hashable, CaseIterable {
    /// The address of the OpenAI-compatible model server.
    case endpoint
    /// The model the server is asked for.
    case modelName
    /// The key sent to the server.
    case apiKey
    /// Which backend answers (named values: `auto`, `http`, `none`).
    case backend
    /// The deterministic test model.
    case fakeModel
    /// A forced availability, for previews and tests.
    case simulatedAvailability
    /// How long to wait for a model that is getting ready.
    case waitForModel
    /// How long one request to the model may take.
    case requestTimeout
    /// How long one file may spend on the model, every attempt together.
    case modelTimeLimit
    /// How many transcript characters are sent.
    case maxCharacters
    /// How many requests (one per file) are in flight at once.
    case concurrentRequests
    /// Which actions (`AssistantAction`) a run asks for.
    case actions
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
/// name here is written as its name in this library, in backticks
/// (`` `endpoint` ``). A value follows the name after a space: a literal as
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
