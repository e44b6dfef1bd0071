import Assistant

/// What the model calls cost, as a report records it: requests, tokens and
/// whole milliseconds, so the totals are the exact sum of the entries.
///
/// `{"requests": …, "promptTokens": …, "completionTokens": …, "milliseconds": …}`;
/// the token counts are `null` when the server reported no usage.
public struct ReportCost: Sendable, Equatable {
    /// Requests sent (answered or not).
    public var requests = 0
    /// Prompt tokens over the answers whose usage was reported; nil when none was.
    public var promptTokens: Int?
    /// Completion tokens over the answers whose usage was reported; nil when none was.
    public var completionTokens: Int?
    /// Time spent in model calls and the pauses between them, in milliseconds.
    public var milliseconds = 0

    /// No requests.
    public init() {}

    /// `cost` as the report records it (its seconds rounded to milliseconds).
    public init(_ cost: ModelCost) {
        requests = cost.requests
        promptTokens = cost.promptTokens
        completionTokens = cost.completionTokens
        let ms = (cost.seconds * 1000).rounded()
        milliseconds = ms.isFinite && ms >= 0 && ms < 9.0e18 ? Int(ms) : 0
    }

    /// Adds another file's cost (the token counts stay nil only while none was reported).
    mutating func add(_ other: ReportCost) throws(ReportError) {
        do { requests = try requests.adding(other.requests) } catch { throw error.under(.requests) }
        if let p = other.promptTokens {
            do { promptTokens = try (promptTokens ?? 0).adding(p) } catch { throw error.under(.promptTokens) }
        }
        if let c = other.completionTokens {
            do { completionTokens = try (completionTokens ?? 0).adding(c) } catch { throw error.under(.completionTokens) }
        }
        do { milliseconds = try milliseconds.adding(other.milliseconds) } catch { throw error.under(.milliseconds) }
    }

    /// "3 requests, 1200 prompt + 90 completion tokens, 12.3 s summed over requests": the time is
    /// each request's added up, which requests in flight together make more than the time that passed.
    /// With `wallSeconds` (the batch's wall time), that comes first: "…, 7.5 s wall time (12.3 s summed over requests)".
    package func summary(wallSeconds: Double? = nil) -> String {
        var parts = ["\(requests) request\(requests == 1 ? "" : "s")"]
        if promptTokens != nil || completionTokens != nil {
            parts.append("\(promptTokens ?? 0) prompt + \(completionTokens ?? 0) completion tokens")
        }
        if let wallSeconds, wallSeconds.isFinite, wallSeconds >= 0 {
            parts.append("\((wallSeconds * 10).rounded() / 10) s wall time (\(seconds) summed over requests)")
        } else {
            parts.append(seconds + " summed over requests")
        }
        return parts.joined(separator: ", ")
    }

    /// The time, in seconds to a tenth: "12.3 s".
    package var seconds: String { "\((Double(milliseconds) / 100).rounded() / 10) s" }

    /// Prompt and completion tokens together; nil when the server reported none
    /// (nil too when they are too many to add, which no real run reaches).
    package var tokens: Int? {
        guard promptTokens != nil || completionTokens != nil else { return nil }
        let (sum, overflow) = (promptTokens ?? 0).addingReportingOverflow(completionTokens ?? 0)
        return overflow ? nil : sum
    }
}

extension ReportCost: ReportObject {
    package static let blank = ReportCost()

    package static let keys: [ReportKey<ReportCost>] = [
        .value(.requests, \.requests), .value(.promptTokens, \.promptTokens),
        .value(.completionTokens, \.completionTokens), .value(.milliseconds, \.milliseconds),
    ]
}
