import Assistant
import Captions

/// Turns validated suggestions into caption edits and the report's three action entries.
///
/// Only the actions the run asked for are applied; for one the model gave
/// nothing usable for, the fallback's content is used when the run has a
/// fallback (the action then says `"source": "fallback"`, and keeps the
/// model's reason when the model answered).
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

    /// What a run asks of the applier besides the model's suggestions: which
    /// actions, how densely keywords are emphasised, and the fallback content
    /// for actions the model gave nothing usable for.
    struct Request {
        /// The actions asked for; the others are `notRequested` with `notRequestedReason`.
        var actions: [AssistantAction] = AssistantAction.allCases
        /// Which keyword occurrences are emphasised.
        var emphasis = EmphasisDensity.all
        /// Why an action not asked for was not applied (naming the setting in the front end's words).
        var notRequestedReason = "not requested"
        /// The fallback's suggestions, made (once, when first needed) only
        /// when an action asked for has nothing usable from the model; nil: no fallback.
        var fallback: (() -> Suggestions)?
    }

    /// What the model gave for one action: a value, a failure with its reason, or nothing (no model).
    private enum FromModel<Value: Sendable & Hashable> {
        case value(Value)
        case failed(String)
        case none

        init(_ outcome: ActionOutcome<Value>?) {
            switch outcome {
            case .applied(let v)?: self = .value(v)
            case .failed(let reason)?: self = .failed(reason)
            case nil: self = .none
            }
        }

        /// The model's reason, when it failed.
        var reason: String? { if case .failed(let r) = self { return r }; return nil }
    }

    /// Applies `suggestions` (nil when no model was available: every action
    /// disabled, unless the fallback gives it) to `document`. `convertTo` is
    /// the format being written when converting (the output is then UTF-8, so
    /// any emoji fits; `--to` the file's own format writes it as without
    /// `--to`), and `options` how it is written (`--encoding utf-8` makes any
    /// emoji fit too). An action not in `request.actions` is not applied, even
    /// when the model gave it.
    static func apply(_ suggestions: Suggestions?, to document: CaptionDocument,
                      convertTo: CaptionFormat? = nil, options: WriteOptions = WriteOptions(),
                      request: Request = Request()) -> Applied {
        var edits: [Int: CueEdit] = [:]
        var actions: [ActionReport] = []
        var made: Suggestions?
        /// The fallback's suggestions, made at most once; nil when the run has no fallback.
        func fallback() -> Suggestions? {
            guard let make = request.fallback else { return nil }
            if made == nil { made = make() }
            return made
        }
        /// Why content from the fallback could not be used either, after the model's reason (if it gave one).
        func bothFailed(_ model: String?, _ fallback: String) -> String {
            (model.map { $0 + "; " } ?? "") + "the fallback: " + fallback
        }

        // Keyword emphasis.
        if !request.actions.contains(.keywords) {
            actions.append(.notRequested(.keywordEmphasis, reason: request.notRequestedReason))
        } else {
            let model = FromModel(suggestions?.keywords)
            var dropped = suggestions?.droppedKeywords ?? []
            var action: ActionReport
            var modelReason = model.reason
            switch model {
            case .value(let keywords):
                let (result, found, notFound) = emphasise(keywords, in: document, request.emphasis)
                dropped += notFound
                if found.isEmpty {
                    action = ActionReport(id: .keywordEmphasis, state: .failed, reason: Self.noneFound)
                    modelReason = Self.noneFound
                } else {
                    edits = result.edits
                    action = emphasised(found, result, request.emphasis)
                }
            case .failed(let reason): action = ActionReport(id: .keywordEmphasis, state: .failed, reason: reason)
            case .none: action = .disabled(.keywordEmphasis)
            }
            if action.state != .applied, let fallback = fallback() {
                switch fallback.keywords {
                case .applied(let keywords):
                    let (result, found, notFound) = emphasise(keywords, in: document, request.emphasis)
                    dropped += notFound
                    if found.isEmpty {
                        action = ActionReport(id: .keywordEmphasis, state: .failed, reason: bothFailed(modelReason, Self.noneFound))
                    } else {
                        edits = result.edits
                        action = emphasised(found, result, request.emphasis)
                        action.reason = modelReason
                    }
                case .failed(let reason):
                    action = ActionReport(id: .keywordEmphasis, state: .failed, reason: bothFailed(modelReason, reason))
                }
                action.source = .fallback
            }
            if action.state != .disabled, !dropped.isEmpty || action.state == .applied { action.dropped = dropped }
            actions.append(action)
        }

        // Titles.
        if !request.actions.contains(.titles) {
            actions.append(.notRequested(.titles, reason: request.notRequestedReason))
        } else {
            let model = FromModel(suggestions?.titles)
            var action: ActionReport
            switch model {
            case .value(let titles):
                action = ActionReport(id: .titles, state: .applied)
                action.titles = titles
            case .failed(let reason): action = ActionReport(id: .titles, state: .failed, reason: reason)
            case .none: action = .disabled(.titles)
            }
            if action.state != .applied, let fallback = fallback() {
                switch fallback.titles {
                case .applied(let titles):
                    action = ActionReport(id: .titles, state: .applied, reason: model.reason)
                    action.titles = titles
                case .failed(let reason):
                    action = ActionReport(id: .titles, state: .failed, reason: bothFailed(model.reason, reason))
                }
                action.source = .fallback
            }
            actions.append(action)
        }

        // The emoji.
        if !request.actions.contains(.emoji) {
            actions.append(.notRequested(.emoji, reason: request.notRequestedReason))
        } else {
            let model = FromModel(suggestions?.emoji)
            var emoji: String?
            var source = ActionReport.Source.model
            var action: ActionReport?
            switch model {
            case .value(let e): emoji = e
            case .failed(let reason): action = ActionReport(id: .emoji, state: .failed, reason: reason)
            case .none: action = .disabled(.emoji)
            }
            if emoji == nil, let fallback = fallback() {
                source = .fallback
                switch fallback.emoji {
                case .applied(let e): emoji = e
                case .failed(let reason): action = ActionReport(id: .emoji, state: .failed, reason: bothFailed(model.reason, reason))
                }
            }
            if let emoji {
                let appended = " " + emoji
                if document.cues.isEmpty {
                    action = ActionReport(id: .emoji, state: .failed, reason: "the file has no cue to add it to")
                } else if case let encoding = document.outputEncoding(convertingTo: convertTo, options: options), !encoding.canEncode(appended) {
                    // Written in its own format, a file keeps its own encoding unless --encoding utf-8 is given.
                    action = ActionReport(id: .emoji, state: .failed, reason: Self.unencodableReason(emoji, encoding))
                } else {
                    let last = lastShown(document.cues)
                    var edit = edits[last] ?? CueEdit()
                    edit.appendedText = appended
                    edits[last] = edit
                    var applied = ActionReport(id: .emoji, state: .applied, reason: source == .fallback ? model.reason : nil)
                    applied.emoji = emoji
                    applied.cue = last + 1
                    action = applied
                }
            }
            if var action {
                if source == .fallback { action.source = .fallback }
                actions.append(action)
            }
        }
        // An action applied from the repair request's answer says so.
        for (i, field) in AssistantAction.allCases.enumerated()
        where suggestions?.repaired.contains(field.rawValue) == true && i < actions.count && actions[i].state == .applied
            && actions[i].source == .model {
            actions[i].repaired = true
        }
        return Applied(edits: edits, actions: actions)
    }

    /// Why keywords that all passed validation are still not emphasised.
    static let noneFound = "none of the suggested keywords occurs as a whole word in caption text that is not already bold"

    /// Emphasises `keywords` in `document` as `density` selects: the result,
    /// the keywords found (emphasised or left plain), and those not found, as dropped.
    private static func emphasise(_ keywords: [String], in document: CaptionDocument, _ density: EmphasisDensity)
        -> (KeywordEmphasis.Result, [String], [DroppedKeyword]) {
        let result = KeywordEmphasis(keywords: keywords).apply(to: document.cues, density: density)
        let isFound = { (i: Int) in result.counts[i] + result.left[i] > 0 }
        let found = keywords.indices.filter(isFound).map { keywords[$0] }
        let notFound = keywords.indices.filter { !isFound($0) }.map { DroppedKeyword(keyword: keywords[$0], reason: notInPlainText) }
        return (result, found, notFound)
    }

    /// The applied keyword action for the keywords `found`: the occurrences
    /// emphasised and, under a density that can leave some, those left plain.
    private static func emphasised(_ found: [String], _ result: KeywordEmphasis.Result, _ density: EmphasisDensity) -> ActionReport {
        var action = ActionReport(id: .keywordEmphasis, state: .applied)
        action.keywords = found
        action.occurrences = result.occurrences
        if !density.keepsEverything { action.occurrencesLeft = result.occurrencesLeft }
        return action
    }

    /// Why an emoji was not added to a file written in an encoding that cannot
    /// hold it, with the way out (the other actions are applied as usual).
    static func unencodableReason(_ emoji: String, _ encoding: TextEncoding) -> String {
        "the file is written in \(encoding.rawValue), which cannot hold \(emoji), so the captions were left without it; "
            + "--encoding utf-8 writes it in UTF-8, which can (the report lists the change)"
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
