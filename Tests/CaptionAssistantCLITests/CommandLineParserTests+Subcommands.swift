import CaptionAssistant
import Testing
@testable import CaptionAssistantCLI

/// `merge`, `review` and the shard options, as the parser reads them.
@Suite struct SubcommandParsingTests {
    @Test func theParserTakesShardOptionsOnlyWhereTheyMakeSense() throws {
        guard case .process(let options) = try CommandLineParser.parse(["in", "-o", "out", "--shard", "1/3"], defaultJobs: 1) else {
            Issue.record("not process"); return
        }
        #expect(options.shard == .fixed(Shard(index: 1, count: 3)))
        guard case .process(let auto) = try CommandLineParser.parse(["in", "-o", "out", "--shard=auto", "--shard-count", "8"], defaultJobs: 1) else {
            Issue.record("not process"); return
        }
        #expect(auto.shard == .auto && auto.shardCount == 8)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["in", "-o", "-", "--shard", "0/2"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["-", "-o", "out", "--shard", "0/2"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["in", "-o", "out", "--shard-count", "2"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["check", "--shard", "0/2"], defaultJobs: 1) }
        #expect(try CommandLineParser.parse(["merge", "out", "--keep-parts", "--json"], defaultJobs: 1)
                == .merge({ var m = MergeOptions(); m.output = "out"; m.keepParts = true; m.json = true; return m }()))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["merge"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["merge", "a", "b"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["merge", "out", "--jobs", "2"], defaultJobs: 1) }
    }

    @Test func reviewIsParsedAsItsOwnSubcommand() throws {
        #expect(try CommandLineParser.parse(["review", "out"], defaultJobs: 1) == .review({ var o = ReviewOptions(); o.folder = "out"; return o }()))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["review"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["review", "a", "b"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["review", "out", "--to", "srt"], defaultJobs: 1) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["review", "out", "--jobs", "0"], defaultJobs: 1) }
        #expect(try CommandLineParser.parse(["review", "--jobs", "2", "out"], defaultJobs: 1)
            == .review({ var o = ReviewOptions(); o.folder = "out"; o.jobs = 2; return o }()))
    }
}
