import Assistant

extension JSONValue {
    /// The text or `null` at `key`, as a sidecar reader needs it: `.some(nil)`
    /// for `null`, nil when the key is missing or holds something else.
    func stringOrNull(_ key: String) -> String?? {
        switch self[key] {
        case .string(let s)?: return .some(s)
        case .null?: return .some(nil)
        default: return nil
        }
    }
}
