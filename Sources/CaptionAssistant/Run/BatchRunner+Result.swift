extension BatchRunner.Result {
    /// A result for a batch that stopped before reading any file (the
    /// command line's `--require-model` with no model): `notProcessed` files
    /// and no report.
    package init(summary: BatchSummary, notProcessed: Int) {
        self.init(summary: summary, files: [], missingInput: false, reportError: nil, notProcessed: notProcessed)
    }
}
