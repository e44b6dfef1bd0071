import Foundation
import Testing
import TestSupport

/// A program that links the `Captions` library alone (`captions-copy`, built
/// for the test target) loads no more of Foundation than FoundationEssentials
/// on Linux: `Captions` imports only that where it exists, which is what keeps
/// an app that embeds the library small (BENCHMARKS.md, issue 34's fifth round).
/// The loader says which libraries it loads when `LD_DEBUG=libs` is set.
@Suite(.mayBlock) struct CaptionsAloneLoadingTests {
    /// The built `captions-copy`: beside the `caption-assistant` the end-to-end tests run.
    static var executable: URL {
        let beside = ExecutableRun.executable.deletingLastPathComponent().appendingPathComponent("captions-copy")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return ExecutableRun.packageRoot.appendingPathComponent(".build/debug/captions-copy")
    }

    #if os(Linux)
    @Test func aProgramWithCaptionsAloneLoadsNoFoundationButItsEssentials() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("a.ttml"), output = scratch.url.appendingPathComponent("b.ttml")
        let text = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">The rocket launch</p></div></body></tt>"#
        try Data(text.utf8).write(to: input)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = [input.path, output.path]
        process.environment = ["LD_DEBUG": "libs"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said.suffix(500))")
        #expect(try Data(contentsOf: output) == Data(text.utf8))
        // The loader did speak (else the checks below prove nothing).
        #expect(said.contains("libFoundationEssentials.so") && said.contains("libc.so.6"))
        #expect(!said.contains("libFoundation.so"))
        #expect(!said.contains("libFoundationInternationalization.so"))
    }
    #endif
}
