import Assistant
import Foundation
import Testing
@testable import CaptionAssistant
import JSON

/// The container image recipe in `examples/container`, which the Kubernetes
/// examples run. (No image is built here: no registry or container engine is
/// reachable. The file is read, as the manifests are; that the packages it
/// installs are the ones the packed binary's libraries belong to needs that
/// binary, a release build, so `scripts/package-e2e.sh` checks it in CI.)
@Suite struct ContainerfileTests {
    static let file = ExampleManifestTests.folder.deletingLastPathComponent().appendingPathComponent("container/Containerfile")

    /// The instructions of a Containerfile: continuation lines joined, comments
    /// and blank lines left out; each is its keyword (upper case) and the rest.
    struct Containerfile {
        var instructions: [(keyword: String, arguments: String)] = []

        init(_ text: String) {
            var pending = ""
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("#") || (line.isEmpty && pending.isEmpty) { continue }
                if line.hasSuffix("\\") {
                    pending += line.dropLast() + " "
                    continue
                }
                let whole = (pending + line).trimmingCharacters(in: .whitespaces)
                pending = ""
                guard !whole.isEmpty else { continue }
                let keyword = whole.prefix { !$0.isWhitespace }
                instructions.append((keyword.uppercased(), whole.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)))
            }
        }

        /// The arguments of every instruction with this keyword, in order.
        func all(_ keyword: String) -> [String] { instructions.filter { $0.keyword == keyword }.map(\.arguments) }
    }

    static func containerfile() throws -> Containerfile {
        Containerfile(try String(contentsOf: file, encoding: .utf8))
    }

    /// The `USER uid:gid` the program runs as.
    static func user() throws -> (uid: Int, gid: Int) {
        let user = try #require(try containerfile().all("USER").last)
        let parts = user.split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }
        try #require(parts.count == 2, "USER should be numeric, uid:gid, so that Kubernetes can check runAsNonRoot (got '\(user)')")
        return (parts[0], parts[1])
    }

    @Test func theImageIsDebianSlimAndItsEntrypointIsTheProgram() throws {
        let file = try Self.containerfile()
        let from = file.all("FROM")
        #expect(from.count == 1)
        #expect(from.first.map { $0.hasPrefix("debian:") && $0.hasSuffix("-slim") } == true, "FROM \(from)")
        // The exec form, so that arguments given to the image (`args` in Kubernetes) follow the program's name.
        let entrypoint = try #require(file.all("ENTRYPOINT").last)
        #expect(JSONValue.parse(Array(entrypoint.utf8)) == .array([.string("caption-assistant")]))
        #expect(file.all("CMD").isEmpty)
    }

    @Test func theProgramRunsAsAUserThatIsNotRootAndIsCreated() throws {
        let file = try Self.containerfile()
        let (uid, gid) = try Self.user()
        #expect(uid != 0 && gid != 0)
        // USER comes after the last RUN and ADD, so nothing of the image is made by that user and the program runs as it.
        let keywords = file.instructions.map(\.keyword)
        let lastUser = try #require(keywords.lastIndex(of: "USER"))
        #expect(keywords.lastIndex { $0 == "RUN" || $0 == "ADD" || $0 == "COPY" }.map { $0 < lastUser } == true)
        #expect(file.all("RUN").contains { $0.contains("useradd") && $0.contains("--uid \(uid)") && $0.contains("--gid \(gid)") })
        #expect(file.all("RUN").contains { $0.contains("groupadd") && $0.contains("--gid \(gid)") })
    }

    /// Which archive and where it lands are checked against a real archive by
    /// `scripts/package-e2e.sh`; here, that the version is the build's argument.
    @Test func theProgramComesFromTheReleaseArchiveOfTheVersionGiven() throws {
        let file = try Self.containerfile()
        #expect(file.all("ARG").contains("VERSION"))
        let add = try #require(file.all("ADD").first)
        #expect(add.contains("${VERSION}") && add.contains(".tar.gz "), "ADD \(add)")
        #expect(file.all("RUN").contains { $0.contains("${VERSION}") && $0.contains("/usr/local/bin/caption-assistant") })
    }
}
