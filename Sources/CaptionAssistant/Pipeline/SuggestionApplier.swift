import Assistant
import Captions

/// Turns validated suggestions into caption edits and the report's three action entries.
///
/// Each action's content is resolved once, the same way for all three
/// (`resolve`): from the first of its sources that gives something usable,
/// in this order:
/// 1. this run's model, when it is a real one (not the fake, a test double);
/// 2. an earlier run's result from a real model for this output
///    (`Request.earlier`, see `EarlierOutput`): only a real model's result
///    replaces a real model's, so it is kept over what comes after;
/// 3. this run's model, when it is the fake;
/// 4. the fallback, when the run has one.
/// An action the run did not ask for takes only the earlier result. The
/// action records where its content came from (`"source"`), and the reasons
/// of the sources that gave nothing usable before it.
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
    /// actions, how densely keywords are emphasised, and the other sources of
    /// content for actions the model gave nothing usable for.
    struct Request {
        /// The actions asked for; the others are `notRequested` with `notRequestedReason` (or keep an earlier result).
        var actions: [AssistantAction] = AssistantAction.allCases
        /// Which keyword occurrences are emphasised.
        var emphasis = EmphasisDensity.all
        /// Why an action not asked for was not applied (naming the setting in the front end's words).
        var notRequestedReason = "not requested"
        /// How the settings the reasons name are spelled (the front end's words).
        var names = SettingNames.plain
        /// Whether this run's model is a test double (the fake), whose results never replace a real model's.
        var modelIsTestDouble = false
        /// The fallback's suggestions, made (once, when first needed) only
        /// when an action has nothing usable from the sources before it; nil: no fallback.
        var fallback: (() -> Suggestions)?
        /// An earlier run's results from a real model for this output, by
        /// action (asked once, when first needed); nil: none to keep.
        var earlier: (() -> [AssistantAction: ActionReport]?)?
        /// Why nothing may be spliced into the file (its encoding could not
        /// be told: `FileProcessor.unknownEncodingReason`); nil when its encoding is known.
        var unknownEncoding: String?
    }

    /// One action's content, whichever source gave it.
    private enum Content: Sendable, Hashable {
        case keywords([String]), titles([String]), emoji(String)
    }

    /// What using a source's content for an action gave.
    private enum Use {
        /// The action, applied (its edits already made).
        case applied(ActionReport)
        /// This content cannot be used; the next source may do better.
        case unusable(String)
        /// The action fails whatever the content (the file cannot take it): no other source is tried.
        case refused(String)
    }

    /// Applies `suggestions` (nil when no model was available: every action
    /// disabled, unless another source gives it) to `document`. `convertTo` is
    /// the format being written when converting (the output is then UTF-8, so
    /// any emoji fits; `--to` the file's own format writes it as without
    /// `--to`), and `options` how it is written (`--encoding utf-8` makes any
    /// emoji fit too). An action not in `request.actions` takes no content
    /// from this run, even when the model gave it.
    static func apply(_ suggestions: Suggestions?, to document: CaptionDocument,
                      convertTo: CaptionFormat? = nil, options: WriteOptions = WriteOptions(),
                      request: Request = Request()) -> Applied {
        var edits: [Int: CueEdit] = [:]
        var fallbackMade: Suggestions??
        var earlierMade: [AssistantAction: ActionReport]??
        func fallback() -> Suggestions? {
            if fallbackMade == nil { fallbackMade = .some(request.fallback?()) }
            return fallbackMade ?? nil
        }
        func earlier() -> [AssistantAction: ActionReport]? {
            if earlierMade == nil { earlierMade = .some(request.earlier?()) }
            return earlierMade ?? nil
        }
        // Keywords whose own source dropped them (validation, or not found in the captions).
        var dropped = suggestions?.droppedKeywords ?? []

        /// The content `source` gives for `action`: nil when it gives nothing (no model, no fallback, no earlier result).
        func content(_ action: AssistantAction, from source: ActionReport.Source) -> ActionOutcome<Content>? {
            switch source {
            case .model: return suggestions.map { Self.content(action, of: $0) }
            case .fallback: return fallback().map { Self.content(action, of: $0) }
            case .earlier:
                guard let kept = earlier()?[action] else { return nil }
                switch action {
                case .keywords: return .applied(.keywords(kept.keywords ?? []))
                case .titles: return .applied(.titles(kept.titles ?? []))
                case .emoji: return .applied(.emoji(kept.emoji ?? ""))
                }
            }
        }

        /// Uses `content` for its action: makes its edits (keeping them only when applied) and its entry.
        func use(_ content: Content, from source: ActionReport.Source) -> Use {
            switch content {
            case .keywords(let keywords):
                let (result, found, notFound) = emphasise(keywords, in: document, request.emphasis)
                dropped += notFound
                if source == .earlier, let kept = earlier()?[.keywords]?.dropped { dropped += kept }
                guard !found.isEmpty else { return .unusable(Self.noneFound) }
                edits = result.edits
                return .applied(emphasised(found, result, request.emphasis))
            case .titles(let titles):
                var action = ActionReport(id: .titles, state: .applied)
                action.titles = titles
                return .applied(action)
            case .emoji(let emoji):
                let appended = " " + emoji
                if document.cues.isEmpty { return .refused("the file has no cue to add it to") }
                // Not "cannot hold it, --encoding utf-8 can": converting such a file fails too.
                if let unknown = request.unknownEncoding { return .refused(unknown) }
                let encoding = document.outputEncoding(convertingTo: convertTo, options: options)
                // Written in its own format, a file keeps its own encoding unless --encoding utf-8 is given.
                if !encoding.canEncode(appended) { return .refused(Self.unencodableReason(emoji, encoding, names: request.names)) }
                let last = lastShown(document.cues)
                var edit = edits[last] ?? CueEdit()
                edit.appendedText = appended
                edits[last] = edit
                var action = ActionReport(id: .emoji, state: .applied)
                action.emoji = emoji
                action.cue = last + 1
                return .applied(action)
            }
        }

        var actions: [ActionReport] = []
        for action in AssistantAction.allCases {
            let asked = request.actions.contains(action)
            let sources: [ActionReport.Source] = !asked ? [.earlier]
                : request.modelIsTestDouble ? [.earlier, .model, .fallback] : [.model, .earlier, .fallback]
            var entry = resolve(action, sources, content: { content(action, from: $0) }, use: use)
            if !asked, entry.state != .applied { entry = .notRequested(action, reason: request.notRequestedReason) }
            if !asked, entry.state == .applied { entry.reason = request.notRequestedReason }
            if action == .keywords, entry.state == .applied || entry.state == .failed && !dropped.isEmpty { entry.dropped = dropped }
            // An action applied from the repair request's answer says so.
            if entry.state == .applied, entry.source == .model, suggestions?.repaired.contains(action.rawValue) == true { entry.repaired = true }
            actions.append(entry)
        }
        return Applied(edits: edits, actions: actions)
    }

    /// The entry of `action` from the first of `sources` whose content can be
    /// used: applied, with that source and the reasons of those before it that
    /// gave something unusable; failed, with every reason, when none could
    /// (its source the last one that gave anything), or with the one reason
    /// the file refuses any content for; disabled when none gave anything.
    private static func resolve(_ action: AssistantAction, _ sources: [ActionReport.Source],
                                content: (ActionReport.Source) -> ActionOutcome<Content>?,
                                use: (Content, ActionReport.Source) -> Use) -> ActionReport {
        var reasons: [String] = []
        var last: ActionReport.Source?
        /// The reasons so far, each marked with the source it is of (this run's model's unmarked).
        func joined() -> String? { reasons.isEmpty ? nil : reasons.joined(separator: "; ") }
        func note(_ source: ActionReport.Source, _ reason: String) {
            switch source {
            case .model: reasons.append(reason)
            case .fallback: reasons.append("the fallback: " + reason)
            case .earlier: reasons.append("the earlier run's result: " + reason)
            }
        }
        for source in sources {
            guard let outcome = content(source) else { continue }
            last = source
            switch outcome {
            case .failed(let reason): note(source, reason)
            case .applied(let value):
                switch use(value, source) {
                case .applied(var entry):
                    entry.source = source
                    entry.reason = joined()
                    return entry
                case .unusable(let reason): note(source, reason)
                case .refused(let reason):
                    // About the file, not the content: the reasons of other sources do not matter.
                    var entry = ActionReport(id: action, state: .failed, reason: reason)
                    entry.source = source
                    return entry
                }
            }
        }
        guard let last else { return .disabled(action) }
        var entry = ActionReport(id: action, state: .failed, reason: joined())
        entry.source = last
        return entry
    }

    /// The content `suggestions` give for `action`.
    private static func content(_ action: AssistantAction, of suggestions: Suggestions) -> ActionOutcome<Content> {
        func map<V>(_ outcome: ActionOutcome<V>, _ make: (V) -> Content) -> ActionOutcome<Content> {
            switch outcome {
            case .applied(let v): return .applied(make(v))
            case .failed(let reason): return .failed(reason)
            }
        }
        switch action {
        case .keywords: return map(suggestions.keywords, Content.keywords)
        case .titles: return map(suggestions.titles, Content.titles)
        case .emoji: return map(suggestions.emoji, Content.emoji)
        }
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
        var action = ActionReport(id: .keywords, state: .applied)
        action.keywords = found
        action.occurrences = result.occurrences
        if !density.keepsEverything { action.occurrencesLeft = result.occurrencesLeft }
        return action
    }

    /// Why an emoji was not added to a file written in an encoding that cannot
    /// hold it, with the way out (the other actions are applied as usual),
    /// the setting spelled by `names`.
    static func unencodableReason(_ emoji: String, _ encoding: TextEncoding, names: SettingNames) -> String {
        // A file ICU detects as GB18030 whose bytes are GBK text is taken as GBK (`CharsetDetection`): GBK readers show junk for GB18030's four-byte emoji.
        let gb18030: Advice = encoding.rawValue == "GBK"
            ? "; a file that is GB18030, not GBK, says so with \(.inputEncoding, .literal("GB18030")), and GB18030 holds it" : ""
        let advice: Advice = "the file is written in \(encoding.rawValue), which cannot hold \(emoji), so the captions were left without it; "
            + "\(.outputEncoding, .literal(OutputEncoding.utf8.rawValue)) writes it in UTF-8, which can (the report lists the change)" + gb18030
        return advice.rendered(names)
    }

    /// The index of the cue shown last in time: the latest start (the latest
    /// end among equal starts, then the last in the file), so an SRT whose cues
    /// are out of time order gets the emoji on its real last cue.
    static func lastShown(_ cues: [Cue]) -> Int {
        // Read in place, each cue's times once: no copy of a cue per cue.
        cues.withUnsafeBufferPointer { cues in
            var best = cues.count - 1
            guard best >= 0 else { return best }
            var latest = (cues[best].start, cues[best].end)
            for index in cues.indices.reversed() {
                let times = (cues[index].start, cues[index].end)
                if times > latest { (best, latest) = (index, times) }
            }
            return best
        }
    }
}
