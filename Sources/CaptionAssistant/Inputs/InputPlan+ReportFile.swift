import Foundation

extension InputPlan {
    /// Refuses a report file (`--report FILE`) that is one of `inputs`, lies
    /// inside an input folder (a caption would be overwritten, or the next
    /// run would find the report among its inputs), or is a folder.
    public static func checkReportFile(_ path: String, inputs: [String]) throws(SettingsError) {
        let report = canonicalPath(path)
        for input in inputs where input != "-" {
            let canonical = canonicalPath(input)
            guard isSameOrInside(report, canonical) else { continue }
            let what = report.utf8.elementsEqual(canonical.utf8) ? "is the input" : "is inside the input folder"
            throw SettingsError("the report file \(path) \(what) \(input), which is never written to; choose a report file outside the inputs")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw SettingsError("the report file \(path) is a folder; name a file (such as \(path.hasSuffix("/") ? path : path + "/")report.json)")
        }
    }
}
