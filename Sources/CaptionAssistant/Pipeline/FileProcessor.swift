import Assistant
import Captions
import Foundation

/// What the per-file job needs to know about the batch.
public struct PipelineConfiguration: Sendable {
    /// The backend's name for reports: `fake`, `foundation`, `http` or `none`.
    public var backend: String
    /// Availability and suggestions, asked once per file.
    public var source: any SuggestionSource
    /// What diagnostics may say about the backend (the HTTP endpoint and model name).
    public var diagnosticsContext: DiagnosticsContext
    /// The format to convert to (`--to`), if any.
    public var convertTo: CaptionFormat?
    /// How outputs are written besides their edits (`--encoding`, `--language`).
    public var writeOptions: WriteOptions
    /// The options that shape every output, recorded in each sidecar for `--resume`.
    public var settings: OutputSettings
    /// Whether sidecars record the model's cost (requests, tokens, seconds): for real models, not the fake.
    public var recordsCost: Bool = false
    /// The format every input is read as (`--from`), whatever its extension and content; nil: detected from content.
    public var readAs: CaptionFormat?
    /// How reports name settings (`resume`, `outputEncoding`): the front end's
    /// spellings, the ones its diagnostics use (`AssistantBackend.make`'s `names`).
    public var settingNames: SettingNames { diagnosticsContext.settingNames }

    /// Creates a configuration. Without `settings`, they are the backend's
    /// name, `convertTo`, `writeOptions` and (for an `AssistantService`) its transcript cap.
    public init(backend: String, source: any SuggestionSource,
                diagnosticsContext: DiagnosticsContext = DiagnosticsContext(), convertTo: CaptionFormat? = nil,
                writeOptions: WriteOptions = WriteOptions(), settings: OutputSettings? = nil) {
        self.backend = backend; self.source = source; self.diagnosticsContext = diagnosticsContext; self.convertTo = convertTo
        self.writeOptions = writeOptions
        self.settings = settings ?? OutputSettings(
            backend: backend, maxCharacters: (source as? AssistantService)?.options.maxCharacters ?? PromptBuilder.defaultMaxCharacters,
            convertTo: convertTo, writeOptions: writeOptions)
    }
}

/// The job for one file: read → availability → prompt → model → validate →
/// apply → the output bytes and the report. (Writing is the batch runner's.)
public struct FileProcessor: Sendable {
    /// The batch's settings.
    public let configuration: PipelineConfiguration
    /// `notRequestedReason` of the configuration's actions, made once: every file's report states it.
    private let notRequested: String
    /// The diagnostics of the reason the model was last unavailable for, made once per reason:
    /// every file of a run without a model states them.
    private let diagnostics = DiagnosticsMemo()

    /// Creates a processor.
    public init(configuration: PipelineConfiguration) {
        self.configuration = configuration
        notRequested = Self.notRequestedReason(configuration.settings.actions, configuration.settingNames)
    }

    /// The result of one file: its report and the caption bytes to write (nil when it failed).
    public struct Outcome: Sendable {
        /// The report (its `output` says where the caption goes).
        public var report: FileReport
        /// The caption file to write, as bytes (an array, so that a large file
        /// is not copied once more into `Data`).
        public var bytes: [UInt8]? {
            get { caption?.bytes }
            set { caption = newValue.map { .bytes($0) } }
        }
        /// The caption file to write: its bytes, or (for the batch, which
        /// writes it as it is made) the document and its edits.
        package var caption: CaptionOutput?
        /// The batch was stopped while the file waited for the model: nothing
        /// is to be written, and the report is that of a file not processed.
        public var interrupted = false
        /// The run changed nothing of the output an earlier run left (see
        /// `EarlierOutput`): nothing is to be written, and the report is the
        /// earlier sidecar's with `kept`.
        public var keptWhole = false

        /// Creates an outcome.
        public init(report: FileReport, bytes: [UInt8]?) { self.report = report; caption = bytes.map { .bytes($0) } }

