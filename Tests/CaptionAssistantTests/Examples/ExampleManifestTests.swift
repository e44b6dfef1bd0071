import Foundation
import Testing
@testable import CaptionAssistant
@testable import CaptionAssistantCLI

/// The Kubernetes examples in `examples/kubernetes` run command lines our
/// parser accepts, in the image of `examples/container`. (No cluster runs
/// here: the manifests are read, not applied.)
@Suite struct ExampleManifestTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/kubernetes")

    /// The few YAML facts the test needs, read line by line: `key: value`
    /// scalars (the first of each key) and the items of the block list under `args:`.
    struct Manifest {
        var scalars: [String: String] = [:]
        var args: [String] = []
        /// `env` entries: name → value.
        var env: [String: String] = [:]

        init(_ text: String) {
            var inArgs: Int?
            var lastEnvName: String?
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(raw)
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                let indent = line.prefix { $0 == " " }.count
                if let argsIndent = inArgs {
                    if indent >= argsIndent, trimmed.hasPrefix("- ") {
                        args.append(Self.unquote(String(trimmed.dropFirst(2))))
                        continue
                    }
                    inArgs = nil
                }
                if trimmed == "args:" { inArgs = indent; continue }
                var item = trimmed
                if item.hasPrefix("- ") { item = String(item.dropFirst(2)) }
                guard let colon = item.firstIndex(of: ":") else { continue }
                let key = String(item[..<colon]).trimmingCharacters(in: .whitespaces)
                var value = String(item[item.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces) }
                value = Self.unquote(value)
                if key == "name" { lastEnvName = value }
                if key == "value", let name = lastEnvName { env[name] = value }
                if scalars[key] == nil { scalars[key] = value }
            }
        }

        static func unquote(_ s: String) -> String {
            s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
        }
    }

    static func manifest(_ name: String) throws -> Manifest {
        Manifest(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    @Test func theIndexedJobRunsEachShardWithShardAuto() throws {
        let job = try Self.manifest("caption-assistant-indexed-job.yaml")
        #expect(job.scalars["kind"] == "Job")
        #expect(job.scalars["completionMode"] == "Indexed")
        #expect(job.scalars["claimName"] != nil, "the shards need a shared volume for the output folder")
        guard case .process(let options) = try CommandLineParser.parse(job.args, defaultJobs: 1) else {
            Issue.record("the shards' args are not a process command: \(job.args)"); return
        }
        #expect(options.shard == .auto)
        #expect(options.resume)
        #expect(options.output.hasPrefix(job.scalars["mountPath"] ?? "?"))
        // What Kubernetes sets in pod 2 of the job, with the manifest's own env: shard 2 of `completions`.
        let completions = try #require(job.scalars["completions"].flatMap { Int($0) })
        var environment = job.env
        environment["JOB_COMPLETION_INDEX"] = "2"
        #expect(try options.shard?.resolve(shardCount: options.shardCount, environment: environment) == Shard(index: 2, count: completions))
        #expect(job.env[ShardRequest.countVariable] == String(completions))
    }

    /// Both jobs run the image of `examples/container/Containerfile`, of this
    /// version, through its ENTRYPOINT (no `command`, which would replace it), as
    /// its user, with the volume writable by its group.
    @Test(arguments: ["caption-assistant-indexed-job.yaml", "caption-assistant-merge-job.yaml"])
    func theJobRunsTheContainerImage(name: String) throws {
        let job = try Self.manifest(name)
        #expect(job.scalars["command"] == nil, "a command replaces the image's ENTRYPOINT")
        #expect(job.scalars["image"]?.hasSuffix("/caption-assistant:\(CaptionAssistantVersion.current)") == true,
                "image \(job.scalars["image"] ?? "none"): the Containerfile's image, tagged with the version it packs")
        #expect(job.scalars["runAsNonRoot"] == "true")
        #expect(job.scalars["fsGroup"] == String(try ContainerfileTests.user().gid))
    }

    @Test func theMergeJobMergesTheSameFolder() throws {
        let job = try Self.manifest("caption-assistant-indexed-job.yaml")
        let merge = try Self.manifest("caption-assistant-merge-job.yaml")
        guard case .merge(let options) = try CommandLineParser.parse(merge.args, defaultJobs: 1),
              case .process(let shards) = try CommandLineParser.parse(job.args, defaultJobs: 1) else {
            Issue.record("the merge job's args are not a merge command: \(merge.args)"); return
        }
        #expect(options.output == shards.output)
        #expect(merge.scalars["claimName"] == job.scalars["claimName"])
    }
}
