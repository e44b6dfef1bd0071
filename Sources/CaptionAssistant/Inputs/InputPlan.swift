import Assistant
import Captions
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The inputs of a batch, found and named: which files to read and where
/// each one's output goes.
///
/// Folders are searched recursively for caption files (`.srt`, `.vtt`,
/// `.webvtt`, `.ttml`, `.dfxp`, and `.xml` when its start shows TTML); hidden
/// files and folders are skipped. Files inside a folder are sorted by their
/// path's bytes, so every run and platform processes and reports them in the
/// same order. Outputs mirror the folder: for `shows/` the file
/// `shows/s1/ep1.srt` goes to `s1/ep1.srt` under the output folder; a file
/// named on its own goes to the top. Inside a folder, links to folders are
/// not searched and links to files outside the folder are refused; a file
/// found in a folder is later opened from that folder one name at a time,
/// never through a link that leads out of it (see `InsideFolder`), so a link
/// swapped in after the search cannot lead the read elsewhere.
public struct InputPlan: Sendable, Equatable {
    /// Where an input's bytes come from.
    public enum Location: Sendable, Equatable {
        /// A file, by path.
        case file(String)
        /// Standard input.
        case standardInput
        /// Nothing: the path does not exist (exit status 66).
        case missing
        /// Not processed, with the reason (for example, two inputs with the same output path).
        case refused(String)
    }

    /// One input and its output.
    public struct Item: Sendable, Equatable {
        /// The input as the user named it (plus the path inside a folder they named).
        public var input: String
        /// Where to read it.
        public var location: Location
        /// The output path relative to the output folder (with `--to`'s extension).
        /// For standard input it ends in `.caption` until the format is known.
        public var output: String
        /// The format the file's extension suggests, to break ties in detection.
        public var hint: CaptionFormat?
        /// The path's bytes, when they are not the UTF-8 of `location`'s path
        /// (a name that is not valid UTF-8: `input` and `output` show its
        /// other bytes as `\xE9`, and the file is opened by these bytes).
        public var pathBytes: [UInt8]? = nil
        /// For a file found by searching a folder: how many bytes at the
        /// start of its path name that folder, as the user gave it (`in` of
        /// `in/s1/ep1.srt`); the names after it are opened one at a time
        /// from the folder, never through a link that leads out of it (see
        /// `FileInput.openInput(_:)`). nil for a file named on its own, which is
        /// opened by its path, links followed: the user named it.
        public var searchedFolderLength: Int? = nil
    }

    /// The inputs, in order: arguments in the order given, each folder's files sorted.
    public var items: [Item]
    /// The folders given as inputs in which no caption file was found.
    public var emptyFolders: [String] = []
    /// Files given more than once (`ep1.srt ep1.srt`, a folder named twice,
    /// or a folder and a file in it: `dir dir/a.srt`), told by their
    /// resolved paths: each is processed once, under its first mention
    /// (`sameAs`), and has one report entry, as `cp` copies such a file once
    /// and warns.
    public var repeated: [Repeat] = []

    /// A file given again: `input`, processed as `sameAs`.
    public struct Repeat: Sendable, Equatable {
        /// The later mention, as named.
        public var input: String
        /// The first mention, which is processed.
        public var sameAs: String
    }