        /// An outcome whose caption is `caption`.
        init(report: FileReport, caption: CaptionOutput) { self.report = report; self.caption = caption }
    }

    /// The reason row for a model whose call failed.
    static let modelFailedRow = "The assistant could not answer for this file, so the captions were written unchanged."
    /// The reason row for a file that could not be read.
    static let unreadableRow = "The captions could not be read, so the assistant was not asked."

    /// Processes one file's bytes. `outputName` gives the output path for the
    /// format that will be written (which for standard input is known only now).
    public func process(_ bytes: [UInt8], input: String, hint: CaptionFormat?,
                        outputName: (CaptionFormat) -> String) async -> Outcome {
        await process(bytes, input: input, hint: hint, earlier: nil, outputName: outputName)
    }

    /// Processes one file's bytes, keeping per action the results from a
    /// real model of the output an earlier run left, which `earlier` finds
    /// (given the input's SHA-256; asked at most once, only when an action
    /// has no result from this run's real model; see `EarlierOutput`).
    /// With `streams`, a caption that can be written as it is made
    /// (`CaptionDocument.writesAsMade`) is left to the writer
    /// (`CaptionOutput.spliced`), and its hash in the report to it too.
    func process(_ bytes: [UInt8], input: String, hint: CaptionFormat?, earlier: ((String) -> EarlierOutput.Finding)?,
                 streams: Bool = false, outputName: (CaptionFormat) -> String) async -> Outcome {
        let document: CaptionDocument
        var source: SourceText?
        do {
            source = try SourceText.decode(bytes: bytes, declared: configuration.settings.inputEncoding.map(TextEncoding.init(rawValue:)))
            let text = source ?? SourceText(utf8: "")
            document = try configuration.readAs.map { try CaptionDocument.read(text, as: $0) } ?? CaptionDocument.read(text, hint: hint)
        } catch {
            // The format, when it can be told, helps the report of a file that failed later in reading.
            let format = configuration.readAs ?? source.flatMap { try? CaptionFormat.detect($0.bytes, hint: hint) }
            var report = failure(input: input, error: Self.describe(error) + readAdvice(error, source: source), format: format)
            report.fingerprint.inputSHA256 = SHA256.hex(bytes)
            return Outcome(report: report, bytes: nil)
        }

        // The transcript is made only when there is a model to send it to, and then only its start,
        // as far as the cap reads (a large file's text is not copied whole).
        let settings = configuration.settings
        // Text whose encoding is not known is not sent: read in a guessed encoding it would be mojibake,
        // and so would the titles and keywords made from it.
        let encodingIsKnown = document.source.encodingIsKnown
        let result = encodingIsKnown
            ? await configuration.source.suggest(transcriptPart: { Transcript.part(of: document, characters: $0) })
            : AssistantResult(backend: "", availability: .available, characters: 0, sentCharacters: 0, truncated: false, attempts: 0, error: nil, suggestions: nil)
        if result.interrupted {
            var outcome = Outcome(report: notProcessed(input: input), bytes: nil)
            outcome.interrupted = true
            return outcome
        }
        let options = configuration.writeOptions
        let inputHash = SHA256.hex(bytes)
        var request = SuggestionApplier.Request(actions: settings.actions, emphasis: settings.emphasis,
                                                notRequestedReason: notRequested,
                                                names: configuration.settingNames,
                                                modelIsTestDouble: !FileReport.Model.isReal(configuration.backend))
        let unknownEncoding = encodingIsKnown ? nil
            : Self.unknownEncodingReason(configuration.settingNames, declared: settings.inputEncoding, candidates: document.source.encodingCandidates)
        request.unknownEncoding = unknownEncoding
        // The earlier output, looked at only when an action needs it.
        var finding: EarlierOutput.Finding?
        if let earlier {
            request.earlier = {
                if finding == nil { finding = earlier(inputHash) }
                if case .usable(let usable)? = finding { return usable.results }
                return nil
            }
        }
        if settings.fallback == .local, encodingIsKnown {
            // The fallback reads what a model is sent (the --max-characters cut), made from the text's start alone.
            let cap = settings.maxCharacters
            request.fallback = {
                LocalFallback.suggestions(for: Transcript.start(of: document, characters: cap), maxCharacters: cap,
                                          language: document.outputLanguage(options))
            }
        }
        var applied = SuggestionApplier.apply(result.suggestions, to: document, convertTo: configuration.convertTo, options: options,
                                              request: request)
        if let unknownEncoding { applied = Self.unspliced(applied, reason: unknownEncoding) }

        var model = FileReport.Model(backend: configuration.backend, availability: .available)
        if configuration.recordsCost && result.cost.requests > 0 { model.cost = ReportCost(result.cost) }
        var reasonRow: String?
        if case .unavailable(let reason) = result.availability {
            let info = diagnostics.of(reason, context: configuration.diagnosticsContext)
            model.availability = .unavailable(ModelUnavailability(info))
            reasonRow = info.reasonRow
        } else if result.error != nil {
            reasonRow = Self.modelFailedRow
        }

        let target = configuration.convertTo ?? document.format
        var report = FileReport(
            input: input, output: outputName(target), format: document.format, convertedTo: configuration.convertTo,
            cues: document.cues.count,
            warnings: document.warnings + (result.suggestions?.warnings ?? []).map { CaptionWarning(line: nil, message: $0) },
            transcript: result.availability.isAvailable && encodingIsKnown
                ? TranscriptStats(characters: result.characters, sentCharacters: result.sentCharacters, truncated: result.truncated) : nil,
            model: model, actions: applied.actions, reasonRow: reasonRow, error: result.error,
            fingerprint: OutputFingerprint(inputSHA256: inputHash, outputSHA256: nil, settings: configuration.settings))

        switch finding {
        case .usable(let usable)?:
            switch EarlierOutput.settle(report, with: usable) {
            case .keepWhole(let kept):
                var outcome = Outcome(report: kept, bytes: nil)
                outcome.keptWhole = true
                return outcome
            case .keepCaption(let entry): return finished(entry, usable.caption)
            case .remake: break
            }
        case .unusable(let why, let actions)?:
            if EarlierOutput.loses(report, actions) { report.replaced = why }
        case .none?, nil:
            break
        }
        do {
            // Text whose encoding is a guess is written only as it came: converted, it would be mojibake for good.
            if !document.source.encodingIsKnown,
               (configuration.convertTo.map { $0 != document.format } ?? false) || document.outputEncoding(options: options) != document.source.encoding {
                throw UnknownEncoding(names: configuration.settingNames, declared: configuration.settings.inputEncoding,
                                      candidates: document.source.encodingCandidates)
            }
            if let convertTo = configuration.convertTo {
                let conversion = try document.converted(to: convertTo, edits: applied.edits, options: options)
                report.losses = conversion.losses
                return finished(report, [UInt8](conversion.data))
            }
            // Nothing to change: the input's own bytes, so the output is identical by construction.
            if document.writesInputUnchanged(edits: applied.edits, options: options) { return finished(report, bytes, sameAsInput: true) }
            // A file written in another encoding (--encoding utf-8) says so, as a conversion's losses do.
            report.losses = document.losses(writing: options)
            if streams && document.writesAsMade(edits: applied.edits, options: options) {
                return Outcome(report: report, caption: .spliced(document, edits: applied.edits, options: options))
            }
            return finished(report, try document.writeBytes(edits: applied.edits, options: options))
        } catch {
            report.output = nil
            report.error = Self.describe(error)
            // Nothing was written, so nothing was applied to the captions (titles live in the report).
            report.actions = report.actions.map { action in
                guard action.state == .applied, action.id != .titles else { return action }
                return ActionReport(id: action.id, state: .failed, reason: "the captions could not be written: \(Self.describe(error))")
            }
            return Outcome(report: report, bytes: nil)
        }
    }

