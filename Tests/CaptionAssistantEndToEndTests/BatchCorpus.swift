import Foundation

/// Generates a batch of caption files (SRT, WebVTT and TTML in three
/// folders, with one unreadable file) for the interruption tests.
enum BatchCorpus {
    static func write(count: Int, cuesPerFile: Int = 40, to folder: URL) throws {
        for i in 0..<count {
            let sub = ["news", "sport", "weather"][i % 3]
            let name: String
            let text: String
            switch i % 3 {
            case 0: (name, text) = ("clip\(i).srt", srt(i, cuesPerFile))
            case 1: (name, text) = ("clip\(i).vtt", vtt(i, cuesPerFile))
            default: (name, text) = ("clip\(i).ttml", ttml(i, cuesPerFile))
            }
            let url = folder.appendingPathComponent(sub).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        // One file that cannot be read: its entry has an error, in every run alike.
        try Data().write(to: folder.appendingPathComponent("news/empty.srt"))
    }

    static func line(_ file: Int, _ cue: Int) -> String {
        let words = ["rocket", "launch", "harbour", "weather", "stadium", "forecast", "station", "engine"]
        return "Cue \(cue) of clip \(file): the \(words[(file + cue) % words.count]) and the \(words[(file * 3 + cue) % words.count]) again."
    }

    static func time(_ ms: Int, comma: Bool) -> String {
        String(format: "%02d:%02d:%02d%@%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, comma ? "," : ".", ms % 1000)
    }

    static func srt(_ file: Int, _ cues: Int) -> String {
        (1...cues).map { c in "\(c)\n\(time(c * 2000, comma: true)) --> \(time(c * 2000 + 1500, comma: true))\n\(line(file, c))\n" }
            .joined(separator: "\n")
    }

    static func vtt(_ file: Int, _ cues: Int) -> String {
        "WEBVTT\n\n" + (1...cues).map { c in "\(time(c * 2000, comma: false)) --> \(time(c * 2000 + 1500, comma: false))\n\(line(file, c))\n" }
            .joined(separator: "\n")
    }

    static func ttml(_ file: Int, _ cues: Int) -> String {
        let body = (1...cues).map { c in
            "      <p begin=\"\(time(c * 2000, comma: false))\" end=\"\(time(c * 2000 + 1500, comma: false))\">\(line(file, c))</p>"
        }.joined(separator: "\n")
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">
          <body>
            <div>
        \(body)
            </div>
          </body>
        </tt>

        """
    }
}