    /// What a folder is searched for, in words (for "no caption file found"
    /// messages and `--help`): every extension of `CaptionFileExtension.all`,
    /// `.srt, .vtt, …, and .xml holding TTML`.
    public static let searchedFor: String = {
        let names = CaptionFileExtension.all.map { $0.folderSearch == .always ? "." + $0.name : "." + $0.name + " holding TTML" }
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? ", and " : "") + (names.last ?? "")
    }()

    /// Finds the inputs. Throws a `SettingsError` when the output folder lies
    /// inside (or is) an input folder, since the next run would read its own
    /// output as input.
    public static func make(inputs: [String], outputFolder: String?, convertTo: CaptionFormat?) throws(SettingsError) -> InputPlan {
        let outputCanonical = outputFolder.map(canonicalPath)
        var items: [Item] = []
        var emptyFolders: [String] = []
        var repeated: [Repeat] = []
        // Every name a file of the batch is written under (its output and its
        // sidecar), with the input that takes it (the names the tool owns are `OwnedNames`).
        // Keyed by bytes: Swift's `String` equality treats NFC and NFD spellings as equal, file systems do not.
        var taken: [PathKey: (input: String, isSidecar: Bool)] = [:]
        // Standard input's output is named only once its format is known (`stdin.srt`, …): all are kept for it.
        if inputs.contains("-") {
            for format in CaptionFormat.allCases {
                taken[PathKey("stdin.\(format.fileExtension)")] = ("-", false)
                taken[PathKey("stdin.\(format.fileExtension)\(sidecarSuffix)")] = ("-", true)
            }
        }

        // Every file of the batch by its resolved path, when several inputs may name one file twice
        // (`dir dir/a.srt`: the folder's dir/a.srt and the file a.srt have two output names).
        var files: [PathKey: String] = [:]

        /// `absoluteInput` (the input's resolved path) is asked for when the output could be the
        /// input itself (`mayBeInput`), and when several inputs are given (to find a file named twice).
        func add(input: String, location: Location, relative: String, mayBeInput: Bool = true, pathBytes: [UInt8]? = nil,
                 searchedFolderLength: Int? = nil, absoluteInput: () -> String?) {
            var output = relative
            let ext = extensionOf(relative)
            let hint = CaptionFormat(fileExtension: ext)
            if let convertTo {
                output = PathText.replacingExtension(of: relative, with: convertTo.fileExtension)
            }
            var location = location
            if case .file = location, inputs.count > 1, let resolved = absoluteInput() {
                if let first = files[PathKey(resolved)] {
                    repeated.append(Repeat(input: input, sameAs: first))
                    return
                }
                files[PathKey(resolved)] = input
            }
            if case .file = location {
                let names = [PathKey(output), PathKey(output + sidecarSuffix)]
                if let clashKey = names.first(where: { taken[$0] != nil }), let other = taken[clashKey] {
                    let clash = clashKey.text
                    if clash == output, !other.isSidecar, isSameFile(input, other.input) {
                        repeated.append(Repeat(input: input, sameAs: other.input))
                        return
                    }
                    location = .refused(collision(input: input, output: output, clash: clash, other: other.input, otherSidecar: other.isSidecar))
                } else if let owned = OwnedNames.reservation(of: output) {
                    location = .refused(owned)
                } else if let tooLong = nameTooLong(output) {
                    location = .refused(tooLong)
                } else if mayBeInput, let outputCanonical, let absoluteInput = absoluteInput(),
                          (outputCanonical + "/" + output).utf8.elementsEqual(absoluteInput.utf8) {
                    location = .refused("the output \(output) would overwrite this input; choose another output folder")
                } else {
                    taken[names[0]] = (input, false)
                    taken[names[1]] = (input, true)
                }
            }
            items.append(Item(input: input, location: location, output: output, hint: hint, pathBytes: pathBytes,
                              searchedFolderLength: searchedFolderLength))
        }

        for argument in inputs {
            if argument == "-" {
                items.append(Item(input: "-", location: .standardInput, output: "stdin.caption", hint: nil))
                continue
            }
            // `stat`, links followed (a file named on the command line is read even through a link).
            var info = stat()
            guard stat(argument, &info) == 0 else {
                items.append(Item(input: argument, location: .missing, output: PathText.lastComponent(of: argument), hint: nil))
                continue
            }
            let canonical = canonicalPath(argument)
            if info.st_mode & S_IFMT != S_IFDIR {
                add(input: argument, location: .file(argument), relative: PathText.lastComponent(of: argument), absoluteInput: { canonical })
                continue
            }
            if let outputCanonical, isSameOrInside(outputCanonical, canonical) {
                throw SettingsError("the output folder \(outputFolder ?? "") is inside the input folder \(argument), so its outputs would be read as inputs; choose an output folder outside \(argument)")
            }
            let folder = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            // An output can be one of this folder's files only when the folder lies inside the output folder.
            let mayBeInput = outputCanonical.map { isSameOrInside(canonical, $0) && !canonical.utf8.elementsEqual($0.utf8) } ?? false
            // One input: its files at the top. Several: each folder's files under its own name (as `cp -r a b dest`).
            let prefix = inputs.count > 1 ? mirrorName(folder: folder, canonical: canonical).map { $0 + "/" } ?? "" : ""
            let found = captionFiles(in: folder, canonical: canonical)
            if found.isEmpty { emptyFolders.append(argument) }
            let folderLength = folder.utf8.count
            taken.reserveCapacity(taken.count + 2 * found.count)
            items.reserveCapacity(items.count + found.count)
            for (relative, refusal, nameBytes) in found {
                let path = folder + "/" + relative
                let location = refusal.map(Location.refused) ?? .file(path)
                // A name that is not UTF-8 is opened by its bytes: the folder's path, then the name's own.
                let pathBytes = nameBytes.map { Array(PathText.parent(of: path).map { $0 + "/" }?.utf8 ?? "".utf8) + $0 }
                add(input: path, location: location, relative: prefix + relative, mayBeInput: mayBeInput, pathBytes: pathBytes,
                    searchedFolderLength: folderLength, absoluteInput: { canonical + "/" + relative })
            }
        }
        return InputPlan(items: items, emptyFolders: emptyFolders, repeated: repeated)
    }

    /// A path as a dictionary key, equal to another only when their UTF-8
    /// bytes are (Swift's `String` equality treats NFC and NFD spellings as
    /// equal, file systems do not), hashed over those bytes at once.
    struct PathKey: Hashable {
        /// The path.
        let text: String

        init(_ text: String) { self.text = text }

        static func == (a: PathKey, b: PathKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Why the output `output` cannot be written with its sidecar: the
    /// sidecar's name (the last part plus `.assistant.json`) would be longer
    /// than a file name can be (`NAME_MAX`, 255 bytes). nil when it fits.
    static func nameTooLong(_ output: String) -> String? {
        let name = PathText.lastComponent(of: output)
        let length = name.utf8.count + sidecarSuffix.utf8.count
        guard length > Int(NAME_MAX) else { return nil }
        return "the name is too long: its sidecar report \(name)\(sidecarSuffix) would be \(length) bytes, and a file name can have at most \(NAME_MAX); rename the file (at most \(Int(NAME_MAX) - sidecarSuffix.utf8.count) bytes)"
    }

    /// Whether the path `path` is `folder` or lies inside it, comparing bytes
    /// (Swift's `hasPrefix` and `==` treat NFC and NFD spellings as equal;
    /// to a Linux file system they are two names).
    static func isSameOrInside(_ path: String, _ folder: String) -> Bool {
        if path.utf8.elementsEqual(folder.utf8) { return true }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.utf8.starts(with: prefix.utf8)
    }

    /// What a caption's output name gets for its sidecar.
    static let sidecarSuffix = OwnedNames.sidecarSuffix

    /// The name under which a folder's files are mirrored when several
    /// inputs are given: its last part as named (`shows/s1/` → `s1`), or its
    /// real name for `.` and `..`; nil for `/` (its files go to the top).
    static func mirrorName(folder: String, canonical: String) -> String? {
        var name = PathText.lastComponent(of: folder)
        if name == "." || name == ".." || name.isEmpty { name = PathText.lastComponent(of: canonical) }
        return name == "/" || name.isEmpty ? nil : name
    }

    /// Why `input` is refused: its output `output` or its sidecar is `clash`,
    /// a name already taken by `other` (an input), as its output or
    /// (`otherSidecar`) as its sidecar.
    static func collision(input: String, output: String, clash: String, other: String, otherSidecar: Bool) -> String {
        let what: String
        let other = other == "-" ? "standard input (-)" : other
        switch (clash == output, otherSidecar) {
        case (true, false): what = "its output \(output) is also the output of \(other)"
        case (true, true): what = "its output \(output) is the sidecar report of \(other)"
        default: what = "its sidecar report \(clash) is the output of \(other)"
        }
        return "\(what), so one would overwrite the other; rename one of them or process them separately"
    }

    /// Whether the inputs `a` and `b` (neither standard input) name the same file.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        !a.isEmpty && a != "-" && b != "-" && canonicalPath(a).utf8.elementsEqual(canonicalPath(b).utf8)
    }

    /// The caption files under `folder` (whose real path is `canonical`), as
    /// paths relative to it, sorted by their bytes, each with, when it
    /// cannot be read, why (`refusal`), and its name's bytes when they are
    /// not UTF-8.
    ///
    /// Walks the tree with `FolderWalk`: each folder is opened once,
    /// relative to the one it lies in, never through a link, so the walk
    /// costs the same per folder at any depth (a path longer than `PATH_MAX`
    /// included; the file is read the same way, see `FileInput.openInput(_:)`);
    /// the entry type the directory already holds saves a `stat` per file
    /// (one only for symbolic links and file systems that do not say).
    /// Symbolic links to files inside the folder are taken (followed by
    /// `InsideFolder`, which never leaves the folder); a link leading out of
    /// it gets an entry that says so; links to folders are not followed. A
    /// name that is not valid UTF-8 gets an entry that says so: it is never
    /// read under a name decoded with U+FFFD, which could be another file.
    static func captionFiles(in folder: String, canonical: String) -> [(path: String, refusal: String?, nameBytes: [UInt8]?)] {
        var found: [(path: String, refusal: String?, nameBytes: [UInt8]?)] = []
        guard let top = FileInput.openFolder(folder) else { return found }
        let walk = FolderWalk(top: top)
        let topNames = { [canonical, PathText.absolute(folder)] }
        walk.run { dir, fd in
            var subfolders: [[UInt8]] = []
            while let entry = readdir(dir) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if bytes.first == 0x2E { continue }  // hidden files and folders, and "." and ".."
                let validName = String(validating: bytes, as: UTF8.self)
                // A name that is not UTF-8 is shown with its other bytes as `\xE9` (never as U+FFFD, which is a name of its own).
                let name = validName ?? bytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                let relativeFolder = walk.relativePath()
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var info = stat()
                    guard fstatat(fd, bytes.map { CChar(bitPattern: $0) } + [0], &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR: type = Int32(DT_DIR)
                    case S_IFREG: type = Int32(DT_REG)
                    case S_IFLNK: type = Int32(DT_LNK)
                    default: type = Int32(DT_FIFO)  // some other kind of file: not regular
                    }
                }
                let search = CaptionFileExtension.named(extensionOf(name))?.folderSearch
                /// Whether the `.xml` entry holds TTML, opened inside the folder only (a link leading out is not even opened).
                func isTTML() -> Bool {
                    guard case .success(let file) = openInside(bytes, walk: walk, fd: fd, topNames: topNames,
                                                                flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return false }
                    defer { close(file) }
                    return looksLikeTTML(file)
                }
                guard validName != nil else {
                    // Not valid UTF-8: a caption file is read by its bytes (its output is named as shown, `\xE9`);
                    // a folder is not searched, and its entry says so.
                    if type == Int32(DT_DIR) {
                        found.append((relative, "not searched: the folder name is not valid UTF-8; rename it (for example with convmv) to process the files in it", nil))
                    } else if search == .always || (search == .whenContentIsTTML && type == Int32(DT_REG) && isTTML()) {
                        if type != Int32(DT_LNK) { found.append((relative, nil, bytes)); continue }
                        guard let refusal = linkRefusal(bytes, walk: walk, fd: fd, topNames: topNames) else { continue }
                        found.append((relative, refusal.isEmpty ? nil : refusal, bytes))
                    }
                    continue
                }
                if type == Int32(DT_DIR) { subfolders.append(bytes); continue }
                // A FIFO, device or socket with a caption file's name gets an entry (its
                // read refuses it: only regular files are read), never a silent skip.
                if type != Int32(DT_REG) && type != Int32(DT_LNK) {
                    if search == .always { found.append((relative, nil, nil)) }
                    continue
                }
                // An `.xml` link leading out of the folder is not even opened to see whether it is TTML.
                let wanted = search == .always || (search == .whenContentIsTTML && isTTML())
                guard wanted else { continue }
                if type == Int32(DT_LNK) {
                    guard let refusal = linkRefusal(bytes, walk: walk, fd: fd, topNames: topNames) else { continue }
                    found.append((relative, refusal.isEmpty ? nil : refusal, nil))
                    continue
                }
                found.append((relative, nil, nil))
            }
            return subfolders
        }
        for relative in walk.unfinished {
            found.append((relative, "not searched to the end: the folder was moved or replaced while it was being searched; run again", nil))
        }
        for (relative, error) in walk.unopened {
            found.append((relative, "not searched: the folder could not be opened (\(String(cString: strerror(error)))); "
                + "make it readable to process the files in it", nil))
        }
        found.sort { precedesByBytes($0.path, $1.path) }
        return found
    }

    /// Opens the entry `name` of the folder being walked (`fd`) with `flags`,
    /// following a link only while it stays inside the walked folder.
    static func openInside(_ name: [UInt8], walk: FolderWalk, fd: Int32, topNames: () -> [String],
                           flags: Int32) -> Result<Int32, InsideFolder.Failure> {
        InsideFolder.reach([name], below: fd, startNames: walk.names(), top: walk.top, topNames: topNames) { folder, entry in
            openat(folder, entry, flags | O_NOFOLLOW)
        }
    }

    /// What becomes of the symbolic link `name` in the folder being walked
    /// (`fd`) with a caption file's name: "" when it leads to a file inside
    /// the walked folder (taken), the reason when it leads out of it or
    /// nowhere (a dangling link, a loop: an entry that says so), nil when it
    /// is not listed (it leads to a folder). Nothing is opened but folders:
    /// the target is looked at with `fstatat`.
    static func linkRefusal(_ name: [UInt8], walk: FolderWalk, fd: Int32, topNames: () -> [String]) -> String? {
        var info = stat()
        let reached = InsideFolder.reach([name], below: fd, startNames: walk.names(), top: walk.top, topNames: topNames) { folder, entry in
            guard fstatat(folder, entry, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return -1 }
            if (info.st_mode & S_IFMT) == S_IFLNK { errno = ELOOP; return -1 }
            return 0
        }
        switch reached {
        case .success: return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ""
        case .failure(.leavesFolder):
            // A link to a folder elsewhere is not searched, as one inside is not: no entry (the target is only looked at).
            var target = stat()
            let isFolder = InsideFolder.cString(name) { fstatat(fd, $0, &target, 0) } == 0 && (target.st_mode & S_IFMT) == S_IFDIR
            return isFolder ? nil : "not read: " + InsideFolder.Failure.leavesFolder(atEntry: true).reason
        case .failure(let failure): return "not read: " + failure.reason
        }
    }

    /// The extension of the last part of `path` (what `NSString.pathExtension`
    /// gives: after the last `.` of the last part, not when that part starts
    /// with its only `.`), without making an `NSString` for every file.
    static func extensionOf(_ path: String) -> String {
        let utf8 = path.utf8
        let nameStart = utf8.lastIndex(of: 0x2F).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[nameStart...].lastIndex(of: 0x2E), dot != nameStart else { return "" }
        return String(path[utf8.index(after: dot)...])
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (`memcmp` order).
    static func precedesByBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// Whether the open `.xml` file `fd`'s first 4 KiB detect as TTML.
    static func looksLikeTTML(_ fd: Int32) -> Bool {
        // Opened without blocking and checked: a FIFO named `x.xml` must not stop the planning.
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < head.count {
            let n = head.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        guard let source = try? SourceText.decode(bytes: Array(head[..<count])) else { return false }
        return (try? CaptionFormat.detect(source.bytes, hint: nil)) == .ttml
    }

    /// The absolute path with symbolic links resolved, for the part of it that
    /// exists (an output folder may not exist yet), without a trailing slash.
    static func canonicalPath(_ path: String) -> String {
        PathText.canonical(path)
    }
}