    /// Why an action the run did not ask for was not applied: `not requested:
    /// this run asks only for titles (--actions titles)`, the setting spelled
    /// as the front end spells it.
    static func notRequestedReason(_ actions: [AssistantAction], _ names: SettingNames) -> String {
        let listed = actions.map(\.rawValue)
        let prose = listed.count <= 1 ? listed.joined() : listed.dropLast().joined(separator: ", ") + " and " + (listed.last ?? "")
        let advice: Advice = "not requested: this run asks only for \(prose) (\(.actions, .literal(listed.joined(separator: ","))))"
        return advice.rendered(names)
    }

    /// What is wrong with a file whose encoding could not be told
    /// (`SourceText.encodingIsKnown`): detected, or `declared` (`--input-encoding`,
    /// whose name it then gives back) when its bytes are not in that encoding;
    /// `candidates`, the encodings that read it (`CharsetDetection`), are named.
    static func unknownEncodingCause(declared: String?, candidates: [TextEncoding] = []) -> String {
        guard let declared else {
            let named = candidates.map(\.rawValue)
            let which = named.count <= 1 ? named.joined() : named.dropLast().joined(separator: ", ") + " or " + (named.last ?? "")
            return "its text encoding could not be told (it is not UTF-8, has no byte-order mark, and "
                + (named.isEmpty ? "no legacy encoding was detected with confidence)" : named.count == 1
                    ? "\(which) was not detected with confidence)" : "it may be \(which): they read it as different text)")
        }
        return "its bytes are not \(declared) text, the encoding declared for it (or do not convert back to the same bytes)"
    }

