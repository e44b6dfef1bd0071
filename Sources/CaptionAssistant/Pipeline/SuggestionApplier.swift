import Assistant
import Captions

/// Turns validated suggestions into caption edits and the report's three action entries.
///
/// Only text already in the captions is emphasised; the one emoji is the only
/// text the model can add, one space after the last visible character of the
/// cue shown last in time (`lastShown`), where `AppendPoint` puts it (keeping
/// the style of the line it ends), and only when the encoding the file is
/// written in can hold it. Titles go to the report only.
enum SuggestionApplier {
    /// The edits to write and the actions to report.
    struct Applied: Sendable, Equatable {
        /// Edits keyed by cue index.
        var edits: [Int: CueEdit]
        /// The three actions, in report order.
        var actions: [ActionReport]
    }

    /// Why a validated keyword is still not emphasised.
    static let notInPlainText = "not found as a whole word in caption text that is not already bold"

    /// Applies `suggestions` (nil when no model was available: every action
    /// disabled) to `document`. `convertTo` is the format being written when
    /// converting (the output is then UTF-8, so any emoji fits; `--to` the
    /// file's own format writes it as without `--to`), and `options` how it is
    /// written (`--encoding utf-8` makes any emoji fit too). `names` spells
    /// the settings the reasons name.
    static func apply(_ suggestions: Suggestions?, to document: CaptionDocument,
                      convertTo: CaptionFormat? = nil, options: WriteOptions = WriteOptions(),
                      names: SettingNames = .plain) -> Applied {
        guard let suggestions else {
            return Applied(edits: [:], actions: ActionReport.ID.allCases.map(ActionReport.disabled))
        }
        var edits: [Int: CueEdit] = [:]
        var actions: [ActionReport] = []
        var dropped = suggestions.droppedKeywords

        switch suggestions.keywords {
        case .failed(let reason):
            var action = ActionReport(id: .keywordEmphasis, state: .failed, reason: reason)
            if !dropped.isEmpty { action.dropped = dropped }
            actions.append(action)
        case .applied(let keywords):
            let result = KeywordEmphasis(keywords: keywords).apply(to: document.cues)
            let found = keywords.indices.filter { result.counts[$0] > 0 }.map { keywords[$0] }
            dropped += keywords.indices.filter { result.counts[$0] == 0 }.map { DroppedKeyword(keyword: keywords[$0], reason: notInPlainText) }
            if found.isEmpty {
                var action = ActionReport(id: .keywordEmphasis, state: .failed,
                                          reason: "none of the suggested keywords occurs as a whole word in caption text that is not already bold")
                action.dropped = dropped
                actions.append(action)
            } else {
                edits = result.edits
                var action = ActionReport(id: .keywordEmphasis, state: .applied)
                action.keywords = found
                action.occurrences = result.occurrences
                action.dropped = dropped
                actions.append(action)
            }
        }

        switch suggestions.titles {
        case .failed(let reason): actions.append(ActionReport(id: .titles, state: .failed, reason: reason))
        case .applied(let titles):
            var action = ActionReport(id: .titles, state: .applied)
            action.titles = titles
            actions.append(action)
        }

        switch suggestions.emoji {
        case .failed(let reason): actions.append(ActionReport(id: .emoji, state: .failed, reason: reason))
        case .applied(let emoji):
            let appended = " " + emoji
            if document.cues.isEmpty {
                actions.append(ActionReport(id: .emoji, state: .failed, reason: "the file has no cue to add it to"))
            } else if case let encoding = document.outputEncoding(convertingTo: convertTo, options: options), !encoding.canEncode(appended) {
                // Written in its own format, a file keeps its own encoding unless --encoding utf-8 is given.
                actions.append(ActionReport(id: .emoji, state: .failed, reason: Self.unencodableReason(emoji, encoding, names: names)))
            } else {
                let last = lastShown(document.cues)
                var edit = edits[last] ?? CueEdit()
                edit.appendedText = appended
                edits[last] = edit
                var action = ActionReport(id: .emoji, state: .applied)
                action.emoji = emoji
                action.cue = last + 1
                actions.append(action)
            }
        }
        // An action applied from the repair request's answer says so.
        for (i, field) in ["keywords", "titles", "emoji"].enumerated()
        where suggestions.repaired.contains(field) && i < actions.count && actions[i].state == .applied {
            actions[i].repaired = true
        }
        return Applied(edits: edits, actions: actions)
    }

    /// Why an emoji was not added to a file written in an encoding that cannot
    /// hold it, with the way out (the other actions are applied as usual),
    /// the setting spelled by `names`.
    static func unencodableReason(_ emoji: String, _ encoding: TextEncoding, names: SettingNames) -> String {
        let advice: Advice = "the file is written in \(encoding.rawValue), which cannot hold \(emoji), so the captions were left without it; "
            + "\(.outputEncoding, .literal(OutputEncoding.utf8.rawValue)) writes it in UTF-8, which can (the report lists the change)"
        return advice.rendered(names)
    }

    /// The index of the cue shown last in time: the latest start (the latest
    /// end among equal starts, then the last in the file), so an SRT whose cues
    /// are out of time order gets the emoji on its real last cue.
    static func lastShown(_ cues: [Cue]) -> Int {
        var best = cues.count - 1
        for index in cues.indices.reversed() where (cues[index].start, cues[index].end) > (cues[best].start, cues[best].end) {
            best = index
        }
        return best
    }
}
