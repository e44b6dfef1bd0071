import Foundation

extension InputPlan {
    /// Refuses a report file (`--report FILE`) that is one of `inputs`, lies
    /// inside an input folder (a caption would be overwritten, or the next
    /// run would find the report among its inputs), is one of this plan's
    /// outputs in `outputFolder` (a caption or its sidecar, which the report
    /// would replace after the run wrote it), or is a folder.
    public func checkReportFile(_ path: String, inputs: [String], outputFolder: String?) throws(SettingsError) {
        try Self.checkReportFile(path, inputs: inputs)
        guard let outputFolder else { return }
        let report = Self.canonicalPath(path), folder = Self.canonicalPath(outputFolder)
        guard Self.isSameOrInside(report, folder) else { return }
        for item in items {
            for name in [item.output, OwnedNames.sidecar(of: item.output)]
            where report.utf8.elementsEqual(Self.canonicalPath(folder + "/" + name).utf8) {
                throw SettingsError("the report file \(path) is the output \(name) of this run, which the report would replace; choose another name (such as \(outputFolder)/report.json, where the report is written anyway)")
            }
        }
    }

    /// Refuses a report file that is one of `inputs`, lies inside an input
    /// folder, or is a folder (see the instance method, which also compares
    /// it with the outputs).
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