    /// Why an edit was not made to a file whose encoding could not be told
    /// (or is not the one `declared`), with the way out (the setting spelled by `names`).
    static func unknownEncodingReason(_ names: SettingNames, declared: String? = nil, candidates: [TextEncoding] = []) -> String {
        let advice: Advice = "\(unknownEncodingCause(declared: declared, candidates: candidates)), so the model was not asked, nothing was spliced into it and it was written unchanged; \(.inputEncoding, .placeholder) names its encoding"
        return advice.rendered(names)
    }

    /// `applied` for a file whose encoding could not be told: no edits, and
    /// every action asked for failed with `reason` (the titles too: the
    /// model was not sent text that would be mojibake).
    static func unspliced(_ applied: SuggestionApplier.Applied, reason: String) -> SuggestionApplier.Applied {
        var applied = applied
        applied.edits = [:]
        applied.actions = applied.actions.map { action in
            guard action.state != .notRequested else { return action }
            return ActionReport(id: action.id, state: .failed, reason: reason)
        }
        return applied
    }

    /// A file whose encoding could not be told cannot be converted (`--to`,
    /// `--encoding utf-8`): what it would be converted from is a guess.
    struct UnknownEncoding: LocalizedError {
        /// How the settings the message names are spelled.
        var names: SettingNames
        /// The encoding declared for it (`--input-encoding`), if any.
        var declared: String?
        /// The encodings that read it (`CharsetDetection`).
        var candidates: [TextEncoding] = []
        var errorDescription: String? {
            let advice: Advice = "\(FileProcessor.unknownEncodingCause(declared: declared, candidates: candidates)), so it cannot be converted without turning its text into mojibake; \(.inputEncoding, .placeholder) names its encoding"
            return advice.rendered(names)
        }
    }

    /// The reason row of such a file.
    static let notProcessedRow = "The run was interrupted before this file was processed, so nothing was written for it."

