/// Words for a person that may name settings (`AssistantSetting`): what is
/// wrong or what to do, in the library's own terms, written out by each
/// front end with its own spelling of the settings (`rendered(_:)`).
///
/// Written as a string with settings interpolated:
/// `"raise \(.requestTimeout) or lower \(.concurrentRequests)"`,
/// `"pass \(.waitForModel, .placeholder) to wait for it"`.
public struct Advice: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// A piece of the words.
    public enum Part: Sendable, Hashable {
        /// Words as they are.
        case text(String)
        /// A setting, with the value the advice gives it, if any.
        case setting(AssistantSetting, SettingValue?)
    }

    /// The pieces, in order.
    public private(set) var parts: [Part]

    /// Advice with no setting in it.
    public init(stringLiteral text: String) { parts = [.text(text)] }

    /// Advice from a string with settings interpolated.
    public init(stringInterpolation: Interpolation) { parts = stringInterpolation.parts }

    /// The settings the advice names, in order.
    public var settings: [AssistantSetting] {
        parts.compactMap { if case .setting(let s, _) = $0 { return s }; return nil }
    }

    /// The words, with each setting spelled by `names`.
    public func rendered(_ names: SettingNames) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .setting(let setting, let value): out += names.spell(setting, value)
            }
        }
        return out
    }

    /// `a`'s words, then `b`'s.
    public static func + (a: Advice, b: Advice) -> Advice {
        var joined = a
        joined.parts += b.parts
        return joined
    }

    /// Builds advice from a string literal with interpolations.
    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        /// Starts empty.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Words as they are.
        public mutating func appendLiteral(_ literal: String) { if !literal.isEmpty { parts.append(.text(literal)) } }

        /// A value's description, as a string interpolation writes it.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { parts.append(.text(value.description)) }

        /// A setting, with `value` when given.
        public mutating func appendInterpolation(_ setting: AssistantSetting, _ value: SettingValue? = nil) {
            parts.append(.setting(setting, value))
        }

        /// Other advice, as it is.
        public mutating func appendInterpolation(_ advice: Advice) { parts += advice.parts }
    }
}
