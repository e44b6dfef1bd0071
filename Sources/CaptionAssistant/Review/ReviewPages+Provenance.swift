import Assistant

/// Which model made what a page shows: the backend, the model name and the
/// endpoint as the entry's options record them (never a key: the report holds
/// none, and an address read back has any `user:password@`, query and fragment
/// removed, since the report may have been edited), and the emoji's name
/// beside the emoji, for a system that draws it as a box.
extension ReviewPages {
    /// The model of one entry: `http, smollm2 at http://127.0.0.1:8765`.
    struct Provenance: Hashable {
        /// `fake`, `foundation`, `http`, `none`, or `unknown` when the entry names none.
        var backend: String
        /// The model asked for, when the entry records one.
        var model: String?
        /// Where it was asked, safe to show.
        var endpoint: String?

        /// The model the entry's options record (for an output kept from an
        /// earlier run, that run's: the one that made it).
        init(_ report: FileReport) {
            let settings = report.fingerprint.settings
            let backend = settings.backend.isEmpty ? report.model.backend : settings.backend
            self.backend = backend.isEmpty ? "unknown" : backend
            model = settings.model.flatMap { $0.isEmpty ? nil : $0 }
            endpoint = settings.endpoint.flatMap { $0.isEmpty ? nil : HTTPConfiguration.displayEndpoint($0) }
        }

        /// Writes it: the backend, then the model's name and where it was asked.
        func write(_ w: inout HTMLWriter) {
            w.text(shortened(backend, to: 40))
            if let model {
                w.raw(", ")
                w.text(shortened(model))
            }
            if let endpoint {
                w.raw(" at ")
                w.text(shortened(endpoint, to: 200))
            }
        }

        /// The distinct models of a batch, in the order first met: at most
        /// `listed` of them, the others counted.
        struct Tally {
            /// The models listed, with how many entries each made.
            var models: [(Provenance, Int)] = []
            /// Entries whose model is not listed.
            var others = 0
            /// How many distinct models are listed.
            static let listed = 5

            mutating func add(_ model: Provenance) {
                if let i = models.firstIndex(where: { $0.0 == model }) {
                    models[i].1 += 1
                } else if models.count < Self.listed {
                    models.append((model, 1))
                } else {
                    others += 1
                }
            }

            /// Writes ` · model: http, smollm2 at http://…` (with each one's files when there are several).
            func write(_ w: inout HTMLWriter) {
                guard !models.isEmpty else { return }
                w.raw(models.count == 1 && others == 0 ? " · model: " : " · models: ")
                for (i, (model, count)) in models.enumerated() {
                    if i > 0 { w.raw("; ") }
                    model.write(&w)
                    if models.count > 1 || others > 0 {
                        w.raw(" (")
                        w.number(count)
                        w.raw(count == 1 ? " file)" : " files)")
                    }
                }
                if others > 0 {
                    w.raw("; others (")
                    w.number(others)
                    w.raw(others == 1 ? " file)" : " files)")
                }
            }
        }
    }

    /// ` <span class="muted">(clapper board)</span>`: the emoji's name (`EmojiNames`), when it has one.
    static func emojiName(_ w: inout HTMLWriter, _ emoji: String) {
        guard let name = EmojiNames.name(of: emoji) else { return }
        w.raw(" <span class=\"muted emoji-name\">(")
        w.text(name)
        w.raw(")</span>")
    }
}