    /// The report of a file the batch did not get to, or stopped while it
    /// waited for the model (no sidecar is written for it).
    func notProcessed(input: String) -> FileReport {
        var report = failure(input: input, error: FileReport.notProcessedError(configuration.settingNames))
        report.actions = failedActions("the run was interrupted before this file was processed")
        report.reasonRow = Self.notProcessedRow
        return report
    }

    /// The outcome with the caption's hash in the report's fingerprint.
    private func finished(_ report: FileReport, _ caption: [UInt8], sameAsInput: Bool = false) -> Outcome {
        var report = report
        // A caption written unchanged is the input's own bytes: no second hash.
        if sameAsInput, let inputHash = report.fingerprint.inputSHA256 {
            report.fingerprint.outputSHA256 = inputHash
        } else {
            report.fingerprint.outputSHA256 = SHA256.hex(caption)
        }
        return Outcome(report: report, bytes: caption)
    }

    /// The reason row for a file the plan refused (its output would collide, a link leads out of its folder).
    static let refusedRow = "The file was not processed (see its error), so the assistant was not asked."

    /// The report of an input that the plan refused: not read at all, for the reason `error`.
    func refusal(input: String, error: String) -> FileReport {
        var report = failure(input: input, error: error)
        report.actions = failedActions("the file was not processed")
        report.reasonRow = Self.refusedRow
        return report
    }

    /// The report of an input that could not be read or was refused.
    func failure(input: String, error: String, format: CaptionFormat? = nil) -> FileReport {
        FileReport(input: input, output: nil, format: format, convertedTo: configuration.convertTo, cues: nil,
                   warnings: [], transcript: nil,
                   model: FileReport.Model(backend: configuration.backend, availability: nil),
                   actions: failedActions("the caption file could not be read"),
                   reasonRow: Self.unreadableRow, error: error,
                   fingerprint: OutputFingerprint(inputSHA256: nil, outputSHA256: nil, settings: configuration.settings))
    }

    /// The actions of a file that was not processed: each one asked for
    /// failed for `reason`, the others not requested.
    func failedActions(_ reason: String) -> [ActionReport] {
        let settings = configuration.settings
        let notAsked = notRequested
        return AssistantAction.allCases.map {
            settings.asks(for: $0) ? ActionReport(id: $0, state: .failed, reason: reason) : .notRequested($0, reason: notAsked)
        }
    }

    /// What a file that could not be read as the format its name or content
    /// suggested may be read as instead (`--from`), after the reader's error:
    /// empty unless the error is one of a format not recognised, and the run
    /// does not already name the format.
    func readAdvice(_ error: any Error, source: SourceText?) -> String {
        guard configuration.readAs == nil, let error = error as? CaptionError,
              error.code == .badSignature || error.code == .unrecognizedFormat else { return "" }
        // What the content alone says, without the extension's hint (a cue list in a .vtt file without its WEBVTT line: SRT).
        let advice: Advice = if let likely = source.flatMap({ try? CaptionFormat.detect($0.bytes, hint: nil) }) {
            " (\(.readFormat, .literal(likely.fileExtension)) reads it as \(likely.name), whatever its extension)"
        } else {
            " (\(.readFormat, .placeholder) reads it as the format named, whatever its extension)"
        }
        return advice.rendered(configuration.settingNames)
    }

    /// The last `Diagnostics` made, kept for the next file unavailable for the same reason.
    private final class DiagnosticsMemo: @unchecked Sendable {
        private let lock = NSLock()
        private var last: (diagnostics: Diagnostics, context: DiagnosticsContext)?

        /// `Diagnostics(reason, context:)`, made only when the reason or the context is not the last call's.
        func of(_ reason: UnavailableReason, context: DiagnosticsContext) -> Diagnostics {
            if let last = lock.withLock({ last }), last.diagnostics.reason == reason, last.context == context { return last.diagnostics }
            let made = Diagnostics(reason, context: context)
            lock.withLock { last = (made, context) }
            return made
        }
    }

    /// An error's text for a report: its `LocalizedError` description.
    static func describe(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
