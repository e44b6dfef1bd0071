/// The one reader of numbers that someone else wrote: a command-line value
/// (`--jobs 8`, `--shard 3/10`, `--wait-for-model 30`) or an environment
/// variable (`SLURM_ARRAY_TASK_MAX`).
///
/// Each number is read against the range its use allows, so no such number
/// reaches arithmetic unchecked: a value outside it (however many digits it
/// has) is refused with a `SettingsError` that names where it came from, an
/// exit 64 on the command line, never a wrapped value or an overflow trap.
package enum CheckedNumber {
    /// The whole number `text` (ASCII digits after an optional sign, spaces
    /// around it ignored) when it lies in `range`.
    ///
    /// `name` says where the text came from, as the message should show it:
    /// `'--jobs'` for an option, `SLURM_ARRAY_TASK_ID` for a variable.
    package static func whole(_ text: String, name: String, in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("+") || trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
        let isNumeral = !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        // A numeral too long for `Int` is still a number: too big (or too small), not "not a number".
        let tooBig = isNumeral && !trimmed.hasPrefix("-") && (Int(trimmed) ?? Int.max) > range.upperBound
            && digits.contains { $0 != "0" }
        if tooBig { throw SettingsError("\(name) is too big: at most \(range.upperBound) (got '\(text)')") }
        guard isNumeral, let value = Int(trimmed), range.contains(value) else {
            throw SettingsError("\(name) needs a whole number of at least \(range.lowerBound)"
                                + (range.upperBound < Int.max ? ", at most \(range.upperBound)" : "") + " (got '\(text)')")
        }
        return value
    }

    /// The number of seconds `text` (decimal digits with an optional
    /// fraction and exponent: `30`, `0.5`, `1e3`; no `inf`, `nan` or hex)
    /// when it lies in `range`, and is above its lower bound unless
    /// `allowsLowerBound`.
    package static func seconds(_ text: String, name: String, in range: ClosedRange<Double>,
                                allowsLowerBound: Bool = true) throws(SettingsError) -> Double {
        let isDecimal = !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B || $0 == 0x2D }
        guard isDecimal, let value = Double(text), value.isFinite, range.contains(value),
              allowsLowerBound || value > range.lowerBound else {
            let bound = range.lowerBound == 0 ? (allowsLowerBound ? "" : " above 0") : " of at least \(range.lowerBound)"
            throw SettingsError("\(name) needs a number of seconds\(bound), at most \(Self.shown(range.upperBound)) (got '\(text)')")
        }
        return value
    }

    /// `value` as a message shows it: `86400`, not `86400.0`.
    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
